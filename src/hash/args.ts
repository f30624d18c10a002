/**
 * Argument checks of the public hash functions (internal). A hash that silently took NaN, `{}` or
 * `"abc"` as seed 0 would give every caller who got a seed wrong the same, unkeyed hashes; so every
 * public argument is checked, with a message naming it. The checks cost a few comparisons, paid
 * once per call; the structures' hot paths call the unchecked cores with arguments they own.
 */
import { rangeError, typeError } from "../internal/errors.js";

const WHERE = "hash";
const SEED32 = "a 32-bit integer in [-2^31, 2^32 − 1]";

/**
 * A 32-bit seed given as an int32 or a uint32 (the same 32 bits either way), as an int32.
 * @throws TypeError for a non-number, RangeError for NaN, a fraction or a value outside 32 bits.
 */
export function checkSeed32(value: unknown, param = "seed"): number {
  if (typeof value === "number" && ((value | 0) === value || value >>> 0 === value)) return value | 0;
  if (typeof value !== "number") throw typeError(WHERE, param, value, SEED32);
  throw rangeError(WHERE, param, value, SEED32);
}

const SEED64 = "a bigint in [0, 2^64 − 1] or a non-negative safe integer";
const TWO_64 = 1n << 64n;

/**
 * A 64-bit seed, as a bigint in [0, 2^64) or a number that is a non-negative safe integer (what a
 * caller writing `murmur64a(s, 5)` means), as its (hi, lo) halves.
 * @throws TypeError for another type, RangeError for a negative, fractional or too large value.
 */
export function checkSeed64(value: unknown, param = "seed"): [hi: number, lo: number] {
  if (typeof value === "bigint") {
    if (value < 0n || value >= TWO_64) throw rangeError(WHERE, param, value, SEED64);
    return [Number(value >> 32n), Number(value & 0xffffffffn)];
  }
  if (typeof value !== "number") throw typeError(WHERE, param, value, SEED64);
  if (!Number.isSafeInteger(value) || value < 0) throw rangeError(WHERE, param, value, SEED64);
  return [Math.floor(value / 2 ** 32), value % 2 ** 32];
}

/**
 * An output array for a hash: a `Uint32Array` (or, where `int32` is true, also an `Int32Array`) with
 * room for `words` words.
 * @throws TypeError for another type, RangeError when it is too short.
 */
export function checkOut(value: unknown, words: number, int32 = false): Uint32Array | Int32Array {
  const allowed = int32 ? `a Uint32Array or Int32Array of ${words} words` : `a Uint32Array of ${words} words`;
  if (!(value instanceof Uint32Array || (int32 && value instanceof Int32Array))) {
    throw typeError(WHERE, "out", value, allowed);
  }
  if (value.length < words) throw rangeError(WHERE, "out.length", value.length, `at least ${words}`);
  return value;
}
