/**
 * `redstruct/skiplist` — Redis's sorted set (ZADD, ZRANGE, ZRANGEBYSCORE, ZRANGEBYLEX, ZRANK, …) on
 * a span-indexed skiplist stored in typed arrays. See ./zset.ts for how a set is composed, ./list.ts
 * for the skiplist, ./store.ts for its memory layout.
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
  RankOptions,
  ReverseOption,
  ScoreBoundOptions,
  ScoreRangeOptions,
  SortedSetEntry,
  SortedSetOptions,
} from "./sorted-set.js";
export { SortedSet } from "./sorted-set.js";
