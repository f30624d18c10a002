/**
 * A small seedable PRNG (mulberry32) for structures whose shape depends on chance — skiplist
 * levels, a dict's random key — so tests can reproduce a run from its seed. Not cryptographic; use
 * `crypto.getRandomValues` where secrecy matters (the dict's SipHash key does).
 */

/** Returns a generator of uniform 32-bit unsigned integers from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A random 32-bit seed from Web Crypto, for instances created without an explicit seed. */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}
