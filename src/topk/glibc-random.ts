/**
 * A replica of glibc's `rand()` / `random()` (the default TYPE_3 additive feedback generator), so that
 * code which draws from C's `rand()` — RedisBloom's Top-K decay — can be replayed bit for bit.
 *
 * The algorithm (glibc stdlib/random_r.c, as documented in its comments and the RedisBloom vectors'
 * README): r[0] = seed (0 becomes 1); r[i] = 16807·r[i−1] mod (2^31 − 1) for i = 1..30, computed with
 * Schrage's method on signed 32-bit values; r[31..33] = r[0..2]; r[i] = r[i−31] + r[i−3] mod 2^32 for
 * i ≥ 34; the first 310 of those are discarded and output k is r[344 + k] >>> 1, an integer in
 * [0, 2^31 − 1] (RAND_MAX = 2147483647). Each draw costs O(1) and allocates nothing.
 */
import { checkInteger } from "../internal/errors.js";

/**
 * A generator of glibc `rand()` outputs after `srand(seed)`: every call returns the next integer in
 * [0, 2^31 − 1]. `glibcRandom(1)` (the default) is the sequence a C program gets without calling
 * `srand`, and the one the RedisBloom Top-K vectors were recorded with.
 * @example glibcRandom()() // 1804289383
 * @throws RangeError unless seed is an integer in [0, 2^32 − 1].
 */
export function glibcRandom(seed = 1): () => number {
  checkInteger("glibcRandom", "seed", seed, 0, 0xffffffff);
  // 31 words of state: slot i % 31 holds r[i − 31] until r[i] overwrites it.
  const r = new Int32Array(31);
  r[0] = seed === 0 ? 1 : seed | 0;
  for (let i = 1; i < 31; i++) {
    const prev = r[i - 1]!;
    // Schrage: 16807·prev mod (2^31 − 1) without overflow; C's division truncates toward zero.
    const hi = Math.trunc(prev / 127773);
    const lo = prev % 127773;
    let word = 16807 * lo - 2836 * hi;
    if (word < 0) word += 2147483647;
    r[i] = word;
  }
  // r[31..33] = r[0..2] are already in slots 0..2; the next value is r[34], in slot 34 % 31 = 3.
  let pos = 3;
  const next = (): number => {
    const v = (r[pos]! + r[pos >= 3 ? pos - 3 : pos + 28]!) | 0;
    r[pos] = v;
    pos = pos === 30 ? 0 : pos + 1;
    return v;
  };
  for (let k = 34; k < 344; k++) next();
  return () => next() >>> 1;
}
