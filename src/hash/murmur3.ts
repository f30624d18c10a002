/**
 * MurmurHash3 (Austin Appleby): x86_32 and x86_128, bit-identical to `murmurhash3js-revisited`.
 *
 * `murmur3_32` and `murmur3_128x86Into` run on our own allocation-free cores (little-endian 4-byte
 * words, fmix32 finalizers) because the package validates every byte and allocates on every call;
 * property tests check they agree with it. The x64_128 variant, which delegates to the package, lives
 * in murmur3-128.ts so that only its importers bundle the package: the Bloom filters import this
 * file and stay free of it.
 */
import { checkOut, checkSeed32 } from "./args.js";
import {
  encodeScratch,
  type Item,
  type Source,
  scratchBytes,
  sourceOf,
  startWords,
  word4,
  wordN,
  wordsWereAscii,
} from "./element.js";

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Core over the first `len` bytes of `src`; -1 when `src` is a string that is not ASCII. */
function murmur3_32Source(src: Source, len: number, seed: number): number {
  startWords();
  let h = seed | 0;
  const blocks = len & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = Math.imul(word4(src, i), C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if ((len & 3) !== 0) {
    let k = Math.imul(wordN(src, blocks, len & 3), C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
  }
  if (!wordsWereAscii()) return -1;
  return fmix32(h ^ len) >>> 0;
}

/**
 * MurmurHash3 x86_32 of an element's bytes, as an unsigned 32-bit number. Allocation-free.
 * Bit-identical to `murmurHash3.x86.hash32(utf8(value), seed)` from murmurhash3js-revisited.
 * O(|value|).
 * @param seed 32-bit seed, as an int32 or a uint32 (default 0)
 * @throws TypeError/RangeError naming `value` or `seed` when one is not as described.
 */
export function murmur3_32(value: Item, seed = 0): number {
  const src = sourceOf(value);
  const s = checkSeed32(seed);
  const h = murmur3_32Source(src, src.length, s);
  if (h >= 0) return h;
  const len = encodeScratch(src as string); // first: it may replace the scratch buffer scratchBytes() returns
  return murmur3_32Source(scratchBytes(), len, s);
}

// x86_128: four 32-bit lanes, each word k_i multiplied by c_i, rotated, multiplied by c_{i+1}; the
// lanes feed each other (h1 += h2, …) after every 16-byte block and are cross-added around the
// final fmix32s. Only 32-bit multiplies (Math.imul), which is why the Bloom filters use it: 128
// well-mixed bits for about half the cost of MurmurHash64A on 16-bit limbs.
const X1 = 0x239b961b;
const X2 = 0xab0e9789;
const X3 = 0x38b34ae5;
const X4 = 0xa1e38b93;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

// Lane state between blocks, int32 (uint32 values above 2^31 in a Uint32Array or a module variable
// would become heap numbers in V8).
const S = new Int32Array(4);

/** Mixes one 16-byte block (four little-endian words) into the lanes in `S`. */
function block(k1: number, k2: number, k3: number, k4: number): void {
  let h1 = S[0]!;
  let h2 = S[1]!;
  let h3 = S[2]!;
  let h4 = S[3]!;
  h1 ^= Math.imul(rotl(Math.imul(k1, X1), 15), X2);
  h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
  h2 ^= Math.imul(rotl(Math.imul(k2, X2), 16), X3);
  h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
  h3 ^= Math.imul(rotl(Math.imul(k3, X3), 17), X4);
  h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
  h4 ^= Math.imul(rotl(Math.imul(k4, X4), 18), X1);
  S[0] = h1;
  S[1] = h2;
  S[2] = h3;
  S[3] = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
}

/**
 * Mixes the tail (the last `len & 15` bytes as four zero-extended little-endian words; a lane takes
 * part only if its word holds bytes) and finalizes the lanes in `S` into `out`.
 */
function finish(k1: number, k2: number, k3: number, k4: number, len: number, out: Uint32Array | Int32Array): void {
  const tail = len & 15;
  let h1 = S[0]!;
  let h2 = S[1]!;
  let h3 = S[2]!;
  let h4 = S[3]!;
  if (tail > 12) h4 ^= Math.imul(rotl(Math.imul(k4, X4), 18), X1);
  if (tail > 8) h3 ^= Math.imul(rotl(Math.imul(k3, X3), 17), X4);
  if (tail > 4) h2 ^= Math.imul(rotl(Math.imul(k2, X2), 16), X3);
  if (tail > 0) h1 ^= Math.imul(rotl(Math.imul(k1, X1), 15), X2);
  h1 ^= len;
  h2 ^= len;
  h3 ^= len;
  h4 ^= len;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = fmix32((h2 + h1) | 0);
  h3 = fmix32((h3 + h1) | 0);
  h4 = fmix32((h4 + h1) | 0);
  h1 = (fmix32(h1) + h2 + h3 + h4) | 0;
  out[0] = h1;
  out[1] = h2 + h1;
  out[2] = h3 + h1;
  out[3] = h4 + h1;
}

// As with MurmurHash64A, the string and byte readers are separate loops: a generic
// `string | Uint8Array` word reader is slower on short keys (docs/hash.md), and this hash is most
// of the cost of a Bloom filter's add and has.

/** x86_128 over `bytes[0 .. len)` into `out`. */
function x86_128Bytes(bytes: Uint8Array, len: number, seed: number, out: Uint32Array | Int32Array): void {
  S[0] = S[1] = S[2] = S[3] = seed;
  const blocks = len & ~15;
  for (let i = 0; i < blocks; i += 16) {
    block(
      bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24),
      bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24),
      bytes[i + 8]! | (bytes[i + 9]! << 8) | (bytes[i + 10]! << 16) | (bytes[i + 11]! << 24),
      bytes[i + 12]! | (bytes[i + 13]! << 8) | (bytes[i + 14]! << 16) | (bytes[i + 15]! << 24),
    );
  }
  let k1 = 0;
  let k2 = 0;
  let k3 = 0;
  let k4 = 0;
  for (let j = (len & 15) - 1; j >= 0; j--) {
    const b = bytes[blocks + j]!;
    if (j >= 12) k4 = (k4 << 8) | b;
    else if (j >= 8) k3 = (k3 << 8) | b;
    else if (j >= 4) k2 = (k2 << 8) | b;
    else k1 = (k1 << 8) | b;
  }
  finish(k1, k2, k3, k4, len, out);
}

/** x86_128 over an ASCII string's code units into `out`; false (out untouched) if it is not ASCII. */
function x86_128Ascii(s: string, seed: number, out: Uint32Array | Int32Array): boolean {
  const len = s.length;
  S[0] = S[1] = S[2] = S[3] = seed;
  let seen = 0; // OR of every code unit: above 0x7f means not ASCII
  const blocks = len & ~15;
  for (let i = 0; i < blocks; i += 16) {
    let k1 = 0;
    let k2 = 0;
    let k3 = 0;
    let k4 = 0;
    for (let j = 3; j >= 0; j--) {
      const c1 = s.charCodeAt(i + j);
      const c2 = s.charCodeAt(i + 4 + j);
      const c3 = s.charCodeAt(i + 8 + j);
      const c4 = s.charCodeAt(i + 12 + j);
      seen |= c1 | c2 | c3 | c4;
      k1 = (k1 << 8) | c1;
      k2 = (k2 << 8) | c2;
      k3 = (k3 << 8) | c3;
      k4 = (k4 << 8) | c4;
    }
    block(k1, k2, k3, k4);
  }
  let k1 = 0;
  let k2 = 0;
  let k3 = 0;
  let k4 = 0;
  for (let j = (len & 15) - 1; j >= 0; j--) {
    const c = s.charCodeAt(blocks + j);
    seen |= c;
    if (j >= 12) k4 = (k4 << 8) | c;
    else if (j >= 8) k3 = (k3 << 8) | c;
    else if (j >= 4) k2 = (k2 << 8) | c;
    else k1 = (k1 << 8) | c;
  }
  if (seen > 0x7f) return false;
  finish(k1, k2, k3, k4, len, out);
  return true;
}

/**
 * Hot-path MurmurHash3 x86_128: writes the four 32-bit words h1, h2, h3, h4 of the hash of
 * `value` into `out[0..3]`. No allocation in the steady state; ASCII strings are read in place.
 * The words match `murmurHash3.x86.hash128(utf8(value), seed)` from murmurhash3js-revisited, whose
 * hex string is h1‖h2‖h3‖h4, each as 8 big-endian hex digits. O(|value|).
 * @param out a Uint32Array or Int32Array of at least 4 words
 * @param seed 32-bit seed, as an int32 or a uint32 (default 0)
 * @throws TypeError/RangeError naming `value`, `out` or `seed` when one is not as described.
 */
export function murmur3_128x86Into(value: Item, out: Uint32Array | Int32Array, seed = 0): void {
  murmur3_128x86Core(value, checkOut(out, 4, true), checkSeed32(seed));
}

/**
 * @internal {@link murmur3_128x86Into} without argument checks, for callers whose `out` and `seed`
 * are their own constants (the Bloom filters). `value` is still type-checked.
 */
export function murmur3_128x86Core(value: Item, out: Uint32Array | Int32Array, seed: number): void {
  const src = sourceOf(value);
  if (typeof src !== "string") x86_128Bytes(src, src.length, seed, out);
  else if (!x86_128Ascii(src, seed, out)) {
    const len = encodeScratch(src); // first: it may replace the scratch buffer scratchBytes() returns
    x86_128Bytes(scratchBytes(), len, seed, out);
  }
}
