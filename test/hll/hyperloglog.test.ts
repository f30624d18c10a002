import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { murmur64a } from "../../src/hash/index.js";
import { HyperLogLog } from "../../src/hll/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
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

/** Arbitrary elements of every kind an HLL accepts. */
const element = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.uint8Array({ maxLength: 20 }),
);

const distinct = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}:${i}`);

describe("HyperLogLog: construction and arguments", () => {
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

  it("rejects bad precisions, estimators and elements with redstruct messages", () => {
    expect(() => new HyperLogLog({ precision: 3 })).toThrow(RangeError);
    expect(() => new HyperLogLog({ precision: 19 })).toThrow(/precision must be an integer in \[4, 18\], got 19/);
    expect(() => new HyperLogLog({ precision: 14.5 })).toThrow(RangeError);
    expect(() => new HyperLogLog({ precision: "14" as never })).toThrow(TypeError);
    expect(() => new HyperLogLog({ estimator: "loglog" as never })).toThrow(/redstruct\/HyperLogLog: estimator/);
    const h = new HyperLogLog();
    expect(() => h.add({} as never)).toThrow(TypeError);
    expect(() => h.count("nope" as never)).toThrow(TypeError);
    expect(() => h.register(16384)).toThrow(RangeError);
    expect(() => h.merge({} as never)).toThrow(TypeError);
    expect(() => HyperLogLog.union([])).toThrow(RangeError);
    expect(() => new HyperLogLog({ precision: 12 }).toRedis()).toThrow(/build it at 14/);
    expect(() => new HyperLogLog({ precision: 16 }).toRedis()).toThrow(/downsize\(14\) first/);
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
        fc.array(element, { maxLength: 60 }),
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
    fc.array(element, { maxLength: 80 }).chain((small) =>
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
      fc.property(fc.array(element, { maxLength: 200 }), fc.integer({ min: 4, max: 14 }), (values, p) => {
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
        fc.array(element, { maxLength: 100 }),
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

describe("HyperLogLog: serialization", () => {
  const anySketch = fc
    .record({
      p: fc.integer({ min: 4, max: 18 }),
      estimator: fc.constantFrom("ertl" as const, "classic" as const),
      values: fc.array(element, { maxLength: 50 }),
      bulk: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 20_000 })),
    })
    .map(({ p, estimator, values, bulk }) => {
      const h = HyperLogLog.from(values, { precision: p, estimator });
      for (let i = 0; i < bulk; i++) h.add(`ser:${i}`);
      return h;
    });

  it("toBytes / fromBytes round-trips registers, precision, estimator and encoding", () => {
    fc.assert(
      fc.property(anySketch, (h) => {
        const bytes = h.toBytes();
        const back = HyperLogLog.fromBytes(bytes);
        back.checkInvariants();
        expect(back.equals(h)).toBe(true);
        expect(back.estimator).toBe(h.estimator);
        expect(back.encoding).toBe(h.encoding);
        expect(back.count()).toBe(h.count());
        expect(back.toBytes()).toEqual(bytes);
      }),
      { seed: 7, numRuns: 60 },
    );
    // 13 bytes of header and 24 of martingale state; 13 in all without the state.
    expect(new HyperLogLog().toBytes().length).toBe(37);
    expect(new HyperLogLog().merge(new HyperLogLog()).toBytes().length).toBe(13);
  });

  it("toRedis / fromRedis round-trips at precision 14, sparse and dense", () => {
    fc.assert(
      fc.property(fc.array(element, { maxLength: 50 }), fc.integer({ min: 0, max: 6000 }), (values, bulk) => {
        const h = HyperLogLog.from(values);
        for (let i = 0; i < bulk; i++) h.add(`redis:${i}`);
        const blob = h.toRedis();
        expect(String.fromCharCode(...blob.subarray(0, 4))).toBe("HYLL");
        if (blob[4] === 1) expect(blob.length).toBeLessThanOrEqual(3000);
        else expect(blob.length).toBe(12304);
        const back = HyperLogLog.fromRedis(blob);
        back.checkInvariants();
        expect(back.equals(h)).toBe(true);
        const dense = h.toRedis({ encoding: "dense" });
        expect(dense.length).toBe(12304);
        expect(HyperLogLog.fromRedis(dense).equals(h)).toBe(true);
        // Cached cardinality: little-endian, valid (top bit clear), equal to count().
        let card = 0;
        for (let i = 15; i >= 8; i--) card = card * 256 + dense[i]!;
        expect(card).toBe(h.count());
      }),
      { seed: 8, numRuns: 40 },
    );
  });

  it("encodes the empty sketch as Redis does: one XZERO of 16384", () => {
    const blob = new HyperLogLog().toRedis();
    expect(Array.from(blob)).toEqual([0x48, 0x59, 0x4c, 0x4c, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0xff]);
  });

  it("reads registers above 32 only densely and writes them densely", () => {
    const h = new HyperLogLog();
    h.addHash(3, 0); // run 51
    expect(h.register(3)).toBe(51);
    expect(h.toRedis().length).toBe(12304);
    expect(HyperLogLog.fromRedis(h.toRedis()).register(3)).toBe(51);
  });
});

describe("HyperLogLog: hostile input", () => {
  const header = (enc: number) => [0x48, 0x59, 0x4c, 0x4c, enc, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80];
  const formatError = (f: () => unknown) => expect(f).toThrow(RedstructFormatError);

  it("rejects the CVE-2025-32023 shape: XZERO runs past the last register", () => {
    // Two XZEROs of 16384 each: the second starts past the end.
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f, 0xff, 0x7f, 0xff])));
    // A VAL run crossing the end, after 16383 zeros.
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f, 0xfe, 0x83])));
    // Not enough registers, a truncated XZERO, bad magic, bad encoding, dense of wrong size.
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f, 0xfe])));
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f])));
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1)].map((b, i) => (i === 0 ? 0 : b)))));
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(2), 0x7f, 0xff])));
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(0), 0, 0])));
    formatError(() => HyperLogLog.fromRedis(new Uint8Array(5)));
    expect(() => HyperLogLog.fromRedis("HYLL" as never)).toThrow(TypeError);
    // A dense register of 63 (> 51) cannot come from Redis.
    const dense = new HyperLogLog().toRedis({ encoding: "dense" });
    dense[16] = 63;
    formatError(() => HyperLogLog.fromRedis(dense));
    // A sparse blob exactly covering the registers is fine: 16383 zeros then one VAL.
    const ok = HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f, 0xfe, 0x80 | (4 << 2)]));
    expect(ok.register(16383)).toBe(5);
  });

  it("fuzzed Redis blobs either parse into a valid sketch or throw RedstructFormatError", () => {
    const seeds = [
      new HyperLogLog().toRedis(),
      HyperLogLog.from(distinct(300, "fz")).toRedis(),
      HyperLogLog.from(distinct(20_000, "fz")).toRedis(),
    ];
    const mutated = fc
      .tuple(
        fc.constantFrom(...seeds),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 8 }),
        fc.integer({ min: -20, max: 20 }),
      )
      .map(([base, flips, resize]) => {
        const b = base.slice(0, Math.max(0, base.length + Math.min(resize, 0)));
        for (const [at, v] of flips) if (b.length) b[at % b.length] = v;
        return resize > 0 ? Uint8Array.from([...b, ...new Array<number>(resize).fill(resize)]) : b;
      });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.uint8Array({ maxLength: 64 })), (blob) => {
        try {
          const h = HyperLogLog.fromRedis(blob);
          h.checkInvariants();
          expect(h.count()).toBeGreaterThanOrEqual(0);
        } catch (e) {
          expect(e).toBeInstanceOf(RedstructFormatError);
        }
      }),
      { seed: 9, numRuns: 10_000 },
    );
  });

  it("fuzzed toBytes buffers either parse into a valid sketch or throw RedstructFormatError", () => {
    const seeds = [
      new HyperLogLog().toBytes(),
      HyperLogLog.from(distinct(100, "fb"), { precision: 12 }).toBytes(),
      HyperLogLog.from(distinct(3000, "fb"), { precision: 10, estimator: "classic" }).toBytes(),
      HyperLogLog.from(distinct(30, "fb"), { precision: 4 }).toBytes(),
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...seeds),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 6 }),
        fc.integer({ min: -10, max: 10 }),
        (base, flips, resize) => {
          const b = base.slice(0, Math.max(0, base.length + Math.min(resize, 0)));
          for (const [at, v] of flips) if (b.length) b[at % b.length] = v;
          const blob = resize > 0 ? Uint8Array.from([...b, ...new Array<number>(resize).fill(7)]) : b;
          try {
            const h = HyperLogLog.fromBytes(blob);
            h.checkInvariants();
          } catch (e) {
            expect(e).toBeInstanceOf(RedstructFormatError);
          }
        },
      ),
      { seed: 10, numRuns: 10_000 },
    );
    formatError(() => HyperLogLog.fromBytes(new Uint8Array(0)));
    const v3 = new HyperLogLog().toBytes();
    v3[4] = 3;
    expect(() => HyperLogLog.fromBytes(v3)).toThrow(/version 3/);
  });
});
