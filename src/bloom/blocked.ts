/**
 * BlockedBloomFilter — a cache-blocked Bloom filter (Putze, Sanders & Singler, "Cache-, Hash- and
 * Space-Efficient Bloom Filters", 2007): every element maps to ONE 512-bit block (a 64-byte cache
 * line) and all k of its bits are set inside that block, so `add`/`has` touch one cache line
 * instead of k. Re-derived from the paper's description, not ported.
 *
 * Hashing: the element is hashed once into {@link H} by hashing.ts (128 bits as four words; here
 * h1 = H[1]:H[0] and h2 = H[3]:H[2]). The block is b = ⌊h1·B/2^64⌋ for B blocks — the
 * multiply-shift reduction of BloomFilter's large-filter path, so all 64 bits of h1 choose the
 * block. Inside the block, probe i (i = 0..k−1) is the
 * top 9 bits of x_i, where x_0 = h2.lo and x_{i+1} = x_i·0x2c9277b5 + (h2.hi | 1) (mod 2^32): a
 * 32-bit linear congruential sequence (multiplier ≡ 1 mod 4, odd increment: full period) seeded by
 * 63 bits, in int32 with one Math.imul per probe. Its top bits behave like independent positions,
 * which the sizing formula below assumes (the false-positive rates `npm run bench -- bloom`
 * measures are in docs/bloom.md). Two other schemes would not do: (a + i·b) mod 512 — a query
 * sharing (a, b) with a key of its block is a certain false positive, a floor of
 * ≈ λ/(512·256) ≈ 1.5·10⁻⁴ at 20 keys per block, above a 10⁻⁴ target; and the top 9 bits of
 * a + i·b + C(i,2)·c (the standard filter's enhanced double hashing), whose positions inside one
 * block are correlated enough to put the rate above (X_b/512)^k at large k.
 * Two probes of one key coincide with probability ≈ 1/512 per pair, as for independent hashes.
 *
 * Sizing: the bits are not spread uniformly, so the number of keys per block varies (Poisson with
 * mean λ = n/B) and the crowded blocks raise the rate. The expected rate is
 *   FPR(B, k) = Σ_i Poisson(i; λ) · (1 − (1 − 1/512)^(k·i))^k,
 * and {@link blockedParameters} picks the fewest blocks B (≥ ⌈n·(−ln p/ln²2)/512⌉/2) for which some
 * integer k reaches FPR ≤ p, with that k. The price is more bits per element than the standard
 * filter (n = 10^6, computed): +0.8 % at p = 10 %, +3.2 % at 1 % (9.90 vs 9.59 bits, k = 6 vs 7),
 * +7.7 % at 0.1 %, +14 % at 0.01 %, +34 % at 10⁻⁶ — the blocked design suits p ≥ 10⁻⁴.
 *
 * Memory layout: `words` is a Uint32Array of 16·B words; block j is words [16j, 16j + 16), i.e.
 * byte offset 64·j in the buffer, so blocks are 64-byte aligned relative to the buffer start (large
 * ArrayBuffers are page-aligned by the engine's allocator in practice; JS cannot demand it). Bit p
 * of a block is in word p >>> 5 at position p & 31 (LSB-first). Beside it: k, B, the number of adds
 * that set a new bit (`items`) and the population count (`setBits`), kept current by `add`.
 *
 * Invariants ({@link BlockedBloomFilter.checkInvariants}): 1 ≤ B ≤ 2^22 − 1 (so every word index is
 * an int32 and m = 512·B < 2^31), 1 ≤ k ≤ 64, `words.length = 16·B`, (B, k) is what
 * blockedParameters(capacity, errorRate) gives, `setBits` is the population count of `words`,
 * `items` is 0 exactly when no bit is set and otherwise at most what the fill allows (#maxItems).
 *
 * Costs: `add`/`has` O(k + |item|), one cache line, no allocation; `count`/`falsePositiveRate`
 * O(m/32) (they read the fill of every block); `clear`/`checkInvariants` O(m/32); construction
 * O(m/32) plus the sizing search (O(k·λ·log B)), as is `clone`; `merge` and the static
 * `union`/`intersect` O(m/32) per filter; `toBytes`/`fromBytes` O(m/32) with a 40-byte header.
 *
 * Serialized form (little-endian, version 1): "RSBB", version u8 = 1, hashing scheme u8 = 2, k u8,
 * flags u8 = 0, blocks u64, items u64, capacity u64, errorRate f64, then the 16·B words as u32.
 * Everything is validated on read.
 */
import { checkItem, type Item } from "../hash/element.js";
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { formatError, invariantFailure, notJson, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkIterable, checkOptions } from "../internal/options.js";
import {
  type BloomFilterFromOptions,
  checkFillCounters,
  combined,
  type FilterClass,
  fromArguments,
  HEADER_BYTES,
  itemAt,
  itemsAfterMerge,
  maxItemsFor,
  mergeInto,
  popcount,
} from "./bits.js";
import { H, HASHING_SCHEME, hashElement, readHashingScheme, scaleHi, scaleLo } from "./hashing.js";
import { checkAnswer, checkCapacity, checkErrorRate, MAX_HASHES, searchStep, startSearch } from "./params.js";

const WHERE = "BlockedBloomFilter";
const MAGIC = "RSBB";
const VERSION = 1;
/** Bits per block: one 64-byte cache line. */
const BLOCK_BITS = 512;
const BLOCK_WORDS = 16;
/** Most blocks: 512·B stays below 2^31 and 16·B below 2^26. */
const MAX_BLOCKS = 2 ** 22 - 1;
/** Multiplier of the in-block position sequence (a full-period LCG multiplier mod 2^32). */
const LCG_MULTIPLIER = 0x2c9277b5;
const LN_Q = Math.log1p(-1 / BLOCK_BITS);
const LN2_SQUARED = Math.LN2 * Math.LN2;

/** Options of {@link BlockedBloomFilter}. */
export interface BlockedBloomFilterOptions {
  /** Items the filter is sized for (a positive integer). */
  capacity: number;
  /** Target false-positive rate at `capacity` items, 0 < p < 1 (met by the blocked formula). */
  errorRate: number;
}

/**
 * What {@link blockedParameters} returns; handed to the constructor whole, it builds the filter it
 * describes.
 */
export interface BlockedBloomParameters extends BlockedBloomFilterOptions {
  /** Number of 512-bit blocks B. */
  blocks: number;
  /** Bits m = 512·B. */
  bits: number;
  /** Probes per element k. */
  hashes: number;
  /** m / capacity. */
  bitsPerElement: number;
  /** Expected rate at capacity, Σ_i Poisson(i; n/B)·(1 − (1 − 1/512)^(k·i))^k (≤ errorRate). */
  falsePositiveRate: number;
}

/**
 * Expected rate of a blocked filter with `blocks` blocks, k probes, n items (the module comment's
 * formula). O(λ) with λ = n/B. Returns 1 (conservatively) once the blocks are hopelessly full
 * (k·λ > 40·512, fill > 1 − e^−40), which also bounds the work.
 */
function blockedRate(blocks: number, k: number, n: number): number {
  const lambda = n / blocks;
  if (k * lambda > 40 * BLOCK_BITS) return 1;
  const lnLambda = Math.log(lambda);
  const top = Math.ceil(lambda + 12 * Math.sqrt(lambda) + 30);
  let logPmf = -lambda;
  let sum = 0;
  for (let i = 0; i <= top; i++) {
    if (i > 0) logPmf += lnLambda - Math.log(i);
    sum += Math.exp(logPmf) * (-Math.expm1(k * i * LN_Q)) ** k;
  }
  return Math.min(1, sum);
}

/** The lowest rate any blocked filter reaches for one item (the largest filter, the best k); lazily computed. */
let floorRate: number | undefined;

/** The integer k minimising the rate (unimodal: scan up while it falls), and that rate. */
function bestHashes(blocks: number, n: number): { hashes: number; rate: number } {
  let hashes = 1;
  let rate = blockedRate(blocks, 1, n);
  for (let k = 2; k <= MAX_HASHES; k++) {
    const r = blockedRate(blocks, k, n);
    if (!(r < rate)) break;
    hashes = k;
    rate = r;
  }
  return { hashes, rate };
}

/**
 * Sizes a blocked filter for `capacity` items at `errorRate`: the fewest 512-bit blocks for which
 * an integer k gives an expected rate ≤ errorRate (formula in the module comment), found by
 * doubling then bisection from half the standard filter's size. O(k·λ·log B).
 * @throws RangeError/TypeError for a bad capacity or errorRate, or when more than 2^22 − 1 blocks
 *   would be needed.
 */
export function blockedParameters(capacity: number, errorRate: number, where = WHERE): BlockedBloomParameters {
  const n = checkCapacity(where, capacity);
  const p = checkErrorRate(where, errorRate);
  startSearch();
  // Even one item in the largest filter has a floor (its block's k probes must all miss): below it,
  // no capacity helps and the error rate is what is wrong — said at once, without a search.
  floorRate ??= bestHashes(MAX_BLOCKS, 1).rate;
  const floor = floorRate;
  const tooBig = () => {
    if (floor > p) {
      return rangeError(
        where,
        "errorRate",
        p,
        `at least ${floor.toPrecision(3)} for a blocked filter (the lowest rate ${MAX_BLOCKS} blocks of 512 bits reach for a single item)`,
      );
    }
    return rangeError(
      where,
      "capacity",
      capacity,
      `small enough to fit ${MAX_BLOCKS} blocks of 512 bits at errorRate ${p}`,
    );
  };
  const standard = Math.ceil((-n * Math.log(p)) / LN2_SQUARED / BLOCK_BITS) || 1;
  if (standard > MAX_BLOCKS || floor > p) throw tooBig();
  const fits = (b: number) => {
    searchStep(where);
    return bestHashes(b, n).rate <= p;
  };
  // `lo` is assumed not to fit (the blocked filter never beats the standard one by 2×).
  let lo = Math.floor(standard / 2);
  let hi = Math.max(1, standard);
  while (!fits(hi)) {
    if (hi === MAX_BLOCKS) throw tooBig();
    lo = hi;
    hi = Math.min(MAX_BLOCKS, hi * 2);
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid;
  }
  const { hashes, rate } = bestHashes(hi, n);
  return {
    capacity: n,
    errorRate: p,
    blocks: hi,
    bits: hi * BLOCK_BITS,
    hashes,
    bitsPerElement: (hi * BLOCK_BITS) / n,
    falsePositiveRate: rate,
  };
}

/** The class and its brand check, for the merge/union/intersect argument checks. */
let FILTER: FilterClass<BlockedBloomFilter>;

/**
 * A cache-blocked Bloom filter: each item sets and tests its bits inside one 64-byte block, so
 * every `add` and `has` touches one cache line, for a few percent more bits than {@link BloomFilter}
 * at the same error rate.
 */
export class BlockedBloomFilter {
  readonly #words: Uint32Array;
  readonly #blocks: number;
  readonly #hashes: number;
  readonly #scaleHi: number;
  readonly #scaleLo: number;
  readonly #capacity: number;
  readonly #errorRate: number;
  #items = 0;
  #setBits = 0;

  static {
    FILTER = {
      type: BlockedBloomFilter,
      is: (x: unknown): x is BlockedBloomFilter => typeof x === "object" && x !== null && #words in x,
      checkShape: (target, other, param) => target.#checkShape(other, param),
      words: (f) => f.#words,
      refill: (f, setBits) => {
        f.#setBits = setBits;
        f.#items = itemsAfterMerge(setBits, f.count(), f.bits);
      },
    };
  }

  /**
   * Creates an empty filter sized by {@link blockedParameters} for `{ capacity, errorRate }`.
   * O(m/32) to allocate the zeroed words, plus the sizing search.
   * @throws TypeError for a missing/mistyped option, RangeError for a value out of range (including
   *   a pair that needs more than 2^22 − 1 blocks).
   */
  constructor(options: BlockedBloomFilterOptions | BlockedBloomParameters) {
    if (options === undefined) throw typeError(WHERE, "options", options, "{ capacity, errorRate }");
    const o = checkOptions<Partial<BlockedBloomParameters>>(WHERE, options, [
      "capacity",
      "errorRate",
      "blocks",
      "bits",
      "hashes",
      "bitsPerElement",
      "falsePositiveRate",
    ]);
    if (o.capacity === undefined && o.errorRate === undefined) {
      throw typeError(
        WHERE,
        "options",
        options,
        "{ capacity, errorRate } or what blockedParameters(capacity, errorRate) answers (the blocks are sized from them)",
      );
    }
    const capacity = checkCapacity(WHERE, o.capacity);
    const errorRate = checkErrorRate(WHERE, o.errorRate);
    const answer = blockedParameters(capacity, errorRate);
    checkAnswer(WHERE, o, answer, "blockedParameters");
    const { blocks, hashes } = answer;
    this.#capacity = capacity;
    this.#errorRate = errorRate;
    this.#blocks = blocks;
    this.#hashes = hashes;
    this.#scaleHi = scaleHi(blocks);
    this.#scaleLo = scaleLo(blocks);
    this.#words = new Uint32Array(blocks * BLOCK_WORDS);
  }

  /**
   * A filter sized for `capacity` items (by default the number of `items`, at least 1) at
   * `errorRate` (by default 0.01), holding `items`. O(m/32 + n·k) plus the sizing search.
   * @throws TypeError unless `items` is a sync iterable of items (a lone string is refused) and
   *   `options`, when given, an object `{ errorRate?, capacity? }`; RangeError for a value out of range.
   */
  static from(items: Iterable<Item>, options?: BloomFilterFromOptions): BlockedBloomFilter {
    const a = fromArguments(WHERE, items, options);
    const filter = new BlockedBloomFilter({ capacity: a.capacity, errorRate: a.errorRate });
    filter.addAll(a.items);
    return filter;
  }

  // ——— shape ———————————————————————————————————————————————————————————————

  /** Number of bits m = 512·blocks. */
  get bits(): number {
    return this.#blocks * BLOCK_BITS;
  }

  /** Number of 512-bit blocks B. */
  get blocks(): number {
    return this.#blocks;
  }

  /** Number of probes k per item (all inside one block). */
  get hashes(): number {
    return this.#hashes;
  }

  /** The capacity it was sized for. */
  get capacity(): number {
    return this.#capacity;
  }

  /** The target error rate it was sized for. */
  get errorRate(): number {
    return this.#errorRate;
  }

  /**
   * Number of `add` calls that returned true (what BF.CARD reports); after a merge that set or
   * cleared bits, the fill estimate ({@link count}, rounded). O(1).
   */
  get size(): number {
    return this.#items;
  }

  /** Bytes of the bit array (64·B). O(1). */
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
   * was not (probably) present before (BF.ADD's 1). O(k + |item|), one cache line, no allocation.
   * @throws TypeError when `item` is not a string, number, bigint or Uint8Array (or is a detached
   *   view), before anything changes.
   */
  add(item: Item): boolean {
    hashElement(checkItem(WHERE, "item", item));
    const words = this.#words;
    // Block ⌊h1·B/2^64⌋ < B ≤ 2^22 − 1, so its first word index (×16) is an int32.
    const base = ((H[1]! * this.#scaleHi + H[0]! * this.#scaleLo) | 0) << 4;
    let x = H[2]! | 0;
    const y = H[3]! | 1;
    let set = this.#setBits;
    let fresh = 0;
    for (let j = this.#hashes; j > 0; j--) {
      const pos = x >>> 23; // top 9 bits: a bit of the 512-bit block
      const w = base + (pos >>> 5);
      const shift = pos & 31;
      const mask = 1 << shift;
      const old = words[w]!;
      const bit = mask & ~old;
      fresh |= bit;
      set += bit >>> shift; // 1 when the bit was clear: setBits stays exact without a branch
      words[w] = old | mask;
      x = (Math.imul(x, LCG_MULTIPLIER) + y) | 0;
    }
    this.#setBits = set;
    if (fresh === 0) return false;
    this.#items++;
    return true;
  }

  /**
   * True when `item` is probably present, false when it certainly is not — BF.EXISTS. Never a
   * false negative. O(k + |item|), one cache line, stops at the first clear bit, no side effect,
   * no allocation.
   * @throws TypeError when `item` is not an item (see {@link add}).
   */
  has(item: Item): boolean {
    hashElement(checkItem(WHERE, "item", item));
    const words = this.#words;
    const base = ((H[1]! * this.#scaleHi + H[0]! * this.#scaleLo) | 0) << 4;
    let x = H[2]! | 0;
    const y = H[3]! | 1;
    for (let j = this.#hashes; j > 0; j--) {
      const pos = x >>> 23;
      if ((words[base + (pos >>> 5)]! & (1 << (pos & 31))) === 0) return false;
      x = (Math.imul(x, LCG_MULTIPLIER) + y) | 0;
    }
    return true;
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

  // ——— estimates ——————————————————————————————————————————————————————————

  /**
   * Estimated number of distinct items from the fill, block by block: a block with X_b of its
   * 512 bits set holds about ln(1 − X_b/512) / (k·ln(1 − 1/512)) items. `Infinity` once some block
   * is full. O(m/32).
   */
  count(): number {
    const words = this.#words;
    let sum = 0;
    for (let b = 0; b < words.length; b += BLOCK_WORDS) {
      sum += Math.log1p(-popcount(words, b, b + BLOCK_WORDS) / BLOCK_BITS);
    }
    return sum === 0 ? 0 : sum / (this.#hashes * LN_Q);
  }

  /**
   * The false-positive rate of the filter as it is now: the mean over blocks of (X_b/512)^k, since
   * a query lands in a uniformly chosen block and its k probes must all hit set bits there. From
   * the real per-block fill (the global fill would understate it: crowded blocks dominate). O(m/32).
   */
  falsePositiveRate(): number {
    const words = this.#words;
    const k = this.#hashes;
    let sum = 0;
    for (let b = 0; b < words.length; b += BLOCK_WORDS) {
      sum += (popcount(words, b, b + BLOCK_WORDS) / BLOCK_BITS) ** k;
    }
    return sum / this.#blocks;
  }

  // ——— whole-filter operations ————————————————————————————————————————————————

  /** Throws unless `other` was sized like this filter (hence has its blocks and hashes). */
  #checkShape(other: BlockedBloomFilter, param: string): void {
    if (other.#capacity !== this.#capacity || other.#errorRate !== this.#errorRate) {
      throw rangeError(
        WHERE,
        param,
        `a filter sized for ${other.#capacity} items at ${other.#errorRate}`,
        `a filter of the same shape (capacity ${this.#capacity}, errorRate ${this.#errorRate})`,
      );
    }
  }

  /**
   * Adds every filter in `others` into this one, in place (bitwise OR): the result is exactly the
   * filter that adding all their items here would have built. Takes filters as arguments
   * (`merge(a, b)`) or one iterable of them (`merge([a, b])`); every one is checked before any is
   * merged. When bits were set, `size` becomes the fill estimate. O(m/32) per filter. Returns `this`.
   * @throws TypeError unless each is a BlockedBloomFilter built by this copy of redstruct;
   *   RangeError unless each was sized with this filter's capacity and errorRate.
   */
  merge(...others: BlockedBloomFilter[]): this;
  merge(others: Iterable<BlockedBloomFilter>): this;
  merge(...args: unknown[]): this {
    mergeInto(WHERE, FILTER, this, args);
    return this;
  }

  /**
   * A new filter holding everything any of `filters` held (bitwise OR of all): exactly the filter
   * that adding all their items to one filter would have built. The inputs are not changed.
   * `size` is the first filter's, or the fill estimate when the others set bits. O(m/32) per filter.
   * @throws TypeError unless `filters` is one iterable (not separate arguments) of
   *   BlockedBloomFilters; RangeError when it is empty or their capacity and errorRate differ.
   */
  static union(filters: Iterable<BlockedBloomFilter>): BlockedBloomFilter {
    // biome-ignore lint/complexity/noArguments: separate arguments are refused with the array form spelled out
    return combined(WHERE, FILTER, "union", filters, arguments.length);
  }

  /**
   * A new filter holding only the bits set in every one of `filters` (bitwise AND). Every item
   * added to all of them still answers true; it can answer true for more than the true
   * intersection. The inputs are not changed. `size` is the first filter's, or the fill estimate
   * (an overestimate) when bits were cleared. O(m/32) per filter.
   * @throws as {@link BlockedBloomFilter.union}.
   */
  static intersect(filters: Iterable<BlockedBloomFilter>): BlockedBloomFilter {
    // biome-ignore lint/complexity/noArguments: as in union
    return combined(WHERE, FILTER, "intersect", filters, arguments.length);
  }

  /**
   * The most items this fill can report, block by block (see maxItemsFor in bits.ts): adds give
   * items ≤ X; a merge without a full block adds at most Σ_b g⁺(x_b), g⁺ being how far a block's
   * estimate ln(1 − x/512)/(k·ln(1 − 1/512)) exceeds x (taken at ≤ 511 bits); a merge with a full
   * block sets items = m, and that block's 512 bits are part of X. O(m/32).
   */
  #maxItems(): number {
    const words = this.#words;
    const k = this.#hashes;
    let set = 0;
    let excess = 0;
    let full = false;
    for (let b = 0; b < words.length; b += BLOCK_WORDS) {
      const x = popcount(words, b, b + BLOCK_WORDS);
      set += x;
      if (x === BLOCK_BITS) full = true;
      const y = Math.min(x, BLOCK_BITS - 1);
      const g = Math.log1p(-y / BLOCK_BITS) / (k * LN_Q) - y;
      if (g > 0) excess += g;
    }
    if (full) excess = Math.max(excess, this.bits - BLOCK_BITS);
    return maxItemsFor(set, excess);
  }

  /** Empties the filter, keeping its shape. O(m/32). */
  clear(): void {
    this.#words.fill(0);
    this.#items = 0;
    this.#setBits = 0;
  }

  /** An independent copy: same shape, bits and `size`. O(m/32) plus the sizing search. */
  clone(): BlockedBloomFilter {
    const copy = new BlockedBloomFilter({ capacity: this.#capacity, errorRate: this.#errorRate });
    copy.#words.set(this.#words);
    copy.#items = this.#items;
    copy.#setBits = this.#setBits;
    return copy;
  }

  /**
   * Walks the whole filter and throws an Error describing the first broken invariant (see the
   * module comment). O(m/32) plus the sizing search. For tests and debugging.
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const B = this.#blocks;
    if (!Number.isInteger(B) || B < 1 || B > MAX_BLOCKS) fail(`blocks ${B} out of range`);
    const k = this.#hashes;
    if (!Number.isInteger(k) || k < 1 || k > MAX_HASHES) fail(`hashes ${k} out of range`);
    const p = blockedParameters(this.#capacity, this.#errorRate);
    if (p.blocks !== B || p.hashes !== k)
      fail(`shape ${B} blocks / ${k} hashes, sizing says ${p.blocks} / ${p.hashes}`);
    const words = this.#words;
    if (words.length !== B * BLOCK_WORDS) fail(`${words.length} words for ${B} blocks`);
    checkFillCounters(words, this.#setBits, this.#items, this.#maxItems(), fail);
  }

  // ——— serialization ——————————————————————————————————————————————————————————

  /**
   * The filter as bytes: a 40-byte versioned header and the raw words (see the module comment).
   * O(m/32); returns a new array.
   */
  toBytes(): Uint8Array {
    const w = new ByteWriter(HEADER_BYTES + this.#words.length * 4);
    w.magic(MAGIC).u8(VERSION).u8(HASHING_SCHEME).u8(this.#hashes).u8(0);
    w.u53(this.#blocks).u53(this.#items).u53(this.#capacity).f64(this.#errorRate);
    const words = this.#words;
    for (let i = 0; i < words.length; i++) w.u32(words[i]!);
    return w.finish();
  }

  /**
   * Reads a filter written by {@link toBytes}. Validates the magic, version, hashing scheme, every
   * field's range, that (blocks, hashes) is what the capacity/errorRate give, that the length
   * matches exactly and that the item count agrees with the fill. The words are copied: changing
   * `bytes` afterwards does not change the filter. O(m/32) plus the sizing search.
   * @throws TypeError when `bytes` is not a Uint8Array or its buffer was detached;
   *   RedstructFormatError for any malformed, truncated or inconsistent input.
   */
  static fromBytes(bytes: Uint8Array): BlockedBloomFilter {
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    readHashingScheme(WHERE, r);
    const hashes = r.u8("the hash count");
    if (hashes < 1 || hashes > MAX_HASHES) throw formatError(WHERE, `hash count ${hashes} not in [1, ${MAX_HASHES}]`);
    const flags = r.u8("the flags");
    if (flags !== 0) throw formatError(WHERE, `unknown flags ${flags}`);
    const blocks = r.u53("the block count");
    if (blocks < 1 || blocks > MAX_BLOCKS) throw formatError(WHERE, `block count ${blocks} not in [1, ${MAX_BLOCKS}]`);
    const items = r.u53("the item count");
    const capacity = r.u53("the capacity");
    const errorRate = r.f64("the error rate");
    if (capacity < 1 || !(errorRate > 0 && errorRate < 1)) {
      throw formatError(WHERE, `bad capacity ${capacity} / error rate ${errorRate}`);
    }
    // Check the length before sizing or allocating: a hostile header must cost nothing.
    const raw = r.view(blocks * BLOCK_WORDS * 4, "the blocks");
    r.end();
    let shape: BlockedBloomParameters;
    try {
      shape = blockedParameters(capacity, errorRate);
    } catch {
      throw formatError(WHERE, `capacity ${capacity} at error rate ${errorRate} cannot be sized`);
    }
    if (shape.blocks !== blocks || shape.hashes !== hashes) {
      throw formatError(
        WHERE,
        `capacity ${capacity} at ${errorRate} needs ${shape.blocks} blocks / ${shape.hashes} hashes, header says ${blocks} / ${hashes}`,
      );
    }
    const filter = new BlockedBloomFilter({ capacity, errorRate });
    const words = filter.#words;
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    for (let i = 0; i < words.length; i++) words[i] = view.getUint32(i * 4, true);
    const set = popcount(words);
    // Each successful add sets at least one bit; each set bit came from some add; and no sequence of
    // adds and merges reports more items than the fill allows (#maxItems).
    if ((set === 0) !== (items === 0)) throw formatError(WHERE, `item count ${items} with ${set} bits set`);
    const most = filter.#maxItems();
    if (items > most) throw formatError(WHERE, `item count ${items} with ${set} bits set: at most ${most} fit`);
    filter.#setBits = set;
    filter.#items = items;
    return filter;
  }

  /**
   * Refuses JSON: a filter's state is private, so `JSON.stringify` would give `{}`. Send
   * {@link toBytes} instead and rebuild with {@link BlockedBloomFilter.fromBytes}.
   * @throws TypeError always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  static {
    defineInspect(BlockedBloomFilter, (f) => ({
      fields: {
        size: f.size,
        capacity: f.capacity,
        errorRate: f.errorRate,
        blocks: f.blocks,
        hashes: f.hashes,
        byteLength: f.byteLength,
      },
    }));
  }
}
