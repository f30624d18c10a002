import fc from "fast-check";

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
