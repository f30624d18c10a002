/**
 * TopK `fromBytes`, fuzzed: 10^4 seeded inputs per deserializer per run (random byte strings and
 * near-valid corruptions of valid inputs of several shapes), each of which must either load into a
 * structure that passes checkInvariants() — and, where the format promises it, write back the very
 * same bytes — or throw a RedstructFormatError.
 */
import { describe, it } from "vitest";
import { glibcRandom, TopK } from "../../src/topk/index.js";
import { type Deserializer, describeDeserializers, expectOnlyFormatErrors } from "../support/fuzz.js";

/** Inputs per deserializer per run. */
const RUNS = 10_000;

const topkValid = (): Uint8Array[] => {
  const a = new TopK({ k: 3, width: 8, depth: 3 });
  const empty = a.toBytes();
  for (let i = 0; i < 40; i++) a.add(`t${i % 9}`);
  return [empty, a.toBytes(), new TopK({ k: 1, width: 2, depth: 1 }).toBytes()];
};

/** Each deserializer with the seed of its run. */
const deserializers: [number, Deserializer<{ checkInvariants(): void }>][] = [
  [
    1406,
    {
      name: "TopK.fromBytes",
      read: (b) => TopK.fromBytes(b),
      valid: topkValid(),
      use: (t) => void (t as TopK).has("t1"),
    },
  ],
];

describeDeserializers(deserializers, RUNS);

describe("TopK", () => {
  it("fromBytes only throws RedstructFormatError on hostile input (10^4 seeded inputs)", () => {
    const t = new TopK({ k: 4, width: 5, depth: 3, random: glibcRandom(1) });
    t.addAll(["a", "b", "a", "c", "d", "e", "a", "b", "f", new Uint8Array([0, 1, 2])]);
    expectOnlyFormatErrors((b) => TopK.fromBytes(b, { random: glibcRandom(1) }), t.toBytes(), {
      seed: 0x70d,
      randomRuns: 8000,
      use: (x) => {
        x.add("a");
        x.list();
        x.checkInvariants();
      },
    });
  });
});
