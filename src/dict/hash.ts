/**
 * Key hashing and key equality for the dict.
 *
 * Every key is hashed with a secret per-instance key so that nobody can precompute a set of keys
 * that collide (hash flooding):
 *
 * - strings, bigints and `Uint8Array`s: SipHash-1-3 (Redis's dict hash, from `redstruct/hash`) of
 *   their bytes under the instance's 128-bit key;
 * - numbers that are not 32-bit integers: SipHash-1-3 of their IEEE-754 bytes (NaN canonicalised),
 *   so no string is built;
 * - 32-bit integers: Dietzfelbinger's multiply-add-shift `((a·x + b) mod 2^64) div 2^32` with
 *   random 64-bit `a`, `b` derived from the SipHash key. That family is strongly universal
 *   (pairwise independent) on 32-bit inputs, and so is any subset of its output bits, so for any key
 *   set chosen without knowing `a, b` the expected chain length stays O(1): flooding needs the
 *   secret. It is not a PRF (an attacker who could observe hash values or timing adaptively learns
 *   more than from SipHash), which is the price of a handful of multiplications instead of five
 *   SipRounds on the integer hot path — see the README's design notes.
 *
 * Only the low 32 bits of a hash are kept (tables never exceed 2^31 buckets).
 *
 * Equality is Map's SameValueZero with two twists: `1`, `"1"` and `1n` are three different keys
 * (their hashes may collide; equality compares type and value), and `Uint8Array` keys compare by
 * content.
 */

import { siphash13Into } from "../hash/index.js";
import { sipHashSource } from "../hash/siphash.js";

/** What a dict accepts as a key. */
export type DictKey = string | number | bigint | Uint8Array;

const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

/** The per-instance hashing state: the SipHash key and the integer family's `a`, `b`. */
export class KeyHasher {
  readonly sipKey: Uint32Array;
  /** Multiply-add-shift parameters as 32-bit halves. */
  readonly aLo: number;
  readonly aHi: number;
  readonly bLo: number;
  readonly bHi: number;
  readonly #out = new Uint32Array(2);

  constructor(sipKey: Uint32Array) {
    this.sipKey = sipKey;
    // a and b are SipHash outputs of fixed labels under the secret key: independent of each other
    // and unpredictable without the key, yet reproducible from it.
    const out = this.#out;
    siphash13Into("redstruct/dict int a", sipKey, out);
    this.aLo = out[0]!;
    this.aHi = out[1]!;
    siphash13Into("redstruct/dict int b", sipKey, out);
    this.bLo = out[0]!;
    this.bHi = out[1]!;
  }

  /**
   * The 32-bit hash (as an int32) of a valid key, or throws TypeError from the shared hash for an
   * unsupported type. No allocation for strings, numbers and byte arrays.
   */
  hash(key: DictKey): number {
    if (typeof key === "number") {
      if ((key | 0) === key) return this.intHash(key);
      f64[0] = Number.isNaN(key) ? Number.NaN : key;
      sipHashSource(f64Bytes, 8, this.sipKey, 1, 3, this.#out);
      return this.#out[0]! | 0;
    }
    siphash13Into(key, this.sipKey, this.#out);
    return this.#out[0]! | 0;
  }

  /**
   * Bits 32..63 of `(a·x + b) mod 2^64` for the 32-bit pattern of `x`, as an int32. Exact in
   * doubles: every partial product is of 16-bit halves, every sum stays below 2^53.
   */
  intHash(x: number): number {
    const aLo = this.aLo;
    const al = aLo & 0xffff;
    const ah = aLo >>> 16;
    const xl = x & 0xffff;
    const xh = x >>> 16;
    const c1 = al * xh;
    const c2 = ah * xl;
    const t = al * xl + this.bLo + ((c1 & 0xffff) + (c2 & 0xffff)) * 65536;
    const high = ah * xh + (c1 >>> 16) + (c2 >>> 16) + Math.floor(t / 4294967296);
    return (high + Math.imul(this.aHi, x) + this.bHi) | 0;
  }
}

/** True when `key` is a type the dict accepts. */
export function isDictKey(key: unknown): key is DictKey {
  const t = typeof key;
  return t === "string" || t === "number" || t === "bigint" || key instanceof Uint8Array;
}

/**
 * SameValueZero for the dict's keys, called only after `===` failed and the hashes matched: NaN
 * equals NaN, and byte arrays compare by content. `stored` is a key held by the dict.
 */
export function slowKeyEquals(stored: unknown, key: DictKey): boolean {
  if (typeof key === "number") return Number.isNaN(key) && typeof stored === "number" && Number.isNaN(stored);
  if (key instanceof Uint8Array) {
    if (!(stored instanceof Uint8Array) || stored.length !== key.length) return false;
    for (let i = 0; i < key.length; i++) if (stored[i] !== key[i]) return false;
    return true;
  }
  return false;
}
