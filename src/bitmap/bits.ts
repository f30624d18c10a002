/**
 * Bit counting shared by the bitmap modules: a popcount table for single bytes, the SWAR popcount
 * of a 32-bit word (Hacker's Delight, 5-1: pairs, nibbles, then bytes summed by one multiply — the
 * arithmetic Redis's `redisPopcount` in src/bitops.c runs), and carry-save adders over runs of words.
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
function pop32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Set bits of words[from, to): Harley–Seal carry-save adders (Muła, Kurz and Lemire, "Faster
 * population counts using AVX2 instructions", 2018, after Harley and Seal) fold eight words into
 * ones / twos / fours counters and a word of eights, so one SWAR popcount serves eight words.
 */
export function popWords(words: Int32Array, from: number, to: number): number {
  let ones = 0;
  let twos = 0;
  let fours = 0;
  let eights = 0;
  let k = from;
  for (; k + 8 <= to; k += 8) {
    // Each step adds a and b into ones: u = ones ^ a, carry = (ones & a) | (u & b), ones = u ^ b.
    let a = words[k]!;
    let b = words[k + 1]!;
    let u = ones ^ a;
    let twosA = (ones & a) | (u & b);
    ones = u ^ b;
    a = words[k + 2]!;
    b = words[k + 3]!;
    u = ones ^ a;
    let twosB = (ones & a) | (u & b);
    ones = u ^ b;
    u = twos ^ twosA;
    const foursA = (twos & twosA) | (u & twosB);
    twos = u ^ twosB;
    a = words[k + 4]!;
    b = words[k + 5]!;
    u = ones ^ a;
    twosA = (ones & a) | (u & b);
    ones = u ^ b;
    a = words[k + 6]!;
    b = words[k + 7]!;
    u = ones ^ a;
    twosB = (ones & a) | (u & b);
    ones = u ^ b;
    u = twos ^ twosA;
    const foursB = (twos & twosA) | (u & twosB);
    twos = u ^ twosB;
    u = fours ^ foursA;
    eights += pop32((fours & foursA) | (u & foursB));
    fours = u ^ foursB;
  }
  let n = 8 * eights + 4 * pop32(fours) + 2 * pop32(twos) + pop32(ones);
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
