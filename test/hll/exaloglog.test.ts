/**
 * ExaLogLog against a model of the values each register has seen: registers for every precision,
 * t and d, the reduction to HyperLogLog (and UltraLogLog's), merge and downsize laws, the martingale
 * against its definition, and accuracy with fixed seeds against the model's theory.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { murmur64a } from "../../src/hash/index.js";
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../../src/hll/index.js";
import {
  changeProbability,
  changeProbabilityOf,
  mlStdDev,
  validRegister,
  valueModel,
  windowModel,
} from "../../src/hll/registers.js";
import { mulberry32 } from "../../src/internal/random.js";
import { distinct, element, ellShape } from "../support/hll.js";
import { indexAndRun, indexAndValue } from "../support/hll-model.js";

const halves = (h: bigint): [number, number] => [Number(h & 0xffffffffn), Number(h >> 32n)];

/** The model: each register as the set of update values it has seen; its state keeps u and d flags. */
class ModelEll {
  readonly values: Set<number>[];
  constructor(
    readonly p: number,
    readonly t: number,
    readonly d: number,
  ) {
    this.values = Array.from({ length: 2 ** p }, () => new Set<number>());
  }
  addHash(h: bigint): boolean {
    const [i, k] = indexAndValue(h, this.p, this.t);
    const before = this.state(i);
    this.values[i]!.add(k);
    return this.state(i) !== before;
  }
  state(i: number): number {
    const s = this.values[i]!;
    if (s.size === 0) return 0;
    const u = Math.max(...s);
    let r = u * 2 ** this.d;
    for (let j = 1; j <= this.d; j++) if (s.has(u - j)) r += 2 ** (this.d - j);
    return r;
  }
  states(): number[] {
    return this.values.map((_, i) => this.state(i));
  }
}

/** 64-bit hashes: uniform, with every bit from 3 to 31 clear (runs from the high half), and tiny (top group). */
const hash64 = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 32n - 1n }), fc.nat(7)).map(([hi, lo]) => (hi << 32n) | BigInt(lo)),
  fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 16n }), fc.nat(3)).map(([lo, top]) => lo | (BigInt(top) << 62n)),
);

describe("ExaLogLog: registers", () => {
  it("equal a model of the values each register has seen, for every precision, t and d", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 9 }),
        ellShape,
        fc.array(hash64, { maxLength: 200 }),
        (p, { t, d }, hashes) => {
          const e = new ExaLogLog({ precision: p, t, d });
          const model = new ModelEll(p, t, d);
          for (const h of hashes) {
            expect(e.addHash(...halves(h))).toBe(model.addHash(h));
            e.checkInvariants();
          }
          expect(Array.from(e.registers())).toEqual(model.states());
        },
      ),
      { seed: 300, numRuns: 60 },
    );
  });

  it("hash an element as HyperLogLog does: the model agrees on murmur64a of items", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 14 }),
        ellShape,
        fc.array(element, { maxLength: 60 }),
        fc.nat(2000),
        (p, { t, d }, xs, n) => {
          const all = [...xs, ...distinct(n, "same")];
          const e = ExaLogLog.from(all, { precision: p, t, d });
          const model = new ModelEll(p, t, d);
          for (const x of all) model.addHash(murmur64a(x));
          expect(Array.from(e.registers())).toEqual(model.states());
        },
      ),
      { seed: 301, numRuns: 25 },
    );
  });

  it("update values have the paper's distribution: 2^t equally likely values per HyperLogLog run", () => {
    // Hashes with a given run r and uniform other bits: each of the 2^t values of group r − 1 gets
    // 1/2^t of them (a χ² test at a fixed seed), and the top group (runs > 64 − p − t) its 2^t values
    // with equal probability too.
    const next = mulberry32(31);
    for (const t of [1, 2]) {
      for (const p of [4, 12]) {
        const counts = new Map<number, number>();
        const trials = 4000;
        for (let i = 0; i < trials; i++) {
          // Top group: every bit from p to 63 − t zero, the top t bits uniform.
          const low = next() & ((1 << p) - 1);
          const high = (next() >>> (32 - t)) << (32 - t);
          const [, k] = indexAndValue((BigInt(high >>> 0) << 32n) | BigInt(low), p, t);
          counts.set(k, (counts.get(k) ?? 0) + 1);
        }
        const expected = trials / 2 ** t;
        const base = (64 - p - t) * 2 ** t;
        let chi = 0;
        for (let f = 1; f <= 2 ** t; f++) chi += ((counts.get(base + f) ?? 0) - expected) ** 2 / expected;
        expect(counts.size).toBe(2 ** t);
        expect(chi, `t=${t} p=${p}`).toBeLessThan(16); // df ≤ 3: P(χ² > 16) < 0.002
      }
    }
  });

  it("h(r) from the per-byte tables equals h(r) summed value by value, for every valid register shape", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 26 }),
        ellShape,
        fc.nat(),
        fc.integer({ min: 0, max: 2 ** 24 - 1 }),
        (p, { t, d }, uSeed, flags) => {
          const model = valueModel(p, t);
          const u = 1 + (uSeed % model.maxValue);
          // Keep only the flags of values ≥ 1, so the register is one a stream can produce.
          const missing = d - Math.min(d, u - 1);
          const r = (u << d) | (flags & ((1 << d) - 1) & ~((1 << missing) - 1)) | 0;
          expect(validRegister(r, d, model.maxValue)).toBe(true);
          expect(changeProbabilityOf(windowModel(p, t, d), r)).toBe(changeProbability(model, r, d));
        },
      ),
      { seed: 304, numRuns: 3000 },
    );
  });

  it("t = 0, d = 2 is UltraLogLog register for register, with the same ML and martingale estimates", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 14 }),
        fc.array(hash64, { maxLength: 100 }),
        fc.nat(5000),
        (p, hashes, n) => {
          const e = new ExaLogLog({ precision: p, t: 0, d: 2 });
          const u = new UltraLogLog({ precision: p });
          for (const h of hashes) expect(e.addHash(...halves(h))).toBe(u.addHash(...halves(h)));
          e.addAll(distinct(n, "ull"));
          u.addAll(distinct(n, "ull"));
          expect(Array.from(e.registers())).toEqual(Array.from(u.registers()));
          expect(e.estimate()).toBe(u.estimate("ml"));
          expect(e.estimate({ estimator: "martingale" })).toBe(u.estimate("martingale"));
        },
      ),
      { seed: 302, numRuns: 30 },
    );
  });

  it("add order is irrelevant and duplicates change nothing", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 12 }),
        ellShape,
        fc.array(element, { maxLength: 200 }),
        (p, { t, d }, xs) => {
          const a = ExaLogLog.from(xs, { precision: p, t, d });
          const b = ExaLogLog.from([...xs].reverse(), { precision: p, t, d });
          expect(a.equals(b)).toBe(true);
          expect(a.addAll(xs)).toBe(false);
          expect(a.count()).toBe(b.count());
          a.checkInvariants();
        },
      ),
      { seed: 303, numRuns: 50 },
    );
  });

  it("checkInvariants holds on empty, filled and cleared sketches of every precision 4..20", () => {
    for (let p = 4; p <= 20; p++) {
      const e = new ExaLogLog({ precision: p });
      e.checkInvariants();
      expect(e.count()).toBe(0);
      expect(e.count({ estimator: "martingale" })).toBe(0);
      e.addAll(distinct(300, "inv"));
      e.checkInvariants();
      e.clear();
      e.checkInvariants();
      expect(e.count()).toBe(0);
      expect(e.byteLength).toBe(4 * 2 ** p);
      expect([e.precision, e.t, e.d, e.registerCount]).toEqual([p, 2, 24, 2 ** p]);
    }
    expect(new ExaLogLog().precision).toBe(12);
  });

  it("precision 26 works (256 MiB of registers)", () => {
    const e = new ExaLogLog({ precision: 26 });
    e.addAll(distinct(1000, "big"));
    expect(e.count()).toBe(1000);
    expect(e.count({ estimator: "martingale" })).toBe(1000);
    expect(() => e.toHyperLogLog()).toThrow(/precision must be 4\.\.18 .*downsize\(\{ precision: 18 \}\) first/);
    expect(
      e
        .downsize({ precision: 18 })
        .toHyperLogLog()
        .equals(HyperLogLog.from(distinct(1000, "big"), { precision: 18 })),
    ).toBe(true);
  });
});

describe("toHyperLogLog: the HyperLogLog of the same elements", () => {
  const sets = fc.tuple(fc.array(element, { maxLength: 40 }), fc.nat(3000), fc.array(hash64, { maxLength: 40 }));

  it("ExaLogLog, at every precision 4..18 and every t", () => {
    fc.assert(
      fc.property(sets, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 24 }), ([xs, n, hashes], t, d) => {
        const items = [...xs, ...distinct(n, "h")];
        for (let p = 4; p <= 18; p++) {
          const e = ExaLogLog.from(items, { precision: p, t, d });
          const h = HyperLogLog.from(items, { precision: p });
          for (const x of hashes) {
            e.addHash(...halves(x));
            h.addHash(...halves(x));
          }
          const reduced = e.toHyperLogLog();
          reduced.checkInvariants();
          expect(reduced.equals(h), `p=${p}`).toBe(true);
          expect(reduced.count()).toBe(h.count());
        }
      }),
      { seed: 310, numRuns: 8 },
    );
  });

  it("UltraLogLog, at every precision 4..18", () => {
    fc.assert(
      fc.property(sets, ([xs, n, hashes]) => {
        const items = [...xs, ...distinct(n, "u")];
        for (let p = 4; p <= 18; p++) {
          const u = UltraLogLog.from(items, { precision: p });
          const h = HyperLogLog.from(items, { precision: p });
          for (const x of hashes) {
            u.addHash(...halves(x));
            h.addHash(...halves(x));
          }
          const reduced = u.toHyperLogLog();
          reduced.checkInvariants();
          expect(reduced.equals(h), `p=${p}`).toBe(true);
        }
      }),
      { seed: 311, numRuns: 8 },
    );
  });

  it("reaches the longest runs: every hash of the top group gives HyperLogLog's register", () => {
    // Hashes whose bits from p to 63 − t are all zero: HyperLogLog's run is 65 − p − t + ctz(top t bits).
    for (const t of [0, 1, 2]) {
      for (const p of [4, 11, 18]) {
        for (let top = 0; top < 4; top++) {
          for (const index of [0, 5]) {
            const h = (BigInt(top) << 62n) | BigInt(index);
            const e = new ExaLogLog({ precision: p, t });
            const hll = new HyperLogLog({ precision: p });
            e.addHash(...halves(h));
            hll.addHash(...halves(h));
            expect(e.toHyperLogLog().register(index), `t=${t} p=${p} top=${top}`).toBe(indexAndRun(h, p)[1]);
            expect(e.toHyperLogLog().equals(hll)).toBe(true);
          }
        }
      }
    }
  });

  it("has no martingale state, and needs a HyperLogLog precision", () => {
    const e = ExaLogLog.from(distinct(100, "m"));
    expect(() => e.toHyperLogLog().count("martingale")).toThrow(/ExaLogLog\.toHyperLogLog\(\)/);
    expect(() => new UltraLogLog({ precision: 3 }).toHyperLogLog()).toThrow(RangeError);
    expect(() => new UltraLogLog({ precision: 19 }).toHyperLogLog()).toThrow(/downsize\(18\) first/);
  });
});

describe("ExaLogLog: merge, union and downsize", () => {
  it("merge is commutative, associative, idempotent, and equals the sketch of the combined streams", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 11 }),
        ellShape,
        fc.array(element, { maxLength: 30 }),
        fc.nat(3000),
        fc.nat(3000),
        fc.nat(1500),
        (p, { t, d }, xs, na, nb, nc) => {
          const sa = [...xs, ...distinct(na, "a")];
          const sb = distinct(nb, "b");
          const sc = distinct(nc, "c");
          const [a, b, c] = [sa, sb, sc].map((s) => ExaLogLog.from(s, { precision: p, t, d })) as [
            ExaLogLog,
            ExaLogLog,
            ExaLogLog,
          ];
          const ab = a.clone().merge(b);
          ab.checkInvariants();
          expect(ab.equals(b.clone().merge(a))).toBe(true);
          expect(
            ab
              .clone()
              .merge(c)
              .equals(a.clone().merge(b.clone().merge(c))),
          ).toBe(true);
          const aa = a.clone().merge(a, a);
          aa.checkInvariants();
          expect(aa.equals(a)).toBe(true);
          expect(ab.equals(ExaLogLog.from([...sa, ...sb], { precision: p, t, d }))).toBe(true);
          const all = ExaLogLog.union([a, b, c]);
          all.checkInvariants();
          expect(all.equals(ExaLogLog.from([...sa, ...sb, ...sc], { precision: p, t, d }))).toBe(true);
          expect(a.clone().merge([b, c]).equals(all)).toBe(true);
        },
      ),
      { seed: 320, numRuns: 40 },
    );
  });
  it("downsize({ d }) equals the sketch built with that d, and merging a larger d downsizes it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 12 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 24 }).chain((hi) => fc.tuple(fc.constant(hi), fc.integer({ min: 0, max: hi }))),
        fc.array(hash64, { maxLength: 100 }),
        fc.nat(5000),
        (p, t, [hiD, loD], hashes, n) => {
          const wide = new ExaLogLog({ precision: p, t, d: hiD });
          const narrow = new ExaLogLog({ precision: p, t, d: loD });
          for (const h of hashes) {
            wide.addHash(...halves(h));
            narrow.addHash(...halves(h));
          }
          wide.addAll(distinct(n, "d"));
          narrow.addAll(distinct(n, "d"));
          const down = wide.downsize({ d: loD });
          down.checkInvariants();
          expect(down.equals(narrow)).toBe(true);
          const half = ExaLogLog.from(distinct(n >> 1, "d"), { precision: p, t, d: loD });
          for (const h of hashes) half.addHash(...halves(h));
          half.merge(wide);
          half.checkInvariants();
          expect(half.equals(narrow)).toBe(true);
          expect(ExaLogLog.union([wide, narrow]).equals(narrow)).toBe(true);
          if (loD < hiD) expect(() => wide.clone().merge(narrow)).toThrow(/downsize\(\{ d: /);
        },
      ),
      { seed: 321, numRuns: 50 },
    );
  });
  it("downsize({ precision }) is exact for t = 0, and for any t while no register has forgotten a value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 14 }).chain((hi) => fc.tuple(fc.constant(hi), fc.integer({ min: 4, max: hi }))),
        ellShape,
        fc.array(hash64, { maxLength: 100 }),
        fc.nat(6000),
        ([hiP, loP], { t, d }, hashes, n) => {
          const fine = new ExaLogLog({ precision: hiP, t, d });
          const coarse = new ExaLogLog({ precision: loP, t, d });
          for (const h of hashes) {
            fine.addHash(...halves(h));
            coarse.addHash(...halves(h));
          }
          fine.addAll(distinct(n, "p"));
          coarse.addAll(distinct(n, "p"));
          const down = fine.downsize({ precision: loP });
          down.checkInvariants();
          // HyperLogLog's registers are exact whatever t.
          expect(down.toHyperLogLog().equals(coarse.toHyperLogLog())).toBe(true);
          const forgot = Array.from(fine.registers()).some((r) => r >>> d > d + 1);
          if (t === 0 || !forgot) expect(down.equals(coarse)).toBe(true);
          if (t === 0) {
            expect(coarse.clone().merge(fine).equals(coarse)).toBe(true);
            expect(ExaLogLog.union([fine, coarse]).equals(coarse)).toBe(true);
          }
          if (loP < hiP) expect(() => fine.clone().merge(coarse)).toThrow(/downsize\(\{ precision: /);
        },
      ),
      { seed: 322, numRuns: 60 },
    );
  });
  it("downsize({ precision }) with t = 2 counts as the sketch built at that precision: no bias, the same error", () => {
    // 60 pairs of sketches per case fed the same random hashes; the downsized sketch's mean relative
    // error and RMSE must match those of the sketch built at the lower precision within the noise.
    const cases = [
      [12, 10, 20],
      [12, 8, 100],
    ] as const;
    const next = mulberry32(99);
    for (const [fineP, coarseP, lambda] of cases) {
      const m = 2 ** coarseP;
      const n = lambda * m;
      const trials = 60;
      let sqDown = 0;
      let sqDirect = 0;
      let biasDown = 0;
      let differs = 0;
      for (let i = 0; i < trials; i++) {
        const fine = new ExaLogLog({ precision: fineP });
        const direct = new ExaLogLog({ precision: coarseP });
        for (let k = 0; k < n; k++) {
          const lo = next();
          const hi = next();
          fine.addHash(lo, hi);
          direct.addHash(lo, hi);
        }
        const down = fine.downsize({ precision: coarseP });
        const a = down.estimate() / n - 1;
        const b = direct.estimate() / n - 1;
        sqDown += a * a;
        sqDirect += b * b;
        biasDown += a;
        if (!down.equals(direct)) differs++;
        expect(down.toHyperLogLog().equals(direct.toHyperLogLog())).toBe(true);
      }
      const sd = mlStdDev(n, m, valueModel(coarseP, 2), 24) / n;
      const rmseDown = Math.sqrt(sqDown / trials);
      const rmseDirect = Math.sqrt(sqDirect / trials);
      // The theory's standard deviation; a sample RMSE over T trials is uncertain by ≈ 1/√(2T) of itself.
      expect(differs, "the case must reach forgotten values").toBeGreaterThan(0);
      expect(Math.abs(biasDown / trials), `bias ${fineP}→${coarseP}`).toBeLessThan((3 * sd) / Math.sqrt(trials));
      expect(rmseDown / sd, `rmse ${fineP}→${coarseP}`).toBeLessThan(1 + 3 / Math.sqrt(2 * trials));
      expect(rmseDirect / sd, `direct rmse ${fineP}→${coarseP}`).toBeLessThan(1 + 3 / Math.sqrt(2 * trials));
    }
  });
});

describe("ExaLogLog: martingale", () => {
  /** HIP from its definition: μ recomputed from the model's value sets before every add. */
  function hip(p: number, t: number, d: number, hashes: bigint[]): number {
    const model = new ModelEll(p, t, d);
    const top = (65 - p - t) * 2 ** t;
    const mass = (k: number) => 2 ** -Math.min(t + 1 + Math.floor((k - 1) / 2 ** t), 64 - p);
    let estimate = 0;
    for (const h of hashes) {
      let mu = 0;
      for (const values of model.values) {
        if (values.size === 0) {
          mu += 1;
          continue;
        }
        const u = Math.max(...values);
        for (let k = u + 1; k <= top; k++) mu += mass(k);
        for (let k = Math.max(1, u - d); k < u; k++) if (!values.has(k)) mu += mass(k);
      }
      mu /= model.values.length;
      if (model.addHash(h)) estimate += 1 / mu;
    }
    return estimate;
  }

  it("equals HIP recomputed from the registers at every step", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 6 }),
        ellShape,
        fc.array(hash64, { maxLength: 250 }),
        (p, { t, d }, hashes) => {
          const e = new ExaLogLog({ precision: p, t, d });
          for (const h of hashes) e.addHash(...halves(h));
          expect(e.estimate({ estimator: "martingale" })).toBeCloseTo(hip(p, t, d, hashes), 6);
          e.checkInvariants();
        },
      ),
      { seed: 330, numRuns: 30 },
    );
  });

  it("is unavailable after merge, union and a change of precision, with the reason; clear restores it", () => {
    const a = ExaLogLog.from(distinct(300, "m"), { precision: 10 });
    for (const [h, reason] of [
      [a.clone().merge(new ExaLogLog({ precision: 10 })), /merge\(\)/],
      [ExaLogLog.union([a]), /union\(\)/],
      [a.downsize({ precision: 8 }), /downsize\(\) to a lower precision/],
      [a.downsize({ precision: 9, d: 20 }), /downsize\(\) to a lower precision/],
      [ExaLogLog.fromBytes(a.downsize({ precision: 9 }).toBytes()), /without the martingale state/],
      [ExaLogLog.fromBytes(a.clone().merge(a).toBytes()).downsize({ d: 3 }), /without the martingale state/],
    ] as const) {
      expect(() => h.count({ estimator: "martingale" })).toThrow(reason);
      expect(() => h.bounds(2, { estimator: "martingale" })).toThrow(reason);
      expect(h.count()).toBeGreaterThan(0);
      h.clear();
      h.add("x");
      expect(h.count({ estimator: "martingale" })).toBe(1);
      h.checkInvariants();
    }
  });

  it("survives downsize({ d }): the estimate so far, then steps of the narrower sketch", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 10 }),
        fc.integer({ min: 0, max: 24 }),
        fc.nat(3000),
        fc.nat(3000),
        (p, d, n1, n2) => {
          const e = ExaLogLog.from(distinct(n1, "s"), { precision: p });
          const down = e.downsize({ d });
          down.checkInvariants();
          expect(down.estimate({ estimator: "martingale" })).toBe(e.estimate({ estimator: "martingale" }));
          down.addAll(distinct(n2, "t"));
          down.checkInvariants();
          // Within 6 of its own tracked standard deviations (plus rounding) of the truth.
          const b = down.bounds(1, { estimator: "martingale" });
          expect(Math.abs(b.estimate - (n1 + n2))).toBeLessThanOrEqual(6 * (b.upper - b.estimate) + 2);
        },
      ),
      { seed: 331, numRuns: 30 },
    );
  });
});

describe("ExaLogLog: accuracy (fixed seeds, bounds from theory)", () => {
  it("ML's RMSE at n = 40m is within 3 standard errors of the model's Cramér–Rao bound; the martingale's within its tracked variance", () => {
    const p = 8;
    const m = 2 ** p;
    const n = 40 * m;
    const trials = 300;
    const next = mulberry32(8);
    let sqMl = 0;
    let sqMg = 0;
    let tracked = 0;
    for (let t = 0; t < trials; t++) {
      const e = new ExaLogLog({ precision: p });
      for (let i = 0; i < n; i++) e.addHash(next(), next());
      sqMl += (e.estimate() / n - 1) ** 2;
      sqMg += (e.estimate({ estimator: "martingale" }) / n - 1) ** 2;
      const b = e.bounds(1, { estimator: "martingale" });
      tracked += ((b.upper - b.estimate) / n) ** 2;
    }
    const theory = mlStdDev(n, m, valueModel(p, 2), 24) / n;
    const slack = 3 / Math.sqrt(2 * trials);
    const rmseMl = Math.sqrt(sqMl / trials);
    expect(Math.abs(rmseMl / theory - 1), `ml ${rmseMl} vs ${theory}`).toBeLessThanOrEqual(slack);
    const rmseMg = Math.sqrt(sqMg / trials);
    const sdMg = Math.sqrt(tracked / trials);
    expect(Math.abs(rmseMg / sdMg - 1), `martingale ${rmseMg} vs ${sdMg}`).toBeLessThanOrEqual(slack);
    // The memory-variance products at this n (32 bits per register): below UltraLogLog's asymptotic 4.63 and 3.47.
    expect(32 * m * rmseMl ** 2).toBeLessThan(4.63);
    expect(32 * m * rmseMg ** 2).toBeLessThan(3.47);
  });

  it("small sets are counted exactly by both estimators", () => {
    const e = new ExaLogLog({ precision: 12 });
    for (let i = 1; i <= 40; i++) {
      e.add(`small:${i}`);
      expect(e.count()).toBe(i);
      expect(e.count({ estimator: "martingale" })).toBe(i);
    }
  });

  it("bounds cover the true count at the nominal rate (never below it at small n)", () => {
    const p = 8;
    const trials = 250;
    const ns = [30, 1000, 10_000];
    const nominal = [0.6827, 0.9545, 0.9973];
    const names = ["ml", "martingale"] as const;
    const hits = ns.map(() => names.map(() => [0, 0, 0]));
    const next = mulberry32(80);
    for (let t = 0; t < trials; t++) {
      const e = new ExaLogLog({ precision: p });
      let k = 0;
      ns.forEach((n, j) => {
        for (; k < n; k++) e.addHash(next(), next());
        names.forEach((estimator, i) => {
          for (let z = 1; z <= 3; z++) {
            const b = e.bounds(z, { estimator });
            expect(b.lower <= b.estimate && b.estimate <= b.upper).toBe(true);
            if (b.lower <= n && n <= b.upper) hits[j]![i]![z - 1]!++;
          }
        });
      });
    }
    ns.forEach((n, j) => {
      names.forEach((e, i) => {
        for (let z = 0; z < 3; z++) {
          const c = hits[j]![i]![z]! / trials;
          const tol = 3 * Math.sqrt((nominal[z]! * (1 - nominal[z]!)) / trials) + 0.005;
          expect(c, `n=${n} ${e} z=${z + 1}`).toBeGreaterThanOrEqual(nominal[z]! - tol);
          if (n >= 2 ** p) expect(c, `n=${n} ${e} z=${z + 1}`).toBeLessThanOrEqual(nominal[z]! + tol);
        }
      });
    });
  });

  it("saturated registers answer 2^64", () => {
    for (const [t, d] of [
      [2, 24],
      [0, 0],
      [1, 3],
    ] as const) {
      const e = new ExaLogLog({ precision: 4, t, d });
      // Every register sees every value: the top group's hashes and every run below, in every register.
      for (let i = 0; i < 16; i++) {
        for (let run = 1; run <= 64 - 4; run++) {
          for (let f = 0; f < 4; f++) {
            const h = (1n << BigInt(4 + run - 1)) | (BigInt(f) << BigInt(4 + run)) | BigInt(i);
            e.addHash(...halves(h & (2n ** 64n - 1n)));
          }
        }
        for (let top = 0; top < 4; top++) e.addHash(...halves((BigInt(top) << 62n) | BigInt(i)));
      }
      e.checkInvariants();
      expect(e.count()).toBe(2 ** 64);
      expect(e.count({ estimator: "martingale" })).toBeLessThanOrEqual(2 ** 64);
      expect(e.bounds().estimate).toBe(2 ** 64);
    }
  });
});
