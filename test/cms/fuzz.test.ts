/**
 * CountMinSketch `fromBytes`, fuzzed: 10^4 seeded inputs per deserializer per run (random byte strings and
 * near-valid corruptions of valid inputs of several shapes), each of which must either load into a
 * structure that passes checkInvariants() — and, where the format promises it, write back the very
 * same bytes — or throw a RedstructFormatError.
 */
import { describe, it } from "vitest";
import { CountMinSketch } from "../../src/cms/index.js";
import { type Deserializer, describeDeserializers, expectOnlyFormatErrors } from "../support/fuzz.js";

/** Inputs per deserializer per run. */
const RUNS = 10_000;

const cmsValid = (): Uint8Array[] => {
  const a = new CountMinSketch({ width: 8, depth: 3 });
  const empty = a.toBytes();
  for (let i = 0; i < 20; i++) a.incrBy(`c${i % 7}`, i + 1);
  return [empty, a.toBytes(), new CountMinSketch({ width: 3, depth: 1 }).toBytes()];
};

/** Each deserializer with the seed of its run. */
const deserializers: [number, Deserializer<{ checkInvariants(): void }>][] = [
  [
    1405,
    {
      name: "CountMinSketch.fromBytes",
      read: CountMinSketch.fromBytes,
      valid: cmsValid(),
      use: (c) => void (c as CountMinSketch).count("c1"),
    },
  ],
];

describeDeserializers(deserializers, RUNS);

describe("CountMinSketch", () => {
  it("fromBytes only throws RedstructFormatError on hostile input (10^4 seeded inputs)", () => {
    const s = new CountMinSketch({ width: 7, depth: 3 });
    for (let i = 0; i < 30; i++) s.incrBy(`k${i}`, i);
    expectOnlyFormatErrors(CountMinSketch.fromBytes, s.toBytes(), {
      seed: 0xc38,
      randomRuns: 8000,
      use: (x) => x.count("k1"),
    });
  });
});
