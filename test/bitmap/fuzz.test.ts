/**
 * Bitmap's readers under hostile input, 10^4 seeded inputs each: `fromBytes` (random bytes, near-valid
 * corruptions and lying length fields of several valid outputs) either loads a bitmap that passes
 * checkInvariants(), answers queries and writes the very same bytes back, or throws
 * RedstructFormatError; `fromRedis` takes any string (every byte string is a Redis value) and gives
 * it back unchanged.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Bitmap } from "../../src/bitmap/index.js";
import { fuzzDeserializer } from "../support/fuzz.js";

/** Inputs per reader per run. */
const RUNS = 10_000;

function valid(): Bitmap[] {
  const grown = new Bitmap();
  for (let o = 0; o < 700; o += 3) grown.setBit(o, 1);
  const field = new Bitmap();
  field.bitfield([{ set: "i64", at: 5, value: -3n }]);
  return [new Bitmap(), Bitmap.from([0]), Bitmap.from([7, 64, 65, 200]), grown, field];
}

/** Queries a loaded bitmap must answer without throwing. */
function use(b: Bitmap): void {
  b.count(0, -1, { unit: "bit" });
  b.position(0);
  b.position(1, 1, -2);
  b.bitfield([
    { get: "i64", at: 3 },
    { get: "u7", at: "#2" },
  ]);
  expect([...b].length).toBe(b.size);
  Bitmap.op("xor", [b, b.clone()]).checkInvariants();
}

describe("Bitmap readers under fuzz", () => {
  it(`fromBytes: ${RUNS} seeded inputs load (and write back the same bytes) or throw RedstructFormatError`, () => {
    const counts = fuzzDeserializer(
      {
        name: "Bitmap.fromBytes",
        read: Bitmap.fromBytes,
        valid: valid().map((b) => b.toBytes()),
        use,
        write: (b) => b.toBytes(),
      },
      { seed: 0xb17, runs: RUNS },
    );
    expect(counts.loaded + counts.refused).toBe(RUNS);
    expect(counts.loaded).toBeGreaterThan(100);
    expect(counts.refused).toBeGreaterThan(RUNS / 2);
  });

  it(`fromRedis: ${RUNS} seeded byte strings each load and come back unchanged`, () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const b = Bitmap.fromRedis(bytes);
        b.checkInvariants();
        use(b);
        expect(b.toRedis()).toEqual(bytes);
        expect(b.byteLength).toBe(bytes.length);
      }),
      { seed: 0xb18, numRuns: RUNS },
    );
  });
});
