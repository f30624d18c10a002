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
 * Costs: `add`/`has` O(k + length of the element) with no allocation (`has` stops at the first
 * clear bit); `count`/`falsePositiveRate` O(1); `union`/`intersect`/`clear`/`checkInvariants`
 * O(m/32); `toBytes`/`fromBytes` O(m/32) with a 40-byte header.
 *
 * Serialized form (little-endian, version 1): "RSBF", version u8 = 1, hashing scheme u8 = 2,
 * k u8, flags u8 = 0, m u64, items u64, capacity u64 (0 if sized by bits), errorRate f64 (0 if
 * none), then the ⌈m/32⌉ words as u32. Everything is validated on read, including that the padding
 * bits are clear, that the item count is one the fill could hold, and that the header is the one
 * `toBytes` would write (so a filter that loads writes back the same bytes).
 */
import type { Item } from "../hash/element.js";
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { checkInteger, formatError, rangeError, typeError } from "../internal/errors.js";
import { checkInstance, checkIterable, checkOptions } from "../internal/options.js";
import { H, HASHING_SCHEME, hashElement, RING_BITS, readHashingScheme, scaleHi, scaleLo } from "./hashing.js";
import { checkCapacity, checkErrorRate, MAX_BITS, MAX_HASHES, sizeFilter } from "./params.js";

const WHERE = "BloomFilter";
/** Serialization magic and version. */
const MAGIC = "RSBF";
const VERSION = 1;
/** Bytes before the words. */
export const HEADER_BYTES = 40;

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
      /** Probes per element, 1..64. */
      hashes: number;
    };

/** Population count of a 32-bit word (SWAR). */
export function popcount32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** Number of set bits in `words[from, to)`. */
export function popcount(words: Uint32Array, from = 0, to = words.length): number {
  let n = 0;
  for (let i = from; i < to; i++) n += popcount32(words[i]!);
  return n;
}

/**
 * The fill counters every filter keeps beside its words: `setBits` is their population count, and
 * `items` is an integer in [1, maxItems] when some bit is set, 0 when none is. Throws through `fail`.
 */
export function checkFillCounters(
  words: Uint32Array,
  setBits: number,
  items: number,
  maxItems: number,
  fail: (msg: string) => never,
): void {
  const set = popcount(words);
  if (set !== setBits) fail(`setBits ${setBits} but ${set} bits are set`);
  if (!Number.isInteger(items) || items < 0) fail(`items ${items}`);
  if ((set === 0) !== (items === 0)) fail(`items ${items} with ${set} bits set`);
  if (items > maxItems) fail(`items ${items} with ${set} bits set (at most ${maxItems} can be)`);
}

/**
 * The most items a filter whose fill is `setBits` plus `excess` can report. Each add that returns
 * true sets at least one new bit, so adds alone give items ≤ X (set bits). A union or intersection
 * sets items to the rounded fill estimate n̂(X₀), which exceeds X₀ when the filter is overfull; later
 * adds raise items and X alike. n̂(x) − x is convex and 0 at x = 0, so its positive part g⁺ never
 * falls as bits are set: items ≤ X + g⁺ + ½, with g⁺ taken at the current fill (`excess`, see the
 * callers). Rounding slack (relative 2^-40) keeps a float's last bit from refusing a true header.
 */
export function maxItemsFor(setBits: number, excess: number): number {
  return setBits === 0 ? 0 : Math.floor(setBits + excess * (1 + 2 ** -40) + 0.5 + 1e-9);
}

/**
 * g⁺(x) = max(0, n̂(x) − x) for a run of `size` bits probed `hashes` times, at x = min(set, size − 1):
 * a union at full fill makes items = size exactly (itemsAfterMerge), a case the callers bound apart.
 */
export function fillExcess(set: number, size: number, hashes: number): number {
  const x = Math.min(set, size - 1);
  const g = (-size / hashes) * Math.log1p(-x / size) - x;
  return g > 0 ? g : 0;
}

/**
 * The item count a filter reports after a union or intersection, where the exact figure is
 * unknowable: the fill estimate, at least 1 when any bit is set (so "set bits ⇔ items" survives a
 * round trip), and the bit count once the estimate is infinite (every bit, or a block, full).
 */
export function itemsAfterMerge(setBits: number, estimate: number, bits: number): number {
  if (setBits === 0) return 0;
  return Number.isFinite(estimate) ? Math.max(1, Math.round(estimate)) : bits;
}

/** `a[i] |= b[i]` (union) or `a[i] &= b[i]` (intersection) over equal-length word arrays. */
export function mergeWords(a: Uint32Array, b: Uint32Array, op: "union" | "intersect"): void {
  if (op === "union") for (let i = 0; i < a.length; i++) a[i] = a[i]! | b[i]!;
  else for (let i = 0; i < a.length; i++) a[i] = a[i]! & b[i]!;
}

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

  /**
   * Creates an empty filter, either sized by {@link bloomParameters} for `{ capacity, errorRate }`
   * (BF.RESERVE) — so its expected rate at capacity is errorRate up to the rounding of k — or with an
   * explicit `{ bits, hashes }`. O(m/32) to allocate the zeroed words.
   * @throws TypeError for a missing/mistyped option, RangeError for a value out of range (including
   *   a capacity/errorRate pair that needs 2^31 bits or more).
   */
  constructor(options: BloomFilterOptions) {
    type AnyShape = Partial<{ capacity: number; errorRate: number; bits: number; hashes: number }>;
    const o = checkOptions<AnyShape>(WHERE, options as AnyShape, ["capacity", "errorRate", "bits", "hashes"]);
    const bySize = o.capacity !== undefined || o.errorRate !== undefined;
    const byShape = o.bits !== undefined || o.hashes !== undefined;
    if (bySize === byShape) {
      throw typeError(WHERE, "options", options, "exactly one of { capacity, errorRate } or { bits, hashes }");
    }
    let bits: number;
    let hashes: number;
    if (bySize) {
      this.#capacity = checkCapacity(WHERE, o.capacity);
      this.#errorRate = checkErrorRate(WHERE, o.errorRate);
      ({ bits, hashes } = sizeFilter(WHERE, this.#capacity, this.#errorRate, MAX_BITS));
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
   * A filter sized for exactly the given values at `errorRate` (at least one item), holding them.
   * O(n·k).
   * @throws TypeError unless `values` is a sync iterable of elements (a lone string is refused);
   *   TypeError/RangeError for a bad errorRate.
   */
  static from(values: Iterable<Item>, errorRate: number): BloomFilter {
    checkIterable(WHERE, "values", values);
    checkErrorRate(WHERE, errorRate);
    const list = Array.isArray(values) ? (values as Item[]) : Array.from(values);
    const filter = new BloomFilter({ capacity: Math.max(1, list.length), errorRate });
    for (const v of list) filter.add(v);
    return filter;
  }

  // ——— shape ———————————————————————————————————————————————————————————————

  /** Number of bits m. */
  get bits(): number {
    return this.#bits;
  }

  /** Number of probes k per element. */
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
   * Number of `add` calls that returned true (what BF.CARD reports). After `union`/`intersect`
   * it is reset to the fill-based estimate, since the exact figure is unknowable. O(1).
   */
  get size(): number {
    return this.#items;
  }

  /** Bytes of the bit array (⌈m/32⌉·4). */
  get byteLength(): number {
    return this.#words.length * 4;
  }

  // ——— set operations (BF.ADD / BF.EXISTS / BF.MADD / BF.MEXISTS) ——————————————

  /**
   * Adds `value`. Returns true when at least one of its k bits was clear, i.e. the value was not
   * (probably) present before — BF.ADD's 1. O(k + |value|), no allocation.
   * @throws TypeError when `value` is not a string, number, bigint or Uint8Array.
   */
  add(value: Item): boolean {
    hashElement(value);
    return this._addHashed();
  }

  /**
   * True when `value` is probably present, false when it certainly is not — BF.EXISTS. Never a
   * false negative; false positives at about {@link falsePositiveRate}. O(k + |value|), stops at the
   * first clear bit, no side effect, no allocation.
   */
  has(value: Item): boolean {
    hashElement(value);
    return this._hasHashed();
  }

  /**
   * Adds every value; element i of the result is what `add(values[i])` returned — BF.MADD. O(Σ).
   * @throws TypeError unless `values` is a sync iterable of elements (a lone string is refused).
   */
  addAll(values: Iterable<Item>): boolean[] {
    return Array.from(checkIterable(WHERE, "values", values), (v) => this.add(v));
  }

  /**
   * `has` for every value — BF.MEXISTS. O(Σ), no side effect.
   * @throws TypeError unless `values` is a sync iterable of elements (a lone string is refused).
   */
  hasAll(values: Iterable<Item>): boolean[] {
    return Array.from(checkIterable(WHERE, "values", values), (v) => this.has(v));
  }

  /** @internal Sets the k bits of the element last hashed into `H`; true when one was clear. */
  _addHashed(): boolean {
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

  /** @internal True when all k bits of the element last hashed into `H` are set. */
  _hasHashed(): boolean {
    const words = this.#words;
    const k = this.#probe();
    for (let j = 0; j < k; j++) {
      const index = P[j]!;
      if ((words[index >>> 5]! & (1 << (index & 31))) === 0) return false;
    }
    return true;
  }

  /**
   * Writes the k bit positions of the element last hashed into `H` to `P[0..k)` and returns k.
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
      // went negative: branch-free, and int32 throughout (2.5× faster than doubles and branches).
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
   * (Swamidass & Baldi 2007). Unlike {@link size} it also counts what `union` brought in.
   * `Infinity` once every bit is set (the filter no longer says anything). O(1).
   */
  count(): number {
    const m = this.#bits;
    return (-m / this.#hashes) * Math.log1p(-this.#setBits / m);
  }

  /**
   * The false-positive rate of the filter as it is now: (X/m)^k, the chance that k uniformly
   * placed probes all land on set bits. Computed from the real fill rather than from the item
   * count, so it stays truthful after a union, after overfilling, or with duplicate-heavy input.
   * O(1).
   */
  falsePositiveRate(): number {
    return (this.#setBits / this.#bits) ** this.#hashes;
  }

  /** Number of set bits X. O(1). */
  get setBits(): number {
    return this.#setBits;
  }

  // ——— whole-filter operations ————————————————————————————————————————————————

  #checkCompatible(other: BloomFilter, op: string): void {
    checkInstance(WHERE, op, other, BloomFilter);
    if (other.#bits !== this.#bits || other.#hashes !== this.#hashes) {
      throw rangeError(
        WHERE,
        op,
        `a filter of ${other.#bits} bits / ${other.#hashes} hashes`,
        `a filter of the same shape (${this.#bits} bits, ${this.#hashes} hashes)`,
      );
    }
  }

  #merge(other: BloomFilter, op: "union" | "intersect"): this {
    this.#checkCompatible(other, "other");
    mergeWords(this.#words, other.#words, op);
    this.#setBits = popcount(this.#words);
    this.#items = itemsAfterMerge(this.#setBits, this.count(), this.#bits);
    return this;
  }

  /**
   * Makes this filter hold everything either filter held (bitwise OR): exactly the filter that
   * adding both sets would have built. `size` becomes the fill estimate. O(m/32). Returns `this`.
   * @throws TypeError unless `other` is a BloomFilter (of this copy of redstruct); RangeError unless
   *   it has the same bits and hashes.
   */
  union(other: BloomFilter): this {
    return this.#merge(other, "union");
  }

  /**
   * Keeps only the bits set in both filters (bitwise AND). Every value added to both still
   * answers true; the result can answer true for more than the true intersection (its rate is at
   * most the smaller of the two). `size` becomes the fill estimate, an overestimate. O(m/32).
   * @throws as {@link union}.
   */
  intersect(other: BloomFilter): this {
    return this.#merge(other, "intersect");
  }

  /** Empties the filter, keeping its shape. O(m/32). */
  clear(): void {
    this.#words.fill(0);
    this.#items = 0;
    this.#setBits = 0;
  }

  /** An independent copy. O(m/32). */
  clone(): BloomFilter {
    const copy = this.#emptyLike();
    copy.#words.set(this.#words);
    copy.#items = this.#items;
    copy.#setBits = this.#setBits;
    return copy;
  }

  /**
   * The most items a filter of this shape with `set` bits set can report (see {@link maxItemsFor}).
   * A full filter's union gives items = m, the same bound as X = m.
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
    const fail: (msg: string) => never = (msg) => {
      throw new Error(`redstruct/${WHERE} invariant: ${msg}`);
    };
    const m = this.#bits;
    if (!Number.isInteger(m) || m < 1 || m > MAX_BITS) fail(`bits ${m} out of range`);
    if (!Number.isInteger(this.#hashes) || this.#hashes < 1 || this.#hashes > MAX_HASHES) fail("hashes out of range");
    const words = this.#words;
    if (words.length !== Math.ceil(m / 32)) fail(`${words.length} words for ${m} bits`);
    if ((words[words.length - 1]! & ~lastWordMask(m)) !== 0) fail("padding bits past m are set");
    checkFillCounters(words, this.#setBits, this.#items, this.#maxItems(popcount(words)), fail);
  }

  // ——— serialization ——————————————————————————————————————————————————————————

  /** Serialized size in bytes: 40-byte header + ⌈m/32⌉·4. */
  get serializedByteLength(): number {
    return HEADER_BYTES + this.#words.length * 4;
  }

  /**
   * The filter as bytes: a 40-byte versioned header and the raw bit array (see the module
   * comment), to store or send to another process or a browser. O(m/32); returns a new array.
   */
  toBytes(): Uint8Array {
    const w = new ByteWriter(this.serializedByteLength);
    this._write(w);
    return w.finish();
  }

  /** @internal Writes the serialized form into `w`. */
  _write(w: ByteWriter): void {
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
   * clear and that capacity/errorRate (when present) agree with bits/hashes. O(m/32).
   * @throws RedstructFormatError for any malformed, truncated or inconsistent input (or not a Uint8Array).
   */
  static fromBytes(bytes: Uint8Array): BloomFilter {
    const r = new ByteReader(bytes, WHERE);
    const filter = BloomFilter._read(r);
    r.end();
    return filter;
  }

  /** @internal Reads one serialized filter at the reader's position. */
  static _read(r: ByteReader): BloomFilter {
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
        throw formatError(WHERE, `capacity ${capacity} at ${errorRate} needs ${p.bits} bits / ${p.hashes} hashes`);
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
    let set = 0;
    for (let i = 0; i < wordCount; i++) set += popcount32(words[i]!);
    // Each successful add sets at least one bit; each set bit came from some add; and no sequence of
    // adds and unions reports more items than the fill allows (maxItemsFor).
    if ((set === 0) !== (items === 0)) throw formatError(WHERE, `item count ${items} with ${set} bits set`);
    const most = filter.#maxItems(set);
    if (items > most) {
      throw formatError(WHERE, `item count ${items} with ${set} bits set: ${bits} bits hold at most ${most}`);
    }
    filter.#setBits = set;
    filter.#items = items;
    return filter;
  }
}
