/**
 * CuckooFilter.fromRedis (chunk lists) and CuckooFilter.fromBytes, fuzzed with 10^4 seeded inputs
 * each per run: every input either loads into a filter that passes checkInvariants() or throws a
 * RedstructFormatError.
 */
import { describe, expect, it } from "vitest";
import { CuckooFilter, RedstructFormatError } from "../../src/cuckoo/index.js";
import { expectOnlyFormatErrors, fuzzDeserializer } from "../support/fuzz.js";

describe("CuckooFilter", () => {
  it("fromRedis only throws RedstructFormatError on hostile chunks (10^4 seeded inputs)", () => {
    const f = new CuckooFilter({ capacity: 8, bucketSize: 2, maxIterations: 3, expansion: 2 });
    for (let i = 0; i < 30; i++) f.add(`v${i}`);
    const dump = f.toRedis();
    expect(dump.length).toBeGreaterThan(2);
    const flat = new Uint8Array(dump.reduce((a, [, c]) => a + c.length, 0));
    let at = 0;
    for (const [, c] of dump) {
      flat.set(c, at);
      at += c.length;
    }
    // The chunks re-cut from one flat buffer at the dump's own boundaries, so corrupting the buffer
    // corrupts headers and data alike; positions follow the (possibly shortened) buffer.
    const read = (bytes: Uint8Array) => {
      const chunks: [number, Uint8Array][] = [];
      let off = 0;
      for (const [, c] of dump) {
        const part = bytes.subarray(off, Math.min(bytes.length, off + c.length));
        off += c.length;
        if (part.length === 0) break;
        chunks.push([chunks.length === 0 ? 1 : off - 38 + 1 - (c.length - part.length), part]);
      }
      return CuckooFilter.fromRedis(chunks);
    };
    expect(read(flat).toRedis()).toEqual(dump);
    expectOnlyFormatErrors(read, flat, {
      seed: 0xcf3,
      randomRuns: 8000,
      use: (x) => {
        try {
          x.add("new"); // a loaded filter may be full (expansion 0), at 32 sub-filters or at the slot limit
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError);
        }
        x.delete("v1");
        x.has("v2");
        x.checkInvariants();
      },
    });
    expect(() => CuckooFilter.fromRedis(null as unknown as [])).toThrow(/chunks must be/);
    expect(() => CuckooFilter.fromRedis([[1, "x" as unknown as Uint8Array]])).toThrow(
      /chunks\[0\]\[1\] must be a Uint8Array/,
    );
    expect(() => CuckooFilter.fromRedis([null as never])).toThrow(/chunks\[0\] must be a \[position, bytes\] pair/);
    expect(() => CuckooFilter.fromRedis([["1", dump[0]![1]] as never])).toThrow(/chunks\[0\]\[0\] must be a number/);
    expect(() => CuckooFilter.fromRedis([[0, dump[0]![1]]])).toThrow(RedstructFormatError);
    expect(() => CuckooFilter.fromRedis([dump[0]!, dump[2]!])).toThrow(/delivered/);
    expect(() => CuckooFilter.fromRedis([dump[0]!, dump[0]!])).toThrow(/second header/);
  });
  it("fromBytes only throws RedstructFormatError on hostile input (10^4 seeded inputs)", () => {
    const grown = new CuckooFilter({ capacity: 8, bucketSize: 2, maxIterations: 3, expansion: 2 });
    for (let i = 0; i < 30; i++) grown.add(`v${i}`);
    grown.delete("v3");
    const valid = [
      grown.toBytes(),
      new CuckooFilter({ capacity: 4, bucketSize: 1 }).toBytes(),
      CuckooFilter.from(["a", "b", "a"], { capacity: 6, bucketSize: 3, expansion: 0 }).toBytes(),
    ];
    const counts = fuzzDeserializer(
      {
        name: "CuckooFilter.fromBytes",
        read: CuckooFilter.fromBytes,
        valid,
        use: (x) => {
          const y = x.clone(); // use runs before write: x itself stays as loaded
          try {
            y.add("new");
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError);
          }
          y.delete("v1");
          y.has("v2");
          y.checkInvariants();
        },
        write: (x) => x.toBytes(),
      },
      { seed: 0xcf7, runs: 10_000 },
    );
    expect(counts.loaded).toBeGreaterThan(50);
    expect(counts.refused).toBeGreaterThan(5000);
    expect(() => CuckooFilter.fromBytes("x" as never)).toThrow(/bytes must be a Uint8Array/);
    expect(() => CuckooFilter.fromBytes(grown.toRedis()[0]![1])).toThrow(/not a CuckooFilter's toBytes\(\) output/);
  });
});
