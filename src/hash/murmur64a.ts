/**
 * MurmurHash64A — Austin Appleby's 64-bit MurmurHash2 variant, the hash Redis uses for
 * HyperLogLog (src/hyperloglog.c, seed 0xadc83b19) and RedisBloom uses for its filters.
 *
 * Computed on 32-bit halves so the hot path needs no BigInt: 8-byte blocks read
 * little-endian (Redis reads them little-endian on every platform), `k *= m; k ^= k >> 47; k *= m;
 * h ^= k; h *= m`, then the 1–7 byte tail and the final avalanche `h ^= h >> 47; h *= m; h ^= h >> 47`.
 * Verified against the reference C compiled by test/vectors/generate.sh.
 */
import { checkOut, checkSeed32, checkSeed64 } from "./args.js";
import { encodeScratch, type Item, scratchBytes, sourceOf } from "./element.js";
import { joinBigInt } from "./int64.js";

const M_HI = 0xc6a4a793 | 0;
const M_LO = 0x5bd1e995 | 0;

/** Redis's HyperLogLog seed. */
export const REDIS_HLL_SEED = 0xadc83b19n;

// Result register of mulM as int32 [lo, hi]. Int32 everywhere matters: uint32 values above 2^31 in
// object fields or Uint32Arrays become heap numbers in V8 (docs/hash.md).
const R = new Int32Array(2);

/**
 * (hi:lo) × M mod 2^64 → R. The low word of lo × M_LO is assembled from 16-bit limbs (0xe995 and
 * 0x5bd1 are M_LO's halves) with integer shifts only — a float division by 2^16 here would dominate
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

/** One 8-byte block k = kHi:kLo: `k *= M; k ^= k >> 47; k *= M; h ^= k; h *= M` → R. */
function mixBlock(hHi: number, hLo: number, kHi: number, kLo: number): void {
  mulM(kHi, kLo);
  const mHi = R[1]!;
  mulM(mHi, R[0]! ^ (mHi >>> 15)); // k ^= k >> 47: only the high half's top 17 bits reach the low half
  mulM(hHi ^ R[1]!, hLo ^ R[0]!);
}

/** The avalanche `h ^= h >> 47; h *= M; h ^= h >> 47` into `out` (low, high). */
function finish(hHi: number, hLo: number, out: Uint32Array): void {
  mulM(hHi, hLo ^ (hHi >>> 15));
  out[0] = R[0]! ^ (R[1]! >>> 15);
  out[1] = R[1]!;
}

// The two loops below differ only in how they read bytes. They are kept apart on purpose: one loop
// reading through a `string | Uint8Array` word reader is slower on short keys (docs/hash.md), and
// this hash is the whole cost of HyperLogLog.add and most of BloomFilter.add.

/** MurmurHash64A over `bytes[0 .. len)` into `out` (`out[0]` low, `out[1]` high). */
function murmur64aBytes(bytes: Uint8Array, len: number, seedHi: number, seedLo: number, out: Uint32Array): void {
  mulM(0, len);
  let hHi = seedHi ^ R[1]!;
  let hLo = seedLo ^ R[0]!;
  const blocks = len - (len & 7);
  for (let i = 0; i < blocks; i += 8) {
    mixBlock(
      hHi,
      hLo,
      bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24),
      bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24),
    );
    hHi = R[1]!;
    hLo = R[0]!;
  }
  if ((len & 7) !== 0) {
    let tHi = 0;
    let tLo = 0;
    for (let j = (len & 7) - 1; j >= 0; j--) {
      if (j >= 4) tHi = (tHi << 8) | bytes[blocks + j]!;
      else tLo = (tLo << 8) | bytes[blocks + j]!;
    }
    mulM(hHi ^ tHi, hLo ^ tLo);
    hHi = R[1]!;
    hLo = R[0]!;
  }
  finish(hHi, hLo, out);
}

/**
 * MurmurHash64A over an ASCII string's code units (which are then its UTF-8 bytes) into `out`.
 * Returns false, leaving `out` alone, when a code unit above 0x7f shows the string is not ASCII.
 */
function murmur64aAscii(s: string, seedHi: number, seedLo: number, out: Uint32Array): boolean {
  const len = s.length;
  mulM(0, len);
  let hHi = seedHi ^ R[1]!;
  let hLo = seedLo ^ R[0]!;
  let seen = 0; // OR of every code unit: above 0x7f means not ASCII
  const blocks = len - (len & 7);
  for (let i = 0; i < blocks; i += 8) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    const c4 = s.charCodeAt(i + 4);
    const c5 = s.charCodeAt(i + 5);
    const c6 = s.charCodeAt(i + 6);
    const c7 = s.charCodeAt(i + 7);
    seen |= c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7;
    mixBlock(hHi, hLo, c4 | (c5 << 8) | (c6 << 16) | (c7 << 24), c0 | (c1 << 8) | (c2 << 16) | (c3 << 24));
    hHi = R[1]!;
    hLo = R[0]!;
  }
  if ((len & 7) !== 0) {
    let tHi = 0;
    let tLo = 0;
    for (let j = (len & 7) - 1; j >= 0; j--) {
      const c = s.charCodeAt(blocks + j);
      seen |= c;
      if (j >= 4) tHi = (tHi << 8) | c;
      else tLo = (tLo << 8) | c;
    }
    mulM(hHi ^ tHi, hLo ^ tLo);
    hHi = R[1]!;
    hLo = R[0]!;
  }
  if (seen > 0x7f) return false;
  finish(hHi, hLo, out);
  return true;
}

/**
 * Hot-path MurmurHash64A: writes the 64-bit hash of `value` as two 32-bit halves into `out`
 * (`out[0]` low, `out[1]` high). No allocation in the steady state, no BigInt. ASCII strings are
 * read in place; other strings are UTF-8 encoded into a reused buffer first. O(|value|).
 * @param out a Uint32Array of at least 2 words
 * @param seedHi high 32 bits of the seed, as an int32 or a uint32 (Redis HLL: 0)
 * @param seedLo low 32 bits of the seed, as an int32 or a uint32 (Redis HLL: 0xadc83b19)
 * @throws TypeError/RangeError naming `value`, `out`, `seedHi` or `seedLo` when one is not as described.
 */
export function murmur64aInto(value: Item, out: Uint32Array, seedHi = 0, seedLo = 0xadc83b19): void {
  murmur64aCore(value, checkOut(out, 2) as Uint32Array, checkSeed32(seedHi, "seedHi"), checkSeed32(seedLo, "seedLo"));
}

/**
 * @internal {@link murmur64aInto} without argument checks, for callers whose `out` and seed halves
 * are their own (int32) values. `value` is still type-checked.
 */
export function murmur64aCore(value: Item, out: Uint32Array, seedHi: number, seedLo: number): void {
  const src = sourceOf(value);
  if (typeof src === "string") {
    if (murmur64aAscii(src, seedHi | 0, seedLo | 0, out)) return;
    const len = encodeScratch(src); // first: it may replace the scratch buffer scratchBytes() returns
    murmur64aBytes(scratchBytes(), len, seedHi | 0, seedLo | 0, out);
  } else {
    murmur64aBytes(src, src.length, seedHi | 0, seedLo | 0, out);
  }
}

const pair = new Uint32Array(2);

/**
 * MurmurHash64A of an element's bytes, as an unsigned 64-bit bigint. O(|value|); allocates the
 * bigint.
 * @param seed 64-bit seed: a bigint in [0, 2^64) or a non-negative safe integer number (`5` means
 *   `5n`); defaults to Redis's HyperLogLog seed 0xadc83b19.
 * @throws TypeError/RangeError naming `value` or `seed` when one is not as described.
 * @example murmur64a("hello") // same as Redis's MurmurHash64A("hello", 5, 0xadc83b19)
 */
export function murmur64a(value: Item, seed: bigint | number = REDIS_HLL_SEED): bigint {
  const [hi, lo] = checkSeed64(seed);
  murmur64aCore(value, pair, hi | 0, lo | 0);
  return joinBigInt(pair[1]!, pair[0]!);
}
