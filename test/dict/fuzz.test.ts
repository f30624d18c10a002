/**
 * Dict.fromBytes, fuzzed with 10^4 seeded hostile inputs per run: each loads into a dict that passes
 * checkInvariants() or throws a RedstructFormatError, nothing else.
 */
import { describe, expect, it } from "vitest";
import { Dict, type DictKey } from "../../src/dict/index.js";
import { fuzzDeserializer } from "../support/fuzz.js";

describe("Dict toBytes / fromBytes", () => {
  it("turns 10^4 hostile inputs into a dict or a RedstructFormatError, nothing else", () => {
    const valid = [
      new Dict().toBytes(),
      new Dict<DictKey, unknown>([
        ["a", 1],
        [2, null],
        [3n, true],
        [Uint8Array.of(9), "x"],
      ]).toBytes(),
      new Dict<DictKey, unknown>([
        [-1.5, 2n],
        ["\uD800é", Uint8Array.of(1)],
        [Number.NaN, undefined],
      ]).toBytes(),
    ];
    const counts = fuzzDeserializer(
      { name: "Dict.fromBytes", read: (b) => Dict.fromBytes(b), valid, use: (d) => d.set("z", 1).delete("a") },
      { seed: 0xd1c8, runs: 10_000 },
    );
    expect(counts.loaded).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });
});
