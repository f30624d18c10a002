/**
 * ScalableBloomFilter — a chain of Bloom filters that grows with its content (Almeida, Baquero,
 * Preguiça & Hutchison, "Scalable Bloom Filters", 2007), with the growth rules of RedisBloom's
 * BF.RESERVE … EXPANSION (src/sb.c), re-derived from their description.
 *
 * Layout: an array of {@link BloomFilter} links. Link i holds up to cap_i = capacity·expansion^i
 * items at error share p_i = errorRate·tightening^(i+1) (first link at errorRate·tightening). Each
 * link is sized strictly: the fewest bits for which an integer k reaches p_i at cap_i (at most
 * +0.64 % over ⌈−n·ln p/(ln 2)²⌉ for p ≤ 0.1), so Σ p_i = errorRate·t/(1 − t) ≤ errorRate for
 * t ≤ 1/2 — the whole chain's false-positive rate (at most the sum, by the union bound) stays
 * ≤ errorRate however many links it grows. A value is hashed once; every link maps the same
 * (h1, h2, h3) hashes onto its own size.
 *
 * Invariants ({@link ScalableBloomFilter.checkInvariants}): at least one link; link i has the
 * strict shape for (cap_i, p_i); every link but the last holds exactly cap_i items, the last at most
 * cap_last; each link's own invariants hold.
 *
 * Construction checks that the chain can grow as far as memory allows: unless it is non-scaling,
 * every link must be possible (its error share a positive double that ≤ 64 hashes reach in at most
 * 2^31 − 1 bits) until the links together hold 2^31 − 1 bits, or until a link would need more than
 * that even at the ideal size for its share — the memory limit, where `add` throws a RangeError
 * before changing anything. Options under which the chain would stop earlier are a RangeError
 * naming the option at fault, not a filter whose add throws some items later.
 *
 * Costs, for L links: `add` O(L·k + |item|) — it checks every link first (an item already in
 * an older link must not be added again, or the item counts would drift), then sets k bits in the
 * newest link, creating a new link (O(m_new/32) to allocate) when that one is full; `has`
 * O(L·k + |item|), stopping at the first link that answers yes; `info`/`count`/`size` O(L);
 * `clone`/`toBytes`/`fromBytes` O(total bits/32).
 *
 * No `merge`: two chains' links are sized for their own capacities and each link's item count
 * drives growth (every link but the last holds exactly its capacity). OR-ing link i into link i
 * would leave a link holding more items than it was sized for, breaking the chain's error bound,
 * with counts that are only estimates; a union of chains is built by adding the items to one.
 *
 * Serialized form (little-endian, version 1): "RSSB", version u8 = 1, flags u8 (bit 0 =
 * non-scaling), two zero bytes, capacity u64, errorRate f64, tightening f64, expansion u32, link
 * count u32, then each link in BloomFilter's own serialized form.
 */
import { checkItem, type Item } from "../hash/element.js";
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { checkInteger, formatError, invariantFailure, notJson, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkFlag, checkIterable, checkOptions } from "../internal/options.js";
import { HEADER_BYTES, itemAt } from "./bits.js";
import { addHashed, BloomFilter, hasHashed, readFilter, writeFilter } from "./filter.js";
import { hashElement } from "./hashing.js";
import { checkCapacity, checkErrorRate, MAX_BITS, strictParameters } from "./params.js";

const WHERE = "ScalableBloomFilter";
const MAGIC = "RSSB";
const VERSION = 1;
const MAX_EXPANSION = 1024;
/**
 * Key of an options object fromBytes passes to the constructor: build without a first link, the
 * serialized links follow. A symbol known only to this module (checkOptions sees string keys only).
 */
const RESTORING = Symbol("restoring");

/** Options of {@link ScalableBloomFilter} (BF.RESERVE key error_rate capacity [EXPANSION e] [NONSCALING]). */
export interface ScalableBloomFilterOptions {
  /** Items the first link holds (a positive integer). */
  capacity: number;
  /** Bound on the whole chain's false-positive rate, 0 < p < 1. */
  errorRate: number;
  /**
   * Capacity factor from one link to the next, an integer in [1, 1024].
   * @defaultValue 2 (RedisBloom's default)
   */
  expansion?: number;
  /**
   * Error factor from one link to the next, in (0, 0.5]: the chain's total stays ≤ errorRate only
   * when the geometric series errorRate·Σ t^(i+1) does, i.e. for t ≤ 1/2.
   * @defaultValue 0.5 (RedisBloom's ratio)
   */
  tightening?: number;
  /**
   * Never add a link: once the first link holds `capacity` items, adding a new value throws
   * (RedisBloom's NONSCALING).
   * @defaultValue false
   */
  nonScaling?: boolean;
}

/** Options of {@link ScalableBloomFilter.from}: the constructor's, with the capacity and error rate optional. */
export interface ScalableBloomFilterFromOptions extends Omit<ScalableBloomFilterOptions, "capacity" | "errorRate"> {
  /**
   * Items the first link holds, a positive integer.
   * @defaultValue the number of items given (at least 1)
   */
  capacity?: number;
  /**
   * Bound on the whole chain's false-positive rate, 0 < p < 1.
   * @defaultValue 0.01
   */
  errorRate?: number;
}

/** What {@link ScalableBloomFilter.info} returns — the fields of BF.INFO. */
export interface BloomInfo {
  /** Total items all links can hold before the next growth (BF.INFO "Capacity"). */
  capacity: number;
  /** Bytes of all bit arrays, the chain's {@link ScalableBloomFilter.byteLength} (BF.INFO "Size"). */
  byteLength: number;
  /** Number of links (BF.INFO "Number of filters"). */
  filters: number;
  /** Items added (adds that returned true), the chain's `size` (BF.INFO "Number of items inserted"). */
  size: number;
  /** Capacity factor between links (BF.INFO "Expansion rate"); 0 when non-scaling, as in Redis. */
  expansion: number;
  /** The chain's error-rate bound. */
  errorRate: number;
  /** Error factor between links. */
  tightening: number;
  /** Bits of all links. */
  bits: number;
}

/**
 * A Bloom filter that grows with its content: a chain of {@link BloomFilter} links with RedisBloom's
 * growth rules, each link sized strictly so that the whole chain stays under its error rate however
 * far it grows. Serialized with redstruct's compact format (for RedisBloom's own, see
 * {@link RedisBloomFilter}).
 */
export class ScalableBloomFilter {
  readonly #capacity: number;
  readonly #errorRate: number;
  readonly #expansion: number;
  readonly #tightening: number;
  readonly #nonScaling: boolean;
  #links: BloomFilter[] = [];
  /** cap_i and p_i of each link, parallel to #links. */
  #linkCapacity: number[] = [];
  #linkError: number[] = [];

  /**
   * Creates a chain with one empty link of `capacity` items at errorRate·tightening (BF.RESERVE).
   * Unless `nonScaling`, every later link must be possible too, until the links together hold
   * 2^31 − 1 bits or a link would need more than that even at the ideal size for its share (see the
   * module comment). O(first link's bits/32 + links walked).
   * @throws TypeError/RangeError for a bad option (see {@link ScalableBloomFilterOptions}); a
   *   RangeError naming the option at fault when the first link cannot exist, or when a scaling
   *   chain would stop growing before that limit (its second link impossible, an error share that
   *   underflows or that 64 hashes cannot reach).
   */
  constructor(options: ScalableBloomFilterOptions) {
    if (options === undefined) {
      throw typeError(WHERE, "options", options, "{ capacity, errorRate, expansion?, tightening?, nonScaling? }");
    }
    const o = checkOptions(WHERE, options, ["capacity", "errorRate", "expansion", "tightening", "nonScaling"]);
    // Each option is checked on its own first, so a message names the one at fault.
    this.#capacity = checkCapacity(WHERE, o.capacity);
    this.#errorRate = checkErrorRate(WHERE, o.errorRate);
    this.#expansion = o.expansion === undefined ? 2 : checkInteger(WHERE, "expansion", o.expansion, 1, MAX_EXPANSION);
    const t = o.tightening === undefined ? 0.5 : o.tightening;
    if (typeof t !== "number") throw typeError(WHERE, "tightening", t, "a number in (0, 0.5]");
    if (!(t > 0 && t <= 0.5)) throw rangeError(WHERE, "tightening", t, "a number in (0, 0.5]");
    this.#tightening = t;
    this.#nonScaling = checkFlag(WHERE, "nonScaling", o.nonScaling, false);
    // The first link must exist. Its error share errorRate·tightening is a positive double here or
    // the product underflowed; its capacity is a safe integer; so only its size can fail, and since a
    // single item fits at any positive rate (≤ 7.3·10^6 bits at 5e-324), that is the capacity's doing.
    const first = this.#linkShape(0);
    if (typeof first === "string") {
      if (!(this.#errorRate * this.#tightening > 0)) {
        throw new RangeError(
          `redstruct/${WHERE}: errorRate × tightening must be a positive number (the first link's error share), ` +
            `got ${this.#errorRate} × ${this.#tightening} = 0`,
        );
      }
      throw rangeError(
        WHERE,
        "capacity",
        this.#capacity,
        `small enough for a first link of at most 2^31 − 1 bits at errorRate × tightening = ${this.#errorRate * this.#tightening}`,
      );
    }
    if (!this.#nonScaling) this.#checkGrowth(first.bits);
    // fromBytes brings its own links: it must not allocate a first link (up to 256 MiB) on the say
    // of a header it has not yet checked against the input's length.
    if (!(RESTORING in options)) this.#grow();
  }

  /**
   * Throws a RangeError naming the option at fault unless the chain can grow as far as the class
   * promises: link by link, until its links together hold 2^31 − 1 bits (the size of the largest
   * single filter), or until the next link, even sized at the ideal −n·ln p/(ln 2)² for its share,
   * would need more than that. The second link must always exist. Stopping earlier — an error share
   * that underflows, or one so small that 64 hashes cannot reach it in 2^31 − 1 bits for the link's
   * few items — is a property of the options, so it is refused here rather than at some later add.
   * O(links walked): at most ~1075 (where any share underflows), or ~53 when expansion ≥ 2.
   */
  #checkGrowth(firstBits: number): void {
    let total = firstBits;
    for (let i = 1; ; i++) {
      const shape = this.#linkShape(i);
      if (typeof shape !== "string") {
        total += shape.bits;
        if (total >= MAX_BITS) return;
        continue;
      }
      const capacity = this.#capacity * this.#expansion ** i;
      const error = this.#errorRate * this.#tightening ** (i + 1);
      const idealBits = (-capacity * Math.log(error)) / Math.LN2 ** 2;
      if (i >= 2 && error > 0 && (capacity > Number.MAX_SAFE_INTEGER || idealBits > MAX_BITS)) {
        return; // the memory limit: no parameters could make this link fit
      }
      // The option to change: tightening while it can loosen, else expansion 1's constant links.
      let [param, value] =
        this.#tightening < 0.5 || this.#expansion > 1
          ? ["tightening", this.#tightening]
          : ["expansion", this.#expansion];
      if (i === 1 && error > 0) {
        const alone = this.#expansion > 1 && strictParameters(this.#capacity, error, MAX_BITS, WHERE).bits <= MAX_BITS;
        [param, value] = alone ? ["expansion", this.#expansion] : ["capacity", this.#capacity];
      }
      const what =
        i === 1
          ? `one that leaves room for a second link (capacity × expansion = ${capacity} items at errorRate × tightening² = ${error}: ${shape})`
          : `one under which the chain can grow until it holds 2^31 − 1 bits: link ${i + 1} (${capacity} items at errorRate × ` +
            `tightening^${i + 1} = ${error}) could not exist — ${shape}, after only ${total} bits in links 1..${i}`;
      throw rangeError(WHERE, param, value, `${what}; for a filter that never grows, set nonScaling: true`);
    }
  }

  /**
   * A chain holding `items`, its first link sized for `capacity` items (by default the number of
   * `items`, at least 1) at `errorRate` (by default 0.01) — BF.RESERVE then BF.MADD. O(n·L·k + bits/32).
   * @throws TypeError unless `items` is a sync iterable of items (a lone string is refused);
   *   TypeError/RangeError for a bad option, as the constructor; RangeError when a non-scaling
   *   chain is too small for the items.
   */
  static from(items: Iterable<Item>, options?: ScalableBloomFilterFromOptions): ScalableBloomFilter {
    const o = checkOptions(WHERE, options, ["capacity", "errorRate", "expansion", "tightening", "nonScaling"]);
    const errorRate = o.errorRate === undefined ? 0.01 : checkErrorRate(WHERE, o.errorRate);
    let list: Iterable<Item> = checkIterable(WHERE, "items", items);
    let capacity = o.capacity;
    if (capacity === undefined) {
      list = Array.isArray(items) ? items : Array.from(items);
      capacity = Math.max(1, (list as Item[]).length);
    }
    const sbf = new ScalableBloomFilter({ ...o, capacity, errorRate });
    sbf.addAll(list);
    return sbf;
  }

  /**
   * Shape of link `i`: (cap_i, p_i, bits, hashes), or why it cannot exist. Links are sized strictly
   * (params.ts), so a link that exists meets its error share.
   */
  #linkShape(i: number): { capacity: number; error: number; bits: number; hashes: number } | string {
    // One closed form used everywhere (growth, checks, fromBytes), so the figures always agree.
    const capacity = this.#capacity * this.#expansion ** i;
    const error = this.#errorRate * this.#tightening ** (i + 1);
    if (capacity > Number.MAX_SAFE_INTEGER) return `its capacity ${capacity} would pass 2^53 − 1`;
    if (!(error > 0)) return `its error share errorRate × tightening^${i + 1} underflows to 0`;
    const { bits, hashes } = strictParameters(capacity, error, MAX_BITS, WHERE);
    if (!(bits <= MAX_BITS)) return `it would need more than 2^31 − 1 bits for ${capacity} items at ${error}`;
    return { capacity, error, bits, hashes };
  }

  /** Appends the next link. */
  #grow(): BloomFilter {
    const i = this.#links.length;
    const shape = this.#linkShape(i);
    if (typeof shape === "string") throw new RangeError(`redstruct/${WHERE}: cannot add link ${i + 1}: ${shape}`);
    const link = new BloomFilter({ bits: shape.bits, hashes: shape.hashes });
    this.#links.push(link);
    this.#linkCapacity.push(shape.capacity);
    this.#linkError.push(shape.error);
    return link;
  }

  // ——— set operations (BF.ADD / BF.EXISTS / BF.MADD / BF.MEXISTS) ——————————————

  /**
   * Adds `item` unless some link already (probably) holds it — BF.ADD. Returns true when it was
   * added (BF.ADD's 1). When the newest link is full a new one is appended first (O(new bits/32)),
   * or, in non-scaling mode, a RangeError is thrown. O(L·k + |item|) otherwise, no allocation.
   * Whatever it throws, it throws before anything changes.
   * @throws TypeError for a non-item; RangeError when full and non-scaling, or when the next
   *   link cannot exist (2^31 bits or more, an error share that underflows).
   */
  add(item: Item): boolean {
    hashElement(checkItem(WHERE, "item", item));
    const links = this.#links;
    const top = links.length - 1;
    for (let i = top - 1; i >= 0; i--) if (hasHashed(links[i]!)) return false;
    let last = links[top]!;
    // While the newest link has room, adding to it is also its membership test: when all k bits
    // are already set, addHashed changes nothing and returns false, exactly as checking first
    // would — one probe pass instead of two.
    if (last.size < this.#linkCapacity[top]!) return addHashed(last);
    if (hasHashed(last)) return false;
    // The newest link is full and the item is new: a new link (or, non-scaling, an error).
    if (this.#nonScaling) {
      throw new RangeError(
        `redstruct/${WHERE}: the filter is full (non-scaling, capacity ${this.#capacity}); ` +
          "create it with a larger capacity or without nonScaling",
      );
    }
    last = this.#grow();
    return addHashed(last);
  }

  /**
   * True when `item` is probably present, false when it certainly is not — BF.EXISTS. Never a
   * false negative; false positives at most errorRate. O(L·k + |item|), newest link first, no
   * side effect.
   * @throws TypeError for a non-item.
   */
  has(item: Item): boolean {
    hashElement(checkItem(WHERE, "item", item));
    const links = this.#links;
    for (let i = links.length - 1; i >= 0; i--) if (hasHashed(links[i]!)) return true;
    return false;
  }

  /**
   * `add` for each item, in order — BF.MADD. Stops at the first error: the items before it stay
   * added, the one that failed is not.
   * @throws TypeError unless `items` is a sync iterable (a lone string is refused) of items;
   *   RangeError as {@link add}.
   */
  addAll(items: Iterable<Item>): boolean[] {
    return Array.from(checkIterable(WHERE, "items", items), (item, i) => this.add(itemAt(WHERE, item, i)));
  }

  /**
   * `has` for each item — BF.MEXISTS. No side effect.
   * @throws TypeError unless `items` is a sync iterable (a lone string is refused) of items.
   */
  hasAll(items: Iterable<Item>): boolean[] {
    return Array.from(checkIterable(WHERE, "items", items), (item, i) => this.has(itemAt(WHERE, item, i)));
  }

  // ——— estimates and info ————————————————————————————————————————————————————

  /** Items added (adds that returned true) — BF.CARD. O(L). */
  get size(): number {
    let n = 0;
    for (const link of this.#links) n += link.size;
    return n;
  }

  /** Bytes of all links' bit arrays (BF.INFO "Size" counts the same). O(L). */
  get byteLength(): number {
    let n = 0;
    for (const link of this.#links) n += link.byteLength;
    return n;
  }

  /** Number of links. O(1). */
  get filters(): number {
    return this.#links.length;
  }

  /** Estimated distinct items from the fill of every link (Σ of {@link BloomFilter.count}). O(L). */
  count(): number {
    let n = 0;
    for (const link of this.#links) n += link.count();
    return n;
  }

  /**
   * The chain's false-positive rate as it is now: 1 − Π(1 − (X_i/m_i)^k_i) over the links, from
   * their actual fill. At most errorRate while the links respect their capacities. O(L).
   */
  falsePositiveRate(): number {
    let miss = 1;
    for (const link of this.#links) miss *= 1 - link.falsePositiveRate();
    return 1 - miss;
  }

  /** The BF.INFO fields (see {@link BloomInfo}). O(L). */
  info(): BloomInfo {
    let capacity = 0;
    let bits = 0;
    for (let i = 0; i < this.#links.length; i++) {
      capacity += this.#linkCapacity[i]!;
      bits += this.#links[i]!.bits;
    }
    return {
      capacity,
      byteLength: this.byteLength,
      filters: this.#links.length,
      size: this.size,
      expansion: this.#nonScaling ? 0 : this.#expansion,
      errorRate: this.#errorRate,
      tightening: this.#tightening,
      bits,
    };
  }

  /** Drops every link but a fresh first one: what BF.RESERVE made. O(first link's bits/32). */
  clear(): void {
    this.#links = [];
    this.#linkCapacity = [];
    this.#linkError = [];
    this.#grow();
  }

  /** An independent copy: same options, links and counts. O(total bits/32). */
  clone(): ScalableBloomFilter {
    const copy = new ScalableBloomFilter(this.#options(true));
    copy.#links = this.#links.map((l) => l.clone());
    copy.#linkCapacity = this.#linkCapacity.slice();
    copy.#linkError = this.#linkError.slice();
    return copy;
  }

  /** This chain's options, with the key that makes the constructor skip the first link when `bare`. */
  #options(bare: boolean): ScalableBloomFilterOptions {
    const o: ScalableBloomFilterOptions = {
      capacity: this.#capacity,
      errorRate: this.#errorRate,
      expansion: this.#expansion,
      tightening: this.#tightening,
      nonScaling: this.#nonScaling,
    };
    if (bare) (o as { [RESTORING]?: true })[RESTORING] = true;
    return o;
  }

  /** Throws an Error describing the first broken invariant (see the module comment). O(total bits/32). */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const links = this.#links;
    if (links.length === 0) fail("no link");
    if (this.#linkCapacity.length !== links.length || this.#linkError.length !== links.length) fail("parallel arrays");
    if (this.#nonScaling && links.length !== 1) fail("a non-scaling chain grew");
    let errorSum = 0;
    for (let i = 0; i < links.length; i++) {
      const link = links[i]!;
      link.checkInvariants();
      const shape = this.#linkShape(i);
      if (typeof shape === "string") fail(`link ${i} cannot exist: ${shape}`);
      if (shape.bits !== link.bits || shape.hashes !== link.hashes || shape.capacity !== this.#linkCapacity[i]) {
        fail(`link ${i} has ${link.bits} bits / ${link.hashes} hashes, expected ${shape.bits} / ${shape.hashes}`);
      }
      const full = i < links.length - 1;
      if (full ? link.size !== shape.capacity : link.size > shape.capacity) {
        fail(`link ${i} holds ${link.size} items for capacity ${shape.capacity}`);
      }
      if (link.size > link.setBits) fail(`link ${i} holds ${link.size} items with ${link.setBits} bits set`);
      errorSum += shape.error;
    }
    if (errorSum > this.#errorRate * (1 + 1e-12)) fail(`link error shares sum to ${errorSum} > ${this.#errorRate}`);
  }

  // ——— serialization ——————————————————————————————————————————————————————————

  /**
   * The chain as bytes (see the module comment), to store or send to a worker. O(total bits/32);
   * returns a new array.
   */
  toBytes(): Uint8Array {
    let size = 4 + 4 + 8 + 8 + 8 + 4 + 4;
    for (const link of this.#links) size += HEADER_BYTES + link.byteLength;
    const w = new ByteWriter(size);
    w.magic(MAGIC)
      .u8(VERSION)
      .u8(this.#nonScaling ? 1 : 0)
      .u8(0)
      .u8(0);
    w.u53(this.#capacity).f64(this.#errorRate).f64(this.#tightening).u32(this.#expansion).u32(this.#links.length);
    for (const link of this.#links) writeFilter(link, w);
    return w.finish();
  }

  /**
   * Reads a chain written by {@link toBytes}, validating the header (its options must be ones the
   * constructor accepts), every link (each must have exactly the shape the options imply, hold
   * exactly its capacity unless it is the last) and the total length. The bits are copied:
   * changing `bytes` afterwards does not change the chain. O(total bits/32).
   * @throws TypeError when `bytes` is not a Uint8Array or its buffer was detached;
   *   RedstructFormatError for any malformed, truncated or inconsistent input.
   */
  static fromBytes(bytes: Uint8Array): ScalableBloomFilter {
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    const flags = r.u8("the flags");
    if (flags > 1) throw formatError(WHERE, `unknown flags ${flags}`);
    if (r.u8("a reserved byte") !== 0 || r.u8("a reserved byte") !== 0) throw formatError(WHERE, "reserved bytes set");
    const capacity = r.u53("the capacity");
    const errorRate = r.f64("the error rate");
    const tightening = r.f64("the tightening");
    const expansion = r.u32("the expansion");
    const count = r.u32("the link count");
    let sbf: ScalableBloomFilter;
    try {
      const options = { capacity, errorRate, expansion, tightening, nonScaling: flags === 1, [RESTORING]: true };
      sbf = new ScalableBloomFilter(options);
    } catch (e) {
      throw formatError(WHERE, `bad header: ${(e as Error).message}`);
    }
    if (count < 1 || count > r.remaining / (HEADER_BYTES + 4)) throw formatError(WHERE, `bad link count ${count}`);
    if (flags === 1 && count !== 1) throw formatError(WHERE, `a non-scaling filter with ${count} links`);
    for (let i = 0; i < count; i++) {
      const link = readFilter(r);
      const shape = sbf.#linkShape(i);
      if (
        typeof shape === "string" ||
        shape.bits !== link.bits ||
        shape.hashes !== link.hashes ||
        link.capacity !== undefined
      ) {
        const expected = typeof shape === "string" ? shape : `${shape.bits} bits / ${shape.hashes} hashes`;
        throw formatError(
          WHERE,
          `link ${i} does not have the shape its options imply (${expected}): it holds ${link.bits} bits / ${link.hashes} hashes` +
            (link.capacity !== undefined ? ` and a capacity of its own (${link.capacity})` : ""),
        );
      }
      const full = i < count - 1;
      if (full ? link.size !== shape.capacity : link.size > shape.capacity) {
        throw formatError(WHERE, `link ${i} claims ${link.size} items for capacity ${shape.capacity}`);
      }
      // Links only ever take adds (no merge), and each add that counts sets a new bit.
      if (link.size > link.setBits) {
        throw formatError(WHERE, `link ${i} claims ${link.size} items with ${link.setBits} bits set`);
      }
      sbf.#links.push(link);
      sbf.#linkCapacity.push(shape.capacity);
      sbf.#linkError.push(shape.error);
    }
    r.end();
    return sbf;
  }

  /**
   * Refuses JSON: a chain's state is private, so `JSON.stringify` would give `{}`. Send
   * {@link toBytes} instead and rebuild with {@link ScalableBloomFilter.fromBytes}.
   * @throws TypeError always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  static {
    defineInspect(ScalableBloomFilter, (f) => ({ fields: { ...f.info() } }));
  }
}
