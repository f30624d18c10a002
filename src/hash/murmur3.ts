/**
 * MurmurHash3 (Austin Appleby): x86_32 and x64_128, bit-identical to `murmurhash3js-revisited`.
 *
 * `murmur3_32` runs on our own allocation-free core (4-byte little-endian blocks, c1 = 0xcc9e2d51,
 * c2 = 0x1b873593, fmix32) because the package validates every byte on every call; property tests
 * check the two agree. `murmur3_128` delegates to the package, which is the reference.
 */
import murmurHash3 from "murmurhash3js-revisited";
import {
  type Element,
  encodeScratch,
  type Source,
  scratchBytes,
  sourceOf,
  startWords,
  utf8,
  word4,
  wordN,
  wordsWereAscii,
} from "./element.js";

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** Core over the first `len` bytes of `src`; -1 when `src` is a string that is not ASCII. */
export function murmur3_32Source(src: Source, len: number, seed: number): number {
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
  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * MurmurHash3 x86_32 of an element's bytes, as an unsigned 32-bit number. Allocation-free.
 * Bit-identical to `murmurHash3.x86.hash32(utf8(value), seed)` from murmurhash3js-revisited.
 */
export function murmur3_32(value: Element, seed = 0): number {
  const src = sourceOf(value);
  const h = murmur3_32Source(src, src.length, seed);
  return h >= 0 ? h : murmur3_32Source(scratchBytes(), encodeScratch(src as string), seed);
}

/**
 * MurmurHash3 x64_128 of an element's bytes, as the 32-character lowercase hex string
 * murmurhash3js-revisited returns (h1 then h2, each 16 hex digits, big-endian digit order).
 * Not a hot path: it allocates. Use `BigInt("0x" + hex)` for a number.
 */
export function murmur3_128(value: Element, seed = 0): string {
  return murmurHash3.x64.hash128(utf8(value), seed >>> 0);
}
