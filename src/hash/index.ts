/**
 * `redstruct/hash` — the one hashing module every structure uses.
 * @module
 */
export { type Item, utf8 } from "./element.js";
export { murmur2, murmur2Bytes } from "./murmur2.js";
export { murmur3_32, murmur3_128x86Into } from "./murmur3.js";
export { murmur3_128 } from "./murmur3-128.js";
export { murmur64a, murmur64aInto, REDIS_HLL_SEED } from "./murmur64a.js";
export {
  randomSipKey,
  type SipKey,
  siphash13,
  siphash13Into,
  siphash24,
  sipKeyFromBytes,
} from "./siphash.js";
