/**
 * MurmurHash3 x64_128 (Austin Appleby), delegated to `murmurhash3js-revisited`, the reference: its
 * 64-bit multiplies would need BigInt or 16-bit limbs here, and it is not a hot path. Kept apart from
 * murmur3.ts so that the package is bundled only by code that imports `murmur3_128`.
 */
import murmurHash3 from "murmurhash3js-revisited";
import { checkSeed32 } from "./args.js";
import { type Item, utf8 } from "./element.js";

/**
 * MurmurHash3 x64_128 of an element's bytes, as the 32-character lowercase hex string
 * murmurhash3js-revisited returns (h1 then h2, each 16 hex digits, big-endian digit order).
 * Not a hot path: it allocates. Use `BigInt("0x" + hex)` for a number. O(|value|).
 * @param seed 32-bit seed, as an int32 or a uint32 (default 0)
 * @throws TypeError/RangeError naming `value` or `seed` when one is not as described.
 */
export function murmur3_128(value: Item, seed = 0): string {
  const bytes = utf8(value);
  return murmurHash3.x64.hash128(bytes, checkSeed32(seed) >>> 0);
}
