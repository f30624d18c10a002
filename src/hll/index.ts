/**
 * `redstruct/hll` — Redis's HyperLogLog (PFADD / PFCOUNT / PFMERGE semantics, Redis-exact counts
 * and HYLL blobs at precision 14, any precision 4..18, plus the martingale estimator and interval
 * bounds), UltraLogLog (Ertl 2023: one byte per register, 24–28 % less memory for the same
 * error) and ExaLogLog (Ertl 2025: 32-bit registers, 43 % less memory than HyperLogLog for the same
 * error); both reduce exactly to the HyperLogLog of the same elements (`toHyperLogLog()`).
 * @module
 */
export { RedstructFormatError } from "../internal/errors.js";
export type { Bounds } from "./bounds.js";
export {
  ExaLogLog,
  type ExaLogLogCountOptions,
  type ExaLogLogDownsizeOptions,
  type ExaLogLogEstimator,
  type ExaLogLogOptions,
} from "./exaloglog.js";
export {
  type Estimator,
  type FromRedisOptions,
  HyperLogLog,
  type HyperLogLogOptions,
  type ToRedisOptions,
} from "./hyperloglog.js";
export { UltraLogLog, type UltraLogLogEstimator, type UltraLogLogOptions } from "./ultraloglog.js";
