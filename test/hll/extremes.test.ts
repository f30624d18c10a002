// Extreme register states for every estimator of HyperLogLog and UltraLogLog (registers at the
// longest run, mixes of saturated and empty registers, every precision), the martingale's running sum
// against its stored form, and the order of bounds() over random small and large sets.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Bounds, HyperLogLog, UltraLogLog } from "../../src/hll/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { mulberry32 } from "../../src/internal/random.js";
import { indexAndRun } from "../support/hll-model.js";

const MAX = 2 ** 64;
const HLL_ESTIMATORS = ["ertl", "classic", "martingale"] as const;
const HLL_BOUNDS = ["ertl", "martingale"] as const;
const ULL_ESTIMATORS = ["fgra", "ml", "martingale"] as const;

/** Hash halves that reach register `j` with run `r` (1..65 − p) at precision p. */
function hashFor(j: number, r: number, p: number): [number, number] {
  if (r === 65 - p) return [j, 0];
  if (p + r - 1 <= 31) return [(j | (1 << (p + r - 1))) >>> 0, 0];
  return [j, 2 ** (r - 33 + p)];
}

/**
 * A precision in [minP, maxP], then register cells (index, run) biased towards the longest runs, and
 * whether to saturate every third register first.
 */
const extremeCells = (minP: number, maxP: number) =>
  fc
    .integer({ min: minP, max: maxP })
    .chain((p) =>
      fc.tuple(
        fc.constant(p),
        fc.array(
          fc.tuple(
            fc.nat(2 ** p - 1),
            fc.oneof(fc.constantFrom(65 - p, 64 - p, 63 - p, 62 - p), fc.integer({ min: 1, max: 65 - p })),
          ),
          { maxLength: 4 * 2 ** p },
        ),
        fc.boolean(),
      ),
    );

function occupiedOf(regs: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < regs.length; i++) if (regs[i] !== 0) n++;
  return n;
}

/** A bounds() answer is ordered, finite at its lower end, floored at the occupied registers. */
function expectOrdered(b: Bounds, estimate: number, occupied: number, what: string): void {
  expect(Number.isNaN(b.lower) || Number.isNaN(b.estimate) || Number.isNaN(b.upper), what).toBe(false);
  expect(b.lower, what).toBeLessThanOrEqual(b.estimate);
  expect(b.estimate, what).toBeLessThanOrEqual(b.upper);
  expect(b.lower, what).toBeGreaterThanOrEqual(occupied);
  expect(Number.isFinite(b.lower) && Number.isFinite(b.estimate), what).toBe(true);
  expect(b.estimate, what).toBe(Math.max(estimate, occupied));
}

/** Every estimator and every bounds() of a HyperLogLog answers a finite, ordered, capped number. */
function checkHll(h: HyperLogLog, what: string): void {
  h.checkInvariants();
  const occupied = occupiedOf(h.registers());
  for (const e of HLL_ESTIMATORS) {
    const x = h.estimate(e);
    expect(Number.isFinite(x) && x >= 0 && x <= MAX, `${what} ${e}: ${x}`).toBe(true);
    expect(h.count(e), `${what} ${e}`).toBe(Math.round(x));
  }
  for (const e of HLL_BOUNDS) {
    for (const z of [0.5, 2, 3]) expectOrdered(h.bounds(z, e), h.estimate(e), occupied, `${what} ${e} z=${z}`);
  }
  // The state survives a round trip, and the copy goes on exactly as the original does.
  const back = HyperLogLog.fromBytes(h.toBytes());
  back.checkInvariants();
  expect(back.equals(h), what).toBe(true);
  expect(back.estimate("martingale"), what).toBe(h.estimate("martingale"));
}

/**
 * As checkHll for an UltraLogLog. `large`: a sketch of millions of registers, checked at one width
 * and without the round trip (each costs O(m)).
 */
function checkUll(u: UltraLogLog, what: string, { martingale = true, large = false } = {}): void {
  u.checkInvariants();
  const occupied = occupiedOf(u.registers());
  for (const e of ULL_ESTIMATORS) {
    if (e === "martingale" && !martingale) continue;
    const x = u.estimate(e);
    expect(Number.isFinite(x) && x >= 0 && x <= MAX, `${what} ${e}: ${x}`).toBe(true);
    for (const z of large ? [2] : [0.5, 2, 3]) expectOrdered(u.bounds(z, e), x, occupied, `${what} ${e} z=${z}`);
  }
  if (large) return;
  const back = UltraLogLog.fromBytes(u.toBytes());
  back.checkInvariants();
  expect(back.equals(u), what).toBe(true);
}

/** HyperLogLog states at precision p, built through addHash (so the martingale is live). */
function hllStates(p: number): [string, HyperLogLog][] {
  const m = 2 ** p;
  const q = 64 - p;
  const build = (f: (h: HyperLogLog) => void) => {
    const h = new HyperLogLog({ precision: p });
    f(h);
    return h;
  };
  const at = (h: HyperLogLog, j: number, r: number) => h.addHash(...hashFor(j, r, p));
  return [
    [
      "all registers at the longest run",
      build((h) => {
        for (let j = 0; j < m; j++) at(h, j, q + 1);
      }),
    ],
    [
      "even registers at the longest run, odd empty",
      build((h) => {
        for (let j = 0; j < m; j += 2) at(h, j, q + 1);
      }),
    ],
    [
      "all registers at q",
      build((h) => {
        for (let j = 0; j < m; j++) at(h, j, q);
      }),
    ],
    [
      "all but one at the longest run, one at q",
      build((h) => {
        for (let j = 0; j < m; j++) at(h, j, j === 0 ? q : q + 1);
      }),
    ],
    ["one register at the longest run", build((h) => at(h, m - 1, q + 1))],
    [
      "runs climbing to the top in every register",
      build((h) => {
        for (let r = 1; r <= q + 1; r += r < q - 2 ? 5 : 1) for (let j = 0; j < m; j++) at(h, j, r);
      }),
    ],
  ];
}

describe("HyperLogLog on extreme registers: every estimator, every precision", () => {
  it("answers finite, capped, ordered numbers and keeps its invariants, 4..18", () => {
    for (let p = 4; p <= 18; p++) {
      for (const [state, h] of hllStates(p)) {
        checkHll(h, `p=${p} ${state}`);
        // One more add leaves everything consistent (and a round trip still matches).
        const [low, high] = hashFor(0, 1, p);
        h.addHash(low, high);
        checkHll(h, `p=${p} ${state} + 1`);
      }
    }
  });

  it("a saturated sketch answers 2^64 with ertl and classic; the martingale stays finite", () => {
    for (let p = 4; p <= 18; p++) {
      const h = new HyperLogLog({ precision: p });
      for (let j = 0; j < 2 ** p; j++) h.addHash(j, 0);
      expect(h.count("ertl"), `p=${p}`).toBe(MAX);
      expect(h.count("classic"), `p=${p}`).toBe(MAX);
      expect(Number.isFinite(h.count("martingale"))).toBe(true);
      expect(h.bounds(2).estimate).toBe(MAX);
      expect(h.bounds(2).lower).toBeLessThanOrEqual(MAX);
    }
  });

  it("Redis blobs of saturated registers: read, counted at 2^64, written with a stale cache", () => {
    const states = hllStates(14);
    const h = states[0]![1];
    for (const encoding of ["auto", "dense"] as const) {
      const blob = h.toRedis({ encoding });
      // The count does not fit Redis's 63-bit cache: the header says "stale", so Redis recounts.
      expect(Array.from(blob.subarray(8, 16))).toEqual([0, 0, 0, 0, 0, 0, 0, 0x80]);
      const back = HyperLogLog.fromRedis(blob);
      back.checkInvariants();
      expect(back.equals(h)).toBe(true);
      expect(back.count()).toBe(MAX);
    }
    // All registers at q: ≈ 1.33·10^19, past 2^63 too, so stale as well.
    const atQ = states[2]![1];
    expect(atQ.count()).toBeGreaterThanOrEqual(2 ** 63);
    expect(atQ.toRedis()[15]).toBe(0x80);
    // A count that fits is a valid cache holding the count.
    const small = HyperLogLog.from(["a", "b", "c"]);
    expect(small.toRedis({ encoding: "dense" })[8]).toBe(3);
    expect(small.toRedis({ encoding: "dense" })[15]).toBe(0);
  });

  it("property: any mix of extreme and ordinary registers gives finite, ordered answers", () => {
    fc.assert(
      fc.property(extremeCells(4, 14), ([p, cells, saturateFirst]) => {
        const h = new HyperLogLog({ precision: p });
        if (saturateFirst) for (let j = 0; j < 2 ** p; j += 3) h.addHash(...hashFor(j, 65 - p, p));
        for (const [j, r] of cells) h.addHash(...hashFor(j, r, p));
        checkHll(h, `p=${p}`);
      }),
      { seed: 2401, numRuns: 150 },
    );
  });

  it("hashFor reaches the register and run it names (checked against the BigInt model)", () => {
    for (const p of [4, 9, 14, 18, 26]) {
      for (let r = 1; r <= 65 - p; r++) {
        const [low, high] = hashFor(5, r, p);
        expect(indexAndRun((BigInt(high) << 32n) | BigInt(low), p)).toEqual([5, r]);
      }
    }
  });
});

/** UltraLogLog states at precision p through addHash: top runs only, full registers, a mix. */
function ullStates(p: number): [string, UltraLogLog][] {
  const m = 2 ** p;
  const q = 64 - p;
  const build = (step: number, runs: number[]) => {
    const u = new UltraLogLog({ precision: p });
    for (let j = 0; j < m; j += step) for (const r of runs) u.addHash(...hashFor(j, r, p));
    return u;
  };
  return [
    ["every register at the longest run", build(1, [q + 1])],
    ["every register full: runs q + 1, q, q − 1", build(1, [q + 1, q, q - 1])],
    ["even registers full, odd empty", build(2, [q + 1, q, q - 1])],
    ["every register at q with both flags", build(1, [q, q - 1, q - 2])],
  ];
}

/** Crafted toBytes() of an UltraLogLog whose registers are all `state` (no martingale state). */
function craftedUll(p: number, state: (j: number) => number): Uint8Array {
  const m = 2 ** p;
  const bytes = new Uint8Array(7 + m);
  bytes.set([0x52, 0x55, 0x4c, 0x4c, 1, p, 0]); // "RULL", version 1, precision, no flags
  for (let j = 0; j < m; j++) bytes[7 + j] = state(j);
  return bytes;
}

describe("UltraLogLog on extreme registers: every estimator, every precision", () => {
  it("answers finite, capped, ordered numbers and keeps its invariants, 3..16 (through addHash)", () => {
    for (let p = 3; p <= 16; p++) {
      for (const [state, u] of ullStates(p)) {
        checkUll(u, `p=${p} ${state}`);
        u.addHash(...hashFor(1, 1, p));
        checkUll(u, `p=${p} ${state} + 1`);
      }
    }
  });

  it("a saturated sketch answers 2^64 with fgra and ml; the martingale stays finite", () => {
    for (let p = 3; p <= 16; p++) {
      const u = ullStates(p)[1]![1];
      expect(u.count("fgra"), `p=${p}`).toBe(MAX);
      expect(u.count("ml"), `p=${p}`).toBe(MAX);
      const mart = u.count("martingale");
      expect(Number.isFinite(mart) && mart <= MAX, `p=${p} ${mart}`).toBe(true);
    }
  });

  it("17..20 and 26: saturated and mixed registers read from bytes, and the martingale over a saturated block", () => {
    // 21..25 hold nothing 20 and 26 do not: the same code with more registers (O(m) per check).
    for (const p of [17, 18, 19, 20, 26]) {
      const q = 64 - p;
      const full = ((q + 1) << 2) | 3;
      const large = p > 20;
      const sat = UltraLogLog.fromBytes(craftedUll(p, () => full));
      checkUll(sat, `p=${p} saturated`, { martingale: false, large });
      expect(sat.count("fgra")).toBe(MAX);
      expect(sat.count("ml")).toBe(MAX);
      if (!large) {
        checkUll(UltraLogLog.fromBytes(craftedUll(p, (j) => (j & 1 ? 0 : full))), `p=${p} half`, { martingale: false });
      }
      // The martingale through its own adds: 2^10 registers driven to the top, the rest empty.
      const u = new UltraLogLog({ precision: p });
      for (let j = 0; j < 1024; j++) for (const r of [q + 1, q, q - 1]) u.addHash(...hashFor(j, r, p));
      checkUll(u, `p=${p} saturated block`, { large });
    }
  });

  it("property: any mix of extreme and ordinary runs gives finite, ordered answers", () => {
    fc.assert(
      fc.property(extremeCells(3, 12), ([p, cells, saturateFirst]) => {
        const u = new UltraLogLog({ precision: p });
        if (saturateFirst) for (let j = 0; j < 2 ** p; j += 3) u.addHash(...hashFor(j, 65 - p, p));
        for (const [j, r] of cells) u.addHash(...hashFor(j, r, p));
        checkUll(u, `p=${p}`);
      }),
      { seed: 2402, numRuns: 150 },
    );
  });
});

/** The next double above a positive x. */
function nextUp(x: number): number {
  const f = new Float64Array([x]);
  const bits = new BigUint64Array(f.buffer);
  bits[0]! += 1n;
  return f[0]!;
}
function nextDown(x: number): number {
  const f = new Float64Array([x]);
  const bits = new BigUint64Array(f.buffer);
  bits[0]! -= 1n;
  return f[0]!;
}

describe("the stored martingale sum must equal the registers' exactly", () => {
  // Offsets of the stored sum: HyperLogLog 9 header bytes + estimate + variance; UltraLogLog 7 + 16.
  const cases = [
    {
      name: "HyperLogLog",
      at: 25,
      make: (p: number, cells: [number, number][]) => {
        const h = new HyperLogLog({ precision: p });
        for (const [j, r] of cells) h.addHash(...hashFor(j, Math.min(r, 65 - p), p));
        return h;
      },
      read: (b: Uint8Array) => HyperLogLog.fromBytes(b),
      minP: 4,
    },
    {
      name: "UltraLogLog",
      at: 23,
      make: (p: number, cells: [number, number][]) => {
        const u = new UltraLogLog({ precision: p });
        for (const [j, r] of cells) u.addHash(...hashFor(j, Math.min(r, 65 - p), p));
        return u;
      },
      read: (b: Uint8Array) => UltraLogLog.fromBytes(b),
      minP: 3,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: a sum one ulp off (above m included) is refused; the exact one reads back and goes on`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: c.minP, max: 12 }),
          fc.array(fc.tuple(fc.nat(4095), fc.integer({ min: 1, max: 62 })), { maxLength: 600 }),
          (p, raw) => {
            const cells = raw.map(([j, r]) => [j % 2 ** p, r] as [number, number]);
            const s = c.make(p, cells);
            const good = s.toBytes();
            const view = new DataView(good.buffer, good.byteOffset, good.byteLength);
            const sum = view.getFloat64(c.at, true);
            for (const wrong of [nextUp(sum), sum > 0 ? nextDown(sum) : nextUp(nextUp(sum))]) {
              const bad = good.slice();
              new DataView(bad.buffer).setFloat64(c.at, wrong, true);
              expect(() => c.read(bad)).toThrow(RedstructFormatError);
              expect(() => c.read(bad)).toThrow(/martingale sum .* does not match the registers/);
            }
            const back = c.read(good);
            back.checkInvariants();
            for (const [j, r] of cells.slice(0, 20)) {
              const [low, high] = hashFor((j + 1) % 2 ** p, Math.min(r + 1, 65 - p), p);
              back.addHash(low, high);
              s.addHash(low, high);
            }
            back.checkInvariants();
            expect(back.estimate("martingale")).toBe(s.estimate("martingale"));
            expect(c.read(back.toBytes()).estimate("martingale")).toBe(back.estimate("martingale"));
          },
        ),
        { seed: 2403, numRuns: 120 },
      );
    });
  }

  it("an empty sketch's stored state must be the empty one", () => {
    for (const s of [new HyperLogLog({ precision: 10 }), new UltraLogLog({ precision: 10 })]) {
      const bytes = s.toBytes();
      const at = s instanceof HyperLogLog ? 9 : 7;
      const view = new DataView(bytes.buffer);
      expect(view.getFloat64(at + 16, true)).toBe(1024);
      const read = (b: Uint8Array) => (s instanceof HyperLogLog ? HyperLogLog.fromBytes(b) : UltraLogLog.fromBytes(b));
      const above = bytes.slice();
      new DataView(above.buffer).setFloat64(at + 16, nextUp(1024), true);
      expect(() => read(above)).toThrow(/sum 1024.0000000000002 does not match the registers \(1024\)/);
      const estimate = bytes.slice();
      new DataView(estimate.buffer).setFloat64(at, 3, true);
      expect(() => read(estimate)).toThrow(/for empty registers/);
    }
  });
});

describe("bounds() are ordered: lower ≤ estimate ≤ upper", () => {
  it("for one item at precision 17 (the estimate is raised to the occupied register)", () => {
    const h = HyperLogLog.from(["only"], { precision: 17 });
    expect(h.estimate()).toBeLessThan(1);
    const b = h.bounds();
    expect(b.lower).toBe(1);
    expect(b.estimate).toBe(1);
    expect(b.upper).toBeGreaterThanOrEqual(1);
  });

  /** A random set of n distinct items (n small or large), from a seed. */
  const set = fc.tuple(fc.oneof(fc.nat(40), fc.nat(400), fc.integer({ min: 0, max: 60_000 })), fc.nat());

  const families = [
    {
      name: "HyperLogLog",
      make: (p: number) => new HyperLogLog({ precision: p }),
      p: [4, 18],
      estimators: HLL_BOUNDS,
      runs: 400,
    },
    {
      name: "UltraLogLog",
      make: (p: number) => new UltraLogLog({ precision: p }),
      p: [3, 20],
      estimators: ULL_ESTIMATORS,
      runs: 200,
    },
  ] as const;
  for (const f of families) {
    it(`${f.name}, every precision ${f.p[0]}..${f.p[1]} and estimator, random small and large sets`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: f.p[0], max: f.p[1] }),
          set,
          fc.double({ min: 0.1, max: 5, noNaN: true }),
          (p, [n, seed], z) => {
            const s = f.make(p);
            const next = mulberry32(seed);
            for (let i = 0; i < n; i++) s.addHash(next(), next());
            const occupied = occupiedOf(s.registers());
            for (const e of f.estimators) {
              const estimate = (s.estimate as (e: string) => number).call(s, e);
              const bounds = (s.bounds as (z: number, e: string) => Bounds).call(s, z, e);
              expectOrdered(bounds, estimate, occupied, `p=${p} n=${n} ${e}`);
            }
          },
        ),
        { seed: 2404, numRuns: f.runs },
      );
    });
  }

  it("UltraLogLog at precision 26 (2^26 registers), small and large", () => {
    for (const p of [26]) {
      const u = new UltraLogLog({ precision: p });
      const next = mulberry32(p);
      let added = 0;
      for (const n of [1, 100_000]) {
        for (; added < n; added++) u.addHash(next(), next());
        const occupied = occupiedOf(u.registers());
        for (const e of ULL_ESTIMATORS) expectOrdered(u.bounds(2, e), u.estimate(e), occupied, `p=${p} n=${n} ${e}`);
      }
    }
  });
});
