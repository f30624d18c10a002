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

/**
 * mulberry32 as an object whose state can be read and set: a generator built from another's `state`
 * continues exactly where that one stands (clones and saved sets draw what the original would).
 * The state is kept as an int32 bit pattern (V8 keeps a larger uint32 in an object field as a heap
 * number); the draws are those of {@link mulberry32} from the same seed.
 */
export class Mulberry32 {
  /** The seed from which mulberry32 continues with this generator's next draw. */
  state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const a = (this.state + MULBERRY_STEP) | 0;
    this.state = a;
    return mulberry32Output(a);
  }
}

/** mulberry32's state advances by this constant per draw (a Weyl sequence of period 2^32). */
export const MULBERRY_STEP = 0x6d2b79f5;

/**
 * The draw mulberry32 gives once its state has advanced to `a` (an int32 bit pattern), for a
 * generator kept as a bare number: `state = (state + MULBERRY_STEP) | 0`, then this.
 */
export function mulberry32Output(a: number): number {
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}
