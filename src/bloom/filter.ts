/**
 * BloomFilter — a fixed-size Bloom filter (Bloom 1970) on a `Uint32Array`, with
 * Kirsch–Mitzenmacher-style double hashing (enhanced with a third value, see hashing.ts) over 128
 * bits of MurmurHash3 x86_128. The classic
 * structure behind RedisBloom's BF.RESERVE / BF.ADD / BF.EXISTS (RedisBloom src/sb.c and
 * deps/bloom/bloom.c), re-derived here from the formulas, not ported.
 *
 * Memory layout: `words` holds m bits, bit i in `words[i >>> 5]` at position `i & 31`
 * (LSB-first), ⌈m/32⌉ words. Beside it: k (hashes), the number of adds that set a new bit
 * (`items`, what BF.CARD reports), and the number of set bits (`setBits`, kept current by `add` so
 * that `count()` and `falsePositiveRate()` are O(1)).
 *
 * Invariants (checked by {@link BloomFilter.checkInvariants}): 1 ≤ m < 2^31, 1 ≤ k ≤ 64,
 * `words.length = ⌈m/32⌉`, the padding bits past m in the last word are 0, `setBits` equals the
 * population count of `words`.
 *
 * Costs: `add`/`has` O(k + length of the item) with no allocation (`has` stops at the first
 * clear bit); `count`/`falsePositiveRate` O(1); `merge` and the static `union`/`intersect`
 * O(m/32) per filter; `clear`/`clone`/`checkInvariants` O(m/32); `toBytes`/`fromBytes` O(m/32)
 * with a 40-byte header.
 *
 * Serialized form (little-endian, version 1): "RSBF", version u8 = 1, hashing scheme u8 = 2,
 * k u8, flags u8 = 0, m u64, items u64, capacity u64 (0 if sized by bits), errorRate f64 (0 if
 * none), then the ⌈m/32⌉ words as u32. Everything is validated on read, including that the padding
 * bits are clear, that the item count is one the fill could hold, and that the header is the one
 * `toBytes` would write (so a filter that loads writes back the same bytes).
 */
import { checkItem, type Item } from "../hash/element.js";
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { checkInteger, formatError, invariantFailure, notJson, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkIterable, checkOptions } from "../internal/options.js";
import {
  type BloomFilterFromOptions,
  checkFillCounters,
  combined,
  type FilterClass,
  fillExcess,
  fromArguments,
  HEADER_BYTES,
  itemAt,
  itemsAfterMerge,
  maxItemsFor,
  mergeInto,
  popcount,
} from "./bits.js";
import { H, HASHING_SCHEME, hashElement, RING_BITS, readHashingScheme, scaleHi, scaleLo } from "./hashing.js";
import {
  type BloomParameters,
  bloomParameters,
  checkAnswer,
  checkCapacity,
  checkErrorRate,
  MAX_BITS,
  MAX_HASHES,
  sizeFilter,
} from "./params.js";

const WHERE = "BloomFilter";
/** Serialization magic and version. */
const MAGIC = "RSBF";
const VERSION = 1;

/** Options of {@link BloomFilter}: size it for a workload, or give its raw shape. */
export type BloomFilterOptions =
  | {
      /** Items the filter is sized for (a positive integer). */
      capacity: number;
      /** Target false-positive rate at `capacity` items, 0 < p < 1. */
      errorRate: number;
    }
  | {
      /** Bits in the filter, 1..2^31 − 1. */
      bits: number;
      /** Probes per item, 1..64. */
      hashes: number;
    }
  /** What {@link bloomParameters} answers: the filter sized by its `capacity` and `errorRate`. */
  | BloomParameters;

// Access to a filter's internals for ScalableBloomFilter, whose links are BloomFilters sharing one
// hash of each item: set in BloomFilter's static block, not exported from the package.

/** Sets the k bits of the item last hashed into `H` in `filter`; true when one was clear. */
export let addHashed: (filter: BloomFilter) => boolean;
/** True when all k bits of the item last hashed into `H` are set in `filter`. */
export let hasHashed: (filter: BloomFilter) => boolean;
/** Writes `filter`'s serialized form into `w` (toBytes without the allocation). */
export let writeFilter: (filter: BloomFilter, w: ByteWriter) => void;
/** Reads one serialized filter at the reader's position. */
export let readFilter: (r: ByteReader) => BloomFilter;

/** The class and its brand check, for the merge/union/intersect argument checks. */
let FILTER: FilterClass<BloomFilter>;

/** Mask of the bits of the last word that lie inside the filter. */
function lastWordMask(bits: number): number {
  const used = bits & 31;
  return used === 0 ? 0xffffffff : ((1 << used) - 1) >>> 0;
}

/** Bit positions of the element being added or tested (see `#probe`). */
const P = new Int32Array(MAX_HASHES);

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * A fixed-size Bloom filter: the fastest of the filters, sized for a capacity and an error rate
 * (or given its raw bits and hash count). Never a false negative; false positives at about the
 * target rate at capacity. `toBytes()` / `fromBytes()` move it as raw bits plus a small header.
 */
export class BloomFilter {
  #words: Uint32Array;
  readonly #bits: number;
  readonly #hashes: number;
  readonly #scaleHi: number;
  readonly #scaleLo: number;
  readonly #stepHi: number;
  readonly #stepLo: number;
  /** m / 2^32: the ring path's multiply-shift. */
  readonly #scaleRing: number;
  readonly #capacity: number;
  readonly #errorRate: number;
  #items = 0;
  #setBits = 0;

  static {
    FILTER = {
      type: BloomFilter,
      is: (x: unknown): x is BloomFilter => typeof x === "object" && x !== null && #words in x,
      checkShape: (target, other, param) => target.#checkShape(other, param),
      words: (f) => f.#words,
      refill: (f, setBits) => {
        f.#setBits = setBits;
        f.#items = itemsAfterMerge(setBits, f.count(), f.bits);
      },
    };
    addHashed = (f) => f.#addHashed();
    hasHashed = (f) => f.#hasHashed();
    writeFilter = (f, w) => f.#write(w);
    readFilter = (r) => BloomFilter.#read(r);
  }

  /**
   * Creates an empty filter, either sized by {@link bloomParameters} for `{ capacity, errorRate }`
   * (BF.RESERVE) — so its expected rate at capacity is errorRate up to the rounding of k — or with an
   * explicit `{ bits, hashes }`. O(m/32) to allocate the zeroed words.
   * @throws TypeError for a missing/mistyped option, RangeError for a value out of range (including
   *   a capacity/errorRate pair that needs 2^31 bits or more).
   */
  constructor(options: BloomFilterOptions) {
    type AnyShape = Partial<BloomParameters>;
    const o = checkOptions<AnyShape>(WHERE, options as AnyShape, [
      "capacity",
      "errorRate",
      "bits",
      "hashes",
      "bitsPerElement",
      "falsePositiveRate",
    ]);
    const bySize = o.capacity !== undefined || o.errorRate !== undefined;
    const byShape = o.bits !== undefined || o.hashes !== undefined;
    const described = o.bitsPerElement !== undefined || o.falsePositiveRate !== undefined;
    if (!bySize && (!byShape || described)) {
      throw typeError(
        WHERE,
        "options",
        options,
        "exactly one of { capacity, errorRate } or { bits, hashes }, or what bloomParameters(capacity, errorRate) answers",
      );
    }
    let bits: number;
    let hashes: number;
    if (bySize) {
      this.#capacity = checkCapacity(WHERE, o.capacity);
      this.#errorRate = checkErrorRate(WHERE, o.errorRate);
      ({ bits, hashes } = sizeFilter(WHERE, this.#capacity, this.#errorRate, MAX_BITS));
      if (byShape || described)
        checkAnswer(WHERE, o, bloomParameters(this.#capacity, this.#errorRate), "bloomParameters");
    } else {
      bits = checkInteger(WHERE, "bits", o.bits, 1, MAX_BITS);
      hashes = checkInteger(WHERE, "hashes", o.hashes, 1, MAX_HASHES);
      this.#capacity = 0;
      this.#errorRate = 0;
    }
    this.#bits = bits;
    this.#hashes = hashes;
    this.#scaleHi = scaleHi(bits);
    this.#scaleLo = scaleLo(bits);
    this.#stepHi = scaleHi(bits - 1);
    this.#stepLo = scaleLo(bits - 1);
    this.#scaleRing = bits / 2 ** 32;
    this.#words = new Uint32Array(Math.ceil(bits / 32));
  }

  /**
   * A filter sized for `capacity` items (by default the number of `items`, at least 1) at
   * `errorRate` (by default 0.01), holding `items` — BF.RESERVE then BF.MADD. O(m/32 + n·k).
   * @throws TypeError unless `items` is a sync iterable of items (a lone string is refused) and
   *   `options`, when given, an object `{ errorRate?, capacity? }`; RangeError for a value out of range.
   */
  static from(items: Iterable<Item>, options?: BloomFilterFromOptions): BloomFilter {
    const a = fromArguments(WHERE, items, options);
    const filter = new BloomFilter({ capacity: a.capacity, errorRate: a.errorRate });
    filter.addAll(a.items);
    return filter;
  }

  // ——— shape ———————————————————————————————————————————————————————————————

  /** Number of bits m. */
  get bits(): number {
    return this.#bits;
  }

  /** Number of probes k per item. */
  get hashes(): number {
    return this.#hashes;
  }

  /** The capacity it was sized for, or `undefined` when built from `{ bits, hashes }`. */
  get capacity(): number | undefined {
    return this.#capacity === 0 ? undefined : this.#capacity;
  }

  /** The target error rate it was sized for, or `undefined` when built from `{ bits, hashes }`. */
  get errorRate(): number | undefined {
    return this.#errorRate === 0 ? undefined : this.#errorRate;
  }

  /**
   * Number of `add` calls that returned true (what BF.CARD reports). A merge that sets or clears
   * bits replaces it with the fill estimate ({@link count}, rounded), since the exact figure is
   * unknowable. O(1).
   */
  get size(): number {
    return this.#items;
  }

  /** Bytes of the bit array (⌈m/32⌉·4). O(1). */
  get byteLength(): number {
    return this.#words.length * 4;
  }

  /** Number of set bits X. O(1). */
  get setBits(): number {
    return this.#setBits;
  }

  // ——— set operations (BF.ADD / BF.EXISTS / BF.MADD / BF.MEXISTS) ——————————————

  /**
   * Adds `item` — BF.ADD. Returns true when at least one of its k bits was clear, i.e. the item
   * was not (probably) present before (BF.ADD's 1). O(k + |item|), no allocation.
   * @throws TypeError when `item` is not a string, number, bigint or Uint8Array (or is a detached
   *   view), before anything changes.
   */
  add(item: Item): boolean {
    hashElement(checkItem(WHERE, "item", item));
    return this.#addHashed();
  }

  /**
   * True when `item` is probably present, false when it certainly is not — BF.EXISTS. Never a
   * false negative; false positives at about {@link falsePositiveRate}. O(k + |item|), stops at the
   * first clear bit, no side effect, no allocation.
   * @throws TypeError when `item` is not an item (see {@link add}).
   */
  has(item: Item): boolean {
    hashElement(checkItem(WHERE, "item", item));
    return this.#hasHashed();
  }

  /**
   * Adds every item in order; element i of the result is what `add(items[i])` returned — BF.MADD.
   * O(Σ (k + |item|)). An item that is not one is a TypeError naming `items[i]`; the items before
   * it stay added.
   * @throws TypeError unless `items` is a sync iterable (a lone string is refused) of items.
   */
  addAll(items: Iterable<Item>): boolean[] {
    return Array.from(checkIterable(WHERE, "items", items), (item, i) => this.add(itemAt(WHERE, item, i)));
  }

  /**
   * `has` for every item — BF.MEXISTS. O(Σ (k + |item|)), no side effect.
   * @throws TypeError unless `items` is a sync iterable (a lone string is refused) of items.
   */
  hasAll(items: Iterable<Item>): boolean[] {
    return Array.from(checkIterable(WHERE, "items", items), (item, i) => this.has(itemAt(WHERE, item, i)));
  }

  /** Sets the k bits of the item last hashed into `H`; true when one was clear. */
  #addHashed(): boolean {
    const words = this.#words;
    const k = this.#probe();
    let set = this.#setBits;
    let fresh = 0;
    for (let j = 0; j < k; j++) {
      const index = P[j]!;
      const mask = 1 << (index & 31);
      const old = words[index >>> 5]!;
      words[index >>> 5] = old | mask;
      const bit = (mask & ~old) >>> (index & 31); // 1 when the bit was clear: setBits stays exact without a branch
      set += bit;
      fresh |= bit;
    }
    this.#setBits = set;
    if (fresh === 0) return false;
    this.#items++;
    return true;
  }

  /** True when all k bits of the item last hashed into `H` are set. */
  #hasHashed(): boolean {
    const words = this.#words;
    const k = this.#probe();
    for (let j = 0; j < k; j++) {
      const index = P[j]!;
      if ((words[index >>> 5]! & (1 << (index & 31))) === 0) return false;
    }
    return true;
  }

  /**
   * Writes the k bit positions of the item last hashed into `H` to `P[0..k)` and returns k.
   * Positions first, bits second: the k memory accesses are then independent and overlap.
   */
  #probe(): number {
    const m = this.#bits;
    const k = this.#hashes;
    if (m <= RING_BITS) {
      // g = a + i·b + C(i,2)·c in the 2^32 ring; position ⌊g·m/2^32⌋ (hashing.ts).
      const scale = this.#scaleRing;
      let g = H[0]! | 0;
      let b = H[1]! | 0;
      const c = H[2]! | 0;
      for (let j = 0; j < k; j++) {
        P[j] = ((g >>> 0) * scale) | 0;
        g = (g + b) | 0;
        b = (b + c) | 0;
      }
      return k;
    }
    // Start a = ⌊h1·m/2^64⌋ ∈ [0, m), step b = 1 + ⌊h2·(m−1)/2^64⌋ ∈ [1, m−1] (never 0 mod m),
    // curvature c = ⌊h3·m/2^32⌋ ∈ [0, m), all int32 since m < 2^31.
    let index = (H[1]! * this.#scaleHi + H[0]! * this.#scaleLo) | 0;
    let step = ((H[3]! * this.#stepHi + H[2]! * this.#stepLo) | 0) + 1;
    let curve = (((H[0]! ^ H[2]!) >>> 0) * this.#scaleHi) | 0;
    // j < k ≤ 64 < m: every sum needs one conditional subtraction and j itself none.
    for (let j = 0; j < k; j++) {
      P[j] = index;
      // g += b; b += c; c += j + 1, all mod m, each by subtracting m and adding it back when that
      // went negative: branch-free, and int32 throughout.
      index = (index + step - m) | 0;
      index += (index >> 31) & m;
      step = (step + curve - m) | 0;
      step += (step >> 31) & m;
      curve = (curve + j + 1 - m) | 0;
      curve += (curve >> 31) & m;
    }
    return k;
  }

  // ——— estimates ——————————————————————————————————————————————————————————

  /**
   * Estimated number of distinct items from the fill: n̂ = −(m/k)·ln(1 − X/m) for X set bits
   * (Swamidass & Baldi 2007). Unlike {@link size} it also counts what a merge brought in.
   * `Infinity` once every bit is set (the filter no longer says anything). O(1).
   */
  count(): number {
    const m = this.#bits;
    return (-m / this.#hashes) * Math.log1p(-this.#setBits / m);
  }

  /**
   * The false-positive rate of the filter as it is now: (X/m)^k, the chance that k uniformly
   * placed probes all land on set bits. Computed from the real fill rather than from the item
   * count, so it stays truthful after a merge, after overfilling, or with duplicate-heavy input.
   * O(1).
   */
  falsePositiveRate(): number {
    return (this.#setBits / this.#bits) ** this.#hashes;
  }

  // ——— whole-filter operations ————————————————————————————————————————————————

  /** Throws unless `other` has this filter's bits and hashes (positions depend on both). */
  #checkShape(other: BloomFilter, param: string): void {
    if (other.#bits !== this.#bits || other.#hashes !== this.#hashes) {
      throw rangeError(
        WHERE,
        param,
        `a filter of ${other.#bits} bits / ${other.#hashes} hashes`,
        `a filter of the same shape (${this.#bits} bits, ${this.#hashes} hashes)`,
      );
    }
  }

  /**
   * Adds every filter in `others` into this one, in place (bitwise OR): the result is exactly the
   * filter that adding all their items here would have built — what BF.MADD of the other filters'
   * items would give, without the items. Takes filters as arguments (`merge(a, b)`) or one iterable
   * of them (`merge([a, b])`); every one is checked before any is merged. When bits were set,
   * `size` becomes the fill estimate. O(m/32) per filter. Returns `this`.
   * @throws TypeError unless each is a BloomFilter built by this copy of redstruct; RangeError
   *   unless each has this filter's bits and hashes.
   */
  merge(...others: BloomFilter[]): this;
  merge(others: Iterable<BloomFilter>): this;
  merge(...args: unknown[]): this {
    mergeInto(WHERE, FILTER, this, args);
    return this;
  }

  /**
   * A new filter holding everything any of `filters` held (bitwise OR of all): exactly the filter
   * that adding all their items to one filter would have built. The inputs are not changed.
   * `size` is the first filter's, or the fill estimate when the others set bits. O(m/32) per filter.
   * @throws TypeError unless `filters` is one iterable (not separate arguments) of BloomFilters;
   *   RangeError when it is empty or their bits and hashes differ.
   */
  static union(filters: Iterable<BloomFilter>): BloomFilter {
    // biome-ignore lint/complexity/noArguments: separate arguments are refused with the array form spelled out
    return combined(WHERE, FILTER, "union", filters, arguments.length);
  }

  /**
   * A new filter holding only the bits set in every one of `filters` (bitwise AND). Every item
   * added to all of them still answers true; it can answer true for more than the true
   * intersection (its rate is at most the smallest of theirs). The inputs are not changed. `size`
   * is the first filter's, or the fill estimate (an overestimate) when bits were cleared.
   * O(m/32) per filter.
   * @throws as {@link BloomFilter.union}.
   */
  static intersect(filters: Iterable<BloomFilter>): BloomFilter {
    // biome-ignore lint/complexity/noArguments: as in union
    return combined(WHERE, FILTER, "intersect", filters, arguments.length);
  }

  /** Empties the filter, keeping its shape — what a fresh BF.RESERVE gives. O(m/32). */
  clear(): void {
    this.#words.fill(0);
    this.#items = 0;
    this.#setBits = 0;
  }

  /** An independent copy: same shape, bits and `size`. O(m/32). */
  clone(): BloomFilter {
    const copy = this.#emptyLike();
    copy.#words.set(this.#words);
    copy.#items = this.#items;
    copy.#setBits = this.#setBits;
    return copy;
  }

  /**
   * The most items a filter of this shape with `set` bits set can report (see maxItemsFor in
   * bits.ts). A full filter's merge gives items = m, the same bound as X = m.
   */
  #maxItems(set: number): number {
    return maxItemsFor(set, fillExcess(set, this.#bits, this.#hashes));
  }

  #emptyLike(): BloomFilter {
    return this.#capacity !== 0
      ? new BloomFilter({ capacity: this.#capacity, errorRate: this.#errorRate })
      : new BloomFilter({ bits: this.#bits, hashes: this.#hashes });
  }

  /**
   * Walks the whole filter and throws an Error describing the first broken invariant (see the
   * module comment). O(m/32). For tests and debugging.
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const m = this.#bits;
    if (!Number.isInteger(m) || m < 1 || m > MAX_BITS) fail(`bits ${m} out of range`);
    if (!Number.isInteger(this.#hashes) || this.#hashes < 1 || this.#hashes > MAX_HASHES) fail("hashes out of range");
    const words = this.#words;
    if (words.length !== Math.ceil(m / 32)) fail(`${words.length} words for ${m} bits`);
    if ((words[words.length - 1]! & ~lastWordMask(m)) !== 0) fail("padding bits past m are set");
    checkFillCounters(words, this.#setBits, this.#items, this.#maxItems(popcount(words)), fail);
  }

  // ——— serialization ——————————————————————————————————————————————————————————

  /**
   * The filter as bytes: a 40-byte versioned header and the raw bit array (see the module
   * comment), to store or send to another process, a worker or a browser. O(m/32); returns a new
   * array.
   */
  toBytes(): Uint8Array {
    const w = new ByteWriter(HEADER_BYTES + this.#words.length * 4);
    this.#write(w);
    return w.finish();
  }

  #write(w: ByteWriter): void {
    w.magic(MAGIC).u8(VERSION).u8(HASHING_SCHEME).u8(this.#hashes).u8(0);
    w.u53(this.#bits).u53(this.#items).u53(this.#capacity).f64(this.#errorRate);
    const words = this.#words;
    if (littleEndian) {
      w.raw(new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
    } else {
      for (let i = 0; i < words.length; i++) w.u32(words[i]!);
    }
  }

  /**
   * Reads a filter written by {@link toBytes}. Validates the magic, version, hashing scheme,
   * every field's range, that the length matches the header exactly, that the padding bits are
   * clear and that capacity/errorRate (when present) agree with bits/hashes. The bits are copied:
   * changing `bytes` afterwards does not change the filter. O(m/32).
   * @throws TypeError when `bytes` is not a Uint8Array or its buffer was detached;
   *   RedstructFormatError for any malformed, truncated or inconsistent input.
   */
  static fromBytes(bytes: Uint8Array): BloomFilter {
    const r = new ByteReader(bytes, WHERE);
    const filter = BloomFilter.#read(r);
    r.end();
    return filter;
  }

  /** Reads one serialized filter at the reader's position, copying its words. */
  static #read(r: ByteReader): BloomFilter {
    r.header(MAGIC, VERSION);
    readHashingScheme(WHERE, r);
    const hashes = r.u8("the hash count");
    if (hashes < 1 || hashes > MAX_HASHES) throw formatError(WHERE, `hash count ${hashes} not in [1, ${MAX_HASHES}]`);
    const flags = r.u8("the flags");
    if (flags !== 0) throw formatError(WHERE, `unknown flags ${flags}`);
    const bits = r.u53("the bit count");
    if (bits < 1 || bits > MAX_BITS) throw formatError(WHERE, `bit count ${bits} not in [1, 2^31 − 1]`);
    const items = r.u53("the item count");
    const capacity = r.u53("the capacity");
    const errorRate = r.f64("the error rate");
    // Sized by bits: exactly +0 (−0 would not survive a round trip); by capacity: a rate in (0, 1).
    if (capacity === 0 ? !Object.is(errorRate, 0) : !(errorRate > 0 && errorRate < 1)) {
      throw formatError(
        WHERE,
        `inconsistent capacity ${capacity} / error rate ${Object.is(errorRate, -0) ? "-0" : errorRate}`,
      );
    }
    if (capacity !== 0) {
      let p: { bits: number; hashes: number };
      try {
        p = sizeFilter(WHERE, capacity, errorRate, MAX_BITS);
      } catch {
        throw formatError(WHERE, `capacity ${capacity} at error rate ${errorRate} cannot be sized`);
      }
      if (p.bits !== bits || p.hashes !== hashes) {
        throw formatError(
          WHERE,
          `capacity ${capacity} at ${errorRate} needs ${p.bits} bits / ${p.hashes} hashes, the header holds ${bits} / ${hashes}`,
        );
      }
    }
    const wordCount = Math.ceil(bits / 32);
    // Check the length before allocating: a hostile header must not make us allocate 512 MiB.
    const raw = r.view(wordCount * 4, "the bit array");
    const filter = capacity !== 0 ? new BloomFilter({ capacity, errorRate }) : new BloomFilter({ bits, hashes });
    const words = filter.#words;
    if (littleEndian && raw.byteOffset % 4 === 0) {
      words.set(new Uint32Array(raw.buffer, raw.byteOffset, wordCount));
    } else {
      const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      for (let i = 0; i < wordCount; i++) words[i] = view.getUint32(i * 4, true);
    }
    if ((words[wordCount - 1]! & ~lastWordMask(bits)) !== 0) {
      throw formatError(WHERE, "bits set past the end of the filter");
    }
    const set = popcount(words);
    // Each successful add sets at least one bit; each set bit came from some add; and no sequence of
    // adds and merges reports more items than the fill allows (maxItemsFor).
    if ((set === 0) !== (items === 0)) throw formatError(WHERE, `item count ${items} with ${set} bits set`);
    const most = filter.#maxItems(set);
    if (items > most) {
      throw formatError(WHERE, `item count ${items} with ${set} bits set: ${bits} bits hold at most ${most}`);
    }
    filter.#setBits = set;
    filter.#items = items;
    return filter;
  }

  /**
   * Refuses JSON: a filter's state is private, so `JSON.stringify` would give `{}`. Send
   * {@link toBytes} instead (to a worker, a file, a server) and rebuild with {@link BloomFilter.fromBytes}.
   * @throws TypeError always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  static {
    defineInspect(BloomFilter, (f) => ({
      fields: {
        size: f.size,
        capacity: f.capacity,
        errorRate: f.errorRate,
        bits: f.bits,
        hashes: f.hashes,
        byteLength: f.byteLength,
      },
    }));
  }
}
