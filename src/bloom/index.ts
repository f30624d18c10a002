/**
 * `redstruct/bloom` — Bloom filters: a parameter calculator, a fixed-size filter, a cache-blocked
 * filter and RedisBloom's scalable chain of filters.
 * @module
 */

export { RedstructFormatError } from "../internal/errors.js";
export type { BloomFilterFromOptions } from "./bits.js";
export {
  BlockedBloomFilter,
  type BlockedBloomFilterOptions,
  type BlockedBloomParameters,
  blockedParameters,
} from "./blocked.js";
export { BloomFilter, type BloomFilterOptions } from "./filter.js";
export {
  type BloomParameters,
  bloomParameters,
  capacityForBits,
  errorRateForBits,
  falsePositiveRate,
  optimalHashes,
} from "./params.js";
export { RedisBloomFilter, type RedisBloomFilterOptions, type RedisBloomInfo } from "./redisbloom.js";
export {
  type BloomInfo,
  ScalableBloomFilter,
  type ScalableBloomFilterFromOptions,
  type ScalableBloomFilterOptions,
} from "./scalable.js";
