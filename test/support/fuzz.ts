import fc from "fast-check";
import { expect } from "vitest";
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
