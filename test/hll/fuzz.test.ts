/**
 * Every deserializer of redstruct/hll, fuzzed: HyperLogLog `fromRedis` (sparse and dense HYLL
 * strings) and `fromBytes` with 10^4 seeded inputs each per run (random byte strings and near-valid
 * corruptions of valid inputs of several shapes), further runs from fixed seed blobs, and
 * UltraLogLog and ExaLogLog `fromBytes` with 12,000 each. Each input either loads into a sketch that
 * passes checkInvariants() — and, where the format promises it, writes back the very same bytes — or
 * throws a RedstructFormatError.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../../src/hll/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { corrupted, type Deserializer, describeDeserializers, fuzzDeserializer } from "../support/fuzz.js";
import { distinct } from "../support/hll.js";

/** Inputs per deserializer per run. */
const RUNS = 10_000;

const hll = (precision: number, n: number) => {
  const h = new HyperLogLog({ precision });
  for (let i = 0; i < n; i++) h.add(`hll:${i}`);
  return h;
};

/** Each deserializer with the seed of its run. */
const deserializers: [number, Deserializer<{ checkInvariants(): void }>][] = [
  [
    1403,
    {
      name: "HyperLogLog.fromRedis",
      read: (b) => HyperLogLog.fromRedis(b),
      // Sparse blobs (small), and one dense blob at Redis's precision.
      valid: [
        hll(14, 0).toRedis(),
        hll(14, 20).toRedis(),
        hll(14, 300).toRedis(),
        hll(14, 3).toRedis({ encoding: "dense" }),
      ],
      use: (h) => void (h as HyperLogLog).count(),
    },
  ],
  [
    1404,
    {
      name: "HyperLogLog.fromBytes",
      read: HyperLogLog.fromBytes,
      valid: [hll(4, 0).toBytes(), hll(4, 30).toBytes(), hll(6, 500).toBytes(), hll(10, 50).toBytes()],
      use: (h) => void (h as HyperLogLog).count(),
    },
  ],
];

describeDeserializers(deserializers, RUNS);

describe("HyperLogLog", () => {
  const formatError = (f: () => unknown) => expect(f).toThrow(RedstructFormatError);
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

describe("UltraLogLog", () => {
  it("fromBytes of 12,000 fuzzed buffers returns a valid sketch or throws RedstructFormatError", () => {
    const seeds = [
      new UltraLogLog({ precision: 3 }).toBytes(),
      UltraLogLog.from(distinct(40, "f"), { precision: 4 }).toBytes(),
      UltraLogLog.from(distinct(500, "f"), { precision: 6 })
        .merge(new UltraLogLog({ precision: 6 }))
        .toBytes(),
    ];
    const check = (bytes: Uint8Array) => {
      try {
        const u = UltraLogLog.fromBytes(bytes);
        u.checkInvariants();
        u.count();
        u.count("ml");
      } catch (e) {
        expect(e).toBeInstanceOf(RedstructFormatError);
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 120 }), check), { seed: 207, numRuns: 3000 });
    fc.assert(fc.property(fc.oneof(...seeds.map(corrupted)), check), { seed: 208, numRuns: 9000 });
    const bad = seeds[0]!.slice();
    bad[4] = 2;
    expect(() => UltraLogLog.fromBytes(bad)).toThrow(/version 2/);
    const impossible = seeds[2]!.slice();
    impossible[7] = 1; // (0, 0, 1): a flag without a run
    expect(() => UltraLogLog.fromBytes(impossible)).toThrow(/impossible state 1/);
  });
});

describe("ExaLogLog", () => {
  it("fromBytes of 12,000 fuzzed buffers returns a valid sketch that writes the same bytes, or throws RedstructFormatError", () => {
    const valid = [
      new ExaLogLog({ precision: 4 }).toBytes(),
      ExaLogLog.from(distinct(60, "f"), { precision: 4 }).toBytes(),
      ExaLogLog.from(distinct(60, "f"), { precision: 4, t: 1, d: 5 }).toBytes(),
      ExaLogLog.from(distinct(500, "f"), { precision: 5, t: 0, d: 2 })
        .merge(new ExaLogLog({ precision: 5, t: 0, d: 2 }))
        .toBytes(),
    ];
    const counts = fuzzDeserializer(
      {
        name: "ExaLogLog.fromBytes",
        read: (b) => ExaLogLog.fromBytes(b),
        valid,
        write: (e) => e.toBytes(),
        use: (e) => {
          e.count();
          e.bounds(2);
          e.toHyperLogLog();
          const more = e.clone();
          more.add("more");
          more.checkInvariants();
        },
      },
      { seed: 341, runs: 12_000, maxLength: 120 },
    );
    expect(counts.loaded).toBeGreaterThan(100);
    expect(counts.refused).toBeGreaterThan(1000);
  });
});
