/**
 * HyperLogLog against independent references written with BigInt and plain arrays: Redis's
 * register index and run for every precision, add results, registers and counts through sparse and
 * dense and the promotion at m/16; its defaults and PFADD's answers; accuracy within 3 standard
 * errors (fixed seeds); merge and downsize laws; copies; and checkInvariants() on every state a
 * sketch can reach.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { murmur64a } from "../../src/hash/index.js";
import { HyperLogLog } from "../../src/hll/index.js";
import { distinct, hllElement } from "../support/hll.js";
import { indexAndRun } from "../support/hll-model.js";

// ---------------------------------------------------------------------------------------------
// Independent references, written from the algorithm's description with BigInt and plain arrays.
// ---------------------------------------------------------------------------------------------

/** A sketch as a plain array of registers. */
class ModelHll {
  readonly regs: number[];
  constructor(readonly p: number) {
    this.regs = new Array<number>(1 << p).fill(0);
  }
  add(value: string | number | bigint | Uint8Array): boolean {
    const [i, run] = indexAndRun(murmur64a(value), this.p);
    if (this.regs[i]! >= run) return false;
    this.regs[i] = run;
    return true;
  }
  /** Ertl's estimator written directly from SPEC.md's formula. */
  count(): number {
    const m = this.regs.length;
    const q = 64 - this.p;
    const c = new Array<number>(q + 2).fill(0);
    for (const r of this.regs) c[r]!++;
    const sigma = (x: number) => {
      if (x === 1) return Infinity;
      let s = x;
      for (let k = 1, prev = -1; prev !== s; k++) {
        prev = s;
        x = x * x;
        s += x * 2 ** (k - 1);
      }
      return s;
    };
    const tau = (x: number) => {
      if (x === 0 || x === 1) return 0;
      let s = 1 - x;
      for (let k = 1, prev = -1; prev !== s; k++) {
        prev = s;
        x = Math.sqrt(x);
        s -= (1 - x) ** 2 * 2 ** -k;
      }
      return s / 3;
    };
    let z = m * tau((m - c[q + 1]!) / m);
    for (let k = q; k >= 1; k--) z = 0.5 * (z + c[k]!);
    z += m * sigma(c[0]! / m);
    return Math.round((0.7213475204444817 * m * m) / z);
  }
}

const sameRegisters = (h: HyperLogLog, regs: number[]) => expect(Array.from(h.registers())).toEqual(regs);

describe("HyperLogLog: construction", () => {
  it("defaults to precision 14 and the ertl estimator, starting sparse", () => {
    const h = new HyperLogLog();
    expect(h.precision).toBe(14);
    expect(h.registerCount).toBe(16384);
    expect(h.estimator).toBe("ertl");
    expect(h.encoding).toBe("sparse");
    expect(h.count()).toBe(0);
    expect(h.byteLength).toBeLessThan(64);
    h.checkInvariants();
  });
  it("adds like PFADD: true on a register change, numbers as their decimal string", () => {
    const h = new HyperLogLog();
    expect(h.add("a")).toBe(true);
    expect(h.add("a")).toBe(false);
    expect(h.add(42)).toBe(true);
    expect(h.add("42")).toBe(false);
    expect(h.add(42n)).toBe(false);
    expect(h.add(new TextEncoder().encode("42"))).toBe(false);
    expect(h.addAll(["a", "b"])).toBe(true);
    expect(h.addAll(["a", "b", 42])).toBe(false);
    expect(h.count()).toBe(3);
    h.checkInvariants();
  });
});

describe("HyperLogLog: registers match a BigInt model", () => {
  it("addHash computes Redis's index and run for every precision", () => {
    fc.assert(
      fc.property(
        // Half the hashes have every bit between p and 32 clear, so the run comes from the high half.
        fc.oneof(
          fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
          fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 32n - 1n }), fc.nat(15)).map(([hi, lo]) => (hi << 32n) | BigInt(lo)),
        ),
        fc.integer({ min: 4, max: 18 }),
        (h, p) => {
          const sketch = new HyperLogLog({ precision: p });
          const lo = Number(h & 0xffffffffn);
          const hi = Number(h >> 32n);
          expect(sketch.addHash(lo, hi)).toBe(true);
          const [i, run] = indexAndRun(h, p);
          expect(sketch.register(i)).toBe(run);
          expect(sketch.addHash(lo, hi)).toBe(false);
        },
      ),
      { seed: 1, numRuns: 400 },
    );
    // The sentinel cases: all bits above p zero gives the longest run, 65 − p.
    for (const p of [4, 14, 18]) {
      const s = new HyperLogLog({ precision: p });
      s.addHash(5, 0);
      expect(s.register(5)).toBe(65 - p);
      s.addHash(6 | (1 << p), 0);
      expect(s.register(6)).toBe(1);
      s.addHash(7, 0x80000000);
      expect(s.register(7)).toBe(64 - p);
    }
  });

  it("model-based: add results, registers and counts equal the model through sparse and dense", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 14 }),
        fc.array(hllElement, { maxLength: 60 }),
        fc.integer({ min: 0, max: 3000 }),
        (p, extra, bulk) => {
          const h = new HyperLogLog({ precision: p });
          const model = new ModelHll(p);
          for (const e of extra) expect(h.add(e)).toBe(model.add(e));
          for (let i = 0; i < bulk; i++) {
            const e = `bulk:${i}`;
            expect(h.add(e)).toBe(model.add(e));
          }
          h.checkInvariants();
          sameRegisters(h, model.regs);
          expect(h.count()).toBe(model.count());
          h.checkInvariants();
        },
      ),
      { seed: 2, numRuns: 60 },
    );
  });

  it("promotes from sparse to dense at m/16 non-zero registers and stays canonical", () => {
    const h = new HyperLogLog({ precision: 10 }); // limit 64 entries
    let i = 0;
    while (h.encoding === "sparse") {
      h.add(`e${i++}`);
      h.checkInvariants();
    }
    let nonZero = 0;
    for (const v of h.registers()) if (v !== 0) nonZero++;
    expect(nonZero).toBe(65);
    expect(h.byteLength).toBe((1024 * 6) / 8 + 1);
    expect(new HyperLogLog({ precision: 8 }).encoding).toBe("dense");
    h.clear();
    expect(h.encoding).toBe("sparse");
    expect(h.count()).toBe(0);
    h.checkInvariants();
  });

  it("keeps a small precision-14 sketch far below 12 KB", () => {
    const h = HyperLogLog.from(distinct(200, "small"));
    expect(h.encoding).toBe("sparse");
    expect(h.byteLength).toBeLessThanOrEqual(1024);
    const full = HyperLogLog.from(distinct(5000, "big"));
    expect(full.encoding).toBe("dense");
    expect(full.byteLength).toBe(12289);
  });
});

describe("HyperLogLog: accuracy", () => {
  it("ertl stays within 3 standard errors at many cardinalities and precisions", () => {
    for (const p of [6, 10, 12, 14]) {
      const bound = (3 * 1.04) / Math.sqrt(2 ** p);
      const h = new HyperLogLog({ precision: p });
      let n = 0;
      for (const target of [10, 100, 1000, 2 ** p * 2, 2 ** p * 3, 30_000, 100_000]) {
        for (; n < target; n++) h.add(`acc:${p}:${n}`);
        const err = Math.abs(h.count() - n) / n;
        expect(err, `p=${p} n=${n}`).toBeLessThanOrEqual(Math.max(bound, n < 100 ? 0.05 : 0));
        expect(Math.abs(h.count("classic") - n) / n, `classic p=${p} n=${n}`).toBeLessThanOrEqual(
          Math.max(bound * 1.5, n < 100 ? 0.05 : 0),
        );
      }
    }
  });

  it("counts small sets exactly enough and counts are cached but refreshed", () => {
    const h = new HyperLogLog();
    for (let i = 1; i <= 50; i++) {
      h.add(i);
      expect(h.count()).toBe(i); // linear-counting regime: exact for tiny sets with m = 16384
    }
    h.checkInvariants();
    expect(h.count("classic")).toBe(50);
  });

  it("count never decreases as elements are added (Ertl's estimator is monotone)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 12 }), fc.integer({ min: 0, max: 1000 }), (p, seed) => {
        const h = new HyperLogLog({ precision: p });
        let last = 0;
        for (let i = 0; i < 1500; i++) {
          h.add(`mono:${seed}:${i}`);
          const c = h.count();
          expect(c).toBeGreaterThanOrEqual(last);
          last = c;
        }
      }),
      { seed: 3, numRuns: 20 },
    );
  });
});

describe("HyperLogLog: copies and estimates", () => {
  it("clone is independent and count() is estimate() rounded", () => {
    const a = HyperLogLog.from(distinct(3000, "c"), { estimator: "classic" });
    const b = a.clone();
    expect(b.estimator).toBe("classic");
    expect(b.equals(a)).toBe(true);
    b.addAll(distinct(3000, "d"));
    b.checkInvariants();
    expect(b.equals(a)).toBe(false);
    expect(a.count("ertl")).toBe(Math.round(a.estimate("ertl")));
    expect(a.count()).toBe(Math.round(a.estimate("classic")));
    expect(Number.isInteger(a.estimate())).toBe(false);
    const empty = new HyperLogLog({ precision: 4 });
    expect(empty.estimate()).toBe(0);
    expect(empty.estimate("classic")).toBe(0);
    expect(HyperLogLog.fromRedis(new HyperLogLog().toRedis(), { estimator: "classic" }).estimator).toBe("classic");
  });
});

describe("HyperLogLog: merge laws", () => {
  const sketch = (p: number) =>
    fc.array(hllElement, { maxLength: 80 }).chain((small) =>
      fc.integer({ min: 0, max: 2500 }).map((bulk) => {
        const h = HyperLogLog.from(small, { precision: p });
        for (let i = 0; i < bulk; i++) h.add(`m:${bulk}:${i}`);
        return h;
      }),
    );

  it("is commutative, associative and idempotent, and matches adding everything to one sketch", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 8, max: 12 }).chain((p) => fc.tuple(sketch(p), sketch(p), sketch(p))),
        ([a, b, c]) => {
          const ab = a.clone().merge(b);
          const ba = b.clone().merge(a);
          expect(ab.equals(ba)).toBe(true);
          expect(ab.count()).toBe(ba.count());
          const abc1 = a.clone().merge(b).merge(c);
          const abc2 = a.clone().merge(b.clone().merge(c));
          expect(abc1.equals(abc2)).toBe(true);
          expect(HyperLogLog.union([a, b, c]).equals(abc1)).toBe(true);
          const aa = a.clone().merge(a, a);
          expect(aa.equals(a)).toBe(true);
          expect(ab.clone().merge(a).equals(ab)).toBe(true);
          for (const s of [ab, ba, abc1, abc2, aa]) s.checkInvariants();
          // max of registers, element-wise
          const ra = a.registers();
          const rb = b.registers();
          expect(Array.from(ab.registers())).toEqual(Array.from(ra, (v, i) => Math.max(v, rb[i]!)));
        },
      ),
      { seed: 4, numRuns: 40 },
    );
  });

  it("add order is irrelevant", () => {
    fc.assert(
      fc.property(fc.array(hllElement, { maxLength: 200 }), fc.integer({ min: 4, max: 14 }), (values, p) => {
        const a = HyperLogLog.from(values, { precision: p });
        const b = HyperLogLog.from([...values].reverse(), { precision: p });
        expect(a.equals(b)).toBe(true);
        expect(a.count()).toBe(b.count());
      }),
      { seed: 5, numRuns: 100 },
    );
  });

  it("merge returns this, leaves the arguments alone and reports the change in count", () => {
    const a = HyperLogLog.from(distinct(100, "a"));
    const b = HyperLogLog.from(distinct(100, "b"));
    const before = b.toBytes();
    expect(a.merge(b)).toBe(a);
    expect(b.toBytes()).toEqual(before);
    expect(Math.abs(a.count() - 200)).toBeLessThanOrEqual(4);
  });

  it("downsizes finer sketches exactly: downsize(p) equals a sketch built at p", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 16 }).chain((hiP) => fc.tuple(fc.constant(hiP), fc.integer({ min: 4, max: hiP }))),
        fc.array(hllElement, { maxLength: 100 }),
        fc.integer({ min: 0, max: 3000 }),
        ([hiP, loP], values, bulk) => {
          const all = [...values, ...distinct(bulk, "downsize")];
          const fine = HyperLogLog.from(all, { precision: hiP });
          const coarse = HyperLogLog.from(all, { precision: loP });
          const down = fine.downsize(loP);
          down.checkInvariants();
          expect(down.equals(coarse)).toBe(true);
          // merge downsizes finer arguments; union goes to the lowest precision.
          const half = HyperLogLog.from(all.slice(0, all.length >> 1), { precision: loP });
          expect(half.merge(fine).equals(coarse)).toBe(true);
          expect(HyperLogLog.union([fine, half]).equals(coarse)).toBe(true);
          if (loP < hiP) expect(() => fine.clone().merge(coarse)).toThrow(/downsize/);
        },
      ),
      { seed: 6, numRuns: 40 },
    );
  });
});

describe("HyperLogLog: downsize", () => {
  it("HyperLogLog lowers precision with downsize, returning a new sketch", () => {
    const h = HyperLogLog.from(distinct(3000, "d"), { precision: 14 });
    const before = h.toBytes();
    const down = h.downsize(10);
    expect(down).not.toBe(h);
    expect(down.precision).toBe(10);
    expect(h.toBytes()).toEqual(before);
    expect(down.equals(HyperLogLog.from(distinct(3000, "d"), { precision: 10 }))).toBe(true);
    expect(() => h.downsize(15)).toThrow(/redstruct\/HyperLogLog: precision must be an integer in \[4, 14\], got 15/);
  });
});

/** A sketch in one of its states: fresh, sparse with entries, dense, cleared, read back. */
const states = (p: number): [string, () => HyperLogLog][] => [
  ["fresh", () => new HyperLogLog({ precision: p })],
  ["a few adds", () => HyperLogLog.from(distinct(5, "few"), { precision: p })],
  ["dense", () => HyperLogLog.from(distinct(40 << Math.max(0, p - 6), "dense"), { precision: p })],
  [
    "cleared",
    () => {
      const h = HyperLogLog.from(distinct(3000, "clr"), { precision: p });
      h.clear();
      return h;
    },
  ],
  ["fromBytes of empty", () => HyperLogLog.fromBytes(new HyperLogLog({ precision: p }).toBytes())],
  ["clone of empty", () => new HyperLogLog({ precision: p }).clone()],
  ["downsize of empty", () => new HyperLogLog({ precision: 18 }).downsize(p)],
  [
    "union of empties",
    () => HyperLogLog.union([new HyperLogLog({ precision: p }), new HyperLogLog({ precision: 18 })]),
  ],
];

describe("HyperLogLog: checkInvariants has no false alarm on any valid sketch", () => {
  it("holds for every precision 4..18 and every state, empty or not, sparse or dense", () => {
    for (let p = 4; p <= 18; p++) {
      for (const [state, make] of states(p)) {
        const h = make();
        expect(() => h.checkInvariants(), `p=${p} ${state} (${h.encoding})`).not.toThrow();
        h.count();
        expect(() => h.checkInvariants(), `p=${p} ${state} after count`).not.toThrow();
      }
    }
  });
  it("holds after any sequence of adds, clears, merges and round trips", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 16 }),
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant("add" as const), n: fc.integer({ min: 0, max: 600 }) }),
            fc.record({ op: fc.constant("clear" as const) }),
            fc.record({ op: fc.constant("merge" as const), n: fc.integer({ min: 0, max: 300 }) }),
            fc.record({ op: fc.constant("bytes" as const) }),
          ),
          { maxLength: 8 },
        ),
        (p, ops) => {
          let h = new HyperLogLog({ precision: p });
          let k = 0;
          for (const o of ops) {
            if (o.op === "add") for (let i = 0; i < o.n; i++) h.add(`i:${k++}`);
            else if (o.op === "clear") h.clear();
            else if (o.op === "merge") h.merge(HyperLogLog.from(distinct(o.n, `m${k++}`), { precision: p }));
            else h = HyperLogLog.fromBytes(h.toBytes());
            h.checkInvariants();
          }
        },
      ),
      { seed: 121, numRuns: 60 },
    );
  });
});
