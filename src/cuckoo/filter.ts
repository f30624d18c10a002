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
 * Memory layout: one `Uint8Array` of n_k·bucketSize fingerprint slots per sub-filter (bucket b's slots
 * at [b·bucketSize, (b+1)·bucketSize)), exactly the bytes CF.SCANDUMP sends; an `Int32Array` of the
 * sub-filters' bucket masks; a reused `Uint32Array` for the hash and an `Int32Array` for the kick path.
 *
 * Invariants: 1 ≤ sub-filters ≤ 32; sub-filter k has numBuckets·expansion^k buckets, a power of two;
 * `items` equals the number of non-zero slots; `deleted` counts deletes since the last compaction.
 *
 * Costs: has / count O(sub-filters · bucketSize) after an O(|item|) hash, no allocation; add O(that +
 * maxIterations) (plus O(new sub-filter) when it grows); remove O(sub-filters · bucketSize), plus a
 * compaction O(slots · sub-filters · bucketSize) when it triggers; dump / load O(slots).
 */

import type { Item } from "../hash/element.js";
import { murmur64aCore } from "../hash/murmur64a.js";
import { checkInteger, formatError, rangeError } from "../internal/errors.js";
import { checkIterable, checkOptions } from "../internal/options.js";

const WHERE = "CuckooFilter";
const ALT = 0x5bd1e995;
/** RedisBloom's limit on sub-filters (CF_MAX_NUM_FILTERS). */
export const CUCKOO_MAX_FILTERS = 32;
/** Largest sub-filter accepted, in slots (2^30, 1 GiB): a typed array must hold it. */
export const CUCKOO_MAX_SLOTS = 2 ** 30;
/** CF.SCANDUMP's largest chunk (16 MiB). */
const MAX_CHUNK = 16 * 1024 * 1024;
const HEADER_SIZE = 38;

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
   * 0 never grows: a full filter refuses inserts. @defaultValue 1
   */
  expansion?: number;
}

/** What {@link CuckooFilter.info} returns: CF.INFO's fields. */
export interface CuckooFilterInfo {
  /** CF.INFO "Size": 40 + 16·filters + total slots, the bytes RedisBloom accounts for. */
  size: number;
  /** Buckets of the first sub-filter. */
  buckets: number;
  /** Sub-filters. */
  filters: number;
  /** Fingerprints stored (adds minus deletes). */
  items: number;
  /** Deletes since the last compaction. */
  deleted: number;
  /** Fingerprint slots per bucket. */
  bucketSize: number;
  /** The growth factor as stored (a power of two, or 0). */
  expansion: number;
  /** Most kicks an add tries before it grows the filter (or fails). */
  maxIterations: number;
}

const H = new Uint32Array(2);
// Set by hashItem: the fingerprint and the low 32 bits of both candidate indexes.
let FP = 0;
let I1 = 0;
let I2 = 0;

function hashItem(value: Item): void {
  murmur64aCore(value, H, 0, 0);
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

/** A cuckoo filter exact with RedisBloom's CF.* commands. */
export class CuckooFilter {
  /** Fingerprints per bucket. */
  readonly bucketSize: number;
  /** Kicks tried before growing or failing. */
  readonly maxIterations: number;
  /** Growth factor (a power of two, or 0 for a filter that never grows). */
  readonly expansion: number;
  /** Buckets of the first sub-filter. */
  readonly buckets: number;
  #filters: Uint8Array[] = [];
  #masks = new Int32Array(CUCKOO_MAX_FILTERS);
  #items = 0;
  #deletes = 0;
  #path: Int32Array; // slot indexes swapped during a kick, to undo them

  /**
   * CF.RESERVE: an empty filter.
   * @throws TypeError for unknown option keys or wrong types; RangeError for values out of range
   *   (capacity below 2·bucketSize — RedisBloom's "Capacity must be at least (BucketSize * 2)").
   */
  constructor(options?: CuckooFilterOptions) {
    const o = checkOptions(WHERE, options, ["capacity", "bucketSize", "maxIterations", "expansion"]);
    this.bucketSize = o.bucketSize === undefined ? 2 : checkInteger(WHERE, "bucketSize", o.bucketSize, 1, 255);
    this.maxIterations =
      o.maxIterations === undefined ? 20 : checkInteger(WHERE, "maxIterations", o.maxIterations, 1, 65535);
    this.expansion =
      o.expansion === undefined ? 1 : nextPow2OrZero(checkInteger(WHERE, "expansion", o.expansion, 0, 32768));
    const capacity =
      o.capacity === undefined
        ? 1024
        : checkInteger(WHERE, "capacity", o.capacity, 2 * this.bucketSize, CUCKOO_MAX_SLOTS);
    this.buckets = nextPow2(Math.floor(capacity / this.bucketSize));
    if (this.buckets * this.bucketSize > CUCKOO_MAX_SLOTS) {
      throw rangeError(WHERE, "capacity", capacity, `at most ${CUCKOO_MAX_SLOTS} slots once rounded up`);
    }
    this.#path = new Int32Array(this.maxIterations);
    this.#append();
  }

  /** Appends the next sub-filter; false (nothing changed) when it would exceed the slot limit. */
  #append(): boolean {
    const k = this.#filters.length;
    const n = this.buckets * this.expansion ** k;
    if (!(n * this.bucketSize <= CUCKOO_MAX_SLOTS)) return false;
    this.#masks[k] = n - 1;
    this.#filters.push(new Uint8Array(n * this.bucketSize));
    return true;
  }

  // --- queries ---------------------------------------------------------------------------------

  /** Fingerprints stored (CF.INFO "Number of items inserted"). */
  get size(): number {
    return this.#items;
  }

  /**
   * CF.EXISTS: false when the item is certainly absent; true when it was added (and not removed) or,
   * with a small probability, when another item shares its fingerprint and a bucket. O(sub-filters ·
   * bucketSize) after hashing; no allocation.
   */
  has(value: Item): boolean {
    hashItem(value);
    const fp = FP;
    const bs = this.bucketSize;
    for (let k = this.#filters.length - 1; k >= 0; k--) {
      const slots = this.#filters[k]!;
      const mask = this.#masks[k]!;
      const a = (I1 & mask) * bs;
      const b = (I2 & mask) * bs;
      for (let s = 0; s < bs; s++) if (slots[a + s] === fp || slots[b + s] === fp) return true;
    }
    return false;
  }

  /** CF.MEXISTS: {@link has} for each item. */
  hasAll(values: Iterable<Item>): boolean[] {
    const out: boolean[] = [];
    for (const v of checkIterable(WHERE, "values", values)) out.push(this.has(v));
    return out;
  }

  /**
   * CF.COUNT: how many slots hold the item's fingerprint in its two buckets across all sub-filters
   * (a bucket that is both candidates counts twice). An upper bound on the times the item was added
   * and not removed — other items with the same fingerprint and bucket count too — not an exact
   * count. O(sub-filters · bucketSize); no allocation.
   */
  count(value: Item): number {
    hashItem(value);
    const fp = FP;
    const bs = this.bucketSize;
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
   * returns true. Cost: see the class comment; no allocation unless a sub-filter is appended.
   * @throws RangeError when the filter cannot take it: expansion 0 and no slot reachable
   *   ("Filter is full"), 32 sub-filters already ("Maximum expansions reached"), or a new sub-filter
   *   would pass 2^30 slots. The filter is then unchanged.
   */
  add(value: Item): boolean {
    this.#refuseAtMax();
    hashItem(value);
    this.#insert(FP, I1, I2);
    return true;
  }

  /**
   * CF.ADDNX: adds the item unless {@link has} already says it is present; returns whether it added.
   * @throws RangeError as {@link add}.
   */
  addNx(value: Item): boolean {
    this.#refuseAtMax();
    if (this.has(value)) return false;
    this.#insert(FP, I1, I2);
    return true;
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
      if (this.expansion === 0) {
        throw new RangeError(`redstruct/${WHERE}: Filter is full (expansion 0: it never grows)`);
      }
      if (this.#filters.length >= CUCKOO_MAX_FILTERS) {
        throw new RangeError(`redstruct/${WHERE}: Maximum expansions reached: ${CUCKOO_MAX_FILTERS} sub-filters exist`);
      }
      if (!this.#append()) {
        throw new RangeError(
          `redstruct/${WHERE}: filter is full: its next sub-filter would pass ${CUCKOO_MAX_SLOTS} slots`,
        );
      }
    }
  }

  /** First empty slot of bucket i1, then i2, in the sub-filters from newest to oldest. */
  #placeEmpty(fp: number, i1: number, i2: number): boolean {
    const bs = this.bucketSize;
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
    const bs = this.bucketSize;
    const path = this.#path;
    let bucket = i1 & mask;
    let victim = 0;
    let hand = fp;
    let steps = 0;
    for (; steps < this.maxIterations; steps++) {
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
   * i2) and returns true, or returns false when none does. Only the fingerprint is known, so removing
   * an item that was never added can remove another item that shares its fingerprint and a bucket
   * (RedisBloom does the same). May compact (see the class comment). No allocation.
   */
  remove(value: Item): boolean {
    hashItem(value);
    const fp = FP;
    const bs = this.bucketSize;
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
    const bs = this.bucketSize;
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
    this.#items = 0;
    this.#deletes = 0;
    this.#append();
  }

  // --- inspection ------------------------------------------------------------------------------

  /** CF.INFO. O(sub-filters). */
  info(): CuckooFilterInfo {
    let slots = 0;
    for (const f of this.#filters) slots += f.length;
    return {
      size: 40 + 16 * this.#filters.length + slots,
      buckets: this.buckets,
      filters: this.#filters.length,
      items: this.#items,
      deleted: this.#deletes,
      bucketSize: this.bucketSize,
      expansion: this.expansion,
      maxIterations: this.maxIterations,
    };
  }

  /**
   * Throws unless the state is consistent: 1..32 sub-filters of the sizes the parameters give, items
   * equal to the non-zero slots, a non-negative delete count. O(slots).
   */
  checkInvariants(): void {
    const fail = (what: string) => {
      throw new Error(`redstruct/${WHERE}: invariant broken: ${what}`);
    };
    const filters = this.#filters;
    if (filters.length < 1 || filters.length > CUCKOO_MAX_FILTERS) fail(`${filters.length} sub-filters`);
    if (filters.length > 1 && this.expansion === 0) fail("grew with expansion 0");
    let used = 0;
    for (let k = 0; k < filters.length; k++) {
      const n = this.buckets * this.expansion ** k;
      if (this.#masks[k] !== n - 1 || filters[k]!.length !== n * this.bucketSize) fail(`sub-filter ${k} size`);
      for (const x of filters[k]!) if (x !== 0) used++;
    }
    if (used !== this.#items) fail(`items ${this.#items} but ${used} fingerprints stored`);
    if (!Number.isInteger(this.#deletes) || this.#deletes < 0) fail(`deletes ${this.#deletes}`);
  }

  // --- CF.SCANDUMP / CF.LOADCHUNK --------------------------------------------------------------

  /**
   * CF.SCANDUMP from position 0 until it returns 0: the `[position, chunk]` pairs to feed
   * CF.LOADCHUNK (or {@link CuckooFilter.load}) in order. The first chunk is the 38-byte header
   * (little-endian u64 items, u64 buckets, u64 deletes, u64 sub-filters, u16 bucketSize,
   * u16 maxIterations, u16 expansion) at position 1; then each sub-filter's slots, whole when at most
   * 16 MiB, each at position (end offset + 1). Byte-identical to RedisBloom's replies, including its
   * quirk that a filter holding no items dumps nothing (an empty array). The chunks are copies.
   * O(slots).
   */
  dump(): Array<[number, Uint8Array]> {
    if (this.#items === 0) return [];
    const header = new Uint8Array(HEADER_SIZE);
    const view = new DataView(header.buffer);
    const u64 = (at: number, v: number) => {
      view.setUint32(at, v % 2 ** 32, true);
      view.setUint32(at + 4, Math.floor(v / 2 ** 32), true);
    };
    u64(0, this.#items);
    u64(8, this.buckets);
    u64(16, this.#deletes);
    u64(24, this.#filters.length);
    view.setUint16(32, this.bucketSize, true);
    view.setUint16(34, this.maxIterations, true);
    view.setUint16(36, this.expansion, true);
    const out: Array<[number, Uint8Array]> = [[1, header]];
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
   * CF.LOADCHUNK of every pair {@link dump} (or RedisBloom's CF.SCANDUMP) returned, in order: a filter
   * equal to the dumped one. Stricter than RedisBloom: the header must be consistent (a power-of-two
   * bucket count, bucketSize 1..255, maxIterations ≥ 1, expansion 0 or a power of two ≤ 32768, 1..32
   * sub-filters, several only with expansion > 0, each ≤ 2^30 slots), the chunks must cover every
   * sub-filter exactly once, in order, and the item count must equal the stored fingerprints. Nothing
   * is allocated until the chunks have delivered every byte, so a hostile header cannot make it
   * allocate more than its input. O(slots).
   * @throws RedstructFormatError for anything else.
   */
  static load(chunks: Iterable<[number, Uint8Array]>): CuckooFilter {
    if (
      chunks === null ||
      typeof chunks !== "object" ||
      typeof (chunks as Iterable<unknown>)[Symbol.iterator] !== "function"
    ) {
      throw formatError(WHERE, "load expects an iterable of [position, chunk] pairs");
    }
    let header: Uint8Array | null = null;
    let sizes: number[] = [];
    let total = 0;
    let offset = 0;
    const parts: Uint8Array[] = [];
    let fields: {
      items: number;
      buckets: number;
      deletes: number;
      filters: number;
      bs: number;
      iters: number;
      exp: number;
    } | null = null;
    for (const pair of chunks) {
      if (!Array.isArray(pair) || pair.length !== 2)
        throw formatError(WHERE, "each chunk must be a [position, bytes] pair");
      const [pos, data] = pair as [unknown, unknown];
      if (!(data instanceof Uint8Array)) throw formatError(WHERE, "a chunk's bytes must be a Uint8Array");
      if (typeof pos !== "number" || !Number.isSafeInteger(pos) || pos < 1) {
        throw formatError(WHERE, `bad chunk position ${String(pos)}`);
      }
      if (header === null) {
        if (pos !== 1) throw formatError(WHERE, `the first chunk must be the header at position 1, got ${pos}`);
        if (data.length !== HEADER_SIZE)
          throw formatError(WHERE, `the header must be ${HEADER_SIZE} bytes, got ${data.length}`);
        header = data;
        fields = readHeader(data);
        sizes = [];
        for (let k = 0; k < fields.filters; k++) sizes.push(fields.buckets * fields.exp ** k * fields.bs);
        for (const s of sizes) {
          if (!(s <= CUCKOO_MAX_SLOTS))
            throw formatError(WHERE, `a sub-filter of ${s} slots exceeds ${CUCKOO_MAX_SLOTS}`);
        }
        total = sizes.reduce((a, b) => a + b, 0);
        continue;
      }
      const start = pos - data.length - 1;
      if (data.length === 0 || start !== offset) {
        throw formatError(WHERE, `chunk at position ${pos} (${data.length} bytes) does not continue at byte ${offset}`);
      }
      // A chunk never crosses a sub-filter boundary.
      let end = 0;
      for (const s of sizes) {
        end += s;
        if (offset < end) break;
      }
      if (offset + data.length > end)
        throw formatError(WHERE, `chunk at position ${pos} crosses a sub-filter boundary`);
      parts.push(data);
      offset += data.length;
    }
    if (header === null || fields === null) throw formatError(WHERE, "no header chunk");
    if (offset !== total) throw formatError(WHERE, `chunks delivered ${offset} of ${total} bytes`);
    const f = new CuckooFilter({
      capacity: Math.max(2 * fields.bs, fields.buckets * fields.bs),
      bucketSize: fields.bs,
      maxIterations: fields.iters,
      expansion: fields.exp,
    });
    if (f.buckets !== fields.buckets) throw formatError(WHERE, `bucket count ${fields.buckets} cannot be rebuilt`);
    f.#filters = [];
    let at = 0;
    let used = 0;
    for (let k = 0; k < fields.filters; k++) {
      const slots = new Uint8Array(sizes[k]!);
      let filled = 0;
      while (filled < slots.length) {
        const p = parts[at++]!;
        slots.set(p, filled);
        filled += p.length;
      }
      for (const x of slots) if (x !== 0) used++;
      f.#masks[k] = sizes[k]! / fields.bs - 1;
      f.#filters.push(slots);
    }
    if (used !== fields.items) throw formatError(WHERE, `header says ${fields.items} items, the slots hold ${used}`);
    f.#items = fields.items;
    f.#deletes = fields.deletes;
    return f;
  }
}

function readHeader(data: Uint8Array) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const u64 = (at: number, what: string) => {
    const lo = view.getUint32(at, true);
    const hi = view.getUint32(at + 4, true);
    if (hi > 0x1fffff) throw formatError(WHERE, `${what} ${hi}·2^32+${lo} exceeds 2^53`);
    return hi * 2 ** 32 + lo;
  };
  const items = u64(0, "the item count");
  const buckets = u64(8, "the bucket count");
  const deletes = u64(16, "the delete count");
  const filters = u64(24, "the sub-filter count");
  const bs = view.getUint16(32, true);
  const iters = view.getUint16(34, true);
  const exp = view.getUint16(36, true);
  if (buckets < 1 || buckets > CUCKOO_MAX_SLOTS || (buckets & (buckets - 1)) !== 0) {
    throw formatError(WHERE, `bucket count ${buckets} is not a power of two in [1, 2^30]`);
  }
  if (bs < 1 || bs > 255) throw formatError(WHERE, `bucket size ${bs} is not in [1, 255]`);
  if (iters < 1) throw formatError(WHERE, "max iterations 0");
  if (exp > 32768 || (exp & (exp - 1)) !== 0)
    throw formatError(WHERE, `expansion ${exp} is not 0 or a power of two ≤ 32768`);
  if (filters < 1 || filters > CUCKOO_MAX_FILTERS) throw formatError(WHERE, `${filters} sub-filters (1..32 allowed)`);
  if (filters > 1 && exp === 0) throw formatError(WHERE, `${filters} sub-filters with expansion 0`);
  if (buckets * bs > CUCKOO_MAX_SLOTS) throw formatError(WHERE, `${buckets}×${bs} slots exceed ${CUCKOO_MAX_SLOTS}`);
  return { items, buckets, deletes, filters, bs, iters, exp };
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
