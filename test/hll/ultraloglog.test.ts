/**
 * UltraLogLog against a model of the runs each register has seen: registers for every precision,
 * the reduction of each register to HyperLogLog's, merge and downsize laws, the martingale against
 * its definition, and accuracy with fixed seeds against the published constants.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { murmur64a } from "../../src/hash/index.js";
import { HyperLogLog, UltraLogLog } from "../../src/hll/index.js";
import { mulberry32 } from "../../src/internal/random.js";
import { distinct, element } from "../support/hll.js";
import { indexAndRun } from "../support/hll-model.js";

/** The model: each register as the set of runs it has seen; its state keeps the top three. */
class ModelUll {
  readonly runs: Set<number>[];
  constructor(readonly p: number) {
    this.runs = Array.from({ length: 2 ** p }, () => new Set<number>());
  }
  addHash(h: bigint): boolean {
    const [i, run] = indexAndRun(h, this.p);
    const before = this.state(i);
    this.runs[i]!.add(run);
    return this.state(i) !== before;
  }
  state(i: number): number {
    const s = this.runs[i]!;
    if (s.size === 0) return 0;
    const u = Math.max(...s);
    return (u << 2) | (s.has(u - 1) ? 2 : 0) | (s.has(u - 2) ? 1 : 0);
  }
  states(): number[] {
    return this.runs.map((_, i) => this.state(i));
  }
}

const halves = (h: bigint): [number, number] => [Number(h & 0xffffffffn), Number(h >> 32n)];

/** 64-bit hashes, half of them with every bit from p to 31 clear so runs come from the high half. */
const hash64 = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 32n - 1n }), fc.nat(7)).map(([hi, lo]) => (hi << 32n) | BigInt(lo)),
  fc.bigInt({ min: 0n, max: 2n ** 16n }), // long runs: high bits all zero
);

describe("UltraLogLog: registers", () => {
  it("equal a model of the runs each register has seen, for every precision", () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 16 }), fc.array(hash64, { maxLength: 300 }), (p, hashes) => {
        const u = new UltraLogLog({ precision: p });
        const model = new ModelUll(p);
        for (const h of hashes) {
          const [lo, hi] = halves(h);
          expect(u.addHash(lo, hi)).toBe(model.addHash(h));
        }
        expect(Array.from(u.registers())).toEqual(model.states());
        u.checkInvariants();
      }),
      { seed: 200, numRuns: 80 },
    );
  });

  it("hash an element as HyperLogLog does: the top run of each register is HyperLogLog's register", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 16 }), fc.array(element, { maxLength: 100 }), fc.nat(3000), (p, xs, n) => {
        const all = [...xs, ...distinct(n, "same")];
        const u = UltraLogLog.from(all, { precision: p });
        const h = HyperLogLog.from(all, { precision: p });
        expect(Array.from(u.registers(), (s) => s >>> 2)).toEqual(Array.from(h.registers()));
        // and the model agrees on hashes taken from the shared module
        const model = new ModelUll(p);
        for (const x of all) model.addHash(murmur64a(x));
        expect(Array.from(u.registers())).toEqual(model.states());
      }),
      { seed: 201, numRuns: 25 },
    );
  });

  it("add order is irrelevant and duplicates change nothing", () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 14 }), fc.array(element, { maxLength: 200 }), (p, xs) => {
        const a = UltraLogLog.from(xs, { precision: p });
        const b = UltraLogLog.from([...xs].reverse(), { precision: p });
        expect(a.equals(b)).toBe(true);
        expect(a.addAll(xs)).toBe(false);
        expect(a.count()).toBe(b.count());
      }),
      { seed: 202, numRuns: 60 },
    );
  });

  it("checkInvariants holds on empty and filled sketches of every precision 3..20", () => {
    for (let p = 3; p <= 20; p++) {
      const u = new UltraLogLog({ precision: p });
      u.checkInvariants();
      expect(u.count()).toBe(0);
      u.addAll(distinct(200, "inv"));
      u.checkInvariants();
      u.clear();
      u.checkInvariants();
      expect(u.byteLength).toBe(2 ** p);
    }
  });

  it("precision 26 works (64 MiB of registers)", () => {
    const u = new UltraLogLog({ precision: 26 });
    expect(u.registerCount).toBe(2 ** 26);
    u.addAll(distinct(1000, "big"));
    expect(u.count()).toBe(1000);
    expect(u.count("ml")).toBe(1000);
    expect(u.count("martingale")).toBe(1000);
  });
});

describe("UltraLogLog: merge and downsize", () => {
  it("merge is commutative, associative, idempotent, and equals the sketch of the combined streams", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 12 }).chain((p) => fc.tuple(fc.constant(p), fc.array(element, { maxLength: 40 }))),
        fc.nat(1500),
        fc.nat(1500),
        fc.nat(1500),
        ([p, xs], na, nb, nc) => {
          const sa = [...xs, ...distinct(na, "a")];
          const sb = distinct(nb, "b");
          const sc = distinct(nc, "c");
          const [a, b, c] = [sa, sb, sc].map((s) => UltraLogLog.from(s, { precision: p })) as [
            UltraLogLog,
            UltraLogLog,
            UltraLogLog,
          ];
          const ab = a.clone().merge(b);
          expect(ab.equals(b.clone().merge(a))).toBe(true);
          expect(
            ab
              .clone()
              .merge(c)
              .equals(a.clone().merge(b.clone().merge(c))),
          ).toBe(true);
          expect(a.clone().merge(a, a).equals(a)).toBe(true);
          expect(ab.equals(UltraLogLog.from([...sa, ...sb], { precision: p }))).toBe(true);
          expect(UltraLogLog.union([a, b, c]).equals(UltraLogLog.from([...sa, ...sb, ...sc], { precision: p }))).toBe(
            true,
          );
          ab.checkInvariants();
        },
      ),
      { seed: 203, numRuns: 50 },
    );
  });

  it("downsize(p') equals the sketch built at p', and merging finer sketches downsizes them", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 16 }).chain((hi) => fc.tuple(fc.constant(hi), fc.integer({ min: 3, max: hi }))),
        fc.array(hash64, { maxLength: 200 }),
        fc.nat(4000),
        ([hiP, loP], hashes, bulk) => {
          const fine = new UltraLogLog({ precision: hiP });
          const coarse = new UltraLogLog({ precision: loP });
          for (const h of hashes) {
            fine.addHash(...halves(h));
            coarse.addHash(...halves(h));
          }
          const more = distinct(bulk, "d");
          fine.addAll(more);
          coarse.addAll(more);
          const down = fine.downsize(loP);
          down.checkInvariants();
          expect(down.equals(coarse)).toBe(true);
          const half = UltraLogLog.from(more.slice(0, bulk >> 1), { precision: loP });
          for (const h of hashes) half.addHash(...halves(h));
          expect(half.merge(fine).equals(coarse)).toBe(true);
          expect(UltraLogLog.union([fine, coarse]).equals(coarse)).toBe(true);
          if (loP < hiP) expect(() => fine.clone().merge(coarse)).toThrow(/downsize/);
        },
      ),
      { seed: 204, numRuns: 60 },
    );
  });
});

describe("UltraLogLog: martingale", () => {
  /** HIP from its definition: μ recomputed from the model's run sets before every add. */
  function hip(p: number, hashes: bigint[]): number {
    const model = new ModelUll(p);
    const q = 64 - p;
    const mass = (k: number) => (k >= 1 && k <= q ? 2 ** -k : k === q + 1 ? 2 ** -q : 0);
    let estimate = 0;
    for (const h of hashes) {
      let mu = 0;
      for (const runs of model.runs) {
        // P(an element changes the register) = P(its run is new to the kept top three, or above).
        if (runs.size === 0) {
          mu += 1;
          continue;
        }
        const u = Math.max(...runs);
        mu += u <= q ? 2 ** -u : 0;
        if (!runs.has(u - 1)) mu += mass(u - 1);
        if (!runs.has(u - 2)) mu += mass(u - 2);
      }
      mu /= model.runs.length;
      if (model.addHash(h)) estimate += 1 / mu;
    }
    return estimate;
  }

  it("equals HIP recomputed from the registers at every step", () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 8 }), fc.array(hash64, { maxLength: 400 }), (p, hashes) => {
        const u = new UltraLogLog({ precision: p });
        for (const h of hashes) u.addHash(...halves(h));
        expect(u.estimate("martingale")).toBeCloseTo(hip(p, hashes), 6);
        u.checkInvariants();
      }),
      { seed: 205, numRuns: 40 },
    );
  });

  it("is unavailable after merge, union and downsize, with the reason; clear restores it", () => {
    const a = UltraLogLog.from(distinct(300, "m"), { precision: 10 });
    for (const [h, reason] of [
      [a.clone().merge(new UltraLogLog({ precision: 10 })), /merge\(\)/],
      [UltraLogLog.union([a]), /union\(\)/],
      [a.downsize(8), /downsize\(\)/],
      [UltraLogLog.fromBytes(a.downsize(9).toBytes()), /without the martingale state/],
    ] as const) {
      expect(() => h.count("martingale")).toThrow(reason);
      expect(() => h.bounds(2, "martingale")).toThrow(reason);
      expect(h.count()).toBeGreaterThan(0);
      h.clear();
      h.add("x");
      expect(h.count("martingale")).toBe(1);
    }
    expect(a.downsize(10).count("martingale")).toBe(a.count("martingale"));
  });
});

describe("UltraLogLog: accuracy (fixed seeds, bounds from theory)", () => {
  it("RMSE at n = 40m is within 3 standard errors of 0.782 (fgra), 0.761 (ml), 0.658 (martingale) /√m", () => {
    const p = 8;
    const m = 2 ** p;
    const n = 40 * m;
    const trials = 400;
    const next = mulberry32(8);
    const sq = [0, 0, 0];
    const constants = [0.782, 0.761, 0.658];
    const names = ["fgra", "ml", "martingale"] as const;
    for (let t = 0; t < trials; t++) {
      const u = new UltraLogLog({ precision: p });
      for (let i = 0; i < n; i++) u.addHash(next(), next());
      names.forEach((e, i) => {
        sq[i]! += (u.estimate(e) / n - 1) ** 2;
      });
    }
    names.forEach((e, i) => {
      const rmse = Math.sqrt(sq[i]! / trials) * Math.sqrt(m);
      // A sample RMSE over T trials has a relative standard error ≈ 1/√(2T).
      expect(Math.abs(rmse - constants[i]!), `${e}: ${rmse}`).toBeLessThanOrEqual(
        (3 * constants[i]!) / Math.sqrt(2 * trials),
      );
    });
  });

  it("small sets are counted (nearly) exactly by every estimator", () => {
    const u = new UltraLogLog({ precision: 12 });
    for (let i = 1; i <= 40; i++) {
      u.add(`small:${i}`);
      expect(u.count("fgra")).toBe(i);
      expect(u.count("ml")).toBe(i);
      expect(u.count("martingale")).toBe(i);
    }
  });

  it("bounds cover the true count at the nominal rate (never below it at small n)", () => {
    const p = 8;
    const trials = 300;
    const ns = [30, 1000, 10_000];
    const nominal = [0.6827, 0.9545, 0.9973];
    const names = ["fgra", "ml", "martingale"] as const;
    const hits = ns.map(() => names.map(() => [0, 0, 0]));
    const next = mulberry32(80);
    for (let t = 0; t < trials; t++) {
      const u = new UltraLogLog({ precision: p });
      let k = 0;
      ns.forEach((n, j) => {
        for (; k < n; k++) u.addHash(next(), next());
        names.forEach((e, i) => {
          for (let z = 1; z <= 3; z++) {
            const b = u.bounds(z, e);
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
});
