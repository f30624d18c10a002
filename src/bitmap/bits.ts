/**
 * Bit counting shared by the bitmap modules: a popcount table for single bytes and SWAR popcounts
 * for 32-bit words (Hacker's Delight, 5-1: pairs, nibbles, then bytes summed by one multiply), the
 * same arithmetic Redis's `redisPopcount` (src/bitops.c) runs over its 28-byte blocks.
 *
 * Words are read through an `Int32Array` over the bitmap's bytes, so their byte order is the
 * platform's; a popcount does not depend on it. Anything that needs the position of a bit inside a
 * word goes back to the bytes, where Redis's order (bit 0 = the most significant bit of byte 0) is
 * explicit.
 */

/** Set bits of each byte value 0..255. */
export const POP8: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let i = 1; i < 256; i++) t[i] = (i & 1) + t[i >> 1]!;
  return t;
})();

/** Set bits of a 32-bit word (any sign). */
export function pop32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Set bits of words[from, to), four words per step (their byte sums share one multiply). */
export function popWords(words: Int32Array, from: number, to: number): number {
  let n = 0;
  let k = from;
  for (; k + 4 <= to; k += 4) {
    let a = words[k]!;
    let b = words[k + 1]!;
    let c = words[k + 2]!;
    let d = words[k + 3]!;
    a -= (a >>> 1) & 0x55555555;
    b -= (b >>> 1) & 0x55555555;
    c -= (c >>> 1) & 0x55555555;
    d -= (d >>> 1) & 0x55555555;
    a = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
    b = (b & 0x33333333) + ((b >>> 2) & 0x33333333);
    c = (c & 0x33333333) + ((c >>> 2) & 0x33333333);
    d = (d & 0x33333333) + ((d >>> 2) & 0x33333333);
    // Each byte of each nibble-summed word is at most 8, so the four sums fit a byte (≤ 32).
    const s = ((a + (a >>> 4)) & 0x0f0f0f0f) + ((b + (b >>> 4)) & 0x0f0f0f0f);
    const t = ((c + (c >>> 4)) & 0x0f0f0f0f) + ((d + (d >>> 4)) & 0x0f0f0f0f);
    n += Math.imul(s + t, 0x01010101) >>> 24;
  }
  for (; k < to; k++) n += pop32(words[k]!);
  return n;
}

/**
 * Set bits of bytes[from, to), where `words` views the same buffer (which starts word-aligned):
 * bytes up to a word boundary, whole words, then the tail bytes.
 */
export function popBytes(bytes: Uint8Array, words: Int32Array, from: number, to: number): number {
  let n = 0;
  let i = from;
  while (i < to && (i & 3) !== 0) n += POP8[bytes[i++]!]!;
  const w = Math.floor((to - i) / 4);
  if (w > 0) {
    n += popWords(words, i / 4, i / 4 + w);
    i += 4 * w;
  }
  while (i < to) n += POP8[bytes[i++]!]!;
  return n;
}
