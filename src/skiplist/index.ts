/**
 * `redstruct/skiplist` — Redis's sorted set (ZADD, ZRANGE, ZRANGEBYSCORE, ZRANGEBYLEX, ZRANK, …) on
 * a span-indexed skiplist stored in typed arrays. See ./core.ts for the algorithm and layout.
 * @module
 */
export { RedstructFormatError } from "../internal/errors.js";
export { compareMembers } from "./order.js";
export type {
  AddOptions,
  Aggregate,
  CombineOptions,
  IncrByOptions,
  LimitOptions,
  RandomMembersOptions,
  ReverseOption,
  ScoreBoundOptions,
  ScoreRangeOptions,
  SortedSetEntry,
  SortedSetOptions,
} from "./sorted-set.js";
export { SortedSet } from "./sorted-set.js";
