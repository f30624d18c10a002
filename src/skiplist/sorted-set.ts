/**
 * `SortedSet`: Redis's sorted set (ZADD, ZRANGE, ZRANGEBYSCORE, ZRANGEBYLEX, ZRANK, ZPOPMIN, …) on
 * the typed-array skiplist of ./core.ts plus its member index (O(1) `score`).
 *
 * Ranges work on ranks. One O(log n) descent, summing spans, gives the number of entries below a
 * score or lex bound — the rank where the range starts — and the last node below it. Counts and
 * removals take the ranks of both bounds (ZCOUNT is their difference, O(log n)); range queries
 * start from the node beside the bound, or, with a LIMIT offset, jump to the node at rank
 * start + offset with one more descent (never a walk over `offset` nodes), then walk while within
 * the other bound: O(log n + k) for k entries.
 *
 * Entries are `[member, score]` tuples everywhere (ranges, pops, iteration), like `Map` entries.
 */
import { checkInteger, rangeError, typeError } from "../internal/errors.js";
import { randomSeed } from "../internal/random.js";
import { ZSkipList } from "./core.js";
import { compareMembers, type LexBound, parseLexBound } from "./order.js";

const WHERE = "SortedSet";
const NIL = 0;

/** A sorted-set entry: the member and its score. */
export type SortedSetEntry = [member: string, score: number];

export interface SortedSetOptions {
  /**
   * Seed of the PRNG that draws node levels (mulberry32), for reproducible shapes in tests.
   * @defaultValue a random seed from `crypto.getRandomValues`
   */
  seed?: number;
  /** Initial number of entries to allocate room for (the arrays grow by doubling anyway). */
  capacity?: number;
}

/** ZADD's flags. `nx` with `xx`, and any two of `gt`/`lt`/`nx`, are rejected as in Redis. */
export interface AddOptions {
  /** Only add new members, never update existing ones (ZADD NX). */
  nx?: boolean;
  /** Only update existing members, never add (ZADD XX). */
  xx?: boolean;
  /** Only update when the new score is greater than the current one (ZADD GT); new members are added. */
  gt?: boolean;
  /** Only update when the new score is less than the current one (ZADD LT); new members are added. */
  lt?: boolean;
  /** Return true when the member was added *or its score changed* (ZADD CH). */
  ch?: boolean;
}

export interface ReverseOption {
  /** Highest first (ZREVRANGE / ZREVRANK). */
  reverse?: boolean;
}

/** LIMIT offset count, as in ZRANGEBYSCORE / ZRANGEBYLEX. */
export interface LimitOptions extends ReverseOption {
  /** Entries to skip from the start of the (possibly reversed) result; negative → empty, as in Redis. */
  offset?: number;
  /** Entries to return at most; negative → all from `offset`; 0 → none. */
  count?: number;
}

export interface ScoreBoundOptions {
  /** Exclude `min` itself (Redis `(min`). */
  minExclusive?: boolean;
  /** Exclude `max` itself (Redis `(max`). */
  maxExclusive?: boolean;
}

export type ScoreRangeOptions = ScoreBoundOptions & LimitOptions;

function checkMember(member: unknown): string {
  if (typeof member !== "string") throw typeError(WHERE, "member", member, "a string");
  return member;
}

function checkScore(param: string, score: unknown): number {
  if (typeof score !== "number") throw typeError(WHERE, param, score, "a number (±Infinity allowed)");
  if (Number.isNaN(score)) throw rangeError(WHERE, param, score, "a number, not NaN");
  return score;
}

function checkIndex(param: string, value: unknown): number {
  return checkInteger(WHERE, param, value, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
}

/** A Redis sorted set: unique string members ordered by (score, member bytes). */
export class SortedSet implements Iterable<SortedSetEntry> {
  readonly #list: ZSkipList;
  /** Bumped by every mutation so live iterators know to re-seek. */
  #version = 0;

  /** Creates an empty sorted set. O(capacity). */
  constructor(options: SortedSetOptions = {}) {
    const seed = options.seed === undefined ? randomSeed() : checkInteger(WHERE, "seed", options.seed, 0, 0xffffffff);
    const capacity =
      options.capacity === undefined ? 16 : checkInteger(WHERE, "capacity", options.capacity, 0, 2 ** 28);
    this.#list = new ZSkipList(seed, capacity);
  }

  /** Builds a set from `[member, score]` pairs (a later pair for the same member wins). O(n log n). */
  static from(entries: Iterable<readonly [string, number]>, options?: SortedSetOptions): SortedSet {
    const zs = new SortedSet(options);
    for (const [member, score] of entries) zs.add(member, score);
    return zs;
  }

  // ---------------------------------------------------------------- single members

  /** Number of members (ZCARD). O(1). */
  get size(): number {
    return this.#list.length;
  }

  /**
   * Adds `member` with `score`, or updates its score (ZADD). Returns true when the member was added
   * (with `ch`: added or its score changed). An update that keeps the member between its neighbours
   * is done in place in O(1); otherwise O(log n).
   * @throws RangeError for a NaN score or an incompatible flag combination (NX+XX, GT+LT, GT/LT+NX).
   */
  add(member: string, score: number, options?: AddOptions): boolean {
    checkMember(member);
    checkScore("score", score);
    let nx = false;
    let xx = false;
    let gt = false;
    let lt = false;
    let ch = false;
    if (options !== undefined) {
      nx = options.nx === true;
      xx = options.xx === true;
      gt = options.gt === true;
      lt = options.lt === true;
      ch = options.ch === true;
      if (nx && xx) throw rangeError(WHERE, "options", "nx + xx", "compatible flags (NX and XX exclude each other)");
      if ((gt ? 1 : 0) + (lt ? 1 : 0) + (nx ? 1 : 0) > 1) {
        throw rangeError(WHERE, "options", "gt/lt/nx", "compatible flags (at most one of GT, LT and NX)");
      }
    }
    const list = this.#list;
    const node = list.find(member);
    if (node === NIL) {
      if (xx) return false;
      list.insert(score, member);
      this.#version++;
      return true;
    }
    if (nx) return false;
    const current = list.scoreOf(node);
    if ((gt && score <= current) || (lt && score >= current) || score === current) return false;
    list.updateScore(node, score);
    this.#version++;
    return ch;
  }

  /**
   * Adds `delta` to the member's score, adding the member with score `delta` when absent (ZINCRBY).
   * Returns the new score. O(log n), O(1) when the order is unchanged.
   * @throws RangeError when `delta` is NaN or the result would be NaN (∞ + −∞); nothing changes then.
   */
  incrBy(member: string, delta: number): number {
    checkMember(member);
    checkScore("delta", delta);
    const list = this.#list;
    const node = list.find(member);
    if (node === NIL) {
      list.insert(delta, member);
      this.#version++;
      return delta;
    }
    const score = list.scoreOf(node) + delta;
    if (Number.isNaN(score)) throw rangeError(WHERE, "resulting score", score, "a number, not NaN");
    if (score !== list.scoreOf(node)) {
      list.updateScore(node, score);
      this.#version++;
    }
    return score;
  }

  /** Removes `member` (ZREM). Returns true when it was present. O(log n). */
  remove(member: string): boolean {
    checkMember(member);
    const node = this.#list.find(member);
    if (node === NIL) return false;
    this.#list.delete(node);
    this.#version++;
    return true;
  }

  /** True when `member` is in the set. O(1). No Redis command (ZSCORE ≠ nil). */
  has(member: string): boolean {
    checkMember(member);
    return this.#list.find(member) !== NIL;
  }

  /** The member's score, or undefined when absent (ZSCORE). O(1). */
  score(member: string): number | undefined {
    checkMember(member);
    const node = this.#list.find(member);
    return node === NIL ? undefined : this.#list.scoreOf(node);
  }

  /**
   * The member's 0-based rank, lowest score first (ZRANK) or highest first with `reverse`
   * (ZREVRANK); undefined when absent. O(log n).
   */
  rank(member: string, options?: ReverseOption): number | undefined {
    checkMember(member);
    const node = this.#list.find(member);
    if (node === NIL) return undefined;
    const r = this.#list.rankOf(node);
    return options?.reverse === true ? this.#list.length - r : r - 1;
  }

  /**
   * The entry at 0-based rank `index` (negative counts from the end), or undefined when out of
   * range — `ZRANGE key i i` without the array. With `reverse`, rank 0 is the highest. O(log n).
   */
  at(index: number, options?: ReverseOption): SortedSetEntry | undefined {
    checkIndex("index", index);
    const n = this.#list.length;
    let i = index < 0 ? index + n : index;
    if (i < 0 || i >= n) return undefined;
    if (options?.reverse === true) i = n - 1 - i;
    const x = this.#list.nodeAt(i + 1);
    return [this.#list.memberOf(x), this.#list.scoreOf(x)];
  }

  // ---------------------------------------------------------------- ranges

  /** Clamps ZRANGE-style [start, stop] (negative from the end) to 0-based [lo, hi]; hi < lo if empty. */
  #rankWindow(start: number, stop: number): [number, number] {
    checkIndex("start", start);
    checkIndex("stop", stop);
    const n = this.#list.length;
    let lo = start < 0 ? start + n : start;
    let hi = stop < 0 ? stop + n : stop;
    if (lo < 0) lo = 0;
    if (hi >= n) hi = n - 1;
    return [lo, hi];
  }

  /**
   * Entries with 0-based ranks start..stop inclusive, negative indexes counting from the end
   * (ZRANGE start stop, or ZRANGE … REV with `reverse`, where rank 0 is the highest). O(log n + k).
   */
  range(start: number, stop: number, options?: ReverseOption): SortedSetEntry[] {
    const [lo, hi] = this.#rankWindow(start, stop);
    if (lo > hi) return [];
    if (options?.reverse === true) {
      const n = this.#list.length;
      return this.#collect(n - 1 - lo, hi - lo + 1, true);
    }
    return this.#collect(lo, hi - lo + 1, false);
  }

  /** 0-based [lo, end) of the entries whose score lies in the range. O(log n). */
  #scoreWindow(min: number, max: number, options: ScoreBoundOptions | undefined): [number, number] {
    checkScore("min", min);
    checkScore("max", max);
    const minEx = options?.minExclusive === true;
    const maxEx = options?.maxExclusive === true;
    if (min > max) return [0, 0];
    const lo = this.#list.countBelowScore(min, minEx);
    const end = this.#list.countBelowScore(max, !maxEx);
    return [lo, Math.max(end, lo)];
  }

  /** 0-based [lo, end) of the entries between two lex bounds. O(log n). */
  #lexWindow(min: string, max: string): [number, number] {
    const a = parseLexBound(WHERE, "min", min);
    const b = parseLexBound(WHERE, "max", max);
    const lo = this.#lexRank(a, true);
    const end = this.#lexRank(b, false);
    return [lo, Math.max(end, lo)];
  }

  /** Entries below a lex bound: for a lower bound, those before the range; for an upper, those not after it. */
  #lexRank(bound: LexBound, lower: boolean): number {
    if (bound.kind === 0) {
      this.#list.lastBelow = 0; // the header: nothing is below "-"
      return 0;
    }
    if (bound.kind === 1) {
      this.#list.lastBelow = this.#list.tail; // everything is below "+"
      return this.#list.length;
    }
    return this.#list.countBelowMember(bound.member, lower ? bound.exclusive : !bound.exclusive);
  }

  /** k entries starting at 0-based rank `from`, walking up (or down with `reverse`). O(log n + k). */
  #collect(from: number, k: number, reverse: boolean): SortedSetEntry[] {
    const list = this.#list;
    const out = new Array<SortedSetEntry>(k);
    let x = list.nodeAt(from + 1);
    for (let i = 0; i < k; i++) {
      out[i] = [list.memberOf(x), list.scoreOf(x)];
      x = reverse ? list.prevOf(x) : list.nextOf(x);
    }
    return out;
  }

  /** Parses `offset`/`count` (LIMIT); returns the count limit, or -1 when nothing can be returned. */
  #limit(options: LimitOptions | undefined): number {
    const offset = options?.offset === undefined ? 0 : checkIndex("offset", options.offset);
    const count = options?.count === undefined ? -1 : checkIndex("count", options.count);
    if (offset < 0 || count === 0) return -1;
    return count < 0 ? Number.POSITIVE_INFINITY : count;
  }

  /**
   * Entries with min ≤ score ≤ max (bounds exclusive on request, ±Infinity allowed), lowest first
   * or, with `reverse`, highest first — `min`/`max` keep their meaning either way. `offset`/`count`
   * act like LIMIT: the start is found by rank arithmetic (one descent for the bound, one more for a
   * non-zero offset), never by walking `offset` nodes. ZRANGEBYSCORE / ZREVRANGEBYSCORE.
   * O(log n + k) for k entries returned.
   * @throws RangeError for NaN bounds or non-integer offset/count.
   */
  rangeByScore(min: number, max: number, options?: ScoreRangeOptions): SortedSetEntry[] {
    checkScore("min", min);
    checkScore("max", max);
    const limit = this.#limit(options);
    const out: SortedSetEntry[] = [];
    if (limit < 0 || min > max) return out;
    const offset = options?.offset ?? 0;
    const minEx = options?.minExclusive === true;
    const maxEx = options?.maxExclusive === true;
    const list = this.#list;
    if (options?.reverse === true) {
      const end = list.countBelowScore(max, !maxEx);
      let x = offset === 0 ? list.lastBelow : end - offset >= 1 ? list.nodeAt(end - offset) : NIL;
      while (x !== NIL && out.length < limit) {
        const s = list.scoreOf(x);
        if (minEx ? s <= min : s < min) break;
        out.push([list.memberOf(x), s]);
        x = list.prevOf(x);
      }
    } else {
      const lo = list.countBelowScore(min, minEx);
      let x =
        offset === 0 ? list.nextOf(list.lastBelow) : lo + offset < list.length ? list.nodeAt(lo + offset + 1) : NIL;
      while (x !== NIL && out.length < limit) {
        const s = list.scoreOf(x);
        if (maxEx ? s >= max : s > max) break;
        out.push([list.memberOf(x), s]);
        x = list.nextOf(x);
      }
    }
    return out;
  }

  /** True when `member` is not past `bound` on the side it limits (`upper`: ≤ max; else ≥ min). */
  #withinLex(member: string, bound: LexBound, upper: boolean): boolean {
    if (bound.kind === 2) {
      const c = compareMembers(member, bound.member);
      return upper ? c < 0 || (c === 0 && !bound.exclusive) : c > 0 || (c === 0 && !bound.exclusive);
    }
    return upper ? bound.kind === 1 : bound.kind === 0;
  }

  /**
   * Entries whose members lie between two lex bounds (`"[a"` inclusive, `"(a"` exclusive, `"-"`,
   * `"+"`), compared as UTF-8 bytes (ZRANGEBYLEX / ZREVRANGEBYLEX). As in Redis the result is only
   * meaningful when all members share one score. LIMIT as in {@link rangeByScore}. O(log n + k).
   * @throws RangeError for a malformed bound.
   */
  rangeByLex(min: string, max: string, options?: LimitOptions): SortedSetEntry[] {
    const a = parseLexBound(WHERE, "min", min);
    const b = parseLexBound(WHERE, "max", max);
    const limit = this.#limit(options);
    const out: SortedSetEntry[] = [];
    if (limit < 0) return out;
    const offset = options?.offset ?? 0;
    const list = this.#list;
    if (options?.reverse === true) {
      const end = this.#lexRank(b, false);
      let x = offset === 0 ? list.lastBelow : end - offset >= 1 ? list.nodeAt(end - offset) : NIL;
      while (x !== NIL && out.length < limit) {
        const m = list.memberOf(x);
        if (!this.#withinLex(m, a, false)) break;
        out.push([m, list.scoreOf(x)]);
        x = list.prevOf(x);
      }
    } else {
      const lo = this.#lexRank(a, true);
      let x =
        offset === 0 ? list.nextOf(list.lastBelow) : lo + offset < list.length ? list.nodeAt(lo + offset + 1) : NIL;
      while (x !== NIL && out.length < limit) {
        const m = list.memberOf(x);
        if (!this.#withinLex(m, b, true)) break;
        out.push([m, list.scoreOf(x)]);
        x = list.nextOf(x);
      }
    }
    return out;
  }

  /** Number of entries with a score in the range (ZCOUNT). O(log n). */
  countByScore(min: number, max: number, options?: ScoreBoundOptions): number {
    const [lo, end] = this.#scoreWindow(min, max, options);
    return end - lo;
  }

  /** Number of entries between two lex bounds (ZLEXCOUNT). O(log n). */
  countByLex(min: string, max: string): number {
    const [lo, end] = this.#lexWindow(min, max);
    return end - lo;
  }

  #removeWindow(lo: number, end: number): number {
    if (end <= lo) return 0;
    const removed = this.#list.deleteRanks(lo + 1, end);
    this.#version++;
    return removed;
  }

  /** Removes ranks start..stop (negative from the end); returns the number removed (ZREMRANGEBYRANK). O(log n + k). */
  removeRangeByRank(start: number, stop: number): number {
    const [lo, hi] = this.#rankWindow(start, stop);
    return this.#removeWindow(lo, hi + 1);
  }

  /** Removes the entries with a score in the range; returns how many (ZREMRANGEBYSCORE). O(log n + k). */
  removeRangeByScore(min: number, max: number, options?: ScoreBoundOptions): number {
    const [lo, end] = this.#scoreWindow(min, max, options);
    return this.#removeWindow(lo, end);
  }

  /** Removes the entries between two lex bounds; returns how many (ZREMRANGEBYLEX). O(log n + k). */
  removeRangeByLex(min: string, max: string): number {
    const [lo, end] = this.#lexWindow(min, max);
    return this.#removeWindow(lo, end);
  }

  /** Removes and returns up to `count` lowest entries, lowest first (ZPOPMIN). O(log n + k). */
  popMin(count = 1): SortedSetEntry[] {
    checkInteger(WHERE, "count", count, 0, Number.MAX_SAFE_INTEGER);
    const k = Math.min(count, this.#list.length);
    if (k === 0) return [];
    const out = this.#collect(0, k, false);
    this.#removeWindow(0, k);
    return out;
  }

  /** Removes and returns up to `count` highest entries, highest first (ZPOPMAX). O(log n + k). */
  popMax(count = 1): SortedSetEntry[] {
    checkInteger(WHERE, "count", count, 0, Number.MAX_SAFE_INTEGER);
    const n = this.#list.length;
    const k = Math.min(count, n);
    if (k === 0) return [];
    const out = this.#collect(n - 1, k, true);
    this.#removeWindow(n - k, n);
    return out;
  }

  /** Removes every entry (DEL); keeps the allocated arrays. O(capacity). */
  clear(): void {
    this.#list.clear();
    this.#version++;
  }

  // ---------------------------------------------------------------- iteration

  /**
   * Iterates `[member, score]` in order (highest first with `reverse`). O(1) per step. The set may
   * be changed during iteration: the iterator then re-seeks (O(log n)) to the entry after the last
   * one it returned, so every entry present throughout is visited exactly once, in order.
   */
  *entries(options?: ReverseOption): IterableIterator<SortedSetEntry> {
    const list = this.#list;
    const reverse = options?.reverse === true;
    let x = reverse ? list.tail : list.first();
    while (x !== NIL) {
      const member = list.memberOf(x);
      const score = list.scoreOf(x);
      const version = this.#version;
      yield [member, score];
      if (version === this.#version) {
        x = reverse ? list.prevOf(x) : list.nextOf(x);
      } else if (reverse) {
        const r = list.countBelowEntry(score, member, false);
        x = r === 0 ? NIL : list.nodeAt(r);
      } else {
        const r = list.countBelowEntry(score, member, true);
        x = r >= list.length ? NIL : list.nodeAt(r + 1);
      }
    }
  }

  /** Members in order (highest first with `reverse`). */
  *keys(options?: ReverseOption): IterableIterator<string> {
    for (const [member] of this.entries(options)) yield member;
  }

  /** Scores in order (highest first with `reverse`). */
  *values(options?: ReverseOption): IterableIterator<number> {
    for (const [, score] of this.entries(options)) yield score;
  }

  /** `[member, score]` lowest first; same as {@link entries}. */
  [Symbol.iterator](): IterableIterator<SortedSetEntry> {
    return this.entries();
  }

  /** Calls `fn(score, member, set)` for each entry in order, like `Map#forEach`. */
  forEach(fn: (score: number, member: string, set: SortedSet) => void): void {
    for (const [member, score] of this.entries()) fn(score, member, this);
  }

  // ---------------------------------------------------------------- diagnostics

  /**
   * Walks the whole skiplist and the member index and throws an Error naming the first broken
   * invariant (order, spans, backward links, tail, level, index). O(n · levels); for tests.
   */
  checkInvariants(): void {
    this.#list.checkInvariants(WHERE);
  }

  /** Bytes held by the typed arrays (member strings and the index Map excluded). */
  get arrayBytes(): number {
    return this.#list.arrayBytes();
  }
}
