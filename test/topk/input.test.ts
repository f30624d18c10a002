/**
 * Careless and hostile arguments to TopK: every argument checked before anything changes, naming
 * the structure and the parameter; a `random` callback that reads the same sketch changes nothing,
 * one that updates it gets a clear Error while the update it interrupts stays whole; an iterator
 * that re-enters addAll between items.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { glibcRandom, TopK } from "../../src/topk/index.js";
import { detached } from "../support/redisbloom.js";

describe("TopK arguments and callbacks", () => {
  it("validates its arguments, naming the structure and the parameter, before anything changes", () => {
    expect(() => new TopK(undefined as unknown as { k: number })).toThrow(TypeError);
    expect(() => new TopK(null as unknown as { k: number })).toThrow(TypeError);
    expect(() => new TopK({} as { k: number })).toThrow(/k must be/);
    expect(() => new TopK({ k: 0 })).toThrow(/k must be/);
    expect(() => new TopK({ k: 2, width: 0 })).toThrow(/width must be/);
    expect(() => new TopK({ k: 2, depth: 1.5 })).toThrow(/depth must be/);
    expect(() => new TopK({ k: 2, decay: 0 })).toThrow(/decay must be/);
    expect(() => new TopK({ k: 2, decay: 1.0000001 })).toThrow(/decay must be/);
    expect(() => new TopK({ k: 2, decay: Number.NaN })).toThrow(/decay must be/);
    expect(() => new TopK({ k: 2, width: 2 ** 14, depth: 2 ** 13 })).toThrow(/width·depth/);
    expect(() => new TopK({ k: 2, random: 5 as unknown as () => number })).toThrow(/random must be/);
    expect(() => new TopK({ k: 2, Width: 4 } as unknown as { k: number })).toThrow(/unknown option "Width".*"width"/);
    expect(() => new TopK({ k: 2, width: null } as unknown as { k: number })).toThrow(TypeError);
    const t = new TopK({ k: 2, random: glibcRandom(1) });
    t.add("kept");
    const before = t.toBytes();
    expect(() => t.incrBy("a", 100_001)).toThrow(/n must be/);
    expect(() => t.incrBy("a", -1)).toThrow(RangeError);
    for (const bad of [null, undefined, {}, true, detached(new Uint8Array([1, 2]))]) {
      for (const call of [
        () => t.add(bad as never),
        () => t.incrBy(bad as never, 1),
        () => t.has(bad as never),
        () => t.count(bad as never),
      ]) {
        expect(call).toThrow(TypeError);
        expect(call).toThrow(/^redstruct\/TopK: item (must be|is a Uint8Array whose buffer was detached)/);
      }
    }
    expect(() => t.addAll(["kept", null as never])).toThrow(/TopK: items\[1\] must be/);
    expect(() => t.addAll("abc" as unknown as string[])).toThrow(TypeError);
    expect(() => t.list({ withcount: true } as never)).toThrow(/unknown option "withcount".*"withCount"/);
    expect(() => t.list({ withCount: "yes" } as never)).toThrow(/withCount must be a boolean/);
    expect(() => TopK.fromBytes(t.toBytes(), { seed: 1 } as unknown as { random: () => number })).toThrow(TypeError);
    expect(() => TopK.fromBytes(t.toBytes(), { random: 1 } as never)).toThrow(/random must be a function/);
    expect(() => TopK.fromBytes(detached(before))).toThrow(/bytes is a Uint8Array whose buffer was detached/);
    expect(() => JSON.stringify(t)).toThrow(/not JSON.*toBytes\(\)/);
    t.addAll([]);
    const again = TopK.fromBytes(before, { random: glibcRandom(1) });
    again.add("kept"); // the addAll above added "kept" once more before its bad item
    expect(t.toBytes()).toEqual(again.toBytes());
  });
  /** Every read of a sketch, as a callback may run it in the middle of an update. */
  const reads: ((t: TopK, x: string) => unknown)[] = [
    (t, x) => t.has(x),
    (t, x) => t.count(x),
    (t) => t.list(),
    (t) => t.list({ withCount: true }),
    (t) => t.info(),
    (t) => t.toBytes(),
    (t) => t.byteLength,
    (t) => t.clone().list(),
    (t) => t.checkInvariants(),
    (t, x) => t.count(`${x}é`), // a non-ASCII item: the shared UTF-8 scratch
  ];
  const writes: ((t: TopK, x: string) => unknown)[] = [
    (t, x) => t.add(x),
    (t, x) => t.addAll([x]),
    (t, x) => t.incrBy(x, 3),
    (t) => t.clear(),
  ];
  const streamOf = fc.array(fc.constantFrom("k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "热"), {
    minLength: 1,
    maxLength: 300,
  });
  it("a random callback that reads the same sketch changes nothing: equal to a plain run (seeded, 200 cases)", () => {
    fc.assert(
      fc.property(
        streamOf,
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.array(fc.nat(reads.length - 1), { minLength: 1 }),
        (stream, seed, which) => {
          const draws = glibcRandom(seed);
          let calls = 0;
          const t: TopK = new TopK({
            k: 3,
            width: 4,
            depth: 3,
            random: () => {
              reads[which[calls % which.length]!]!(t, stream[calls % stream.length]!);
              calls++;
              return draws();
            },
          });
          const plain = new TopK({ k: 3, width: 4, depth: 3, random: glibcRandom(seed) });
          expect(t.addAll(stream)).toEqual(plain.addAll(stream));
          expect(t.incrBy("k1", 40)).toEqual(plain.incrBy("k1", 40));
          t.checkInvariants();
          expect(t.toBytes()).toEqual(plain.toBytes());
          expect(t.list({ withCount: true })).toEqual(plain.list({ withCount: true }));
        },
      ),
      { seed: 0x711, numRuns: 200 },
    );
  });
  it("a random callback that updates the same sketch gets a clear Error; the update it interrupts stays whole (seeded)", () => {
    fc.assert(
      fc.property(
        streamOf,
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.nat(writes.length - 1),
        fc.boolean(),
        (stream, seed, w, rethrow) => {
          const draws = glibcRandom(seed);
          let refused = 0;
          const t: TopK = new TopK({
            k: 3,
            width: 4,
            depth: 3,
            random: () => {
              try {
                writes[w]!(t, "intruder");
              } catch (e) {
                expect(e).toBeInstanceOf(Error);
                expect((e as Error).message).toMatch(
                  /^redstruct\/TopK: .* was called from inside this sketch's random callback/,
                );
                refused++;
                if (rethrow) throw e;
              }
              return draws();
            },
          });
          const plain = new TopK({ k: 3, width: 4, depth: 3, random: glibcRandom(seed) });
          for (const x of stream) {
            const before = t.toBytes();
            let threw = false;
            let got: string | null = null;
            try {
              got = t.add(x);
            } catch (e) {
              threw = true;
              expect((e as Error).message).toMatch(/random callback/);
            }
            if (threw) {
              // The callback let the error through: the interrupted add changed nothing.
              expect(t.toBytes()).toEqual(before);
              t.checkInvariants();
              return; // the two runs' draws part ways here
            }
            expect(got).toBe(plain.add(x));
          }
          t.checkInvariants();
          expect(t.toBytes()).toEqual(plain.toBytes());
          if (refused > 0 && !rethrow) expect(t.list()).toEqual(plain.list());
        },
      ),
      { seed: 0x712, numRuns: 200 },
    );
  });
  it("an iterator that re-enters addAll between items works: each item is added in turn", () => {
    const t = new TopK({ k: 3, width: 8, depth: 3, random: glibcRandom(2) });
    const plain = new TopK({ k: 3, width: 8, depth: 3, random: glibcRandom(2) });
    function* items(): Generator<string> {
      for (let i = 0; i < 50; i++) {
        t.add("side");
        t.count("x");
        yield `x${i % 4}`;
      }
    }
    t.addAll(items());
    for (let i = 0; i < 50; i++) {
      plain.add("side");
      plain.add(`x${i % 4}`);
    }
    t.checkInvariants();
    expect(t.toBytes()).toEqual(plain.toBytes());
  });
});
