/**
 * How an element becomes k bit positions (internal).
 *
 * 1. h1 = MurmurHash64A(element bytes, seed 0xc6a4a7935bd1e995) — 64 bits, on 32-bit halves, no
 *    BigInt (src/hash's murmur64aInto, which reads ASCII strings in place).
 * 2. h2 = a second 64-bit value derived from h1 by two MurmurHash3 `fmix32` finalizers, cross-wired
 *    (h2.lo from h1.hi, h2.hi from h1.lo), and h3 = fmix32 of h2.lo (32 bits). RedisBloom instead
 *    hashes the bytes a second time with h1 as the seed; h1 is already a well-mixed 64-bit value,
 *    so remixing it gives values just as unpredictable for ~15 integer ops instead of a second
 *    pass over the key. Two keys share (h1, h2, h3) only if their 64-bit h1 collide.
 * 3. Each filter of m bits reduces them to its own range with Lemire's multiply-shift:
 *    a = ⌊h1·m / 2^64⌋ ∈ [0, m), b = 1 + ⌊h2·(m−1) / 2^64⌋ ∈ [1, m−1], c = ⌊h3·m / 2^32⌋, evaluated
 *    in doubles as hi·(m/2^32) + lo·(m/2^64): all 64 bits of h1 and h2 take part, so a and b are
 *    uniform (to ~2^-21 relative) even at m = 10^8…2^31. A 32-bit hash would leave some positions
 *    ~2 % likelier than others at m = 10^8, and only 2^32 distinct (a, b) pairs where m² ≈ 10^16
 *    are needed.
 * 4. Probe i (i = 0..k−1) is g_i = a + i·b + C(i,2)·c + C(i,3) (mod m), computed incrementally
 *    (g += b; b += c; c += j; j += 1), every sum reduced by one branch-free conditional subtraction
 *    of m, all in int32. This is Kirsch–Mitzenmacher double hashing ("Less hashing, same
 *    performance", 2006) extended the way Dillinger & Manolios do ("Bloom filters in probabilistic
 *    verification", 2004: enhanced double and triple hashing), for two measured reasons:
 *    - plain g_i = a + i·b keeps all k probes of a key in one residue class mod gcd(b, m), so for an
 *      m with small factors bits pile up in few classes: +25 % false positives measured at
 *      m = 1104, k = 8, 100 keys. The cubic C(i,3) term breaks that confinement.
 *    - any two-value scheme has a floor: a query whose (a, b) equals an inserted key's is a certain
 *      false positive, probability ≈ n/m². For small filters at low p that is not negligible
 *      (n = 100 at p = 5·10⁻⁵: m ≈ 2062, n/m² ≈ 2.4·10⁻⁵, measured +52 % over target). The
 *      quadratic term with the third value c pushes the floor to n/m³; measured rates then match
 *      (X/m)^k within sampling error at every size tested (bench/bloom.bench.ts, test/bloom*.test.ts).
 *
 * Degenerate steps: b = 1 + ⌊h2·(m−1)/2^64⌋ is never 0 mod m, so the probes of a key never all
 * collapse on one bit; two of them coincide with probability ≈ k²/m, the same order as for k
 * independent hash functions. b comes from 64 bits, so it is not biased towards even values for a
 * power-of-two m.
 *
 * The scale factors are shrunk by 2^-48 (relative) so that float rounding can never produce a = m;
 * that moves no position by more than m·2^-48 < 1 bit.
 */
import type { Element } from "../hash/element.js";
import { murmur64aInto } from "../hash/murmur64a.js";

/** Seed of h1: 0xc6a4a7935bd1e995 (MurmurHash64A's multiplier), as two halves. */
export const SEED_HI = 0xc6a4a793;
export const SEED_LO = 0x5bd1e995;

/**
 * Scratch for the last hashed element: [h1.lo, h1.hi, h2.lo, h2.hi, h3] (h3: 32 bits). Filled by
 * {@link hashElement}; a scalable filter hashes once and probes every link from it.
 */
export const H = new Uint32Array(5);

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Hashes `value` into {@link H}. No allocation in the steady state. @throws TypeError for a non-element. */
export function hashElement(value: Element): void {
  murmur64aInto(value, H, SEED_HI, SEED_LO);
  H[2] = fmix32(H[1]! ^ 0x9e3779b9);
  H[3] = fmix32(H[0]! ^ 0x7f4a7c15);
  H[4] = fmix32(H[2]! ^ 0x85ebca77);
}

const SHRINK = 1 - 2 ** -48;

/** Multiplier applied to g.hi for a filter of `bits` bits. */
export function scaleHi(bits: number): number {
  return (bits / 2 ** 32) * SHRINK;
}

/** Multiplier applied to g.lo for a filter of `bits` bits. */
export function scaleLo(bits: number): number {
  return (bits / 2 ** 64) * SHRINK;
}
