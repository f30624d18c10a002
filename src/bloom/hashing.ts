/**
 * How an item becomes k bit positions (internal). Hashing scheme 2: the `scheme` byte of every
 * serialized filter, which a reader refuses unless it is 2 (a filter's bits mean nothing under
 * other positions).
 *
 * 1. The item's bytes are hashed once with MurmurHash3 x86_128 (src/hash, seed {@link SEED})
 *    into four 32-bit words H[0..3]. x86_128 is used rather than RedisBloom's MurmurHash64A because
 *    it needs only 32-bit multiplies: 128 well-mixed bits for less than one 64-bit hash costs on
 *    16-bit limbs, and hashing is most of the cost of add and has.
 * 2. Probe i (i = 0..k−1) follows g_i = a + i·b + C(i,2)·c — Kirsch–Mitzenmacher double hashing
 *    ("Less hashing, same performance", 2006) with the third value of Dillinger & Manolios's
 *    enhanced/triple hashing ("Bloom filters in probabilistic verification", 2004), computed
 *    incrementally (g += b; b += c). The third value matters: with two values, a query whose (a, b)
 *    equals an inserted key's is a certain false positive, probability ≈ n/m², comparable to the
 *    target itself in small filters at low rates (docs/bloom.md, "Design"); with c the floor drops
 *    to ≈ n/m³.
 * 3. Two ways to map g_i onto [0, m), chosen by the filter size:
 *    - m ≤ {@link RING_BITS} (2^25 bits, 4 MiB): a, b, c = H[0], H[1], H[2] and the sequence runs
 *      in the 2^32 ring (int32 adds that wrap for free); position = ⌊g_i·m / 2^32⌋ (Lemire's
 *      multiply-shift). Positions are not confined to a residue class (they come from the top bits
 *      of g, not g mod m), and each position has ⌊2^32/m⌋ or ⌈2^32/m⌉ preimages, a relative
 *      unevenness ≤ m/2^32 ≤ 2^-7 whose effect on the false-positive rate is second order
 *      (≈ k·δ², under 10⁻³ for k ≤ 16).
 *    - larger filters: 32 bits per position would make that unevenness grow to 25–50 % near
 *      m = 2^31, so a = ⌊h1·m/2^64⌋ and b = 1 + ⌊h2·(m−1)/2^64⌋ take all 64 bits of
 *      h1 = H[1]:H[0] and h2 = H[3]:H[2], c = ⌊h3·m/2^32⌋ with h3 = H[0] ^ H[2], and the sequence
 *      runs mod m with one branch-free conditional subtraction per sum, plus a cubic term C(i,3)
 *      (c += i): mod m, plain a + i·b keeps all k probes of a key in one residue class mod
 *      gcd(b, m), which raises the rate of small filters (docs/bloom.md, "Design"). Here the extra
 *      work per probe hides behind the cache misses of a filter this size.
 *
 * Degenerate steps: in the exact path b ∈ [1, m−1] is never 0 mod m, so the probes never all
 * collapse on one bit; in the ring path they do only if b·m < 2^32 and c·m < 2^32 (≈ 1/m² per key).
 * Two probes of a key coincide with probability ≈ k²/m in both, as for k independent hashes.
 *
 * The exact path's scale factors are shrunk by 2^-48 (relative) so that float rounding can never
 * produce a = m; that moves no position by more than m·2^-48 < 1 bit.
 */
import type { Item } from "../hash/element.js";
import { murmur3_128x86Core } from "../hash/murmur3.js";
import type { ByteReader } from "../internal/bytes.js";
import { formatError } from "../internal/errors.js";

/** The hashing scheme number written into serialized filters. */
export const HASHING_SCHEME = 2;

/**
 * Reads a serialized filter's hashing-scheme byte; throws RedstructFormatError unless it is
 * {@link HASHING_SCHEME} (a filter's bits are meaningless under another scheme's positions).
 */
export function readHashingScheme(where: string, r: ByteReader): void {
  const scheme = r.u8("the hashing scheme");
  if (scheme === HASHING_SCHEME) return;
  throw formatError(where, `unknown hashing scheme ${scheme} (this build reads scheme ${HASHING_SCHEME})`);
}

/** Seed of the item hash (MurmurHash64A's multiplier's high word; any fixed value would do). */
const SEED = 0xc6a4a793;

/** Largest filter (in bits) that maps probes from the 2^32 ring; see the module comment. */
export const RING_BITS = 2 ** 25;

/** Scratch for the last hashed item: the four words of its 128-bit hash. Filled by {@link hashElement}. */
export const H = new Uint32Array(4);

/** Hashes `value` into {@link H}. No allocation in the steady state. @throws TypeError for a non-item. */
export function hashElement(value: Item): void {
  murmur3_128x86Core(value, H, SEED | 0);
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
