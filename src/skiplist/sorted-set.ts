/**
 * `SortedSet`: Redis's sorted set (ZADD, ZRANGE, ZRANGEBYSCORE, ZRANGEBYLEX, ZRANK, ZPOPMIN, …). This
 * file is the API — argument checks, options, the iteration journal; what the set holds is a
 * ./zset.ts: a compact run of entries while small (./compact.ts), else a member index (./members.ts,
 * O(1) `score`) beside a typed-array skiplist of macro nodes (./list.ts on ./store.ts).
 *
 * Ranges work on ranks. One O(log n) descent, summing spans, gives the number of entries below a
 * score or lex bound — the rank where the range starts — and the entries on each side of it.
 * Counts and removals take the ranks of both bounds (ZCOUNT is their difference, O(log n)); range
 * queries start beside the bound, or, with a LIMIT offset, jump to the entry at rank start + offset
 * with one more descent (never a walk over `offset` entries), then walk while within the other
 * bound: O(log n + k) for k entries, reading each node's entries consecutively.
 *
 * Set operations (ZUNION / ZINTER / ZDIFF / ZINTERCARD) are computed in ./ops.ts with Redis's
 * order and NaN rules and bulk-loaded into a new skiplist in one pass. Iteration tolerates changes
 * to the set with `Map`'s guarantee (./iterate.ts). Every options object is checked
 * (src/internal/options.ts): unknown keys, non-boolean flags and `null` are TypeErrors.
 * `toBytes`/`fromBytes` are in ./serialize.ts, `toRedis`/`fromRedis` (DUMP payloads) in ./redis.ts.
 *
 * Entries are `[member, score]` tuples everywhere (ranges, pops, iteration), like `Map` entries.
 */
import { checkInteger, checkString, describe, notJson, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkFlag, checkInstance, checkIterable, checkOptions, checkZaddFlags } from "../internal/options.js";
import { randomSeed } from "../internal/random.js";
import { type IterKind, Journal, SortedSetIterator } from "./iterate.js";
import { type Aggregate, diffRun, intersectCount, intersectRun, type Run, unionRun } from "./ops.js";
import { compareMembers, type LexBound, parseLexBound } from "./order.js";
import { loadZset, zsetFromDump, zsetToDump } from "./redis.js";
import { readSortedSet, writeSortedSet } from "./serialize.js";
import { DRAW_STREAM, type Layout, MAX_SIZE, ZSet } from "./zset.js";

const WHERE = "SortedSet";
/**
 * Most draws `randomMembers` makes with repeats (a negative count): 2^20. Such a result has no
 * natural size limit — Redis streams whatever ZRANDMEMBER asks — so a count typed as −2^26, or a
 * negative count meant as "all", would build an array of tens of millions of entries (gigabytes
 * with scores) for minutes. 2^20 entries are 8 MiB of references (≈ 50 MiB with scores), drawn in
 * well under a second; ask again for more.
 */
export const MAX_DRAWS = 2 ** 20;

/** A sorted-set entry: the member and its score. */
export type SortedSetEntry = [member: string, score: number];

/** Options of {@link SortedSet}'s constructor and {@link SortedSet.from}. */
export interface SortedSetOptions {
  /**
   * Seed of the set's PRNG (mulberry32): node levels draw from the stream starting at `seed`,
   * `randomMembers` from the stream starting at `seed` XOR 2^31 (half the generator's period away),
   * so a seeded set builds the same shape and draws the same members on every run, and reading
   * random members never changes the shape of later inserts.
   * @defaultValue a random seed from `crypto.getRandomValues`
   */
  seed?: number;
  /**
   * Entries to make room for at once, 0..2^26 (the most a set holds). A hint: at most 65,536
   * entries' worth (≈ 2 MiB) is allocated up front, and the arrays double as entries arrive, so
   * memory follows use.
   * @defaultValue 16
   */
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

/** ZADD INCR's flags (ZADD key [NX|XX] [GT|LT] INCR delta member); CH does not apply. */
export interface IncrByOptions {
  /** Only add a new member (with score `delta`); an existing one is left alone → undefined. */
  nx?: boolean;
  /** Only change an existing member; an absent one is not added → undefined. */
  xx?: boolean;
  /** Only when the new score is greater than the current one (new members are added). */
  gt?: boolean;
  /** Only when the new score is less than the current one (new members are added). */
  lt?: boolean;
}

/** WEIGHTS and AGGREGATE of ZUNION / ZINTER. */
export interface CombineOptions {
  /** One factor per input set, in the order of `sets` (ZUNION WEIGHTS); ±Infinity allowed, NaN not. @defaultValue all 1 */
  weights?: readonly number[];
  /** How the weighted scores of a member are combined (AGGREGATE). @defaultValue "sum" */
  aggregate?: Aggregate;
}

/** ZRANDMEMBER's WITHSCORES. */
export interface RandomMembersOptions {
  /** Return `[member, score]` entries instead of members. */
  withScores?: boolean;
}

export type { Aggregate };

/** The order option of rank, range and iteration methods. */
export interface ReverseOption {
  /** Highest first (ZREVRANGE / ZREVRANK). */
  reverse?: boolean;
}

/** Options of {@link SortedSet.rank}: the order, and ZRANK's WITHSCORE. */
export interface RankOptions extends ReverseOption {
  /** Return `[rank, score]` instead of the rank (ZRANK … WITHSCORE, Redis 7.2). */
  withScore?: boolean;
}

/** LIMIT offset count, as in ZRANGEBYSCORE / ZRANGEBYLEX. */
export interface LimitOptions extends ReverseOption {
  /** Entries to skip from the start of the (possibly reversed) result; negative → empty, as in Redis. */
  offset?: number;
  /** Entries to return at most; negative → all from `offset`; 0 → none. */
  count?: number;
}

/** Whether the score bounds are exclusive, as `(` marks them in ZRANGEBYSCORE / ZCOUNT. */
export interface ScoreBoundOptions {
  /** Exclude `min` itself (Redis `(min`). */
  minExclusive?: boolean;
  /** Exclude `max` itself (Redis `(max`). */
  maxExclusive?: boolean;
}

/** Options of {@link SortedSet.rangeByScore}: exclusive bounds, LIMIT and order. */
export type ScoreRangeOptions = ScoreBoundOptions & LimitOptions;

function checkMember(member: unknown, param = "member"): string {
  return checkString(WHERE, param, member);
}

function checkScore(param: string, score: unknown): number {
  if (typeof score !== "number") {
    const e = typeError(WHERE, param, score, "a number (±Infinity allowed)");
    throw typeof score === "string" ? new TypeError(`${e.message}; ${redisScore(param, score)}`) : e;
  }
  if (Number.isNaN(score)) throw rangeError(WHERE, param, score, "a number, not NaN");
  return score;
}

/** How to write a score given in Redis's text form ("(5", "-inf", "5") for this API. */
function redisScore(param: string, text: string): string {
  const t = text.trim();
  if (/^[-+]?inf(inity)?$/i.test(t)) return "Redis's -inf and +inf are -Infinity and Infinity here";
  if (t.startsWith("(") && (param === "min" || param === "max")) {
    return `an exclusive bound is an option: the number ${t.slice(1)} with { ${param}Exclusive: true }`;
  }
  return "pass the number itself, not its text";
}

function checkIndex(param: string, value: unknown): number {
  return checkInteger(WHERE, param, value, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
}

const REVERSE_KEYS = ["reverse"] as const;
const RANK_KEYS = ["reverse", "withScore"] as const;
const BOUND_KEYS = ["minExclusive", "maxExclusive"] as const;
const LIMIT_KEYS = ["offset", "count", "reverse"] as const;
const SCORE_RANGE_KEYS = [...BOUND_KEYS, ...LIMIT_KEYS] as const;

/** `options.reverse` of a checked options object. */
function reverseOf(options: ReverseOption | undefined): boolean {
  return checkFlag(WHERE, "reverse", checkOptions(WHERE, options, REVERSE_KEYS).reverse, false);
}

/** Checked score-bound flags: [minExclusive, maxExclusive]. */
function boundsOf(o: ScoreBoundOptions): [boolean, boolean] {
  return [
    checkFlag(WHERE, "minExclusive", o.minExclusive, false),
    checkFlag(WHERE, "maxExclusive", o.maxExclusive, false),
  ];
}

/** The TypeError for sets handed to a combining method as separate arguments (or an options object first). */
function setsError(method: string, param: string, value: unknown): TypeError {
  return new TypeError(
    `redstruct/${WHERE}: ${param} must be an iterable of SortedSets, got ${describe(value)}; pass the sets in ` +
      `one array: SortedSet.${method}([a, b]${method === "intersectCard" ? ", limit" : method === "diff" ? "" : ", options"})`,
  );
}

/** The TypeError for an object that has SortedSet's prototype but was not built by its constructor. */
function unbuilt(param: string): TypeError {
  return new TypeError(
    `redstruct/${WHERE}: ${param} is not a SortedSet built by its constructor (an object made with ` +
      "Object.create(SortedSet.prototype) has no state); make sets with new SortedSet(), SortedSet.from() or fromBytes()",
  );
}

/** Builds a set with a given internal layout; set by SortedSet's static block (see {@link sortedSetWithLayout}). */
let makeWithLayout: (layout: Layout, options?: SortedSetOptions) => SortedSet;

/**
 * Redis's sorted set: members ordered by (score, member bytes) on a skiplist of macro nodes with
 * spans, beside a member → slot index. ZADD, ZSCORE (O(1)), ZRANK and ranges by rank, score and lex
 * (O(log n + k)), removals, pops, ZUNION / ZINTER / ZDIFF with Redis's arithmetic, and iteration in
 * order that survives changes to the set as a `Map`'s does.
 */
export class SortedSet implements Iterable<SortedSetEntry> {
  #zset: ZSet;
  /** The changes live iterators must read, and the iterators (see ./iterate.ts); made by the first iterator. */
  #journal: Journal | null = null;

  /**
   * Creates an empty sorted set. O(min(capacity, 65,536)).
   * @throws TypeError for an unknown option key or a non-object `options`; RangeError for a seed
   *   outside 0..2^32−1 or a capacity outside 0..2^26.
   */
  constructor(options?: SortedSetOptions) {
    const o = checkOptions(WHERE, options, ["seed", "capacity"]);
    const seed = o.seed === undefined ? randomSeed() : checkInteger(WHERE, "seed", o.seed, 0, 0xffffffff);
    const capacity = o.capacity === undefined ? 16 : checkInteger(WHERE, "capacity", o.capacity, 0, MAX_SIZE);
    this.#zset = new ZSet(seed, capacity);
  }

  /**
   * The state of a set built by the constructor, or a TypeError naming `param` (an object that only
   * borrowed the prototype has no state; reading it would be the engine's "Cannot read private
   * member"). Every public method reaches its state through here.
   */
  static #of(zs: SortedSet): ZSet {
    if (!(#zset in zs)) throw unbuilt("this");
    return zs.#zset;
  }

  /** {@link #of} for an argument: anything may arrive there. */
  static #ofArg(zs: unknown, param: string): ZSet {
    if (zs === null || typeof zs !== "object" || !(#zset in zs)) throw unbuilt(param);
    return (zs as SortedSet).#zset;
  }

  /**
   * Builds a set from `[member, score]` pairs (a later pair for the same member wins), as ZADD with
   * many pairs. O(n log n).
   * @throws TypeError when `entries` is not a synchronous iterable (a string, an async iterable) or
   *   an entry is not a `[member, score]` array.
   */
  static from(entries: Iterable<readonly [string, number]>, options?: SortedSetOptions): SortedSet {
    checkIterable(WHERE, "entries", entries);
    const zs = new SortedSet(options);
    let i = 0;
    for (const entry of entries) {
      if (!Array.isArray(entry)) throw typeError(WHERE, `entries[${i}]`, entry, "a [member, score] array");
      // Each field read once: what was checked is what is added (a getter may answer differently).
      const member = checkMember(entry[0], `entries[${i}][0]`);
      zs.add(member, checkScore(`entries[${i}][1]`, entry[1]));
      i++;
    }
    return zs;
  }

  // ---------------------------------------------------------------- across sets

  /**
   * The union of `sets` (ZUNION / ZUNIONSTORE): every member of any input, its score the weighted
   * scores of the inputs holding it combined by `aggregate` — computed in Redis's order (smallest
   * input first) with Redis's rules (a NaN product such as `inf · 0` counts as 0; SUM of inf and
   * −inf is 0), so each score equals Redis's to the bit. The inputs are not changed. Costs
   * O(k · Σ sizes + u) for k inputs and u members in the result (radix-sorted by score, then
   * bulk-loaded in one pass).
   * @throws TypeError when `sets` is not an iterable of SortedSets (sets passed as separate
   *   arguments, `union(a, b)`, included) or an option is malformed; RangeError for no sets, a
   *   weights array of the wrong length, a NaN weight or an unknown aggregate.
   */
  static union(sets: Iterable<SortedSet>, options?: CombineOptions): SortedSet {
    const [lists, weights, aggregate] = SortedSet.#inputs("union", sets, options, true);
    return SortedSet.#fromRun(unionRun(lists, weights, aggregate));
  }

  /**
   * The intersection of `sets` (ZINTER / ZINTERSTORE): the members in every input, scores combined
   * as in {@link union}, with Redis's one difference: a NaN product (`inf · 0`) from any input but
   * the smallest enters the aggregate as NaN — SUM then resets the running total to 0, MIN and MAX
   * skip it. O(k · n1 + r) for the smallest input's n1 members, k inputs and r results.
   * @throws as {@link union}.
   */
  static intersect(sets: Iterable<SortedSet>, options?: CombineOptions): SortedSet {
    const [lists, weights, aggregate] = SortedSet.#inputs("intersect", sets, options, true);
    return SortedSet.#fromRun(intersectRun(lists, weights, aggregate));
  }

  /**
   * The members of the first set that are in none of the others, with their scores (ZDIFF /
   * ZDIFFSTORE). O(n1 · k) for the first set's n1 members and k sets; the result is loaded in one
   * pass, already in order.
   * @throws TypeError when `sets` is not an iterable of SortedSets or `options` has any key (ZDIFF
   *   takes no WEIGHTS or AGGREGATE: they are refused rather than ignored); RangeError for no sets.
   */
  static diff(sets: Iterable<SortedSet>, options?: Record<string, never>): SortedSet {
    if (options instanceof SortedSet) throw setsError("diff", "options", options);
    checkOptions(WHERE, options, []);
    const [lists] = SortedSet.#inputs("diff", sets, undefined, false);
    return SortedSet.#fromRun(diffRun(lists));
  }

  /**
   * The number of members in every one of `sets` (ZINTERCARD), counting stopped at `limit` when it
   * is above 0 (LIMIT). O(n1 · k) at most.
   * @throws TypeError when `sets` is not an iterable of SortedSets; RangeError for no sets or a
   *   negative or non-integer limit.
   */
  static intersectCard(sets: Iterable<SortedSet>, limit = 0): number {
    if ((limit as unknown) instanceof SortedSet) throw setsError("intersectCard", "limit", limit);
    const [lists] = SortedSet.#inputs("intersectCard", sets, undefined, true);
    checkInteger(WHERE, "limit", limit, 0, Number.MAX_SAFE_INTEGER);
    return intersectCount(lists, limit);
  }

  /**
   * Checks the inputs of a set operation and returns their skiplists and weights, smallest set
   * first when `smallestFirst` (a stable sort: equal sizes keep their order), and the aggregate.
   */
  static #inputs(
    method: string,
    sets: Iterable<SortedSet>,
    options: CombineOptions | undefined,
    smallestFirst: boolean,
  ): [ZSet[], number[], Aggregate] {
    // A SortedSet is itself iterable (its entries): name the mistake rather than reject an entry.
    if (sets instanceof SortedSet || options instanceof SortedSet) throw setsError(method, "sets", sets);
    if (
      sets === null ||
      typeof sets !== "object" ||
      typeof (sets as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== "function"
    ) {
      if (typeof sets === "string" || (sets !== null && typeof sets === "object" && Symbol.asyncIterator in sets)) {
        checkIterable(WHERE, "sets", sets);
      }
      throw setsError(method, "sets", sets);
    }
    const lists: ZSet[] = [];
    for (const set of sets) {
      const param = `sets[${lists.length}]`;
      if (!(set instanceof SortedSet)) {
        if (set !== null && typeof set === "object" && Object.getPrototypeOf(set) === Object.prototype) {
          throw typeError(
            WHERE,
            param,
            set,
            `a SortedSet, got ${describe(set)} (an options object goes after the array)`,
          );
        }
        checkInstance(WHERE, param, set, SortedSet);
      }
      lists.push(SortedSet.#ofArg(set, param));
    }
    if (lists.length === 0) throw rangeError(WHERE, "sets", "no sets", "at least one SortedSet");
    const o = checkOptions(WHERE, options, ["weights", "aggregate"]);
    let weights: number[];
    if (o.weights === undefined) {
      weights = lists.map(() => 1);
    } else {
      checkIterable(WHERE, "weights", o.weights);
      weights = [...o.weights];
      if (weights.length !== lists.length) {
        throw rangeError(WHERE, "weights", `Array(${weights.length})`, `one weight per set (${lists.length})`);
      }
      for (let i = 0; i < weights.length; i++) checkScore(`weights[${i}]`, weights[i]);
    }
    let aggregate: Aggregate = "sum";
    if (o.aggregate !== undefined) {
      if (typeof o.aggregate !== "string") throw typeError(WHERE, "aggregate", o.aggregate, '"sum", "min" or "max"');
      if (o.aggregate !== "sum" && o.aggregate !== "min" && o.aggregate !== "max") {
        throw rangeError(WHERE, "aggregate", o.aggregate, '"sum", "min" or "max"');
      }
      aggregate = o.aggregate;
    }
    const order = lists.map((_, i) => i);
    if (smallestFirst) order.sort((a, b) => lists[a]!.size - lists[b]!.size);
    return [order.map((i) => lists[i]!), order.map((i) => weights[i]!), aggregate];
  }

  /** A new set holding a result run, bulk-loaded. */
  static #fromRun(run: Run): SortedSet {
    const n = run.members.length;
    if (n > MAX_SIZE) throw rangeError(WHERE, "result size", n, `at most 2^26 (${MAX_SIZE}) members`);
    const zs = new SortedSet({ capacity: n });
    zs.#zset.loadSorted(run.members, run.scores, run.order, n);
    return zs;
  }

  // ---------------------------------------------------------------- bytes and copies

  /**
   * The set in redstruct's versioned format (see {@link SortedSet.fromBytes}): "RSZS", a version
   * byte, the generator state, then each entry in order — its score as a float64 and its member
   * as UTF-8 (a lone surrogate, which UTF-8 cannot carry, in WTF-8's 3-byte form, so every string
   * round-trips). 13 + Σ (12 + member bytes) bytes. O(n + bytes). No Redis command: {@link toRedis}
   * gives the key's DUMP payload.
   */
  toBytes(): Uint8Array {
    const z = SortedSet.#of(this);
    const n = z.size;
    const members = new Array<string>(n);
    const scores = new Float64Array(n);
    let i = 0;
    for (let p = z.firstPos(); p >= 0; p = z.nextPos(p), i++) {
      members[i] = z.memberAt(p);
      scores[i] = z.scoreAt(p);
    }
    return writeSortedSet(z.generatorState, members, scores);
  }

  /**
   * Reads {@link SortedSet.toBytes} output into a new set (bulk-loaded, O(n + bytes)) seeded with the
   * recorded state, so it draws the same `randomMembers` as the original would.
   * Everything is checked before it is trusted — the entry count against the bytes left before
   * anything is allocated, every length, the encoding, NaN scores, the order, duplicate members,
   * trailing bytes.
   * @throws TypeError when `bytes` is not a Uint8Array; RedstructFormatError for anything malformed.
   */
  static fromBytes(bytes: Uint8Array): SortedSet {
    const { state, members, scores } = readSortedSet(bytes, WHERE);
    // Seeded so that ZRANDMEMBER's stream starts at the recorded state.
    const zs = new SortedSet({ seed: (state ^ DRAW_STREAM) >>> 0, capacity: members.length });
    loadZset(zs.#zset, { members, scores, order: null }, WHERE);
    return zs;
  }

  /**
   * The set as a Redis key's `DUMP` payload: `RESTORE key 0 <payload>` recreates it in Redis 7.0 or
   * later. Byte for byte what redis-server 7.0 DUMPs for a key holding the same members and scores
   * (RDB version 10, CRC-64): a listpack (RDB type 17) while the set has at most 128 members of at
   * most 64 bytes (Redis's `zset-max-listpack-*` defaults) — integer scores stored as integers, so −0
   * is 0 there, as in Redis — else the skiplist encoding (type 5), binary scores, written from the
   * last entry to the first; strings LZF-compressed where Redis compresses them. docs/redis.md says
   * which keys' DUMPs this matches. O(n + bytes).
   * @throws RangeError for an empty set (Redis holds no empty key); TypeError naming a member that
   *   is not well-formed UTF-16 (a lone surrogate has no UTF-8, hence no Redis, form).
   */
  toRedis(): Uint8Array {
    return zsetToDump(SortedSet.#of(this), WHERE);
  }

  /**
   * A set holding what a sorted-set key's `DUMP` payload holds (`DUMP key` from Redis 6.2 to 8, or
   * {@link toRedis}): listpack, ziplist or skiplist encoding, RDB versions 9 to 12, integer-encoded
   * and LZF-compressed strings. Bulk-loaded: O(n) for entries in Redis's order (O(n log n) for
   * others). The payload is checked before it is trusted — CRC-64, version, type, every length
   * against the bytes present before anything is allocated, the LZF streams — and so are its
   * entries: members must be UTF-8 (this set holds strings), scores not NaN, no member twice.
   * Nothing read aliases `payload`.
   * @throws TypeError when `payload` is not a Uint8Array (a `Buffer` is one; `null`, what a DUMP of a
   *   missing key answers, is not); RedstructFormatError for anything else, naming what is wrong.
   */
  static fromRedis(payload: Uint8Array): SortedSet {
    const read = zsetFromDump(payload, WHERE);
    const zs = new SortedSet({ capacity: read.members.length });
    loadZset(zs.#zset, read, WHERE);
    return zs;
  }

  /** An independent copy: the same entries, and a generator at the same state (the same future draws). O(n). */
  clone(): SortedSet {
    const zs = new SortedSet({ seed: 0, capacity: 0 });
    zs.#zset = SortedSet.#of(this).clone();
    return zs;
  }

  /**
   * Throws: a SortedSet is not JSON (its state is private, so `JSON.stringify` would give `{}`).
   * Send {@link toBytes} and rebuild with {@link SortedSet.fromBytes}, or send `[...zs]` and
   * rebuild with {@link SortedSet.from}.
   * @throws TypeError always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  // ---------------------------------------------------------------- single members

  /** Number of members (ZCARD). O(1). */
  get size(): number {
    return SortedSet.#of(this).size;
  }

  /**
   * Adds `member` with `score`, or updates its score (ZADD). Returns true when the member was added
   * (with `ch`: added or its score changed). An update that keeps the member between its neighbours
   * is done in place in O(1); otherwise O(log n).
   * @throws RangeError for a NaN score or an incompatible flag combination (NX+XX, GT+LT, GT/LT+NX).
   */
  add(member: string, score: number, options?: AddOptions): boolean {
    const z = SortedSet.#of(this);
    checkMember(member);
    checkScore("score", score);
    let nx = false;
    let xx = false;
    let gt = false;
    let lt = false;
    let ch = false;
    if (options !== undefined) {
      const o = checkOptions(WHERE, options, ["nx", "xx", "gt", "lt", "ch"]);
      nx = checkFlag(WHERE, "nx", o.nx, false);
      xx = checkFlag(WHERE, "xx", o.xx, false);
      gt = checkFlag(WHERE, "gt", o.gt, false);
      lt = checkFlag(WHERE, "lt", o.lt, false);
      ch = checkFlag(WHERE, "ch", o.ch, false);
      checkZaddFlags(WHERE, nx, xx, gt, lt);
    }
    const current = z.score(member);
    if (current === undefined) {
      if (xx) return false;
      this.#insert(z, score, member);
      return true;
    }
    if (nx) return false;
    if ((gt && score <= current) || (lt && score >= current) || score === current) return false;
    this.#update(z, member, current, score);
    return ch;
  }

  /** Inserts a member known to be absent, and tells live iterators. */
  #insert(z: ZSet, score: number, member: string): void {
    if (z.size >= MAX_SIZE) throw rangeError(WHERE, "size", z.size + 1, `at most 2^26 (${MAX_SIZE}) members`);
    z.insert(member, score);
    if (this.#journal?.active) this.#journal.added(member, score);
  }

  /** Gives a present member a new score, and tells live iterators. */
  #update(z: ZSet, member: string, current: number, score: number): void {
    z.update(member, current, score);
    if (this.#journal?.active) this.#journal.moved(member, current, score);
  }

  /**
   * Adds `delta` to the member's score, adding the member with score `delta` when absent (ZINCRBY).
   * Returns the new score. With flags it is ZADD … INCR: `nx` only adds, `xx` only updates, `gt`/`lt`
   * only move the score up/down (new members are still added); when a flag stops it, nothing
   * changes and the result is `undefined` (Redis's nil). O(log n), O(1) when the order is unchanged.
   * @throws RangeError when `delta` is NaN or the result would be NaN (∞ + −∞), or for incompatible
   *   flags (NX+XX, two of GT/LT/NX); nothing changes then. TypeError for an unknown option key or a
   *   non-boolean flag.
   */
  incrBy(member: string, delta: number): number;
  incrBy(member: string, delta: number, options: IncrByOptions): number | undefined;
  incrBy(member: string, delta: number, options?: IncrByOptions): number | undefined {
    const z = SortedSet.#of(this);
    checkMember(member);
    checkScore("delta", delta);
    let nx = false;
    let xx = false;
    let gt = false;
    let lt = false;
    if (options !== undefined) {
      const o = checkOptions(WHERE, options, ["nx", "xx", "gt", "lt"]);
      nx = checkFlag(WHERE, "nx", o.nx, false);
      xx = checkFlag(WHERE, "xx", o.xx, false);
      gt = checkFlag(WHERE, "gt", o.gt, false);
      lt = checkFlag(WHERE, "lt", o.lt, false);
      checkZaddFlags(WHERE, nx, xx, gt, lt);
    }
    const current = z.score(member);
    if (current === undefined) {
      if (xx) return undefined;
      this.#insert(z, delta, member);
      return delta;
    }
    if (nx) return undefined;
    const score = current + delta;
    if (Number.isNaN(score)) throw rangeError(WHERE, "resulting score", score, "a number, not NaN");
    if ((gt && score <= current) || (lt && score >= current)) return undefined;
    if (score !== current) this.#update(z, member, current, score);
    return score;
  }

  /** Deletes `member` (ZREM). Returns true when it was present. O(log n). */
  delete(member: string): boolean {
    const z = SortedSet.#of(this);
    checkMember(member);
    if (!z.delete(member)) return false;
    const j = this.#journal;
    if (j?.active) j.changed();
    return true;
  }

  /** True when `member` is in the set. O(1). No Redis command (ZSCORE ≠ nil). */
  has(member: string): boolean {
    const z = SortedSet.#of(this);
    checkMember(member);
    return z.score(member) !== undefined;
  }

  /**
   * The scores of `members`, `undefined` for each absent one, in the order given (ZMSCORE).
   * O(1) per member.
   * @throws TypeError when `members` is not a synchronous iterable (a lone string included) or one
   *   of them is not a string.
   */
  scores(members: Iterable<string>): (number | undefined)[] {
    const z = SortedSet.#of(this);
    checkIterable(WHERE, "members", members);
    const out: (number | undefined)[] = [];
    for (const member of members) {
      checkMember(member, `members[${out.length}]`);
      out.push(z.score(member));
    }
    return out;
  }

  /**
   * Random members (ZRANDMEMBER key count [WITHSCORES]), drawn from the set's seeded generator (its
   * own stream, not the node levels', so a seeded set gives the same draws every run and drawing
   * changes nothing else). `count > 0`:
   * `min(count, size)` distinct members, each subset equally likely (the whole set, in order, when
   * `count ≥ size`; otherwise in no particular order). `count < 0`: `|count|` independent uniform
   * draws, repeats possible, at most 2^20 of them per call. `count = 0` or an
   * empty set: `[]`. With `withScores`, `[member, score]` entries. Costs O(k log n) for the k
   * entries returned (O(n) for the whole set), and allocates the k-entry result.
   * @throws RangeError when `count` is not an integer in [−2^20, 2^53 − 1].
   */
  randomMembers(count: number): string[];
  randomMembers(count: number, options: RandomMembersOptions & { withScores: true }): SortedSetEntry[];
  randomMembers(count: number, options?: RandomMembersOptions): string[] | SortedSetEntry[];
  randomMembers(count: number, options?: RandomMembersOptions): string[] | SortedSetEntry[] {
    const z = SortedSet.#of(this);
    checkInteger(WHERE, "count", count, -MAX_DRAWS, Number.MAX_SAFE_INTEGER);
    const o = checkOptions(WHERE, options, ["withScores"]);
    const withScores = checkFlag(WHERE, "withScores", o.withScores, false);
    const n = z.size;
    const out: (string | SortedSetEntry)[] = [];
    if (count === 0 || n === 0) return out as string[];
    const push = (p: number) => {
      out.push(withScores ? [z.memberAt(p), z.scoreAt(p)] : z.memberAt(p));
    };
    if (count < 0) {
      for (let i = 0; i < -count; i++) push(z.posAt(z.randomBelow(n)));
    } else if (count >= n) {
      for (let p = z.firstPos(); p >= 0; p = z.nextPos(p)) push(p);
    } else {
      // Robert Floyd's sampling: count draws give a uniform count-subset of the n ranks.
      const chosen = new Set<number>();
      for (let j = n - count; j < n; j++) {
        const t = z.randomBelow(j + 1);
        chosen.add(chosen.has(t) ? j : t);
      }
      for (const r of chosen) push(z.posAt(r));
    }
    return out as string[] | SortedSetEntry[];
  }

  /** The member's score, or undefined when absent (ZSCORE). O(1). */
  score(member: string): number | undefined {
    const z = SortedSet.#of(this);
    if (typeof member !== "string") checkMember(member);
    return z.score(member);
  }

  /**
   * The member's 0-based rank, lowest score first (ZRANK) or highest first with `reverse`
   * (ZREVRANK); undefined when absent. With `withScore`, `[rank, score]` (ZRANK … WITHSCORE, Redis
   * 7.2). O(log n).
   * @throws TypeError for an unknown option or a non-boolean flag.
   */
  rank(member: string, options?: RankOptions & { withScore?: false }): number | undefined;
  rank(member: string, options: RankOptions & { withScore: true }): [rank: number, score: number] | undefined;
  rank(member: string, options?: RankOptions): number | [rank: number, score: number] | undefined;
  rank(member: string, options?: RankOptions): number | [rank: number, score: number] | undefined {
    const z = SortedSet.#of(this);
    checkMember(member);
    let reverse = false;
    let withScore = false;
    if (options !== undefined) {
      const o = checkOptions(WHERE, options, RANK_KEYS);
      reverse = checkFlag(WHERE, "reverse", o.reverse, false);
      withScore = checkFlag(WHERE, "withScore", o.withScore, false);
    }
    const score = z.score(member);
    if (score === undefined) return undefined;
    const r = z.rank(member, score);
    const rank = reverse ? z.size - 1 - r : r;
    return withScore ? [rank, score] : rank;
  }

  /**
   * The entry at 0-based rank `index` (negative counts from the end), or undefined when out of
   * range — `ZRANGE key i i` without the array. With `reverse`, rank 0 is the highest. O(log n).
   */
  at(index: number, options?: ReverseOption): SortedSetEntry | undefined {
    const z = SortedSet.#of(this);
    checkIndex("index", index);
    const reverse = options === undefined ? false : reverseOf(options);
    const n = z.size;
    const i = index < 0 ? index + n : index;
    if (i < 0 || i >= n) return undefined;
    return z.entryAt(reverse ? n - 1 - i : i);
  }

  // ---------------------------------------------------------------- ranges

  /** Clamps ZRANGE-style [start, stop] (negative from the end) to 0-based [lo, hi]; hi < lo if empty. */
  #rankWindow(z: ZSet, start: number, stop: number): [number, number] {
    checkIndex("start", start);
    checkIndex("stop", stop);
    const n = z.size;
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
    const z = SortedSet.#of(this);
    const [lo, hi] = this.#rankWindow(z, start, stop);
    const reverse = options === undefined ? false : reverseOf(options);
    if (lo > hi) return [];
    return this.#collect(z, reverse ? z.size - 1 - lo : lo, hi - lo + 1, reverse);
  }

  /** 0-based [lo, end) of the entries whose score lies in the range. O(log n). */
  #scoreWindow(z: ZSet, min: number, max: number, options: ScoreBoundOptions | undefined): [number, number] {
    checkScore("min", min);
    checkScore("max", max);
    const [minEx, maxEx] = boundsOf(checkOptions(WHERE, options, BOUND_KEYS));
    if (min > max) return [0, 0];
    const lo = z.countBelowScore(min, minEx);
    const end = z.countBelowScore(max, !maxEx);
    return [lo, Math.max(end, lo)];
  }

  /** 0-based [lo, end) of the entries between two lex bounds. O(log n). */
  #lexWindow(z: ZSet, min: string, max: string): [number, number] {
    const a = parseLexBound(WHERE, "min", min);
    const b = parseLexBound(WHERE, "max", max);
    const lo = this.#lexRank(z, a, true);
    const end = this.#lexRank(z, b, false);
    return [lo, Math.max(end, lo)];
  }

  /** Entries below a lex bound: for a lower bound, those before the range; for an upper, those not after it. */
  #lexRank(z: ZSet, bound: LexBound, lower: boolean): number {
    if (bound.kind === 0) return 0; // nothing is below "-"
    if (bound.kind === 1) return z.size; // everything is below "+"
    return z.countBelowMember(bound.member, lower ? bound.exclusive : !bound.exclusive);
  }

  /**
   * Where a walk from a lex bound starts: the first entry past a lower bound, or (`reverse`) the
   * last entry not past an upper one; −1 when there is none.
   */
  #lexSeek(z: ZSet, bound: LexBound, reverse: boolean): number {
    if (bound.kind === 0) return reverse ? -1 : z.firstPos();
    if (bound.kind === 1) return reverse ? z.lastPos() : -1;
    return z.seekMember(bound.member, reverse ? !bound.exclusive : bound.exclusive, reverse);
  }

  /** k entries starting at 0-based rank `from`, walking up (or down with `reverse`). O(log n + k). */
  #collect(z: ZSet, from: number, k: number, reverse: boolean): SortedSetEntry[] {
    const out: SortedSetEntry[] = [];
    z.collect(z.posAt(from), k, reverse, out);
    return out;
  }

  /** Parses `offset`/`count` (LIMIT) of checked options; returns the count limit, or -1 when nothing can be returned. */
  #limit(o: LimitOptions): number {
    const offset = o.offset === undefined ? 0 : checkIndex("offset", o.offset);
    const count = o.count === undefined ? -1 : checkIndex("count", o.count);
    if (offset < 0 || count === 0) return -1;
    return count < 0 ? Number.POSITIVE_INFINITY : count;
  }

  /**
   * Where a LIMIT walk with a non-zero `offset` starts: the entry `offset` ranks past the bound,
   * whose rank is `rank` (the entries below it; in reverse, those not past it), −1 when none.
   */
  #offsetStart(z: ZSet, reverse: boolean, rank: number, offset: number): number {
    if (reverse) return rank - offset >= 1 ? z.posAt(rank - offset - 1) : -1;
    return rank + offset < z.size ? z.posAt(rank + offset) : -1;
  }

  /**
   * Entries with min ≤ score ≤ max (bounds exclusive on request, ±Infinity allowed), lowest first
   * or, with `reverse`, highest first — `min`/`max` keep their meaning either way. `offset`/`count`
   * act like LIMIT: the start is found by rank arithmetic (one descent for the bound, one more for a
   * non-zero offset), never by walking `offset` entries. ZRANGEBYSCORE / ZREVRANGEBYSCORE.
   * O(log n + k) for k entries returned.
   * @throws RangeError for NaN bounds or non-integer offset/count.
   */
  rangeByScore(min: number, max: number, options?: ScoreRangeOptions): SortedSetEntry[] {
    const z = SortedSet.#of(this);
    checkScore("min", min);
    checkScore("max", max);
    const o: ScoreRangeOptions = options === undefined ? {} : checkOptions(WHERE, options, SCORE_RANGE_KEYS);
    const [minEx, maxEx] = boundsOf(o);
    const reverse = checkFlag(WHERE, "reverse", o.reverse, false);
    const limit = this.#limit(o);
    const out: SortedSetEntry[] = [];
    if (limit < 0 || min > max) return out;
    const offset = o.offset ?? 0;
    if (reverse) {
      const p =
        offset === 0
          ? z.seekScore(max, !maxEx, true)
          : this.#offsetStart(z, true, z.countBelowScore(max, !maxEx), offset);
      z.collectDownTo(p, min, minEx, limit, out);
    } else {
      const p =
        offset === 0
          ? z.seekScore(min, minEx, false)
          : this.#offsetStart(z, false, z.countBelowScore(min, minEx), offset);
      z.collectUpTo(p, max, maxEx, limit, out);
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
    const z = SortedSet.#of(this);
    const a = parseLexBound(WHERE, "min", min);
    const b = parseLexBound(WHERE, "max", max);
    const o: LimitOptions = options === undefined ? {} : checkOptions(WHERE, options, LIMIT_KEYS);
    const reverse = checkFlag(WHERE, "reverse", o.reverse, false);
    const limit = this.#limit(o);
    const out: SortedSetEntry[] = [];
    if (limit < 0) return out;
    const offset = o.offset ?? 0;
    const bound = reverse ? b : a;
    let p =
      offset === 0
        ? this.#lexSeek(z, bound, reverse)
        : this.#offsetStart(z, reverse, this.#lexRank(z, bound, !reverse), offset);
    while (p >= 0 && out.length < limit) {
      const m = z.memberAt(p);
      if (!this.#withinLex(m, reverse ? a : b, !reverse)) break;
      out.push([m, z.scoreAt(p)]);
      p = reverse ? z.prevPos(p) : z.nextPos(p);
    }
    return out;
  }

  /** Number of entries with a score in the range (ZCOUNT). O(log n). */
  countByScore(min: number, max: number, options?: ScoreBoundOptions): number {
    const z = SortedSet.#of(this);
    const [lo, end] = this.#scoreWindow(z, min, max, options);
    return end - lo;
  }

  /** Number of entries between two lex bounds (ZLEXCOUNT). O(log n). */
  countByLex(min: string, max: string): number {
    const z = SortedSet.#of(this);
    const [lo, end] = this.#lexWindow(z, min, max);
    return end - lo;
  }

  #removeWindow(z: ZSet, lo: number, end: number): number {
    if (end <= lo) return 0;
    z.deleteRanks(lo, end);
    const j = this.#journal;
    if (j?.active) j.changed();
    return end - lo;
  }

  /** Deletes ranks start..stop (negative from the end); returns the number deleted (ZREMRANGEBYRANK). O(log n + k). */
  deleteRangeByRank(start: number, stop: number): number {
    const z = SortedSet.#of(this);
    const [lo, hi] = this.#rankWindow(z, start, stop);
    return this.#removeWindow(z, lo, hi + 1);
  }

  /** Deletes the entries with a score in the range; returns how many (ZREMRANGEBYSCORE). O(log n + k). */
  deleteRangeByScore(min: number, max: number, options?: ScoreBoundOptions): number {
    const z = SortedSet.#of(this);
    const [lo, end] = this.#scoreWindow(z, min, max, options);
    return this.#removeWindow(z, lo, end);
  }

  /** Deletes the entries between two lex bounds; returns how many (ZREMRANGEBYLEX). O(log n + k). */
  deleteRangeByLex(min: string, max: string): number {
    const z = SortedSet.#of(this);
    const [lo, end] = this.#lexWindow(z, min, max);
    return this.#removeWindow(z, lo, end);
  }

  /** Removes and returns up to `count` lowest entries, lowest first (ZPOPMIN). O(log n + k). */
  popMin(count = 1): SortedSetEntry[] {
    const z = SortedSet.#of(this);
    checkInteger(WHERE, "count", count, 0, Number.MAX_SAFE_INTEGER);
    const k = Math.min(count, z.size);
    if (k === 0) return [];
    const out = this.#collect(z, 0, k, false);
    this.#removeWindow(z, 0, k);
    return out;
  }

  /** Removes and returns up to `count` highest entries, highest first (ZPOPMAX). O(log n + k). */
  popMax(count = 1): SortedSetEntry[] {
    const z = SortedSet.#of(this);
    checkInteger(WHERE, "count", count, 0, Number.MAX_SAFE_INTEGER);
    const n = z.size;
    const k = Math.min(count, n);
    if (k === 0) return [];
    const out = this.#collect(z, n - 1, k, true);
    this.#removeWindow(z, n - k, n);
    return out;
  }

  /**
   * Removes every entry (DEL) and releases the arrays beyond their initial size; live iterators end.
   * O(1) plus the garbage left to the collector.
   */
  clear(): void {
    const z = SortedSet.#of(this);
    z.clear();
    const j = this.#journal;
    if (j?.active) j.cleared();
  }

  // ---------------------------------------------------------------- iteration

  /**
   * Iterates `[member, score]` in order, lowest first (highest first with `reverse`). O(1) per step.
   *
   * The set may change during the iteration, with `Map`'s guarantee: every member present for the
   * whole iteration is visited exactly once, and the iteration ends (after at most as many steps as
   * the set had members when it began). Members added meanwhile are not visited; a member removed
   * before it is reached is not visited. Members come in the set's order, each with its score at
   * the time it is visited, except those moved behind the iterator before their visit, which come
   * after the rest. A step after a change costs one descent (O(log n)); an iterator left unfinished
   * costs later changes nothing (see docs/skiplist.md, "Iterating while the set changes").
   * @throws TypeError for an unknown option or a non-boolean `reverse`.
   */
  entries(options?: ReverseOption): IterableIterator<SortedSetEntry> {
    const z = SortedSet.#of(this);
    return this.#iterate(z, 0, options);
  }

  /** Members in order (highest first with `reverse`); changes during iteration as in {@link entries}. */
  keys(options?: ReverseOption): IterableIterator<string> {
    const z = SortedSet.#of(this);
    return this.#iterate(z, 1, options);
  }

  /** Scores in order (highest first with `reverse`); changes during iteration as in {@link entries}. */
  values(options?: ReverseOption): IterableIterator<number> {
    const z = SortedSet.#of(this);
    return this.#iterate(z, 2, options);
  }

  #iterate<T>(z: ZSet, kind: IterKind, options: ReverseOption | undefined): SortedSetIterator<T> {
    const reverse = options === undefined ? false : reverseOf(options);
    this.#journal ??= new Journal();
    return new SortedSetIterator<T>(z, this.#journal, kind, reverse);
  }

  /** `[member, score]` lowest first; same as {@link entries}. */
  [Symbol.iterator](): IterableIterator<SortedSetEntry> {
    const z = SortedSet.#of(this);
    return this.#iterate(z, 0, undefined);
  }

  /**
   * Calls `fn(score, member, set)` for each entry in order, like `Map#forEach`; `fn` may change the
   * set, with the guarantee of {@link entries}.
   * @throws TypeError when `fn` is not a function.
   */
  forEach(fn: (score: number, member: string, set: SortedSet) => void): void {
    const z = SortedSet.#of(this);
    if (typeof fn !== "function") throw typeError(WHERE, "fn", fn, "a function");
    const it = this.#iterate<SortedSetEntry>(z, 0, undefined);
    try {
      for (let r = it.next(); r.done !== true; r = it.next()) fn(r.value[1], r.value[0], this);
    } finally {
      it.return(); // a callback that throws leaves no iterator reading the journal
    }
  }

  // ---------------------------------------------------------------- diagnostics

  /**
   * Walks the whole set and throws an Error naming the first broken invariant: in the compact form
   * the order and the Map; in the list form the order inside and across nodes, fill bounds, spans,
   * backward and up links, tail, level, the store's blocks, the member index's slots and tombstones
   * (./invariants.ts). O(n + nodes · levels); for tests.
   */
  checkInvariants(): void {
    SortedSet.#of(this).checkInvariants(WHERE);
  }

  /**
   * Bytes held by the set's arrays: the typed arrays of a large set; the two entry arrays' elements
   * (16 bytes per entry) of a small one. Member strings and the index Map are excluded.
   */
  get byteLength(): number {
    return SortedSet.#of(this).byteLength;
  }

  static {
    makeWithLayout = (layout, options) => {
      const zs = new SortedSet(options); // checks the options
      zs.#zset = new ZSet(options?.seed ?? randomSeed(), options?.capacity ?? 16, layout);
      return zs;
    };
  }

  static {
    defineInspect(SortedSet, (zs) => ({
      size: zs.size,
      entries: (limit) => (limit === 0 ? [] : zs.range(0, limit - 1)),
    }));
  }
}

/**
 * @internal A set whose nodes hold at most `layout.nodeSize` entries, whose levels use
 * p = 2^−levelBits and whose compact form holds at most `layout.compactMax` entries (0: none) — for
 * the tests, which force tiny nodes and bounds so splits, merges, level changes and conversions
 * happen on every run, and for the probes that chose the defaults. Not exported from the package.
 */
export function sortedSetWithLayout(layout: Layout, options?: SortedSetOptions): SortedSet {
  if (!Number.isInteger(layout.nodeSize) || layout.nodeSize < 2 || layout.nodeSize > 4096) {
    throw rangeError(WHERE, "nodeSize", layout.nodeSize, "an integer in [2, 4096]");
  }
  if (!Number.isInteger(layout.levelBits) || layout.levelBits < 1 || layout.levelBits > 8) {
    throw rangeError(WHERE, "levelBits", layout.levelBits, "an integer in [1, 8]");
  }
  const compactMax = layout.compactMax;
  if (compactMax !== undefined && (!Number.isInteger(compactMax) || compactMax < 0 || compactMax > 4096)) {
    throw rangeError(WHERE, "compactMax", compactMax, "an integer in [0, 4096]");
  }
  return makeWithLayout(layout, options);
}

/**
 * @internal One set in each form, alive as long as the module. V8 keeps an object layout (a hidden
 * class) only while some object has it, and a full garbage collection that finds none discards the
 * optimized code built on it. A program whose sets all die between two collections — a set per
 * request, or a benchmark building sets from empty — would otherwise run this module's code
 * unoptimized after each collection, at about half speed until it is compiled again
 * (bench/probes/skiplist-gc.ts, which empties this array to show it; docs/skiplist.md, "Small sets").
 * About 3 kB.
 */
export const LAYOUTS_KEPT: SortedSet[] = [
  SortedSet.from([["", 0]]),
  sortedSetWithLayout({ nodeSize: 128, levelBits: 2, compactMax: 0 }, { seed: 0, capacity: 0 }),
];
LAYOUTS_KEPT[1]!.add("", 0);
