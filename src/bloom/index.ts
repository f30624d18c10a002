/**
 * `redstruct/bloom` — Bloom filters: a parameter calculator, a fixed-size filter and RedisBloom's
 * scalable chain of filters.
 * @module
 */
export { BloomFilter, type BloomFilterOptions } from "./filter.js";
export {
  type BloomParameters,
  bloomParameters,
  capacityForBits,
  errorRateForBits,
  falsePositiveRate,
  optimalHashes,
} from "./params.js";
export { type BloomInfo, ScalableBloomFilter, type ScalableBloomFilterOptions } from "./scalable.js";
