/**
 * `redstruct/topk` — Top-K (HeavyKeeper) exact with RedisBloom's TOPK.* commands, and a replica of
 * glibc's `rand()` to reproduce its decay draws.
 * @module
 */
export { RedstructFormatError } from "../internal/errors.js";
export { glibcRandom } from "./glibc-random.js";
export {
  TOPK_MAX_BUCKETS,
  TOPK_MAX_INCREMENT,
  TOPK_MAX_K,
  TopK,
  type TopKInfo,
  type TopKListOptions,
  type TopKOptions,
} from "./topk.js";
