/**
 * Cuckoo filter, exact with RedisBloom 2.4's CF.* (src/cuckoo.c, src/cf.c): the same fingerprints,
 * the same slots, the same kicks, growth and compaction, and byte-identical CF.SCANDUMP chunks, so a
 * filter moves between Redis (CF.LOADCHUNK) and the browser in either direction.
 *
 * Algorithm: Fan, Andersen, Kaminsky & Mitzenmacher, "Cuckoo Filter: Practically Better Than Bloom"
 * (CoNEXT 2014), with RedisBloom's choices. h = MurmurHash64A(item, seed 0); the fingerprint is
 * (h mod 255) + 1, one byte in 1..255 (0 marks an empty slot); the two candidate buckets are
 * i1 = h and i2 = h XOR fp·0x5bd1e995 (64-bit), each taken mod the sub-filter's bucket count n, a
 * power of two — so only the low 32 bits matter, and h mod 255 = (hi + lo) mod 255 because
 * 2^32 ≡ 1 (mod 255): no BigInt anywhere. An insert takes the first empty slot of i1 then i2 in the
 * sub-filters from newest to oldest; failing that it kicks within the newest one: from bucket i1 and
 * victim slot 0, swap the fingerprint in hand into the victim slot, move to the evicted fingerprint's
 * other bucket (bucket XOR fp·0x5bd1e995), stop at an empty slot, else advance the victim slot and
 * repeat, up to maxIterations times; on failure every swap is undone and, with expansion > 0, a
 * sub-filter of n·expansion^k buckets is appended and the insert retried (expansion 0: "Filter is
 * full"). With 32 sub-filters every insert is refused ("Maximum expansions reached"). A delete clears
 * the first slot holding the fingerprint (newest sub-filter first, i1 then i2): it knows nothing but
 * the fingerprint, so deleting an item never added can remove another item's fingerprint. When more
 * than one sub-filter exists and deletes exceed 10% of the items, fingerprints of newer sub-filters
 * move into free slots of older ones and an emptied last sub-filter is dropped (compaction).
 *
 * Growth is bounded: RedisBloom caps the number of sub-filters (32) but not their total size, and
 * each one is `expansion` times the previous, so re-adding one item (which fits only in its two
 * buckets, 2·bucketSize slots per sub-filter) can reach gigabytes in a few dozen calls. Here the
 * sub-filters together hold at most {@link CUCKOO_MAX_SLOTS} slots: a growth past it is a RangeError
 * before anything is allocated.
 *
 * Memory layout: one `Uint8Array` of n_k·bucketSize fingerprint slots per sub-filter (bucket b's slots
 * at [b·bucketSize, (b+1)·bucketSize)), exactly the bytes CF.SCANDUMP sends; an `Int32Array` of the
 * sub-filters' bucket masks; a reused `Uint32Array` for the hash and an `Int32Array` for the kick path.
 *
 * Invariants: 1 ≤ sub-filters ≤ 32; sub-filter k has buckets·expansion^k buckets, a power of two;
 * all sub-filters together hold at most 2^30 slots; `size` equals the number of non-zero slots;
 * `deleted` counts deletes since the last compaction.
 *
 * Costs: has / count O(sub-filters · bucketSize) after an O(|item|) hash, no allocation; add O(that +
 * maxIterations) (plus O(new sub-filter) when it grows); delete O(sub-filters · bucketSize), plus a
 * compaction O(slots · sub-filters · bucketSize) when it triggers; toRedis / fromRedis / toBytes /
 * fromBytes / clone O(slots).
 */

import { checkItem, type Item } from "../hash/element.js";
import { murmur64aCore } from "../hash/murmur64a.js";
import { ByteReader, ByteWriter, checkBytes } from "../internal/bytes.js";
import { placeChunk } from "../internal/chunks.js";
import { checkInteger, describe, formatError, invariantFailure, notJson, rangeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkFlag, checkIterable, checkOptions } from "../internal/options.js";

const WHERE = "CuckooFilter";
/** How CF.LOADCHUNK chunks are named in messages. */
const CHUNK_TERMS = { where: WHERE, position: "position", part: "sub-filter" };
const ALT = 0x5bd1e995;
/** RedisBloom's limit on sub-filters (CF_MAX_NUM_FILTERS). */
export const CUCKOO_MAX_FILTERS = 32;
/**
 * Most fingerprint slots all sub-filters together may hold (2^30, 1 GiB): growth or a load past it
 * is refused before anything is allocated. RedisBloom has no such limit.
 */
export const CUCKOO_MAX_SLOTS = 2 ** 30;
/** CF.SCANDUMP's largest chunk (16 MiB). */
const MAX_CHUNK = 16 * 1024 * 1024;
/** The CF.SCANDUMP header: u64 items, u64 buckets, u64 deletes, u64 filters, u16 ×3. */
const REDIS_HEADER = 38;

/** Options of {@link CuckooFilter} (CF.RESERVE's parameters). */
export interface CuckooFilterOptions {
  /**
   * Expected items: the first sub-filter gets the next power of two ≥ ⌊capacity / bucketSize⌋
   * buckets. At least 2·bucketSize. @defaultValue 1024 (what CF.ADD auto-creates)
   */
  capacity?: number;
  /** Fingerprints per bucket, 1..255. @defaultValue 2 */
  bucketSize?: number;
  /** Kicks tried before growing (or failing), 1..65535. @defaultValue 20 */
  maxIterations?: number;
  /**
   * Growth factor of each new sub-filter, 0..32768, rounded up to a power of two (3 becomes 4);
   * 0 never grows: a full filter refuses inserts. Sub-filter k holds expansion^k times the first
   * one's slots, and all of them together at most {@link CUCKOO_MAX_SLOTS}. @defaultValue 1
   */
  expansion?: number;
}

/** Options of {@link CuckooFilter.add} and {@link CuckooFilter.addAll}. */
export interface CuckooAddOptions {
  /** Add only when {@link CuckooFilter.has} says absent (CF.ADDNX / CF.INSERTNX). @defaultValue false */
  nx?: boolean;
}

/** What {@link CuckooFilter.info} returns: CF.INFO's fields. */
export interface CuckooFilterInfo {
  /**
   * CF.INFO "Size": 40 + 16·filters + total slots, the bytes RedisBloom accounts for (the
   * {@link CuckooFilter.byteLength} getter counts this process's typed arrays instead).
   */
  byteLength: number;
  /** CF.INFO "Number of buckets": buckets of the first sub-filter. */
  buckets: number;
  /** CF.INFO "Number of filters": sub-filters. */
  filters: number;
  /** CF.INFO "Number of items inserted": fingerprints stored (adds minus deletes). */
  size: number;
  /** CF.INFO "Number of items deleted": deletes since the last compaction. */
  deleted: number;
  /** CF.INFO "Bucket size": fingerprint slots per bucket. */
  bucketSize: number;
  /** CF.INFO "Expansion rate": the growth factor as stored (a power of two, or 0). */
  expansion: number;
  /** CF.INFO "Max iterations": most kicks an add tries before it grows the filter (or fails). */
  maxIterations: number;
}

/** The state a dump or a toBytes buffer describes, checked by {@link checkShape}. */
interface Shape {
  items: number;
  buckets: number;
  deletes: number;
  filters: number;
  bucketSize: number;
  maxIterations: number;
  expansion: number;
}

const H = new Uint32Array(2);
// Set by hashItem: the fingerprint and the low 32 bits of both candidate indexes.
let FP = 0;
let I1 = 0;
let I2 = 0;

function hashItem(item: Item): void {
  murmur64aCore(item, H, 0, 0);
  const lo = H[0]! | 0;
  const hi = H[1]! | 0;
  // h mod 255 = the sum of h's eight bytes mod 255 (256 ≡ 1): small-integer arithmetic only, where
  // `%` on a uint32 above 2^31 would run on doubles.
  const bytes =
    (lo & 0xff) +
    ((lo >>> 8) & 0xff) +
    ((lo >>> 16) & 0xff) +
    (lo >>> 24) +
    (hi & 0xff) +
    ((hi >>> 8) & 0xff) +
    ((hi >>> 16) & 0xff) +
    (hi >>> 24);
  FP = (bytes % 255) + 1;
  I1 = lo;
  I2 = lo ^ Math.imul(FP, ALT);
}

function nextPow2(x: number): number {
  let n = 1;
  while (n < x) n *= 2;
  return n;
}

/**
 * A cuckoo filter exact with RedisBloom's CF.* commands: a membership filter that can delete items
 * and count copies of a fingerprint.
 */
export class CuckooFilter {
  #bucketSize: number;
  #maxIterations: number;
  #expansion: number;
  #buckets: number;
  #filters: Uint8Array[] = [];
  #masks = new Int32Array(CUCKOO_MAX_FILTERS);
  #slots = 0; // slots of every sub-filter together
  #items = 0;
  #deletes = 0;
  #path: Int32Array; // slot indexes swapped during a kick, to undo them

  /**
   * CF.RESERVE: an empty filter of one sub-filter. O(first sub-filter's slots).
   * @throws TypeError for unknown option keys or wrong types; RangeError for values out of range
   *   (capacity below 2·bucketSize — RedisBloom's "Capacity must be at least (BucketSize * 2)" — or
   *   a first sub-filter above {@link CUCKOO_MAX_SLOTS} slots).
   */
  constructor(options?: CuckooFilterOptions) {
    const o = checkOptions(WHERE, options, ["capacity", "bucketSize", "maxIterations", "expansion"]);
    this.#bucketSize = o.bucketSize === undefined ? 2 : checkInteger(WHERE, "bucketSize", o.bucketSize, 1, 255);
    this.#maxIterations =
      o.maxIterations === undefined ? 20 : checkInteger(WHERE, "maxIterations", o.maxIterations, 1, 65535);
    this.#expansion =
      o.expansion === undefined ? 1 : nextPow2OrZero(checkInteger(WHERE, "expansion", o.expansion, 0, 32768));
    const capacity =
      o.capacity === undefined
        ? 1024
        : checkInteger(WHERE, "capacity", o.capacity, 2 * this.#bucketSize, CUCKOO_MAX_SLOTS);
    this.#buckets = nextPow2(Math.floor(capacity / this.#bucketSize));
    if (this.#buckets * this.#bucketSize > CUCKOO_MAX_SLOTS) {
      throw rangeError(WHERE, "capacity", capacity, `at most ${CUCKOO_MAX_SLOTS} slots once rounded up`);
    }
    this.#path = new Int32Array(this.#maxIterations);
    this.#append();
  }

  /**
   * A filter holding `items`, each added once in order (CF.RESERVE, then CF.INSERT). O(items × add).
   * @throws as the constructor and {@link addAll}.
   */
  static from(items: Iterable<Item>, options?: CuckooFilterOptions): CuckooFilter {
    checkIterable(WHERE, "items", items);
    const f = new CuckooFilter(options);
    f.addAll(items);
    return f;
  }

  /** A filter of the given shape with no sub-filter yet: the loaders fill it in. */
  static #empty(shape: Shape): CuckooFilter {
    const f = new CuckooFilter({ capacity: 2, bucketSize: 1, maxIterations: 1, expansion: 0 });
    f.#bucketSize = shape.bucketSize;
    f.#maxIterations = shape.maxIterations;
    f.#expansion = shape.expansion;
    f.#buckets = shape.buckets;
    f.#path = new Int32Array(shape.maxIterations);
    f.#filters = [];
    f.#slots = 0;
    f.#items = shape.items;
    f.#deletes = shape.deletes;
    return f;
  }

  /** Slots of sub-filter k. */
  #sizeOf(k: number): number {
    return this.#buckets * this.#expansion ** k * this.#bucketSize;
  }

  /** Appends the next sub-filter; false (nothing changed) when it would pass the slot limit. */
  #append(): boolean {
    const k = this.#filters.length;
    const size = this.#sizeOf(k);
    if (!(this.#slots + size <= CUCKOO_MAX_SLOTS)) return false;
    this.#masks[k] = size / this.#bucketSize - 1;
    this.#filters.push(new Uint8Array(size));
    this.#slots += size;
    return true;
  }

  /** Sub-filter k, given its slots (a fresh array the filter now owns). */
  #push(slots: Uint8Array): void {
    this.#masks[this.#filters.length] = slots.length / this.#bucketSize - 1;
    this.#filters.push(slots);
    this.#slots += slots.length;
  }

  // --- parameters ------------------------------------------------------------------------------

  /** Fingerprint slots per bucket (CF.RESERVE BUCKETSIZE). */
  get bucketSize(): number {
    return this.#bucketSize;
  }

  /** Kicks tried before growing or failing (CF.RESERVE MAXITERATIONS). */
  get maxIterations(): number {
    return this.#maxIterations;
  }

  /** Growth factor: a power of two, or 0 for a filter that never grows (CF.RESERVE EXPANSION). */
  get expansion(): number {
    return this.#expansion;
  }

  /** Buckets of the first sub-filter. */
  get buckets(): number {
    return this.#buckets;
  }

  // --- queries ---------------------------------------------------------------------------------

  /** Fingerprints stored: adds minus deletes (CF.INFO "Number of items inserted"). O(1). */
  get size(): number {
    return this.#items;
  }

  /**
   * Bytes of the typed arrays the filter holds: every sub-filter's slots, the bucket masks and the
   * kick path. O(1).
   */
  get byteLength(): number {
    return this.#slots + this.#masks.byteLength + this.#path.byteLength;
  }

  /**
   * CF.EXISTS: false when the item is certainly absent; true when it was added (and not deleted) or,
   * with a small probability, when another item shares its fingerprint and a bucket. O(sub-filters ·
   * bucketSize) after hashing; no allocation.
   * @throws TypeError when `item` is not a string, number, bigint or Uint8Array.
   */
  has(item: Item): boolean {
    // A string needs no check: the hot path skips the call.
    hashItem(typeof item === "string" ? item : checkItem(WHERE, "item", item));
    const fp = FP;
    const bs = this.#bucketSize;
    for (let k = this.#filters.length - 1; k >= 0; k--) {
      const slots = this.#filters[k]!;
      const mask = this.#masks[k]!;
      const a = (I1 & mask) * bs;
      const b = (I2 & mask) * bs;
      for (let s = 0; s < bs; s++) if (slots[a + s] === fp || slots[b + s] === fp) return true;
    }
    return false;
  }

  /**
   * CF.MEXISTS: {@link has} for each item, in order. O(items × has).
   * @throws TypeError for a non-iterable (a lone string included) or a non-item, naming its index.
   */
  hasAll(items: Iterable<Item>): boolean[] {
    const out: boolean[] = [];
    for (const item of checkIterable(WHERE, "items", items)) out.push(this.has(itemAt(item, out.length)));
    return out;
  }

  /**
   * CF.COUNT: how many slots hold the item's fingerprint in its two buckets across all sub-filters
   * (a bucket that is both candidates counts twice). An upper bound on the times the item was added
   * and not deleted — other items with the same fingerprint and bucket count too — not an exact
   * count. O(sub-filters · bucketSize); no allocation.
   * @throws TypeError when `item` is not an item.
   */
  count(item: Item): number {
    hashItem(typeof item === "string" ? item : checkItem(WHERE, "item", item));
    const fp = FP;
    const bs = this.#bucketSize;
    let n = 0;
    for (let k = this.#filters.length - 1; k >= 0; k--) {
      const slots = this.#filters[k]!;
      const mask = this.#masks[k]!;
      const a = (I1 & mask) * bs;
      const b = (I2 & mask) * bs;
      for (let s = 0; s < bs; s++) {
        if (slots[a + s] === fp) n++;
        if (slots[b + s] === fp) n++;
      }
    }
    return n;
  }

  // --- updates ---------------------------------------------------------------------------------

  /**
   * CF.ADD: stores the item's fingerprint (again, if already there: a cuckoo filter counts) and
   * returns true. With `{ nx: true }`, CF.ADDNX: stores it only when {@link has} says absent, and
   * returns whether it stored it. Cost: see the class comment; no allocation unless a sub-filter is
   * appended.
   * @throws TypeError for a non-item or a bad option; RangeError when the filter cannot take it:
   *   expansion 0 and no slot reachable ("Filter is full"), 32 sub-filters already ("Maximum
   *   expansions reached"), or a new sub-filter would bring the total past {@link CUCKOO_MAX_SLOTS}.
   *   The filter is then unchanged.
   */
  add(item: Item, options?: CuckooAddOptions): boolean {
    if (typeof item !== "string") checkItem(WHERE, "item", item);
    if (options !== undefined && nxOption(options)) return this.#addNx(item);
    this.#refuseAtMax();
    hashItem(item);
    this.#insert(FP, I1, I2);
    return true;
  }

  /** CF.ADDNX of a checked item. */
  #addNx(item: Item): boolean {
    this.#refuseAtMax();
    if (this.has(item)) return false;
    this.#insert(FP, I1, I2);
    return true;
  }

  /**
   * CF.INSERT (or CF.INSERTNX with `{ nx: true }`): {@link add} for each item, in order; returns the
   * replies. When an item does not fit, the items before it stay added and the RangeError is thrown
   * (its message says how many were added). O(items × add).
   * @throws TypeError for a non-iterable, a non-item (naming its index; earlier items stay added) or a
   *   bad option; RangeError as {@link add}.
   */
  addAll(items: Iterable<Item>, options?: CuckooAddOptions): boolean[] {
    checkIterable(WHERE, "items", items);
    const nx = options === undefined ? false : nxOption(options);
    const opts = nx ? NX : undefined;
    const out: boolean[] = [];
    for (const item of items) {
      try {
        out.push(this.add(itemAt(item, out.length), opts));
      } catch (e) {
        if (e instanceof RangeError && out.length > 0) {
          throw new RangeError(`${e.message} (at items[${out.length}]: the ${out.length} items before it were added)`);
        }
        throw e;
      }
    }
    return out;
  }

  #refuseAtMax(): void {
    if (this.#filters.length >= CUCKOO_MAX_FILTERS) {
      throw new RangeError(
        `redstruct/${WHERE}: Maximum expansions reached: ${CUCKOO_MAX_FILTERS} sub-filters exist (RedisBloom's limit)`,
      );
    }
  }

  #insert(fp: number, i1: number, i2: number): void {
    for (;;) {
      if (this.#placeEmpty(fp, i1, i2) || this.#kick(fp, i1)) {
        this.#items++;
        return;
      }
      if (this.#expansion === 0) {
        throw new RangeError(`redstruct/${WHERE}: Filter is full (expansion 0: it never grows)`);
      }
      if (this.#filters.length >= CUCKOO_MAX_FILTERS) {
        throw new RangeError(`redstruct/${WHERE}: Maximum expansions reached: ${CUCKOO_MAX_FILTERS} sub-filters exist`);
      }
      if (!this.#append()) {
        const next = this.#sizeOf(this.#filters.length);
        throw new RangeError(
          `redstruct/${WHERE}: filter is full: sub-filter ${this.#filters.length + 1} (${next} slots) would bring ` +
            `the filter to ${this.#slots + next} slots, past the ${CUCKOO_MAX_SLOTS} allowed (CUCKOO_MAX_SLOTS)`,
        );
      }
    }
  }

  /** First empty slot of bucket i1, then i2, in the sub-filters from newest to oldest. */
  #placeEmpty(fp: number, i1: number, i2: number): boolean {
    const bs = this.#bucketSize;
    for (let k = this.#filters.length - 1; k >= 0; k--) {
      const slots = this.#filters[k]!;
      const mask = this.#masks[k]!;
      if (takeEmpty(slots, (i1 & mask) * bs, bs, fp) || takeEmpty(slots, (i2 & mask) * bs, bs, fp)) return true;
    }
    return false;
  }

  /** The kick loop in the newest sub-filter; undoes every swap and returns false when it fails. */
  #kick(fp: number, i1: number): boolean {
    const k = this.#filters.length - 1;
    const slots = this.#filters[k]!;
    const mask = this.#masks[k]!;
    const bs = this.#bucketSize;
    const path = this.#path;
    let bucket = i1 & mask;
    let victim = 0;
    let hand = fp;
    let steps = 0;
    for (; steps < this.#maxIterations; steps++) {
      const at = bucket * bs + victim;
      const evicted = slots[at]!;
      slots[at] = hand;
      path[steps] = at;
      hand = evicted;
      bucket = (bucket ^ Math.imul(hand, ALT)) & mask;
      if (takeEmpty(slots, bucket * bs, bs, hand)) return true;
      victim = victim + 1 === bs ? 0 : victim + 1;
    }
    for (let j = steps - 1; j >= 0; j--) {
      const at = path[j]!;
      const was = slots[at]!;
      slots[at] = hand;
      hand = was;
    }
    return false;
  }

  /**
   * CF.DEL: clears one slot holding the item's fingerprint (newest sub-filter first, bucket i1 then
   * i2) and returns true, or returns false when none does. Only the fingerprint is known, so deleting
   * an item that was never added can delete another item that shares its fingerprint and a bucket
   * (RedisBloom does the same). May compact (see the class comment). No allocation.
   * @throws TypeError when `item` is not an item.
   */
  delete(item: Item): boolean {
    hashItem(typeof item === "string" ? item : checkItem(WHERE, "item", item));
    const fp = FP;
    const bs = this.#bucketSize;
    for (let k = this.#filters.length - 1; k >= 0; k--) {
      const slots = this.#filters[k]!;
      const mask = this.#masks[k]!;
      if (clearMatch(slots, (I1 & mask) * bs, bs, fp) || clearMatch(slots, (I2 & mask) * bs, bs, fp)) {
        this.#items--;
        this.#deletes++;
        if (this.#filters.length > 1 && this.#deletes > this.#items * 0.1) this.#compact(false);
        return true;
      }
    }
    return false;
  }

  /**
   * CF.COMPACT: moves fingerprints from newer sub-filters into free slots of older ones (each to one
   * of its two buckets there, oldest sub-filter first), drops the last sub-filter while it empties,
   * and resets the delete count. O(slots · sub-filters · bucketSize).
   */
  compact(): void {
    this.#compact(true);
  }

  #compact(keepGoing: boolean): void {
    const bs = this.#bucketSize;
    for (let k = this.#filters.length - 1; k >= 1; k--) {
      const slots = this.#filters[k]!;
      const buckets = this.#masks[k]! + 1;
      let emptied = true;
      for (let b = 0; b < buckets; b++) {
        for (let s = 0; s < bs; s++) {
          const fp = slots[b * bs + s]!;
          if (fp === 0) continue;
          const alt = b ^ Math.imul(fp, ALT);
          let moved = false;
          for (let j = 0; j < k && !moved; j++) {
            const older = this.#filters[j]!;
            const mask = this.#masks[j]!;
            moved = takeEmpty(older, (b & mask) * bs, bs, fp) || takeEmpty(older, (alt & mask) * bs, bs, fp);
          }
          if (moved) slots[b * bs + s] = 0;
          else emptied = false;
        }
      }
      if (emptied && k === this.#filters.length - 1) {
        this.#filters.pop();
        this.#masks[k] = 0;
        this.#slots -= slots.length;
      } else if (!emptied && !keepGoing) {
        break;
      }
    }
    this.#deletes = 0;
  }

  /** Empties the filter back to one sub-filter, as just created. O(slots of the first sub-filter). */
  clear(): void {
    this.#filters = [];
    this.#masks.fill(0);
    this.#slots = 0;
    this.#items = 0;
    this.#deletes = 0;
    this.#append();
  }

  // --- inspection ------------------------------------------------------------------------------

  /** CF.INFO: its eight fields (see {@link CuckooFilterInfo} for which is which). O(1). */
  info(): CuckooFilterInfo {
    return {
      byteLength: 40 + 16 * this.#filters.length + this.#slots,
      buckets: this.#buckets,
      filters: this.#filters.length,
      size: this.#items,
      deleted: this.#deletes,
      bucketSize: this.#bucketSize,
      expansion: this.#expansion,
      maxIterations: this.#maxIterations,
    };
  }

  /** An independent copy: same parameters, same slots, same counts. O(slots). */
  clone(): CuckooFilter {
    const c = CuckooFilter.#empty(this.#shape());
    for (const f of this.#filters) c.#push(f.slice());
    return c;
  }

  #shape(): Shape {
    return {
      items: this.#items,
      buckets: this.#buckets,
      deletes: this.#deletes,
      filters: this.#filters.length,
      bucketSize: this.#bucketSize,
      maxIterations: this.#maxIterations,
      expansion: this.#expansion,
    };
  }

  /**
   * Throws unless the state is consistent: 1..32 sub-filters of the sizes the parameters give, at
   * most 2^30 slots in all, items equal to the non-zero slots, a non-negative delete count. O(slots).
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const filters = this.#filters;
    if (filters.length < 1 || filters.length > CUCKOO_MAX_FILTERS) fail(`${filters.length} sub-filters`);
    if (filters.length > 1 && this.#expansion === 0) fail("grew with expansion 0");
    if (this.#path.length !== this.#maxIterations) fail("kick path size");
    let used = 0;
    let slots = 0;
    for (let k = 0; k < filters.length; k++) {
      const n = this.#buckets * this.#expansion ** k;
      const f = filters[k]!;
      if (this.#masks[k] !== n - 1 || f.length !== n * this.#bucketSize) fail(`sub-filter ${k} size`);
      if (f.constructor !== Uint8Array) fail(`sub-filter ${k} is not a plain Uint8Array`);
      slots += f.length;
      for (const x of f) if (x !== 0) used++;
    }
    if (slots !== this.#slots || slots > CUCKOO_MAX_SLOTS) fail(`${slots} slots, ${this.#slots} counted`);
    if (used !== this.#items) fail(`items ${this.#items} but ${used} fingerprints stored`);
    if (!Number.isInteger(this.#deletes) || this.#deletes < 0) fail(`deletes ${this.#deletes}`);
  }

  /**
   * Always throws: a filter's state is private, so `JSON.stringify` would write `{}` (and
   * `structuredClone` or `postMessage` would send an empty object). Send {@link toBytes} and rebuild
   * it with {@link CuckooFilter.fromBytes}.
   * @throws TypeError, always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  // --- CF.SCANDUMP / CF.LOADCHUNK --------------------------------------------------------------

  /**
   * CF.SCANDUMP from position 0 until it returns 0: the `[position, chunk]` pairs to feed
   * CF.LOADCHUNK (or {@link CuckooFilter.fromRedis}). The first chunk is the 38-byte header
   * (little-endian u64 items, u64 buckets, u64 deletes, u64 sub-filters, u16 bucketSize,
   * u16 maxIterations, u16 expansion) at position 1; then each sub-filter's slots, whole when at most
   * 16 MiB, each at position (end offset + 1). Byte-identical to RedisBloom's replies, including its
   * quirk that a filter holding no items dumps nothing (an empty array). The chunks are copies.
   * O(slots).
   */
  toRedis(): Array<[number, Uint8Array]> {
    if (this.#items === 0) return [];
    const w = new ByteWriter(REDIS_HEADER);
    w.u53(this.#items).u53(this.#buckets).u53(this.#deletes).u53(this.#filters.length);
    w.u16(this.#bucketSize).u16(this.#maxIterations).u16(this.#expansion);
    const out: Array<[number, Uint8Array]> = [[1, w.finish()]];
    let offset = 0;
    for (const f of this.#filters) {
      for (let at = 0; at < f.length; at += MAX_CHUNK) {
        const chunk = f.slice(at, Math.min(f.length, at + MAX_CHUNK));
        offset += chunk.length;
        out.push([offset + 1, chunk]);
      }
    }
    return out;
  }

  /**
   * CF.LOADCHUNK of every pair {@link toRedis} (or RedisBloom's CF.SCANDUMP) returned: a filter equal
   * to the dumped one. The header comes first (position 1); the data chunks may follow in any order,
   * as CF.LOADCHUNK restores them, but must together deliver every byte of every sub-filter exactly
   * once, each chunk within one sub-filter. Stricter than RedisBloom: the header must be consistent (a
   * power-of-two bucket count, bucketSize 1..255, maxIterations ≥ 1, expansion 0 or a power of two ≤
   * 32768, 1..32 sub-filters, several only with expansion > 0, at most {@link CUCKOO_MAX_SLOTS} slots
   * in all) and the item count must equal the stored fingerprints. Each chunk's bytes are copied as it
   * arrives (a reader may reuse one buffer for every chunk), and memory beyond those copies is
   * allocated only once every byte has arrived, so a hostile header cannot make it allocate more than
   * its input. O(slots + chunks·log chunks).
   * @throws TypeError when `chunks` is not an iterable of `[number, Uint8Array]` pairs (or a chunk is
   *   detached); RedstructFormatError for anything else.
   */
  static fromRedis(chunks: Iterable<readonly [number, Uint8Array]>): CuckooFilter {
    checkIterable(WHERE, "chunks", chunks);
    let shape: Shape | null = null;
    let starts: number[] = [];
    let total = 0;
    let delivered = 0;
    const writes: Write[] = [];
    let n = 0;
    for (const pair of chunks) {
      const at = `chunks[${n++}]`;
      if (!Array.isArray(pair) || pair.length !== 2) {
        throw new TypeError(`redstruct/${WHERE}: ${at} must be a [position, bytes] pair, got ${describe(pair)}`);
      }
      const pos: unknown = pair[0];
      const data = checkBytes(WHERE, `${at}[1]`, pair[1]);
      if (typeof pos !== "number")
        throw new TypeError(`redstruct/${WHERE}: ${at}[0] must be a number, got ${describe(pos)}`);
      if (!Number.isSafeInteger(pos) || pos < 1)
        throw formatError(WHERE, `${at} has position ${pos}, not an integer ≥ 1`);
      if (shape === null) {
        if (pos !== 1) throw formatError(WHERE, `the first chunk must be the header at position 1, got ${pos}`);
        if (data.length !== REDIS_HEADER) {
          throw formatError(WHERE, `the header must be ${REDIS_HEADER} bytes, got ${data.length}`);
        }
        shape = checkShape(readRedisHeader(data));
        starts = [];
        total = 0;
        for (let k = 0; k < shape.filters; k++) {
          starts.push(total);
          total += subFilterSlots(shape, k);
        }
        continue;
      }
      if (data.length === 0) throw formatError(WHERE, `${at} (position ${pos}) is empty`);
      const place = placeChunk(CHUNK_TERMS, at, pos, data, starts, total);
      delivered += data.length;
      if (delivered > total) throw formatError(WHERE, `the chunks deliver more than the ${total} bytes of the slots`);
      writes.push({ k: place.part, offset: place.offset, data: place.data });
    }
    if (shape === null) throw formatError(WHERE, "no header chunk");
    if (delivered !== total) throw formatError(WHERE, `the chunks delivered ${delivered} of ${total} bytes`);
    writes.sort((a, b) => a.k - b.k || a.offset - b.offset);
    const f = CuckooFilter.#empty(shape);
    let w = 0;
    for (let k = 0; k < shape.filters; k++) {
      const size = subFilterSlots(shape, k);
      const first = writes[w];
      let slots: Uint8Array;
      let filled = 0;
      if (first !== undefined && first.k === k && first.offset === 0 && first.data.length === size) {
        slots = first.data; // one chunk is the whole sub-filter: keep its copy
        filled = size;
        w++;
      } else {
        slots = new Uint8Array(size);
        for (; w < writes.length && writes[w]!.k === k && writes[w]!.offset === filled; w++) {
          slots.set(writes[w]!.data, filled);
          filled += writes[w]!.data.length;
        }
      }
      // Sorted by offset, the chunks tile the sub-filter exactly when each starts where the last ended.
      const next = w < writes.length && writes[w]!.k === k ? writes[w]!.offset : size;
      if (next < filled) throw formatError(WHERE, `sub-filter ${k}: byte ${next} is delivered twice`);
      if (filled < size) throw formatError(WHERE, `sub-filter ${k}: bytes ${filled}..${next - 1} were never delivered`);
      f.#push(slots);
    }
    f.#checkLoaded();
    return f;
  }

  /** The last check of every loader: the header's item count against the stored fingerprints. */
  #checkLoaded(): void {
    let used = 0;
    for (const slots of this.#filters) for (let i = 0; i < slots.length; i++) if (slots[i] !== 0) used++;
    if (used !== this.#items) throw formatError(WHERE, `the header says ${this.#items} items, the slots hold ${used}`);
  }

  // --- redstruct's format ----------------------------------------------------------------------

  /**
   * The filter as bytes in redstruct's own format (unlike {@link toRedis}, an empty filter has one):
   * "RSCF", version byte 1, u32 buckets of the first sub-filter, u32 bucketSize, u32 maxIterations,
   * u32 expansion, u32 sub-filters, u64 items, u64 deletes since compaction, then every sub-filter's
   * slots in order (one byte each, 0 = empty); little-endian. 41 + slots bytes. O(slots).
   */
  toBytes(): Uint8Array {
    const w = new ByteWriter(BYTES_HEADER + this.#slots);
    w.magic(MAGIC).u8(VERSION).u32(this.#buckets).u32(this.#bucketSize).u32(this.#maxIterations);
    w.u32(this.#expansion).u32(this.#filters.length).u53(this.#items).u53(this.#deletes);
    for (const f of this.#filters) w.raw(f);
    return w.finish();
  }

  /**
   * Reads {@link toBytes} output, checked as strictly as {@link CuckooFilter.fromRedis} (the same
   * header rules, the item count against the stored fingerprints) and the length against the
   * header before anything is allocated. The bytes are copied: the input may change afterwards.
   * O(slots).
   * @throws TypeError when `bytes` is not a Uint8Array (or is detached); RedstructFormatError for
   *   anything else.
   */
  static fromBytes(bytes: Uint8Array): CuckooFilter {
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    const buckets = r.u32("the bucket count");
    const bucketSize = r.u32("the bucket size");
    const maxIterations = r.u32("max iterations");
    const expansion = r.u32("the expansion");
    const filters = r.u32("the sub-filter count");
    const items = r.u53("the item count");
    const deletes = r.u53("the delete count");
    const shape = checkShape({ items, buckets, deletes, filters, bucketSize, maxIterations, expansion });
    let total = 0;
    for (let k = 0; k < filters; k++) total += subFilterSlots(shape, k);
    if (r.remaining !== total) {
      throw formatError(WHERE, `${filters} sub-filters need ${total} bytes of slots, got ${r.remaining}`);
    }
    const f = CuckooFilter.#empty(shape);
    for (let k = 0; k < filters; k++) f.#push(new Uint8Array(r.view(subFilterSlots(shape, k), "a sub-filter")));
    r.end();
    f.#checkLoaded();
    return f;
  }

  static {
    defineInspect(CuckooFilter, (f) => ({ fields: { ...f.info() } }));
  }
}

const MAGIC = "RSCF";
const VERSION = 1;
const BYTES_HEADER = 4 + 1 + 5 * 4 + 2 * 8;
const NX: CuckooAddOptions = { nx: true };

/** A chunk's copy waiting for the end of the dump: `data` goes at `offset` of sub-filter `k`. */
interface Write {
  k: number;
  offset: number;
  data: Uint8Array;
}

/** The `nx` flag of an add options object. */
function nxOption(options: CuckooAddOptions): boolean {
  return checkFlag(WHERE, "nx", checkOptions(WHERE, options, ["nx"]).nx, false);
}

/** An item of a bulk call, checked and named by its index. */
function itemAt(item: Item, i: number): Item {
  return typeof item === "string" ? item : checkItem(WHERE, `items[${i}]`, item);
}

/** Slots of sub-filter k of a checked shape. */
function subFilterSlots(shape: Shape, k: number): number {
  return shape.buckets * shape.expansion ** k * shape.bucketSize;
}

/** The CF.SCANDUMP header's fields, read at once (the caller may reuse the chunk afterwards). */
function readRedisHeader(data: Uint8Array): Shape {
  const r = new ByteReader(data, WHERE);
  const shape: Shape = {
    items: r.u53("the item count"),
    buckets: r.u53("the bucket count"),
    deletes: r.u53("the delete count"),
    filters: r.u53("the sub-filter count"),
    bucketSize: r.u16("the bucket size"),
    maxIterations: r.u16("max iterations"),
    expansion: r.u16("the expansion"),
  };
  r.end();
  return shape;
}

/** The header rules both loaders apply; returns the shape when it passes. */
function checkShape(s: Shape): Shape {
  const { buckets, bucketSize: bs, maxIterations, expansion: exp, filters } = s;
  if (buckets < 1 || buckets > CUCKOO_MAX_SLOTS || (buckets & (buckets - 1)) !== 0) {
    throw formatError(WHERE, `bucket count ${buckets} is not a power of two in [1, 2^30]`);
  }
  if (bs < 1 || bs > 255) throw formatError(WHERE, `bucket size ${bs} is not in [1, 255]`);
  if (maxIterations < 1 || maxIterations > 65535) {
    throw formatError(WHERE, `max iterations ${maxIterations} is not in [1, 65535]`);
  }
  if (exp > 32768 || (exp & (exp - 1)) !== 0) {
    throw formatError(WHERE, `expansion ${exp} is not 0 or a power of two ≤ 32768`);
  }
  if (filters < 1 || filters > CUCKOO_MAX_FILTERS) throw formatError(WHERE, `${filters} sub-filters (1..32 allowed)`);
  if (filters > 1 && exp === 0) throw formatError(WHERE, `${filters} sub-filters with expansion 0`);
  let total = 0;
  for (let k = 0; k < filters; k++) {
    total += subFilterSlots(s, k);
    if (!(total <= CUCKOO_MAX_SLOTS)) {
      throw formatError(
        WHERE,
        `${k + 1} sub-filters of ${buckets}×${bs}·${exp}^k slots exceed ${CUCKOO_MAX_SLOTS} slots`,
      );
    }
  }
  return s;
}

function nextPow2OrZero(x: number): number {
  return x === 0 ? 0 : nextPow2(x);
}

/** Stores fp in the first empty slot of the bucket at `at`; false when the bucket is full. */
function takeEmpty(slots: Uint8Array, at: number, bs: number, fp: number): boolean {
  for (let s = 0; s < bs; s++) {
    if (slots[at + s] === 0) {
      slots[at + s] = fp;
      return true;
    }
  }
  return false;
}

/** Clears the first slot of the bucket at `at` holding fp; false when none does. */
function clearMatch(slots: Uint8Array, at: number, bs: number, fp: number): boolean {
  for (let s = 0; s < bs; s++) {
    if (slots[at + s] === fp) {
      slots[at + s] = 0;
      return true;
    }
  }
  return false;
}
