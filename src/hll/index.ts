/**
 * `redstruct/hll` — Redis's HyperLogLog: PFADD / PFCOUNT / PFMERGE semantics, Redis-exact counts
 * and HYLL blobs at precision 14, typed-array registers, any precision 4..18.
 * @module
 */

export { RedstructFormatError } from "../internal/errors.js";
export {
  type Estimator,
  type FromRedisOptions,
  HyperLogLog,
  type HyperLogLogOptions,
  type ToRedisOptions,
} from "./hyperloglog.js";
