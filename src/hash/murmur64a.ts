/**
 * MurmurHash64A — Austin Appleby's 64-bit MurmurHash2 variant, the hash Redis uses for
 * HyperLogLog (src/hyperloglog.c, seed 0xadc83b19) and RedisBloom uses for its filters.
 *
 * Computed on 32-bit halves so the hot path needs no BigInt: 8-byte blocks read
 * little-endian (Redis reads them little-endian on every platform), `k *= m; k ^= k >> 47; k *= m;
 * h ^= k; h *= m`, then the 1–7 byte tail and the final avalanche `h ^= h >> 47; h *= m; h ^= h >> 47`.
 * Verified against the reference C compiled by test/vectors/generate.sh.
 */
import {
  type Element,
  encodeScratch,
  type Source,
  scratchBytes,
  sourceOf,
  startWords,
  word4,
  wordN,
  wordsWereAscii,
} from "./element.js";
import { joinBigInt, splitBigInt } from "./int64.js";

const M_HI = 0xc6a4a793 | 0;
const M_LO = 0x5bd1e995 | 0;

/** Redis's HyperLogLog seed. */
export const REDIS_HLL_SEED = 0xadc83b19n;

// Result register of mulM as int32 [lo, hi]. Int32 everywhere matters: uint32 values above 2^31 in
// object fields or Uint32Arrays become heap numbers in V8, which made this loop 7× slower.
const R = new Int32Array(2);

/**
 * (hi:lo) × M mod 2^64 → R. The low word of lo × M_LO is assembled from 16-bit limbs (0xe995 and
 * 0x5bd1 are M_LO's halves) with integer shifts only — a float division by 2^16 here cost ~40% of
 * the hash — and the cross terms that reach the high word are plain `Math.imul`s.
 */
function mulM(hi: number, lo: number): void {
  const a0 = lo & 0xffff;
  const a1 = lo >>> 16;
  const p00 = a0 * 0xe995;
  const p01 = a0 * 0x5bd1;
  const p10 = a1 * 0xe995;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  R[1] = a1 * 0x5bd1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(lo, M_HI) + Math.imul(hi, M_LO);
  R[0] = ((mid & 0xffff) << 16) | (p00 & 0xffff);
}

/**
 * Core over the first `len` bytes of `src`; writes the hash to `out[0]` (low half) and `out[1]`
 * (high half). Returns false, leaving `out` alone, when `src` is a string that is not ASCII.
 */
export function murmur64aSource(src: Source, len: number, seedHi: number, seedLo: number, out: Uint32Array): boolean {
  startWords();
  mulM(0, len);
  let hHi = seedHi ^ R[1]!;
  let hLo = seedLo ^ R[0]!;
  const blocks = len - (len & 7);
  for (let i = 0; i < blocks; i += 8) {
    mulM(word4(src, i + 4), word4(src, i));
    // k ^= k >> 47: only the high half's top 17 bits reach the low half.
    const kHi = R[1]!;
    mulM(kHi, R[0]! ^ (kHi >>> 15));
    mulM(hHi ^ R[1]!, hLo ^ R[0]!);
    hHi = R[1]!;
    hLo = R[0]!;
  }
  const rest = len & 7;
  if (rest !== 0) {
    const tailHi = rest > 4 ? wordN(src, blocks + 4, rest - 4) : 0;
    mulM(hHi ^ tailHi, hLo ^ wordN(src, blocks, Math.min(rest, 4)));
    hHi = R[1]!;
    hLo = R[0]!;
  }
  if (!wordsWereAscii()) return false;
  mulM(hHi, hLo ^ (hHi >>> 15));
  out[0] = R[0]! ^ (R[1]! >>> 15);
  out[1] = R[1]!;
  return true;
}

/**
 * Hot-path MurmurHash64A: writes the 64-bit hash of `value` as two 32-bit halves into `out`
 * (`out[0]` low, `out[1]` high). No allocation in the steady state, no BigInt.
 * @param seedHi high 32 bits of the seed (Redis HLL: 0)
 * @param seedLo low 32 bits of the seed (Redis HLL: 0xadc83b19)
 */
export function murmur64aInto(value: Element, out: Uint32Array, seedHi = 0, seedLo = 0xadc83b19): void {
  const src = sourceOf(value);
  if (!murmur64aSource(src, src.length, seedHi | 0, seedLo | 0, out)) {
    murmur64aSource(scratchBytes(), encodeScratch(src as string), seedHi | 0, seedLo | 0, out);
  }
}

const pair = new Uint32Array(2);

/**
 * MurmurHash64A of an element's bytes, as an unsigned 64-bit bigint.
 * @param seed 64-bit seed; defaults to Redis's HyperLogLog seed 0xadc83b19.
 * @example murmur64a("hello") // same as Redis's MurmurHash64A("hello", 5, 0xadc83b19)
 */
export function murmur64a(value: Element, seed: bigint = REDIS_HLL_SEED): bigint {
  const [hi, lo] = splitBigInt(seed);
  murmur64aInto(value, pair, hi, lo);
  return joinBigInt(pair[1]!, pair[0]!);
}

/** Core over `bytes[0 .. len)` (see {@link murmur64aSource}); kept for callers holding bytes. */
export function murmur64aBytes(bytes: Uint8Array, len: number, seedHi: number, seedLo: number, out: Uint32Array): void {
  murmur64aSource(bytes, len, seedHi | 0, seedLo | 0, out);
}
