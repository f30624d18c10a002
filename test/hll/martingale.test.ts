// HyperLogLog's martingale (HIP) estimator and bounds(): against a model that recomputes the state
// change probability from scratch, its availability rules, its serialization, and its statistics.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HyperLogLog } from "../../src/hll/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { mulberry32 } from "../../src/internal/random.js";
import { distinct } from "../support/hll.js";

/**
 * HIP from its definition: before each add, μ = (1/m) Σ_j P(run > register j), where P(run > r) is
 * 2^−r below the longest run 65 − p and 0 at it; a changed register adds 1/μ.
 */
function modelMartingale(h: HyperLogLog, values: string[]): number {
  const p = h.precision;
  let estimate = 0;
  for (const v of values) {
    const regs = h.registers();
    let mu = 0;
    for (const r of regs) mu += r === 65 - p ? 0 : 2 ** -r;
    mu /= regs.length;
    if (h.add(v)) estimate += 1 / mu;
  }
  return estimate;
}

describe("HyperLogLog martingale estimator", () => {
  it("equals HIP recomputed from the registers at every step, through sparse and dense", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 11 }), fc.integer({ min: 0, max: 1500 }), (p, n) => {
        const h = new HyperLogLog({ precision: p });
        const model = modelMartingale(new HyperLogLog({ precision: p }), distinct(n, `hip${p}`));
        h.addAll(distinct(n, `hip${p}`));
        expect(h.estimate("martingale")).toBeCloseTo(model, 6);
        expect(h.count("martingale")).toBe(Math.round(h.estimate("martingale")));
        h.checkInvariants();
      }),
      { seed: 160, numRuns: 40 },
    );
  });

  it("does not count duplicates and counts small sets exactly", () => {
    const h = new HyperLogLog();
    for (let i = 0; i < 3; i++) h.addAll(distinct(40, "dup"));
    expect(h.count("martingale")).toBe(40);
    expect(new HyperLogLog().count("martingale")).toBe(0);
  });

  it("is unavailable, with a reason, after merge, union, downsize and fromRedis; clear and clone keep the rules", () => {
    const a = HyperLogLog.from(distinct(100, "a"));
    const lost: [string, HyperLogLog, RegExp][] = [
      ["merge", a.clone().merge(HyperLogLog.from(["b"])), /merge\(\)/],
      ["merge of nothing new", a.clone().merge(new HyperLogLog()), /merge\(\)/],
      ["union", HyperLogLog.union([a, a]), /union\(\)/],
      ["downsize", a.downsize(12), /downsize\(\)/],
      ["fromRedis", HyperLogLog.fromRedis(a.toRedis()), /fromRedis\(\)/],
      ["fromBytes without state", HyperLogLog.fromBytes(a.clone().merge(a).toBytes()), /without the martingale state/],
    ];
    for (const [what, h, reason] of lost) {
      expect(() => h.count("martingale"), what).toThrow(reason);
      expect(() => h.count("martingale"), what).toThrow(/use count\(\) with the default estimator/);
      expect(() => h.bounds(2, "martingale"), what).toThrow(reason);
      expect(h.count(), what).toBeGreaterThan(0); // the other estimators still work
      const c = h.clone();
      expect(() => c.count("martingale")).toThrow(reason);
      h.clear();
      h.add("x");
      expect(h.count("martingale")).toBe(1);
      h.checkInvariants();
    }
    expect(a.clone().estimate("martingale")).toBe(a.estimate("martingale"));
    expect(a.downsize(14).estimate("martingale")).toBe(a.estimate("martingale")); // same precision: a copy
  });

  it("toBytes carries the state: the copy continues exactly where the original goes", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 16 }), fc.nat(3000), fc.nat(3000), (p, n1, n2) => {
        const h = HyperLogLog.from(distinct(n1, "rt"), { precision: p });
        const bytes = h.toBytes();
        const back = HyperLogLog.fromBytes(bytes);
        back.checkInvariants();
        expect(back.toBytes()).toEqual(bytes);
        expect(back.estimate("martingale")).toBe(h.estimate("martingale"));
        h.addAll(distinct(n2, "rt2"));
        back.addAll(distinct(n2, "rt2"));
        expect(back.estimate("martingale")).toBe(h.estimate("martingale"));
        expect(back.bounds(2, "martingale")).toEqual(h.bounds(2, "martingale"));
      }),
      { seed: 161, numRuns: 40 },
    );
  });

  it("refuses a format version it does not read, naming it", () => {
    const bytes = HyperLogLog.from(distinct(50, "v"), { precision: 12 }).toBytes();
    for (const v of [0, 1, 3, 255]) {
      const other = bytes.slice();
      other[4] = v;
      expect(() => HyperLogLog.fromBytes(other)).toThrow(new RegExp(`format version ${v} is not one this build reads`));
    }
  });

  it("refuses a stored state that contradicts the registers", () => {
    const h = HyperLogLog.from(distinct(300, "bad"), { precision: 10 });
    const good = h.toBytes();
    const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
    const cases: [number, number, RegExp][] = [
      [9, Number.NaN, /estimate NaN/],
      [9, -1, /estimate -1/],
      [9, 5, /estimate 5 is below the \d+ non-empty registers/],
      [17, Number.POSITIVE_INFINITY, /variance Infinity/],
      [25, 1024.5, /sum 1024.5 does not match the registers/],
      [25, 1000, /does not match the registers/],
    ];
    for (const [at, value, msg] of cases) {
      const b = good.slice();
      view(b).setFloat64(at, value, true);
      expect(() => HyperLogLog.fromBytes(b)).toThrow(RedstructFormatError);
      expect(() => HyperLogLog.fromBytes(b)).toThrow(msg);
    }
    const flags = good.slice();
    flags[8] = 2;
    expect(() => HyperLogLog.fromBytes(flags)).toThrow(/unknown flags 2/);
  });

  it("RMSE is within 3 standard errors of 0.833/√m (fixed seeds, n = 40m)", () => {
    // Relative sd of the martingale at large n: √(ln 2 / m) ≈ 0.8326/√m (Ertl 2017). A sample RMSE
    // over T trials has a relative standard error ≈ 1/√(2T).
    for (const p of [6, 8]) {
      const m = 2 ** p;
      const n = 40 * m;
      const trials = 300;
      const next = mulberry32(p);
      let sq = 0;
      let sqErtl = 0;
      for (let t = 0; t < trials; t++) {
        const h = new HyperLogLog({ precision: p });
        for (let i = 0; i < n; i++) h.addHash(next(), next());
        sq += (h.estimate("martingale") / n - 1) ** 2;
        sqErtl += (h.estimate("ertl") / n - 1) ** 2;
      }
      const rmse = Math.sqrt(sq / trials) * Math.sqrt(m);
      const rmseErtl = Math.sqrt(sqErtl / trials) * Math.sqrt(m);
      const se = 0.8326 / Math.sqrt(2 * trials);
      expect(Math.abs(rmse - 0.8326), `p=${p} martingale ${rmse}`).toBeLessThanOrEqual(3 * se);
      expect(Math.abs(rmseErtl - 1.0385), `p=${p} ertl ${rmseErtl}`).toBeLessThanOrEqual(
        (3 * 1.0385) / Math.sqrt(2 * trials),
      );
    }
  });
});

describe("HyperLogLog bounds", () => {
  it("cover the true count at the normal approximation's rate at 1, 2, 3 sd (and never less at small n)", () => {
    // p = 8, 400 trials: a coverage is measured ± 3·√(c(1 − c)/400) ≤ ±7 points (3 standard errors).
    const p = 8;
    const trials = 400;
    const ns = [3, 20, 100, 300, 1000, 5000, 40_000];
    const nominal = [0.6827, 0.9545, 0.9973];
    const hits = ns.map(() => [
      [0, 0, 0],
      [0, 0, 0],
    ]);
    const next = mulberry32(99);
    for (let t = 0; t < trials; t++) {
      const h = new HyperLogLog({ precision: p });
      let k = 0;
      ns.forEach((n, j) => {
        for (; k < n; k++) h.addHash(next(), next());
        for (let z = 1; z <= 3; z++) {
          for (const [e, est] of (["ertl", "martingale"] as const).entries()) {
            const b = h.bounds(z, est);
            expect(b.lower).toBeLessThanOrEqual(b.estimate);
            expect(b.upper).toBeGreaterThanOrEqual(b.estimate);
            if (b.lower <= n && n <= b.upper) hits[j]![e]![z - 1]!++;
          }
        }
      });
    }
    ns.forEach((n, j) => {
      for (let e = 0; e < 2; e++) {
        for (let z = 0; z < 3; z++) {
          const c = hits[j]![e]![z]! / trials;
          const tol = 3 * Math.sqrt((nominal[z]! * (1 - nominal[z]!)) / trials) + 0.005;
          // Below ≈ m/2 the sketch is exact or nearly (the count is discrete): coverage may only exceed.
          expect(c, `n=${n} ${e ? "martingale" : "ertl"} z=${z + 1}`).toBeGreaterThanOrEqual(nominal[z]! - tol);
          if (n >= 2 ** p) expect(c, `n=${n} z=${z + 1}`).toBeLessThanOrEqual(nominal[z]! + tol);
        }
      }
    });
  });

  it("are ordered, widen with stdDevs, and bound an empty sketch at 0", () => {
    expect(new HyperLogLog().bounds()).toEqual({ lower: 0, estimate: 0, upper: 0 });
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 14 }), fc.nat(20_000), (p, n) => {
        const h = HyperLogLog.from(distinct(n, "b"), { precision: p });
        let last = h.bounds(0.5);
        for (const z of [1, 2, 3]) {
          const b = h.bounds(z);
          expect(b.estimate).toBe(h.estimate("ertl"));
          expect(b.lower).toBeLessThanOrEqual(last.lower);
          expect(b.upper).toBeGreaterThanOrEqual(last.upper);
          let nonZero = 0;
          for (const r of h.registers()) if (r !== 0) nonZero++;
          expect(b.lower).toBeGreaterThanOrEqual(nonZero);
          last = b;
        }
      }),
      { seed: 162, numRuns: 40 },
    );
  });

  it("refuse a bad stdDevs or estimator", () => {
    const h = HyperLogLog.from(["a"]);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => h.bounds(bad)).toThrow(/redstruct\/HyperLogLog: stdDevs must be a finite number > 0/);
      expect(() => h.bounds(bad)).toThrow(RangeError);
    }
    for (const bad of [null, "2", {}, 2n]) expect(() => h.bounds(bad as never)).toThrow(TypeError);
    expect(() => h.bounds(2, "classic" as never)).toThrow(/estimator must be "ertl" or "martingale"/);
  });
});
