/**
 * `redstruct/hll` — Redis's HyperLogLog (PFADD / PFCOUNT / PFMERGE semantics, Redis-exact counts
 * and HYLL blobs at precision 14, any precision 4..18, plus the martingale estimator and interval
 * bounds), and UltraLogLog (Ertl 2023: one byte per register, 24–28 % less memory for the same
 * error).
 * @module
 */
export { RedstructFormatError } from "../internal/errors.js";
export type { Bounds } from "./bounds.js";
export {
  type Estimator,
  type FromRedisOptions,
  HyperLogLog,
  type HyperLogLogOptions,
  type ToRedisOptions,
} from "./hyperloglog.js";
export { UltraLogLog, type UltraLogLogEstimator, type UltraLogLogOptions } from "./ultraloglog.js";
