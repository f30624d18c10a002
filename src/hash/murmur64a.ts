/**
 * MurmurHash64A — Austin Appleby's 64-bit MurmurHash2 variant, the hash Redis uses for
 * HyperLogLog (src/hyperloglog.c, seed 0xadc83b19) and RedisBloom uses for its filters.
 *
 * Computed on 32-bit halves (see int64.ts) so the hot path needs no BigInt: 8-byte blocks read
 * little-endian (Redis reads them little-endian on every platform), `k *= m; k ^= k >> 47; k *= m;
 * h ^= k; h *= m`, then the 1–7 byte tail and the final avalanche `h ^= h >> 47; h *= m; h ^= h >> 47`.
 * Verified against the reference C compiled by test/vectors/generate.sh.
 */
import { type Element, loadElement, loaded } from "./element.js";
import { joinBigInt, mul64, r, splitBigInt } from "./int64.js";

const M_HI = 0xc6a4a793;
const M_LO = 0x5bd1e995;

/** Redis's HyperLogLog seed. */
export const REDIS_HLL_SEED = 0xadc83b19n;

/** Core over `bytes[0 .. len)`; writes the hash to `out[0]` (low half) and `out[1]` (high half). */
export function murmur64aBytes(bytes: Uint8Array, len: number, seedHi: number, seedLo: number, out: Uint32Array): void {
  mul64(0, len, M_HI, M_LO);
  let hHi = (seedHi ^ r.hi) >>> 0;
  let hLo = (seedLo ^ r.lo) >>> 0;
  const blocks = len - (len & 7);
  for (let i = 0; i < blocks; i += 8) {
    const kLo = (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0;
    const kHi = (bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24)) >>> 0;
    mul64(kHi, kLo, M_HI, M_LO);
    // k ^= k >> 47: only the high half's top 17 bits reach the low half.
    mul64(r.hi, (r.lo ^ (r.hi >>> 15)) >>> 0, M_HI, M_LO);
    hHi = (hHi ^ r.hi) >>> 0;
    hLo = (hLo ^ r.lo) >>> 0;
    mul64(hHi, hLo, M_HI, M_LO);
    hHi = r.hi;
    hLo = r.lo;
  }
  const rest = len & 7;
  if (rest !== 0) {
    let tLo = 0;
    let tHi = 0;
    for (let j = rest - 1; j >= 4; j--) tHi = (tHi << 8) | bytes[blocks + j]!;
    for (let j = Math.min(rest, 4) - 1; j >= 0; j--) tLo = (tLo << 8) | bytes[blocks + j]!;
    mul64((hHi ^ tHi) >>> 0, (hLo ^ tLo) >>> 0, M_HI, M_LO);
    hHi = r.hi;
    hLo = r.lo;
  }
  hLo = (hLo ^ (hHi >>> 15)) >>> 0;
  mul64(hHi, hLo, M_HI, M_LO);
  out[0] = (r.lo ^ (r.hi >>> 15)) >>> 0;
  out[1] = r.hi;
}

/**
 * Hot-path MurmurHash64A: writes the 64-bit hash of `value` as two 32-bit halves into `out`
 * (`out[0]` low, `out[1]` high). No allocation in the steady state, no BigInt.
 * @param seedHi high 32 bits of the seed (Redis HLL: 0)
 * @param seedLo low 32 bits of the seed (Redis HLL: 0xadc83b19)
 */
export function murmur64aInto(value: Element, out: Uint32Array, seedHi = 0, seedLo = 0xadc83b19): void {
  const len = loadElement(value);
  murmur64aBytes(loaded.bytes, len, seedHi >>> 0, seedLo >>> 0, out);
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
