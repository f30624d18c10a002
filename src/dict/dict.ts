/**
 * Dict: a Map-compatible hash table with Redis's progressive rehashing (src/dict.c), SCAN cursors
 * and keyed (flood-resistant) hashing.
 *
 * Algorithm (as Redis's dict.c):
 * - Two chained tables of power-of-two sizes. Normally only table 0 exists. When an insert finds
 *   `size ≥ buckets` (load factor 1) a table 1 of the next power of two above `size` is allocated
 *   and `rehashIndex` starts at 0; when a delete leaves `size ≤ buckets / 8` (and buckets > 4) a
 *   smaller table 1 (the power of two ≥ size, at least 4) is allocated the same way.
 * - While rehashing, every keyed operation (get/has/set/delete) first moves one bucket of table 0
 *   (visiting at most 10 empty buckets, as `dictRehash(d, 1)`), then — a refinement over dict.c —
 *   the key's own table-0 bucket if it has not moved yet. After that the key can only live in
 *   table 1, so every lookup reads exactly one chain. When table 0 is empty, table 1 becomes
 *   table 0. No table is ever rebuilt in one go; `rehashFor(ms)` does the idle-time work.
 * - `scan` walks Redis's reverse-binary cursor (Pieter Noordhuis's dictScan): the cursor's high
 *   bits are incremented, so a bucket's "children" in a larger table and its "parent" in a smaller
 *   one are visited together, and every key present for the whole scan is returned at least once
 *   across any number of grows and shrinks between calls.
 *
 * Memory layout — no object per entry:
 * - Bucket heads: one `Int32Array` per table holding `slot + 1` (0 = empty bucket, so a fresh
 *   table is zeroed memory that needs no fill; the OS maps its pages as they are first written).
 *   The table the next grow will use is allocated when table 0 reaches half load (the "spare"),
 *   so the grow itself allocates nothing. One flat array per table keeps a lookup to one index
 *   (docs/dict.md, "Design", measures the paged alternative).
 * - Entry slots live in chunks of `2^chunkBits` slots (default 32,768) so that growing the entry
 *   storage never copies it (copying 8M entries would be a multi-millisecond stall):
 *   `kv[c]: unknown[]` holds `[key, value, next slot + 1]` triples, so a lookup finds the key, the
 *   value and the chain link in one cache line of one array, and `hashes[c]: Int32Array` holds each
 *   slot's cached 32-bit hash, read only when a bucket moves, on deletes of keys `===` cannot
 *   match, and by the invariant check. A chain link kept beside the hash instead would send every
 *   probe through two chunk directories.
 * - A free slot has the key `undefined`; free slots form a stack through their `next` field and
 *   are reused before the high-water mark grows. Slots are not compacted (the storage shrinks back
 *   only when the dict becomes empty or is cleared).
 *
 * Invariants (checked by `checkInvariants()`):
 * - every live slot is on exactly one chain, in the bucket `hash & mask` of its table; in table 0
 *   only buckets ≥ rehashIndex are non-empty while rehashing;
 * - `used0` counts table 0's entries; `size` counts all; free slots = highWater − size;
 * - not rehashing ⇒ there is no table 1 and `size ≤ buckets0`;
 * - the spare table is never written.
 *
 * Costs: get/has/set/delete O(1) expected, plus O(1) rehash work (≤ 2 buckets and 10 empty visits);
 * the insert that reaches half load allocates the next table (zeroed, mapped lazily); a grow takes
 * it, a shrink allocates its small table, and nothing is copied; iteration O(highWater);
 * scan O(count) buckets per call; randomKey O(1) expected; clear O(1) plus garbage.
 *
 * Iteration walks slots, not buckets, so rehashing never disturbs it and is not paused. Mutation
 * during iteration is allowed: every entry present for the whole iteration is visited exactly once,
 * an entry deleted before it is reached is not visited, an entry added during the iteration may or
 * may not be visited (it may reuse a slot already passed). Iteration order is unspecified (not
 * insertion order).
 */
import { randomSipKey, sipKeyFromBytes } from "../hash/index.js";
import { checkBytes, refuseDetached } from "../internal/bytes.js";
import {
  checkFinite,
  checkInteger,
  formatError,
  invariantFailure,
  notJson,
  rangeError,
  typeError,
} from "../internal/errors.js";
import { defineInspect, firstOf } from "../internal/inspect.js";
import { checkIterable, checkOptions } from "../internal/options.js";
import { mulberry32, randomSeed } from "../internal/random.js";
import { type DictKey, isDictKey, KeyHasher, slowKeyEquals } from "./hash.js";
import { hashFromDump, hashToDump, plainValue } from "./redis.js";
import { decodeDict, encodeDict } from "./serialize.js";

const WHERE = "Dict";
/** Redis's DICT_HT_INITIAL_SIZE. */
const MIN_BUCKETS = 4;
/** Largest table: bucket heads are indexed with 32-bit masks. */
const MAX_BUCKETS = 2 ** 30;
/**
 * Default log2 of the slots per storage chunk: 32,768 slots, a 768 KiB array allocated at once,
 * once per 32,768 inserts. Each lookup goes through its chunk's array object and header, and fewer
 * chunks keep those in L1 (docs/dict.md, "Design" and "Benchmarks", gives the costs).
 */
const DEFAULT_CHUNK_BITS = 15;
/** Redis's `empty_visits = n * 10` for a one-bucket step. */
const EMPTY_VISITS = 10;
/** A table: its bucket heads. */
type Table = Int32Array;
const NO_TABLE: Table = new Int32Array(0);
/** From half load on, whether the next grow's table exists is checked every this many inserts. */
const SPARE_PACE_MASK = 4095;

function newTable(buckets: number): Table {
  return new Int32Array(buckets);
}

/** The option keys {@link Dict} knows: any other key is a TypeError naming it. */
const OPTION_KEYS: readonly (keyof DictOptions)[] = ["key", "seed", "chunkBits"];

/**
 * The iterator types `Map`'s own methods have in the TypeScript version compiling the caller's code
 * (`IterableIterator` before TypeScript 5.6, `MapIterator` from 5.6 on), so that a Dict is a `Map`
 * under either and the declarations need no newer compiler than the floor.
 */
type MapEntriesIterator<K, V> = ReturnType<Map<K, V>["entries"]>;
type MapKeysIterator<K, V> = ReturnType<Map<K, V>["keys"]>;
type MapValuesIterator<K, V> = ReturnType<Map<K, V>["values"]>;

/** Options of {@link Dict}. */
export interface DictOptions {
  /**
   * The 128-bit SipHash key: a `Uint32Array` of 4 little-endian words or a `Uint8Array` of 16
   * bytes. Pass one to make hashing (and so bucket layout, scan order and iteration order)
   * reproducible; keep it secret if keys come from untrusted input. With a given key, the first
   * 32-bit integer key derives the integer hash tables from it, once (512 SipHash-1-3 calls).
   * @defaultValue a fresh random key from `crypto.getRandomValues`
   */
  key?: Uint32Array | Uint8Array;
  /**
   * Seed of the PRNG behind {@link Dict.randomKey}.
   * @defaultValue a random seed
   */
  seed?: number;
  /**
   * log2 of the number of entry slots per storage chunk (4..20). A chunk is allocated whole when
   * the previous one fills, a pause that grows with its size (docs/dict.md, "Benchmarks", gives the
   * default's); fewer, larger chunks make lookups a little faster.
   * @remarks Small values exercise chunk boundaries in tests; the default suits production.
   * @defaultValue 15
   */
  chunkBits?: number;
}

/** What {@link Dict.info} reports (Redis's `DEBUG HTSTATS`, plus the slot storage). */
export interface DictInfo {
  /** Number of entries. */
  size: number;
  /** Buckets of table 0 and table 1 (0 when not rehashing). */
  buckets: [number, number];
  /** Entries in table 0 and table 1. */
  used: [number, number];
  /** Next table-0 bucket to migrate, or -1 when not rehashing. */
  rehashIndex: number;
  /** Whether a grow or shrink is in progress (entries spread over both tables). */
  rehashing: boolean;
  /** Longest chain over both tables. */
  maxChain: number;
  /** Non-empty buckets over both tables. */
  nonEmptyBuckets: number;
  /** Entry slots handed out (live + free), and how many of them are free. */
  slots: number;
  /** Of those, the slots free for reuse. */
  freeSlots: number;
  /** {@link Dict.byteLength}: bytes of the bucket tables and cached hashes. */
  byteLength: number;
}

/** Options of {@link Dict.toBytes}. */
export interface DictToBytesOptions {
  /**
   * Turns each value into bytes. Without it, values must be strings, numbers, bigints, booleans,
   * null, undefined or Uint8Arrays (stored as they are); with it, every value goes through it and
   * {@link Dict.fromBytes} needs the matching `decodeValue`.
   */
  encodeValue?: (value: never) => Uint8Array;
}

/** Options of {@link Dict.fromBytes}: the dict's own options, and the value decoder. */
export interface DictFromBytesOptions<V = unknown> extends DictOptions {
  /** Turns the bytes `encodeValue` wrote back into a value. Required exactly when it was used. */
  decodeValue?: (bytes: Uint8Array) => V;
}

/** Options of {@link Dict.toRedis}. */
export interface DictToRedisOptions {
  /**
   * Turns a value that is not a string, number, bigint or Uint8Array (which are Redis strings as
   * they are) into the bytes Redis stores. Each returned array is copied before the next call, so
   * the callback may reuse one buffer.
   */
  encodeValue?: (value: never) => Uint8Array;
}

/** Options of {@link Dict.fromRedis}: the dict's own options, and the value decoder. */
export interface DictFromRedisOptions<V = unknown> extends DictOptions {
  /**
   * Turns each value's bytes (a fresh copy, which it may keep) into the value to store; called once
   * the whole payload has been checked. Without it a value is the string its bytes spell in UTF-8,
   * or a Uint8Array when they are not UTF-8.
   */
  decodeValue?: (bytes: Uint8Array) => V;
}

function nextPower(n: number): number {
  let p = MIN_BUCKETS;
  while (p < n && p < MAX_BUCKETS) p *= 2;
  return p;
}

/** Reverses the 32 bits of `v` (for the SCAN cursor). */
function rev32(v: number): number {
  v = ((v >>> 1) & 0x55555555) | ((v & 0x55555555) << 1);
  v = ((v >>> 2) & 0x33333333) | ((v & 0x33333333) << 2);
  v = ((v >>> 4) & 0x0f0f0f0f) | ((v & 0x0f0f0f0f) << 4);
  v = ((v >>> 8) & 0x00ff00ff) | ((v & 0x00ff00ff) << 8);
  return ((v >>> 16) | (v << 16)) >>> 0;
}

/** The reverse-binary increment: `v |= ~mask; v = rev(rev(v) + 1)` in 32 bits. */
function nextCursor(v: number, mask: number): number {
  return rev32((rev32((v | ~mask) >>> 0) + 1) >>> 0);
}

/**
 * A hash table with the `Map` interface whose worst single operation is bounded: it grows and
 * shrinks by migrating one bucket per operation, as Redis does, instead of rehashing everything
 * at once, and it has no 2^24-entry cap. Keys: strings, numbers, bigints and `Uint8Array`s (by
 * content, copied into a plain `Uint8Array` on the way in and again on the way out, so no caller
 * ever shares memory with a stored key); `1`, `"1"` and `1n` are different keys, NaN equals NaN,
 * -0 is +0.
 */
export class Dict<K extends DictKey = DictKey, V = unknown> implements Map<K, V> {
  #hasher: KeyHasher;
  readonly #random: () => number;
  readonly #chunkBits: number;
  readonly #chunkMask: number;

  #heads0: Table = newTable(MIN_BUCKETS);
  #mask0 = MIN_BUCKETS - 1;
  #heads1: Table = NO_TABLE;
  #mask1 = 0;
  #rehashIndex = -1;
  #used0 = 0;
  #size = 0;

  /** The table the next grow will use, allocated at half load (NO_TABLE, length 0, when none). */
  #spare: Table = NO_TABLE;

  /** Per chunk: `[key, value, next slot + 1]` per slot. */
  #kv: unknown[][] = [];
  /** Per chunk: the cached hash of each slot. */
  #hashes: Int32Array[] = [];
  /** Slots ever handed out since the storage was last reset. */
  #highWater = 0;
  /** Head of the free-slot stack, as slot + 1 (0 = none). */
  #free = 0;

  /**
   * Builds an empty dict, or one holding `entries` (like `new Map(entries)`: `null` and `undefined`
   * mean none). Complexity: O(n) for n entries.
   * @throws TypeError for options that are not an object, an unknown option key, `entries` that is
   *   not a synchronous iterable (an async iterable, a string) or holds something other than
   *   `[key, value]` pairs, or a key of an unsupported type; RangeError for an option out of range.
   */
  constructor(entries?: Iterable<readonly [K, V]> | null, options?: DictOptions) {
    const o = checkOptions(WHERE, options, OPTION_KEYS);
    const key: unknown = o.key;
    let sipKey: Uint32Array;
    if (key === undefined) sipKey = randomSipKey();
    else if (key instanceof Uint32Array) {
      if (refuseDetached(WHERE, "options.key", key).length !== 4)
        throw rangeError(WHERE, "options.key.length", key.length, "4 (words of a 128-bit key)");
      sipKey = new Uint32Array(key);
    } else if (key instanceof Uint8Array) {
      checkBytes(WHERE, "options.key", key);
      if (key.length !== 16) throw rangeError(WHERE, "options.key.length", key.length, "16 (bytes of a 128-bit key)");
      sipKey = sipKeyFromBytes(new Uint8Array(key));
    } else throw typeError(WHERE, "options.key", key, "a Uint32Array of 4 words or a Uint8Array of 16 bytes");
    this.#hasher = new KeyHasher(sipKey, key === undefined);
    const seed = o.seed === undefined ? randomSeed() : checkInteger(WHERE, "options.seed", o.seed, 0, 2 ** 32 - 1);
    this.#random = mulberry32(seed);
    this.#chunkBits =
      o.chunkBits === undefined ? DEFAULT_CHUNK_BITS : checkInteger(WHERE, "options.chunkBits", o.chunkBits, 4, 20);
    this.#chunkMask = (1 << this.#chunkBits) - 1;
    if (entries !== undefined && entries !== null) this.#setAll(checkIterable(WHERE, "entries", entries));
  }

  /**
   * Builds a dict from entries, like `new Map(entries)`. Complexity: O(n). (Exported typed as
   * {@link DictConstructor.from}, which infers widened types from the entries.)
   * @throws TypeError as the constructor, and when `entries` is null or undefined.
   */
  static from<K extends DictKey, V>(entries: Iterable<readonly [K, V]>, options?: DictOptions): Dict<K, V> {
    return new Dict<K, V>(checkIterable(WHERE, "entries", entries), options);
  }

  /** Sets every `[key, value]` pair of `entries`, naming the first one that is not a pair. */
  #setAll(entries: Iterable<readonly [K, V]>): void {
    let i = 0;
    for (const entry of entries) {
      if (typeof entry !== "object" || entry === null) {
        throw typeError(WHERE, `entries[${i}]`, entry, "a [key, value] pair");
      }
      const k = entry[0];
      if (!isDictKey(k)) throw typeError(WHERE, `entries[${i}][0]`, k, "a string, number, bigint or Uint8Array");
      this.set(k, entry[1]);
      i++;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The Map-compatible part
  // ---------------------------------------------------------------------------------------------

  /** Number of entries (Redis DBSIZE / HLEN). Complexity: O(1). */
  get size(): number {
    return this.#size;
  }

  /** "Dict", as `Object.prototype.toString` reports it. */
  get [Symbol.toStringTag](): string {
    return "Dict";
  }

  /**
   * The value stored under `key`, or `undefined` (Redis GET / HGET). Keys of an unsupported type
   * are simply absent. Complexity: O(1) expected; side effect: one rehash step while rehashing.
   */
  get(key: K): V | undefined {
    // The int32 / string path is written out in full rather than going through #lookup: at 10^6
    // entries a get is two cache misses, and the shorter the path between them, the more
    // consecutive gets the CPU overlaps (docs/dict.md, "Design").
    let h: number;
    if (typeof key === "number" && (key | 0) === key) h = this.#hasher.intHash(key);
    else if (typeof key === "string") h = this.#hasher.stringHash(key);
    else {
      const s = isDictKey(key) ? this.#find(key, this.#hasher.hash(key)) : -1;
      return s < 0 ? undefined : (this.#kv[s >>> this.#chunkBits]![(s & this.#chunkMask) * 3 + 1] as V);
    }
    let p: number;
    if (this.#rehashIndex < 0) {
      const b = h & this.#mask0;
      p = this.#heads0[b]!;
    } else {
      this.#step(h);
      p = this.#rehashIndex < 0 ? this.#heads0[h & this.#mask0]! : this.#heads1[h & this.#mask1]!;
    }
    const bits = this.#chunkBits;
    const cmask = this.#chunkMask;
    while (p !== 0) {
      const s = p - 1;
      const kv = this.#kv[s >>> bits]!;
      const o = (s & cmask) * 3;
      if (kv[o] === key) return kv[o + 1] as V;
      p = kv[o + 2] as number;
    }
    return undefined;
  }

  /**
   * Whether `key` is present (Redis EXISTS / HEXISTS). Complexity: O(1) expected; side effect: one
   * rehash step while rehashing.
   */
  has(key: K): boolean {
    return this.#lookup(key) >= 0;
  }

  /**
   * The value under `key`; when absent, stores `defaultValue` under it first and returns it (ES2026
   * `Map.prototype.getOrInsert`; Redis HSETNX followed by HGET). Complexity: O(1) expected; side
   * effects: as {@link get}, plus an insert when absent.
   * @throws TypeError when `key` is absent and not a string, number, bigint or Uint8Array.
   */
  getOrInsert(key: K, defaultValue: V): V {
    const s = this.#lookup(key);
    if (s >= 0) return this.#kv[s >>> this.#chunkBits]![(s & this.#chunkMask) * 3 + 1] as V;
    this.set(key, defaultValue);
    return defaultValue;
  }

  /**
   * The value under `key`; when absent, stores `callback(key)` under it first and returns it (ES2026
   * `Map.prototype.getOrInsertComputed`). If the callback itself sets `key`, its value is
   * overwritten, as with `Map`. Complexity: O(1) expected plus the callback.
   * @throws TypeError when `callback` is not a function, or `key` is absent and of an unsupported type.
   */
  getOrInsertComputed(key: K, callback: (key: K) => V): V {
    if (typeof callback !== "function") throw typeError(WHERE, "callback", callback, "a function");
    const s = this.#lookup(key);
    if (s >= 0) return this.#kv[s >>> this.#chunkBits]![(s & this.#chunkMask) * 3 + 1] as V;
    if (!isDictKey(key)) throw typeError(WHERE, "key", key, "a string, number, bigint or Uint8Array");
    // The callback gets the key as stored: a byte key as its own copy, -0 as +0 (as Map does).
    const value = callback(key instanceof Uint8Array ? (new Uint8Array(key) as K) : key === 0 ? (0 as K) : key);
    this.set(key, value);
    return value;
  }

  /**
   * Stores `value` under `key` and returns this dict (Redis SET / HSET). A `Uint8Array` key is
   * copied. Complexity: O(1) expected, amortised no allocation (a slot chunk now and then, and the
   * next grow's table when half load is reached); side effects: one
   * rehash step while rehashing, and it may start a grow (which copies nothing).
   * @throws TypeError when `key` is not a string, number, bigint or Uint8Array.
   */
  set(key: K, value: V): this {
    let h: number;
    if (typeof key === "number" && (key | 0) === key) h = this.#hasher.intHash(key);
    else if (typeof key === "string") h = this.#hasher.stringHash(key);
    else {
      if (!isDictKey(key)) throw typeError(WHERE, "key", key, "a string, number, bigint or Uint8Array");
      h = this.#hasher.hash(key);
      const found = this.#find(key, h);
      if (found >= 0) this.#kv[found >>> this.#chunkBits]![(found & this.#chunkMask) * 3 + 1] = value;
      else this.#insert(key, value, h);
      return this;
    }
    // Written out as in `get`, for the same reason.
    let p: number;
    if (this.#rehashIndex < 0) {
      const b = h & this.#mask0;
      p = this.#heads0[b]!;
    } else {
      this.#step(h);
      p = this.#rehashIndex < 0 ? this.#heads0[h & this.#mask0]! : this.#heads1[h & this.#mask1]!;
    }
    const bits = this.#chunkBits;
    const cmask = this.#chunkMask;
    while (p !== 0) {
      const s = p - 1;
      const kv = this.#kv[s >>> bits]!;
      const o = (s & cmask) * 3;
      if (kv[o] === key) {
        kv[o + 1] = value;
        return this;
      }
      p = kv[o + 2] as number;
    }
    this.#insert(key, value, h);
    return this;
  }

  /** Adds an absent key with hash `h` (rehash work already done by the lookup). */
  #insert(key: K, value: V, h: number): void {
    // _dictExpandIfNeeded: grow at load factor 1 (never while a rehash is in progress).
    if (this.#rehashIndex < 0 && this.#size >= this.#mask0 + 1 && this.#mask0 + 1 < MAX_BUCKETS) {
      this.#startResize(nextPower(this.#size + 1));
    }
    // A byte key is copied into a plain Uint8Array: the caller's array (or a Buffer, or a view of a
    // larger buffer) may change after the call, and the stored key must not.
    const stored = key instanceof Uint8Array ? (new Uint8Array(key) as K) : key === 0 ? (0 as K) : key;
    const s = this.#allocSlot();
    const c = s >>> this.#chunkBits;
    const kv = this.#kv[c]!;
    const o = (s & this.#chunkMask) * 3;
    kv[o] = stored;
    kv[o + 1] = value;
    this.#hashes[c]![s & this.#chunkMask] = h;
    if (this.#rehashIndex >= 0) {
      const b = h & this.#mask1;
      kv[o + 2] = this.#heads1[b]!;
      this.#heads1[b] = s + 1;
    } else {
      const b = h & this.#mask0;
      kv[o + 2] = this.#heads0[b]!;
      this.#heads0[b] = s + 1;
      this.#used0++;
    }
    this.#size++;
    if ((this.#size & SPARE_PACE_MASK) === 0 && this.#rehashIndex < 0 && this.#size >= (this.#mask0 + 1) >>> 1) {
      this.#fillSpare();
    }
  }

  /**
   * Removes `key`; returns whether it was present (Redis DEL / HDEL). Complexity: O(1) expected;
   * side effects: one rehash step while rehashing, and it may start a shrink.
   */
  delete(key: K): boolean {
    let h: number;
    // int32 and string keys: `===` alone decides equality, as in get/set.
    let exact = true;
    if (typeof key === "number" && (key | 0) === key) h = this.#hasher.intHash(key);
    else if (typeof key === "string") h = this.#hasher.stringHash(key);
    else {
      if (!isDictKey(key)) return false;
      h = this.#hasher.hash(key);
      exact = false;
    }
    if (this.#rehashIndex >= 0) this.#step(h);
    const rehashing = this.#rehashIndex >= 0;
    const heads = rehashing ? this.#heads1 : this.#heads0;
    const b = h & (rehashing ? this.#mask1 : this.#mask0);
    const bits = this.#chunkBits;
    const cmask = this.#chunkMask;
    let prev = -1;
    let p = heads[b]!;
    while (p !== 0) {
      const s = p - 1;
      const kv = this.#kv[s >>> bits]!;
      const o = (s & cmask) * 3;
      const k = kv[o];
      if (k === key || (!exact && this.#hashes[s >>> bits]![s & cmask] === h && slowKeyEquals(k, key))) {
        if (prev < 0) heads[b] = kv[o + 2] as number;
        else this.#kv[prev >>> bits]![(prev & cmask) * 3 + 2] = kv[o + 2];
        if (!rehashing) this.#used0--;
        this.#size--;
        this.#freeSlot(s);
        this.#resizeIfNeeded();
        return true;
      }
      prev = s;
      p = kv[o + 2] as number;
    }
    return false;
  }

  /**
   * Removes every entry and returns the tables to their initial 4 buckets (Redis FLUSHDB's
   * `dictEmpty`, without its incremental callback). Complexity: O(1) here plus garbage collection.
   */
  clear(): void {
    this.#spare = NO_TABLE;
    this.#heads0 = newTable(MIN_BUCKETS);
    this.#mask0 = MIN_BUCKETS - 1;
    this.#heads1 = NO_TABLE;
    this.#mask1 = 0;
    this.#rehashIndex = -1;
    this.#used0 = 0;
    this.#size = 0;
    this.#resetSlots();
  }

  /**
   * Calls `callback(value, key, dict)` for every entry, like `Map.prototype.forEach`. Complexity:
   * O(slots). Mutation from the callback follows the iteration rules in the class notes.
   */
  forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    if (typeof callback !== "function") throw typeError(WHERE, "callback", callback, "a function");
    for (let s = 0; s < this.#highWater; s++) {
      const kv = this.#kv[s >>> this.#chunkBits]!;
      const o = (s & this.#chunkMask) * 3;
      const k = kv[o];
      if (k !== undefined) callback.call(thisArg, kv[o + 1] as V, this.#outKey(k), this);
    }
  }

  /** Iterates `[key, value]` pairs (order unspecified). Complexity: O(slots) for the whole walk. */
  entries(): MapEntriesIterator<K, V> {
    return this.#walk(2) as MapEntriesIterator<K, V>;
  }

  /** Iterates keys (order unspecified; byte-array keys are fresh copies). */
  keys(): MapKeysIterator<K, V> {
    return this.#walk(0) as MapKeysIterator<K, V>;
  }

  /** Iterates values (order unspecified). */
  values(): MapValuesIterator<K, V> {
    return this.#walk(1) as MapValuesIterator<K, V>;
  }

  /** Same as {@link entries}: `for (const [k, v] of dict)`. */
  [Symbol.iterator](): MapEntriesIterator<K, V> {
    return this.entries();
  }

  // ---------------------------------------------------------------------------------------------
  // The Redis part: SCAN, idle rehash, random key, stats
  // ---------------------------------------------------------------------------------------------

  /**
   * One SCAN call: returns the next cursor (0 when the scan is complete) and the keys of the
   * buckets visited. Start with cursor 0 and call until 0 comes back; every key present for the
   * whole scan is returned at least once, however the table grows or shrinks between calls (a key
   * may be returned more than once). `count` is a hint, as in Redis: buckets are visited until at
   * least `count` keys were gathered or `10·count` cursor steps were made. Does not rehash.
   * Complexity: O(count) expected. Redis: SCAN / HSCAN (dictScan).
   * @throws RangeError for a cursor that is not a uint32 or a count that is not a positive integer.
   */
  scan(cursor: number, count = 10): [nextCursor: number, keys: K[]] {
    checkInteger(WHERE, "cursor", cursor, 0, 2 ** 32 - 1);
    checkInteger(WHERE, "count", count, 1, 2 ** 31 - 1);
    const out: K[] = [];
    let v = cursor;
    let steps = count * 10;
    do {
      v = this.#scanStep(v, out);
    } while (v !== 0 && --steps > 0 && out.length < count);
    return [v, out];
  }

  /**
   * Idle-time rehashing: migrates buckets in batches of 100 until the rehash completes or `ms`
   * milliseconds have elapsed (Redis's `dictRehashMilliseconds`, used by `activerehashing`).
   * Returns true while rehashing remains to be done. Complexity: O(work done), bounded by `ms`
   * plus one batch.
   * @throws RangeError when `ms` is negative or not finite.
   */
  rehashFor(ms: number): boolean {
    checkFinite(WHERE, "ms", ms);
    if (ms < 0) throw rangeError(WHERE, "ms", ms, "a finite number ≥ 0");
    if (this.#rehashIndex < 0) return false;
    const start = performance.now();
    do {
      for (let i = 0; i < 100 && this.#rehashIndex >= 0; i++) this.#rehashBucketStep();
    } while (this.#rehashIndex >= 0 && performance.now() - start < ms);
    return this.#rehashIndex >= 0;
  }

  /** Whether a grow or shrink is in progress. Complexity: O(1). */
  get rehashing(): boolean {
    return this.#rehashIndex >= 0;
  }

  /**
   * A random key, or `undefined` when empty (Redis RANDOMKEY, `dictGetRandomKey`): picks random
   * buckets until a non-empty one, then a random entry of its chain, so keys on long chains are
   * slightly less likely. Complexity: O(1) expected (loads stay ≥ 1/8 after a shrink); side
   * effect: one rehash step while rehashing. Uses the `seed` option's PRNG.
   */
  randomKey(): K | undefined {
    if (this.#size === 0) return undefined;
    if (this.#rehashIndex >= 0) this.#rehashBucketStep();
    const rand = this.#random;
    let p = 0;
    if (this.#rehashIndex >= 0) {
      const size0 = this.#mask0 + 1;
      const span = size0 + this.#mask1 + 1 - this.#rehashIndex;
      while (p === 0) {
        const i = this.#rehashIndex + Math.floor((rand() / 4294967296) * span);
        p = i >= size0 ? this.#heads1[i - size0]! : this.#heads0[i]!;
      }
    } else {
      while (p === 0) p = this.#heads0[rand() & this.#mask0]!;
    }
    let len = 0;
    for (let q = p; q !== 0; q = this.#nextOf(q - 1)) len++;
    for (let pick = rand() % len; pick > 0; pick--) p = this.#nextOf(p - 1);
    const s = p - 1;
    return this.#outKey(this.#kv[s >>> this.#chunkBits]![(s & this.#chunkMask) * 3]);
  }

  /**
   * Table and storage statistics (Redis DEBUG HTSTATS). Complexity: O(buckets) for the chain
   * figures. No side effects.
   */
  info(): DictInfo {
    let maxChain = 0;
    let nonEmpty = 0;
    const tables: [Table, number][] = [[this.#heads0, this.#mask0 + 1]];
    if (this.#rehashIndex >= 0) tables.push([this.#heads1, this.#mask1 + 1]);
    for (const [heads, buckets] of tables) {
      for (let b = 0; b < buckets; b++) {
        let len = 0;
        for (let p = heads[b]!; p !== 0; p = this.#nextOf(p - 1)) len++;
        if (len > 0) nonEmpty++;
        if (len > maxChain) maxChain = len;
      }
    }
    const rehashing = this.#rehashIndex >= 0;
    return {
      size: this.#size,
      buckets: [this.#mask0 + 1, rehashing ? this.#mask1 + 1 : 0],
      used: [this.#used0, this.#size - this.#used0],
      rehashIndex: this.#rehashIndex,
      rehashing,
      maxChain,
      nonEmptyBuckets: nonEmpty,
      slots: this.#highWater,
      freeSlots: this.#highWater - this.#size,
      byteLength: this.byteLength,
    };
  }

  /**
   * Bytes held in typed arrays: the bucket tables (the next grow's included) and the cached hashes.
   * The entry arrays holding keys and values are plain arrays whose size the engine decides (about
   * 3 references per slot), and the keys and values themselves are the caller's. O(chunks).
   */
  get byteLength(): number {
    let n = this.#heads0.byteLength + this.#heads1.byteLength + this.#spare.byteLength;
    for (const h of this.#hashes) n += h.byteLength;
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Copies and bytes
  // ---------------------------------------------------------------------------------------------

  /**
   * An independent dict with the same entries, the same secret key and the same table layout (a
   * rehash in progress continues where this one is). Values are shared, not copied, as with
   * `new Map(map)`; `randomKey` draws of the copy are its own. Complexity: O(buckets + slots).
   */
  clone(): Dict<K, V> {
    const copy = new Dict<K, V>(null, { key: this.#hasher.sipKey, chunkBits: this.#chunkBits });
    copy.#hasher = this.#hasher;
    copy.#heads0 = this.#heads0.slice();
    copy.#mask0 = this.#mask0;
    copy.#heads1 = this.#heads1.slice();
    copy.#mask1 = this.#mask1;
    copy.#rehashIndex = this.#rehashIndex;
    copy.#used0 = this.#used0;
    copy.#size = this.#size;
    copy.#spare = this.#spare.length === 0 ? NO_TABLE : new Int32Array(this.#spare.length);
    copy.#kv = this.#kv.map((kv) => kv.slice());
    copy.#hashes = this.#hashes.map((h) => h.slice());
    copy.#highWater = this.#highWater;
    copy.#free = this.#free;
    return copy;
  }

  /**
   * The entries as bytes, in redstruct's versioned format (see src/dict/serialize.ts): keys as
   * they are (strings exactly, lone surrogates included), values as they are when they are
   * strings, numbers, bigints, booleans, null, undefined or Uint8Arrays, or through
   * `encodeValue`. The secret SipHash key is not written. O(n + bytes).
   * @throws TypeError for a value of another type without `encodeValue`, or an `encodeValue` that
   *   does not return a Uint8Array.
   */
  toBytes(options?: DictToBytesOptions): Uint8Array {
    const o = checkOptions(WHERE, options, ["encodeValue"]);
    if (o.encodeValue !== undefined && typeof o.encodeValue !== "function") {
      throw typeError(WHERE, "options.encodeValue", o.encodeValue, "a function");
    }
    const entries = [...(this.#walk(2) as Iterable<[DictKey, unknown]>)];
    return encodeDict(entries, o.encodeValue as ((value: unknown) => Uint8Array) | undefined);
  }

  /**
   * A dict holding the entries {@link toBytes} wrote, with a fresh secret key unless
   * `options.key` gives one. Nothing read aliases `bytes`. O(n + bytes).
   * @throws RedstructFormatError for malformed, truncated or hostile bytes (a key written twice
   *   included), and when `decodeValue` is missing (the values were encoded) or not needed;
   *   TypeError for options as the constructor.
   */
  static fromBytes<K extends DictKey = DictKey, V = unknown>(
    bytes: Uint8Array,
    options?: DictFromBytesOptions<V>,
  ): Dict<K, V> {
    const { decodeValue, ...dictOptions } = checkOptions(WHERE, options, [...OPTION_KEYS, "decodeValue"]);
    if (decodeValue !== undefined && typeof decodeValue !== "function") {
      throw typeError(WHERE, "options.decodeValue", decodeValue, "a function");
    }
    const { keys, values } = decodeDict(bytes, decodeValue);
    const dict = new Dict<K, V>(null, dictOptions);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as K;
      if (dict.has(key)) throw formatError(WHERE, `key ${i} appears twice`);
      dict.set(key, values[i] as V);
    }
    return dict;
  }

  /**
   * The dict as a Redis hash key's `DUMP` payload: `RESTORE key 0 <payload>` recreates it in Redis
   * 7.0 or later (RDB version 10, CRC-64). Keys and values become Redis strings — a string its UTF-8
   * bytes, a number or bigint its decimal text, a Uint8Array its bytes — and any other value goes
   * through `options.encodeValue`. A listpack (RDB type 16) while there are at most 512 entries whose
   * keys and values have at most 64 bytes (Redis's `hash-max-listpack-*` defaults), in iteration
   * order: byte for byte what redis-server 7.0 DUMPs after the same HSETs in the same order. Else
   * the hash-table encoding (type 4), whose bytes Redis orders by its own seeded hash: RESTORE reads
   * it back equal, but its bytes cannot be Redis's (docs/redis.md). O(n + bytes).
   * @throws RangeError for an empty dict (Redis holds no empty key); TypeError for a key or string
   *   value with a lone surrogate (no UTF-8 form), two keys that are one Redis field (`1` and `"1"`),
   *   a value of another type without `encodeValue`, or an `encodeValue` that does not return a
   *   Uint8Array — each naming the key.
   */
  toRedis(options?: DictToRedisOptions): Uint8Array {
    const o = checkOptions(WHERE, options, ["encodeValue"]);
    if (o.encodeValue !== undefined && typeof o.encodeValue !== "function") {
      throw typeError(WHERE, "options.encodeValue", o.encodeValue, "a function");
    }
    const entries = [...(this.#walk(2) as Iterable<[DictKey, unknown]>)];
    return hashToDump(entries, o.encodeValue as ((value: unknown) => Uint8Array) | undefined, WHERE);
  }

  /**
   * A dict holding what a hash key's `DUMP` payload holds (`DUMP key` from Redis 6.2 to 8, or
   * {@link toRedis}): listpack, ziplist or hash-table encoding, RDB versions 9 to 12, integer-encoded
   * and LZF-compressed strings. Fields become string keys where their bytes are UTF-8 and Uint8Array
   * keys otherwise; values likewise, or `options.decodeValue(bytes)`. A fresh secret key unless
   * `options.key` gives one. Everything is checked before it is trusted — CRC-64, version, type, every
   * length against the bytes present before anything is allocated, the LZF streams, a field twice.
   * Nothing read aliases `payload`. O(n + bytes).
   * @throws TypeError when `payload` is not a Uint8Array or for options as the constructor;
   *   RedstructFormatError for anything else, naming what is wrong.
   */
  static fromRedis<K extends DictKey = DictKey, V = unknown>(
    payload: Uint8Array,
    options?: DictFromRedisOptions<V>,
  ): Dict<K, V> {
    const { decodeValue, ...dictOptions } = checkOptions(WHERE, options, [...OPTION_KEYS, "decodeValue"]);
    if (decodeValue !== undefined && typeof decodeValue !== "function") {
      throw typeError(WHERE, "options.decodeValue", decodeValue, "a function");
    }
    const { keys, values } = hashFromDump(payload, WHERE);
    const dict = new Dict<K, V>(null, dictOptions);
    for (let i = 0; i < keys.length; i++) {
      if (dict.has(keys[i] as K)) throw formatError(WHERE, `not a hash's DUMP payload: field ${i} appears twice`);
      dict.set(keys[i] as K, values[i] as V);
    }
    // The callback sees values only once every byte has been checked.
    for (let i = 0; i < keys.length; i++) {
      const bytes = values[i]!;
      dict.set(keys[i] as K, (decodeValue === undefined ? plainValue(bytes) : decodeValue(bytes)) as V);
    }
    return dict;
  }

  /**
   * Always throws: a Dict keeps its entries in private fields, so `JSON.stringify` would write `{}`
   * (as for a `Map`) and `structuredClone` would copy nothing. Send {@link toBytes} instead.
   * @throws TypeError saying so.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  /**
   * Walks the whole structure and throws an Error describing the first broken invariant (chains,
   * bucket placement, counts, free list, rehash index). Complexity: O(buckets + slots). For tests.
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure("Dict");
    const bits = this.#chunkBits;
    const cmask = this.#chunkMask;
    const seen = new Uint8Array(this.#highWater);
    const rehashing = this.#rehashIndex >= 0;
    if (this.#heads0.length !== this.#mask0 + 1) fail("table 0 length ≠ mask + 1");
    if ((this.#mask0 & (this.#mask0 + 1)) !== 0 || this.#mask0 + 1 < MIN_BUCKETS) fail("table 0 size");
    if (!rehashing && this.#heads1.length !== 0) fail("table 1 allocated while not rehashing");
    if (rehashing) {
      if (this.#heads1.length !== this.#mask1 + 1 || (this.#mask1 & (this.#mask1 + 1)) !== 0) fail("table 1 size");
      if (this.#rehashIndex > this.#mask0) fail("rehashIndex past table 0");
    }
    if (!rehashing && this.#size > this.#mask0 + 1 && this.#mask0 + 1 < MAX_BUCKETS) fail("load factor above 1");
    let counts = [0, 0];
    const tables: [Table, number][] = [[this.#heads0, this.#mask0]];
    if (rehashing) tables.push([this.#heads1, this.#mask1]);
    if (this.#spare.some((x) => x !== 0)) fail("the spare table was written");
    tables.forEach(([heads, mask], t) => {
      for (let b = 0; b <= mask; b++) {
        if (t === 0 && rehashing && b < this.#rehashIndex && heads[b]! !== 0) fail(`migrated bucket ${b} not empty`);
        let guard = 0;
        for (let p = heads[b]!; p !== 0; p = this.#nextOf(p - 1)) {
          const s = p - 1;
          if (s < 0 || s >= this.#highWater) fail(`slot ${s} out of range`);
          if (seen[s]) fail(`slot ${s} on two chains or a cycle`);
          seen[s] = 1;
          const k = this.#kv[s >>> bits]![(s & cmask) * 3];
          if (!isDictKey(k)) fail(`slot ${s} on a chain holds no key`);
          const h = this.#hashes[s >>> bits]![s & cmask]!;
          if (this.#hasher.hash(k as DictKey) !== h) fail(`slot ${s} cached hash is stale`);
          if ((h & mask) !== b) fail(`slot ${s} in bucket ${b} of table ${t}, hash says ${h & mask}`);
          if (++guard > this.#highWater) fail("chain cycle");
          counts = t === 0 ? [counts[0]! + 1, counts[1]!] : [counts[0]!, counts[1]! + 1];
        }
      }
    });
    if (counts[0] !== this.#used0) fail(`used0 ${this.#used0} but table 0 holds ${counts[0]}`);
    if (counts[0]! + counts[1]! !== this.#size) fail(`size ${this.#size} but tables hold ${counts[0]! + counts[1]!}`);
    let free = 0;
    for (let p = this.#free; p !== 0; p = this.#nextOf(p - 1)) {
      const s = p - 1;
      if (s >= this.#highWater || seen[s]) fail(`free slot ${s} is live or out of range`);
      if (this.#kv[s >>> bits]![(s & cmask) * 3] !== undefined) fail(`free slot ${s} holds a key`);
      seen[s] = 1;
      if (++free > this.#highWater) fail("free list cycle");
    }
    if (free + this.#size !== this.#highWater) fail(`${free} free + ${this.#size} live ≠ ${this.#highWater} slots`);
  }

  // ---------------------------------------------------------------------------------------------
  // Internals
  // ---------------------------------------------------------------------------------------------

  /** The slot holding any value `key` (-1 when absent or not a key type), after owed rehash work. */
  #lookup(key: unknown): number {
    if (typeof key === "number" && (key | 0) === key) return this.#findFast(key, this.#hasher.intHash(key));
    if (typeof key === "string") return this.#findFast(key, this.#hasher.stringHash(key));
    if (!isDictKey(key)) return -1;
    return this.#find(key, this.#hasher.hash(key));
  }

  /** {@link #find} for int32 and string keys, which `===` compares exactly. */
  #findFast(key: number | string, h: number): number {
    if (this.#rehashIndex >= 0) this.#step(h);
    const bits = this.#chunkBits;
    const cmask = this.#chunkMask;
    let p = this.#rehashIndex >= 0 ? this.#heads1[h & this.#mask1]! : this.#heads0[h & this.#mask0]!;
    while (p !== 0) {
      const s = p - 1;
      const kv = this.#kv[s >>> bits]!;
      const o = (s & cmask) * 3;
      if (kv[o] === key) return s;
      p = kv[o + 2] as number;
    }
    return -1;
  }

  /** Rehash work owed by a keyed operation, then the slot holding `key` or -1. */
  #find(key: DictKey, h: number): number {
    this.#step(h);
    const rehashing = this.#rehashIndex >= 0;
    const bits = this.#chunkBits;
    const cmask = this.#chunkMask;
    // Keys that `===` cannot match (NaN, byte arrays) take the hash-checked slow comparison.
    // Everything else compares the key first, which reads only the key's own array.
    const slow = typeof key === "object" || Number.isNaN(key);
    let p = rehashing ? this.#heads1[h & this.#mask1]! : this.#heads0[h & this.#mask0]!;
    while (p !== 0) {
      const s = p - 1;
      const kv = this.#kv[s >>> bits]!;
      const o = (s & cmask) * 3;
      const k = kv[o];
      if (k === key) return s;
      if (slow && this.#hashes[s >>> bits]![s & cmask] === h && slowKeyEquals(k, key)) return s;
      p = kv[o + 2] as number;
    }
    return -1;
  }

  /** While rehashing: one ordinary step, then the key's own table-0 bucket if not yet moved. */
  #step(h: number): void {
    if (this.#rehashIndex < 0) return;
    this.#rehashBucketStep();
    // Finishing a rehash may start the next one (e.g. a shrink that inserts outgrew), hence a loop:
    // on exit the key's table-0 bucket is migrated or there is no rehash.
    while (this.#rehashIndex >= 0) {
      const b = h & this.#mask0;
      if (b < this.#rehashIndex || this.#heads0[b]! === 0) return;
      this.#moveBucket(b);
      if (this.#used0 !== 0) return;
      this.#finishRehash();
    }
  }

  /** `dictRehash(d, 1)`: moves the next non-empty bucket, visiting at most 10 empty ones. */
  #rehashBucketStep(): void {
    const heads0 = this.#heads0;
    const last = this.#mask0;
    let visits = EMPTY_VISITS;
    let i = this.#rehashIndex;
    while (i <= last && heads0[i]! === 0) {
      i++;
      if (--visits === 0) break;
    }
    if (i <= last && heads0[i]! !== 0) {
      this.#moveBucket(i);
      i++;
    }
    this.#rehashIndex = i;
    if (this.#used0 === 0 || i > last) this.#finishRehash();
  }

  /** Moves the chain of table-0 bucket `b` to table 1. */
  #moveBucket(b: number): void {
    const bits = this.#chunkBits;
    const cmask = this.#chunkMask;
    const heads1 = this.#heads1;
    const mask1 = this.#mask1;
    let p = this.#heads0[b]!;
    this.#heads0[b] = 0;
    while (p !== 0) {
      const s = p - 1;
      const kv = this.#kv[s >>> bits]!;
      const o = (s & cmask) * 3 + 2;
      const next = kv[o] as number;
      const b1 = this.#hashes[s >>> bits]![s & cmask]! & mask1;
      kv[o] = heads1[b1]!;
      heads1[b1] = p;
      this.#used0--;
      p = next;
    }
  }

  /** Allocates the table the next grow (to twice the buckets) will use, once per size. */
  #fillSpare(): void {
    const buckets = (this.#mask0 + 1) * 2;
    if (buckets > MAX_BUCKETS || this.#spare.length === buckets) return;
    this.#spare = newTable(buckets);
  }

  #startResize(buckets: number): void {
    this.#heads1 = buckets === this.#spare.length ? this.#spare : newTable(buckets);
    this.#spare = NO_TABLE;
    this.#mask1 = buckets - 1;
    this.#rehashIndex = 0;
  }

  #finishRehash(): void {
    this.#heads0 = this.#heads1;
    this.#mask0 = this.#mask1;
    this.#heads1 = NO_TABLE;
    this.#mask1 = 0;
    this.#rehashIndex = -1;
    this.#used0 = this.#size;
    this.#resizeIfNeeded();
  }

  /**
   * Starts a shrink when `size ≤ buckets / 8` (Redis ≥ 7.4's HASHTABLE_MIN_FILL), or a grow when
   * the load factor reached 1 while a rehash was in progress. Called after deletes and when a
   * rehash completes, so a table emptied during a rehash still shrinks.
   */
  #resizeIfNeeded(): void {
    if (this.#rehashIndex >= 0) return;
    const buckets = this.#mask0 + 1;
    if (buckets > MIN_BUCKETS && this.#size <= buckets / 8) this.#startResize(nextPower(this.#size));
    else if (this.#size > buckets && buckets < MAX_BUCKETS) this.#startResize(nextPower(this.#size + 1));
    if (this.#size === 0 && this.#rehashIndex < 0) this.#resetSlots();
  }

  #nextOf(s: number): number {
    return this.#kv[s >>> this.#chunkBits]![(s & this.#chunkMask) * 3 + 2] as number;
  }

  #allocSlot(): number {
    if (this.#free !== 0) {
      const s = this.#free - 1;
      this.#free = this.#nextOf(s);
      return s;
    }
    const s = this.#highWater++;
    const c = s >>> this.#chunkBits;
    const i = s & this.#chunkMask;
    if (c === this.#hashes.length) {
      // A new chunk: chunk 0 starts small (a small dict stays small); later ones at full size,
      // allocated once: `new Array(n)` is a holey array in fast elements (a hole reads as
      // `undefined`, a free slot's key). Growing chunks by `push` would re-allocate and copy them
      // along the way — three times the chunk's bytes of short-lived garbage, and young-generation
      // collections to match.
      const slots = c === 0 ? 8 : 1 << this.#chunkBits;
      this.#hashes.push(new Int32Array(slots));
      this.#kv.push(new Array(3 * slots));
    } else if (i === this.#hashes[c]!.length) {
      // Only chunk 0 grows: double it (a copy of at most one chunk).
      const hashes = new Int32Array(i * 2);
      hashes.set(this.#hashes[c]!);
      this.#hashes[c] = hashes;
      const old = this.#kv[c]!;
      const kv = new Array(6 * i);
      for (let j = 0; j < old.length; j++) kv[j] = old[j];
      this.#kv[c] = kv;
    }
    return s;
  }

  #freeSlot(s: number): void {
    const kv = this.#kv[s >>> this.#chunkBits]!;
    const o = (s & this.#chunkMask) * 3;
    kv[o] = undefined;
    kv[o + 1] = undefined;
    kv[o + 2] = this.#free;
    this.#free = s + 1;
  }

  /** Drops the slot storage (only when no entry is left). */
  #resetSlots(): void {
    this.#hashes = [];
    this.#kv = [];
    this.#highWater = 0;
    this.#free = 0;
  }

  /** A stored key as handed to callers: byte arrays are copied so the table's own never escape. */
  #outKey(k: unknown): K {
    return (k instanceof Uint8Array ? new Uint8Array(k) : k) as K;
  }

  /** One bucket (or a small/large bucket group while rehashing) of dictScan. */
  #scanStep(v: number, out: K[]): number {
    const bits = this.#chunkBits;
    const cmask = this.#chunkMask;
    const emit = (heads: Table, b: number) => {
      for (let p = heads[b]!; p !== 0; ) {
        const s = p - 1;
        const kv = this.#kv[s >>> bits]!;
        out.push(this.#outKey(kv[(s & cmask) * 3]));
        p = kv[(s & cmask) * 3 + 2] as number;
      }
    };
    if (this.#rehashIndex < 0) {
      const m0 = this.#mask0;
      emit(this.#heads0, v & m0);
      return nextCursor(v, m0);
    }
    // Visit the smaller table's bucket, then every bucket of the larger table that expands it.
    let small = this.#heads0;
    let large = this.#heads1;
    let m0 = this.#mask0;
    let m1 = this.#mask1;
    if (m0 > m1) {
      small = this.#heads1;
      large = this.#heads0;
      m0 = this.#mask1;
      m1 = this.#mask0;
    }
    emit(small, v & m0);
    do {
      emit(large, v & m1);
      v = nextCursor(v, m1);
    } while ((v & (m0 ^ m1)) !== 0);
    return v;
  }

  /** Slot-order iteration: 0 keys, 1 values, 2 entries. */
  *#walk(kind: 0 | 1 | 2): Generator<unknown, undefined, unknown> {
    for (let s = 0; s < this.#highWater; s++) {
      const kv = this.#kv[s >>> this.#chunkBits]!;
      const o = (s & this.#chunkMask) * 3;
      const k = kv[o];
      if (k === undefined) continue;
      if (kind === 0) yield this.#outKey(k);
      else if (kind === 1) yield kv[o + 1];
      else yield [this.#outKey(k), kv[o + 1]];
    }
    return undefined;
  }

  static {
    defineInspect(Dict, (d) => ({ size: d.size, entries: (limit) => firstOf(d.entries(), limit) }));
  }
}

/**
 * The type of the `Dict` constructor as exported (`redstruct/dict`): `new Dict(entries)` infers its
 * types from the entries the way `new Map(entries)` does — `new Dict([["a", 1]])` is a
 * `Dict<string, number>`, not a `Dict<"a", number>` that would refuse `set("b", 2)`. (A class's own
 * constructor cannot do this: a type parameter constrained to primitives keeps literal types.)
 */
export interface DictConstructor {
  /**
   * A dict holding `entries`, its key and value types inferred from them (widened like `Map`'s).
   * Complexity: O(n). @throws as {@link Dict}'s constructor.
   */
  new <E extends readonly [DictKey, unknown]>(entries: Iterable<E>, options?: DictOptions): Dict<E[0], E[1]>;
  /** A dict of the given types, empty or holding `entries`. Complexity: O(n). */
  new <K extends DictKey = DictKey, V = unknown>(
    entries?: Iterable<readonly [K, V]> | null,
    options?: DictOptions,
  ): Dict<K, V>;
  /** Same as `new Dict(entries, options)`, except that `entries` is required. Complexity: O(n). */
  from<E extends readonly [DictKey, unknown]>(entries: Iterable<E>, options?: DictOptions): Dict<E[0], E[1]>;
  /** Same as `new Dict<K, V>(entries, options)`, except that `entries` is required. Complexity: O(n). */
  from<K extends DictKey, V>(entries: Iterable<readonly [K, V]>, options?: DictOptions): Dict<K, V>;
  /**
   * A dict holding the entries {@link Dict.toBytes} wrote (a fresh secret key unless `options.key`
   * gives one). O(n + bytes). @throws as {@link Dict.fromBytes}.
   */
  fromBytes<K extends DictKey = DictKey, V = unknown>(bytes: Uint8Array, options?: DictFromBytesOptions<V>): Dict<K, V>;
  /**
   * A dict holding what a hash key's `DUMP` payload holds (a fresh secret key unless `options.key`
   * gives one). O(n + bytes). @throws as {@link Dict.fromRedis}.
   */
  fromRedis<K extends DictKey = DictKey, V = unknown>(
    payload: Uint8Array,
    options?: DictFromRedisOptions<V>,
  ): Dict<K, V>;
  /** The class's prototype, so that `instanceof Dict` narrows to a `Dict`. @hidden */
  readonly prototype: Dict<DictKey, unknown>;
}
