import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RedstructFormatError } from "../../src/internal/errors.js";

/**
 * Corruptions of a valid serialized buffer: one to four bytes overwritten, then the buffer cut short
 * (down to empty) or extended by up to 8 zero bytes. Near-valid input reaches deeper into a parser
 * than random bytes do, which is where a missing bounds check hides.
 */
export function corrupted(valid: Uint8Array): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(
      fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: -valid.length, max: 8 }),
    )
    .map(([edits, resize]) => {
      const bytes = new Uint8Array(Math.max(0, valid.length + resize));
      bytes.set(valid.subarray(0, bytes.length));
      for (const [i, b] of edits) if (i < bytes.length) bytes[i] = b;
      return bytes;
    });
}

/** What the serializer tests need of a structure read back from bytes. */
interface ReadBack {
  checkInvariants(): void;
}

/**
 * Asserts that `read` (a `fromBytes`) turns hostile input into either a structure that passes its
 * own invariant check and survives `use`, or a RedstructFormatError — nothing else: for random
 * buffers and for near-valid corruptions of `valid`. Seeds `seed` and `seed + 1`.
 */
export function expectOnlyFormatErrors<T extends ReadBack>(
  read: (bytes: Uint8Array) => T,
  valid: Uint8Array,
  {
    seed,
    use = () => {},
    randomRuns = 500,
    maxLength = 200,
  }: { seed: number; use?: (x: T) => void; randomRuns?: number; maxLength?: number },
): void {
  const check = (bytes: Uint8Array) => {
    try {
      const x = read(bytes);
      x.checkInvariants();
      use(x);
    } catch (e) {
      expect(e).toBeInstanceOf(RedstructFormatError);
    }
  };
  fc.assert(fc.property(fc.uint8Array({ maxLength }), check), { seed, numRuns: randomRuns });
  fc.assert(fc.property(corrupted(valid), check), { seed: seed + 1, numRuns: 2000 });
}

/**
 * A checker of specific corruptions of `good`: `bad(edit, msg)` expects `read` to throw a
 * RedstructFormatError matching `msg` on `edit(copy of good)`; `patch(at, ...bytes)` is an edit
 * that overwrites bytes from offset `at` (negative: from the end).
 */
export function corruptionsOf(read: (bytes: Uint8Array) => unknown, good: Uint8Array) {
  return {
    bad(edit: (b: Uint8Array) => Uint8Array, msg: RegExp): void {
      const b = edit(good.slice());
      expect(() => read(b)).toThrow(RedstructFormatError);
      expect(() => read(b)).toThrow(msg);
    },
    patch:
      (at: number, ...values: number[]) =>
      (b: Uint8Array): Uint8Array => {
        b.set(values, at < 0 ? b.length + at : at);
        return b;
      },
  };
}

/** 8-byte little-endian patterns that make header fields lie: −0, NaN, ±∞, 1, 2^53 − 1, 2^64 − 1, … */
const LIES: Uint8Array[] = (() => {
  const out: Uint8Array[] = [];
  const f64 = (v: number) => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    return b;
  };
  for (const v of [-0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1, -1, 0.5, 2, 5e-324]) {
    out.push(f64(v));
  }
  const u64 = (lo: number, hi: number) => {
    const b = new Uint8Array(8);
    const view = new DataView(b.buffer);
    view.setUint32(0, lo, true);
    view.setUint32(4, hi, true);
    return b;
  };
  out.push(
    u64(0xffffffff, 0x1fffff),
    u64(0xffffffff, 0xffffffff),
    u64(0, 0x200000),
    u64(1, 0),
    u64(0, 0),
    u64(0x80000000, 0),
  );
  return out;
})();

/**
 * Near-valid inputs whose fields lie: a valid input with one 8-byte pattern from {@link LIES} (or its
 * first 1, 2 or 4 bytes) written at any offset, so every header field is fed −0, NaN, 2^53 − 1 and
 * the like far more often than random byte edits would.
 */
export function lying(valid: Uint8Array): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(fc.nat(Math.max(0, valid.length - 1)), fc.nat(LIES.length - 1), fc.constantFrom(1, 2, 4, 8))
    .map(([at, which, width]) => {
      const bytes = valid.slice();
      bytes.set(LIES[which]!.subarray(0, Math.min(width, bytes.length - at)), at);
      return bytes;
    });
}

/** One deserializer under fuzz: how to read bytes, valid inputs to corrupt, what to do with a result. */
export interface Deserializer<T extends ReadBack> {
  /** Name shown in failures, e.g. "BloomFilter.fromBytes". */
  name: string;
  read(bytes: Uint8Array): T;
  /** Valid serialized inputs, of several shapes: the corruptions start from these. */
  valid: Uint8Array[];
  /** Exercise a structure that loaded (queries, adds) — it must not throw. */
  use?(x: T): void;
  /** When given: a structure that loads writes these bytes back exactly (`toBytes(fromBytes(b)) = b`). */
  write?(x: T): Uint8Array;
}

/** Counts from {@link fuzzDeserializer}: how many inputs loaded and how many were refused. */
interface FuzzCounts {
  loaded: number;
  refused: number;
}

/**
 * Feeds `runs` seeded inputs to a deserializer — a tenth random byte strings (up to `maxLength`), six
 * tenths near-valid corruptions of its valid inputs ({@link corrupted}), three tenths valid inputs
 * with a lying field ({@link lying}) — and asserts that each
 * either loads into a structure that passes `checkInvariants()`, survives `use` and (with `write`)
 * writes the input back exactly, or throws a RedstructFormatError; nothing else (no RangeError,
 * TypeError, engine error, hang on the input's say). Returns the counts.
 */
export function fuzzDeserializer<T extends ReadBack>(
  d: Deserializer<T>,
  { seed, runs, maxLength = 256 }: { seed: number; runs: number; maxLength?: number },
): FuzzCounts {
  const counts: FuzzCounts = { loaded: 0, refused: 0 };
  const input = fc.oneof(
    { weight: 1, arbitrary: fc.uint8Array({ maxLength }) },
    { weight: 6, arbitrary: fc.oneof(...d.valid.map((v) => corrupted(v))) },
    { weight: 3, arbitrary: fc.oneof(...d.valid.map((v) => lying(v))) },
  );
  fc.assert(
    fc.property(input, (bytes) => {
      const copy = bytes.slice();
      let x: T;
      try {
        x = d.read(bytes);
      } catch (e) {
        if (!(e instanceof RedstructFormatError)) {
          throw new Error(
            `${d.name}: threw ${(e as Error)?.name} "${(e as Error)?.message}", not a RedstructFormatError`,
          );
        }
        counts.refused++;
        return;
      }
      x.checkInvariants();
      d.use?.(x);
      if (d.write) expect(d.write(x)).toEqual(copy);
      counts.loaded++;
    }),
    { seed, numRuns: runs },
  );
  return counts;
}

/**
 * One test per deserializer: `runs` seeded inputs through {@link fuzzDeserializer} (the seed given
 * beside each), every input counted, and both outcomes seen — the corruptions reach past the first
 * checks into the structure.
 */
export function describeDeserializers<T extends ReadBack>(
  deserializers: [number, Deserializer<T>][],
  runs: number,
): void {
  describe(`${runs} seeded inputs per deserializer: only RedstructFormatError or a sound structure`, () => {
    for (const [seed, d] of deserializers) {
      it(d.name, () => {
        const counts = fuzzDeserializer(d, { seed, runs });
        expect(counts.loaded + counts.refused).toBe(runs);
        expect(counts.refused).toBeGreaterThan(0);
        expect(counts.loaded).toBeGreaterThan(0);
      });
    }
  });
}
