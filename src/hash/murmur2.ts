/**
 * MurmurHash2 — Austin Appleby's 32-bit hash, the one RedisBloom uses for its Count-Min sketch and
 * Top-K rows (seed = row index), the Top-K fingerprint (seed 1919) and the legacy 32-bit Bloom mode
 * (seed 0x9747b28c, then seed = that result).
 *
 * The algorithm (public domain): m = 0x5bd1e995, r = 24; h = seed ^ len; every little-endian 4-byte
 * word k: `k *= m; k ^= k >>> 24; k *= m; h *= m; h ^= k`; the 1–3 byte tail is XORed into h
 * (byte 2 << 16, byte 1 << 8, byte 0) and then `h *= m`; finally `h ^= h >>> 13; h *= m;
 * h ^= h >>> 15`. Only 32-bit multiplies, so `Math.imul` gives it exactly. RedisBloom reads the words
 * little-endian on x86-64, which is what its dumps and replies reflect. Golden-tested against
 * test/vectors/redisbloom/hashes.json. Cost: O(length), no allocation for ASCII strings and byte
 * arrays (other strings are encoded into a reused scratch buffer).
 */

import { checkInteger, typeError } from "../internal/errors.js";
import { checkSeed32 } from "./args.js";
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

const M = 0x5bd1e995;

/**
 * Core over the first `len` bytes of `src`, as an unsigned 32-bit number; -1 when `src` is a string
 * that turned out not to be ASCII (hash its UTF-8 bytes instead).
 */
export function murmur2Source(src: Source, len: number, seed: number): number {
  startWords();
  let h = (seed ^ len) | 0;
  const blocks = len & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = Math.imul(word4(src, i), M);
    k ^= k >>> 24;
    h = Math.imul(h, M) ^ Math.imul(k, M);
  }
  if ((len & 3) !== 0) h = Math.imul(h ^ wordN(src, blocks, len & 3), M);
  if (!wordsWereAscii()) return -1;
  h ^= h >>> 13;
  h = Math.imul(h, M);
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * MurmurHash2 (32-bit) over `bytes[0 .. len)`, as an unsigned 32-bit number. For callers that
 * already hold the bytes (RedisBloom's legacy Bloom mode hashes one item under two seeds).
 */
export function murmur2Bytes(bytes: Uint8Array, len: number, seed = 0): number {
  if (!(bytes instanceof Uint8Array)) throw typeError("hash", "bytes", bytes, "a Uint8Array");
  checkInteger("hash", "len", len, 0, bytes.length);
  return murmur2Source(bytes, len, checkSeed32(seed));
}

/**
 * MurmurHash2 (32-bit) of an element's bytes, as an unsigned 32-bit number — RedisBloom's
 * `MurmurHash2(item, len, seed)`. Allocation-free for ASCII strings, numbers' decimal forms and byte
 * arrays. O(length).
 * @param seed a 32-bit seed, as an int32 or a uint32.
 * @throws TypeError / RangeError for an element of another type or a seed that is not 32 bits.
 * @example murmur2("a", 1919) // the Top-K fingerprint of "a"
 */
export function murmur2(value: Item, seed = 0): number {
  const src = sourceOf(value);
  seed = checkSeed32(seed);
  const h = murmur2Source(src, src.length, seed);
  if (h >= 0) return h;
  const len = encodeScratch(src as string); // first: it may replace the scratch buffer scratchBytes() returns
  return murmur2Source(scratchBytes(), len, seed);
}
