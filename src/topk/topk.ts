/**
 * Top-K by HeavyKeeper, exact with RedisBloom 2.4's TOPK.* (src/topk.c): the same buckets, the same
 * decay draws, the same heap moves, so with the same `rand()` sequence every reply is RedisBloom's.
 *
 * Algorithm: Gong et al., "HeavyKeeper: An Accurate Algorithm for Finding Top-k Elephant Flows"
 * (USENIX ATC 2018). `depth` rows of `width` buckets, each a (fingerprint, count) pair; the item's
 * fingerprint is MurmurHash2(item, 1919) and row i uses bucket MurmurHash2(item, i) mod width. Adding
 * n units, per row: an empty bucket takes the item with count n; the item's own bucket adds n; a
 * bucket held by another fingerprint is decayed once per unit with probability decay^count (drawn as
 * `random() / (2^31 − 1) < decay^count`, C's `rand()/RAND_MAX`), and when it reaches 0 the item takes
 * it with the units left. decay^count comes from a table of decay^0..decay^255; beyond it,
 * table[255]^⌊count/255⌋ · table[count mod 255], as RedisBloom computes it. The item's estimate is
 * the largest count among the rows it owns. A k-slot min-heap (slot 0 the minimum, all slots starting
 * empty with count 0) holds the top items: an estimate ≥ the heap minimum updates the item's slot
 * (sifted down) or replaces slot 0, whose previous occupant is the "expelled" item TOPK.ADD replies.
 * The sift swaps at the first level when the smaller child's count is ≤ the item's, deeper only while
 * it is <; the right child is taken only when the left one's count is larger. Because an update can
 * lower a member's count and only sifts down, RedisBloom's heap need not stay heap-ordered, and this
 * one reproduces that.
 *
 * Counts are uint32 and wrap past 2^32 − 1 as RedisBloom's do (an item's own bucket adds n modulo 2^32).
 *
 * Memory layout: fingerprints and counts in two `Uint32Array`s of depth·width, row-major; the heap as
 * parallel arrays of k slots (count, fingerprint as `Uint32Array`s; the item's bytes — a copy the
 * sketch owns — and reply name as plain arrays). Item names in replies are C strings, as in
 * RedisBloom: the bytes up to the first NUL, decoded as UTF-8 (invalid bytes become U+FFFD).
 *
 * Callbacks: `random` runs in the middle of an update. An update computes every row's new bucket into
 * scratch arrays and writes them only after its last draw, so a `random` that throws leaves the sketch
 * unchanged; while it runs, reads of the same sketch (has, count, list, info, toBytes, clone…) work on
 * the state before the update and use scratch of their own, and updates of the same sketch (add,
 * addAll, incrBy, clear) throw an Error instead of interleaving with it.
 *
 * Invariants: counts and fingerprints are uint32; an empty heap slot has count 0 and no item; a heap
 * item's fingerprint is MurmurHash2 of its bytes with seed 1919; no item is in the heap twice.
 *
 * Costs: add / incrBy O(depth·|item| + n·depth) draws at worst (n the increment) + O(k) for the heap
 * scan when the estimate reaches the heap minimum + O(log k) sift; no allocation unless the item
 * enters the heap. has / count O(depth·|item| + k). list O(k log k). toBytes / fromBytes / clone
 * O(width·depth + k·|item|).
 */
import { checkItem, encodeScratch, type Item, type Source, scratchBytes, sourceOf, utf8 } from "../hash/element.js";
import { murmur2Source } from "../hash/murmur2.js";
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { checkInteger, formatError, invariantFailure, notJson, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkFlag, checkIterable, checkOptions } from "../internal/options.js";
import { mulberry32, randomSeed } from "../internal/random.js";

const WHERE = "TopK";
const FINGERPRINT_SEED = 1919;
const RAND_MAX = 2147483647;
const TABLE = 256;

/** Largest k accepted (2^20 heap slots). */
export const TOPK_MAX_K = 2 ** 20;
/** Largest width·depth accepted (2^26 buckets, 512 MiB). */
export const TOPK_MAX_BUCKETS = 2 ** 26;
/** Largest increment TOPK.INCRBY accepts. */
export const TOPK_MAX_INCREMENT = 100_000;

/** Options of {@link TopK} (TOPK.RESERVE's parameters). */
export interface TopKOptions {
  /** How many top items to keep (TOPK.RESERVE topk). Required; 1..2^20. */
  k: number;
  /**
   * Buckets per row: what decides recall. RedisBloom's default 8 holds a top 10 but not much more: on
   * a Zipf stream `{ k: 50 }` with width 8 lists about 60 % of the true top 50. Rule of thumb (the
   * table in docs/topk.md, "Choosing width and depth"): width ≥ 8·k and ≥ 100, which listed 98–100 %
   * of the true top k on the streams measured there. 1..2^26 (with depth). @defaultValue 8 (RedisBloom's)
   */
  width?: number;
  /** Rows. @defaultValue 7 */
  depth?: number;
  /** Decay base, in (0, 1]: a foreign bucket of count c decays with probability decay^c. @defaultValue 0.9 */
  decay?: number;
  /**
   * The source of C `rand()` draws: returns integers in [0, 2^31 − 1]. Pass `glibcRandom(1)` to
   * reproduce RedisBloom's replies exactly. @defaultValue a fast seeded generator (mulberry32).
   */
  random?: () => number;
}

/** Options of {@link TopK.list}. */
export interface TopKListOptions {
  /** `[item, count]` pairs instead of items (TOPK.LIST WITHCOUNT). @defaultValue false */
  withCount?: boolean;
}

/** What {@link TopK.info} returns: TOPK.INFO's fields. */
export interface TopKInfo {
  /** Items the heap keeps. */
  k: number;
  /** Buckets per row of the HeavyKeeper sketch. */
  width: number;
  /** Rows of the sketch. */
  depth: number;
  /** Probability base of a decrement, decay^count. */
  decay: number;
}

const decoder = new TextDecoder();

/** The reply form of an item's bytes: up to the first NUL, decoded as UTF-8. */
function cName(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return decoder.decode(nul < 0 ? bytes : bytes.subarray(0, nul));
}

/** A Top-K sketch (HeavyKeeper) exact with RedisBloom's TOPK.* commands. */
export class TopK {
  /** Heap slots: how many top items are kept. */
  readonly k: number;
  /** Buckets per row. */
  readonly width: number;
  /** Rows. */
  readonly depth: number;
  /** Decay base in (0, 1]. */
  readonly decay: number;
  #random: () => number;
  #fp: Uint32Array;
  #count: Uint32Array;
  #table: Float64Array;
  #pos: Int32Array; // scratch of updates: the item's bucket in each row
  #readPos: Int32Array; // scratch of count(), which `random` may call in the middle of an update
  #newFp: Uint32Array; // scratch of updates: each row's bucket after the update, written at its end
  #newCount: Uint32Array;
  #nonAscii = false; // set by #prepare: the last item was a string hashed from its UTF-8 re-encoding
  #updating = false; // an update is drawing from `random`
  #hCount: Uint32Array;
  #hFp: Uint32Array;
  #hBytes: (Uint8Array | null)[];
  #hName: (string | null)[];
  #hText: (string | null)[]; // the string the item was given as, for a fast equality check

  /**
   * TOPK.RESERVE: an empty sketch keeping the top `k` items. O(width·depth + k).
   *
   * Choosing `width`: RedisBloom's default of 8 buckets per row holds a top 10 but not much more —
   * on a Zipf stream `new TopK({ k: 50 })` lists about 60 % of the true top 50, while `width: 400`
   * and up list all of it. Rule of thumb (measured in docs/topk.md, "Choosing width and depth"):
   * width at least 8·k and at least 100, depth 5 to 7; the buckets take 8·width·depth bytes.
   * @throws TypeError for unknown option keys or wrong types; RangeError for values out of range.
   */
  constructor(options: TopKOptions) {
    if (options === undefined) throw typeError(WHERE, "options", options, "an object with at least k");
    const o = checkOptions(WHERE, options, ["k", "width", "depth", "decay", "random"]);
    this.k = checkInteger(WHERE, "k", o.k, 1, TOPK_MAX_K);
    this.width = o.width === undefined ? 8 : checkInteger(WHERE, "width", o.width, 1, TOPK_MAX_BUCKETS);
    this.depth = o.depth === undefined ? 7 : checkInteger(WHERE, "depth", o.depth, 1, TOPK_MAX_BUCKETS);
    if (this.width * this.depth > TOPK_MAX_BUCKETS) {
      throw rangeError(WHERE, "width·depth", this.width * this.depth, `at most ${TOPK_MAX_BUCKETS}`);
    }
    const decay = o.decay === undefined ? 0.9 : o.decay;
    if (typeof decay !== "number") throw typeError(WHERE, "decay", decay, "a number in (0, 1]");
    if (!(decay > 0 && decay <= 1)) throw rangeError(WHERE, "decay", decay, "a number in (0, 1]");
    this.decay = decay;
    this.#random = checkRandom(o.random) ?? defaultRandom();
    const n = this.width * this.depth;
    this.#fp = new Uint32Array(n);
    this.#count = new Uint32Array(n);
    this.#table = new Float64Array(TABLE);
    for (let i = 0; i < TABLE; i++) this.#table[i] = decay ** i;
    this.#pos = new Int32Array(this.depth);
    this.#readPos = new Int32Array(this.depth);
    this.#newFp = new Uint32Array(this.depth);
    this.#newCount = new Uint32Array(this.depth);
    this.#hCount = new Uint32Array(this.k);
    this.#hFp = new Uint32Array(this.k);
    this.#hBytes = new Array<Uint8Array | null>(this.k).fill(null);
    this.#hName = new Array<string | null>(this.k).fill(null);
    this.#hText = new Array<string | null>(this.k).fill(null);
  }

  /**
   * A sketch (TOPK.RESERVE with `options`) that has counted each of `items` once, in order (TOPK.ADD).
   * O(items × add).
   * @throws as the constructor and {@link addAll}.
   */
  static from(items: Iterable<Item>, options: TopKOptions): TopK {
    checkIterable(WHERE, "items", items);
    const t = new TopK(options);
    t.addAll(items);
    return t;
  }

  // --- updates ---------------------------------------------------------------------------------

  /**
   * TOPK.ADD of one item: counts it once and returns the item it expelled from the top-k list, or
   * null. Cost: see the class comment; no allocation unless the item enters the list.
   * @throws TypeError for a non-item (nothing changes); Error when called from this sketch's own
   *   `random` while it updates.
   */
  add(item: Item): string | null {
    // A string needs no check: the hot path skips the call.
    return this.#incr(typeof item === "string" ? item : checkItem(WHERE, "item", item), 1);
  }

  /**
   * TOPK.ADD of many items, in order: the expelled item (or null) for each. O(items × add).
   * @throws TypeError for a non-iterable (a lone string included) or a non-item, naming its index
   *   (the items before it stay counted).
   */
  addAll(items: Iterable<Item>): (string | null)[] {
    const out: (string | null)[] = [];
    for (const item of checkIterable(WHERE, "items", items)) {
      out.push(this.#incr(typeof item === "string" ? item : checkItem(WHERE, `items[${out.length}]`, item), 1));
    }
    return out;
  }

  /**
   * TOPK.INCRBY: counts the item `n` times (0..100,000, RedisBloom's range) and returns the item it
   * expelled from the top-k list, or null. With n = 0 the item can still enter the list (with count 0
   * when the list has an empty slot), as in RedisBloom. A count wraps past 2^32 − 1 to 0, as
   * RedisBloom's uint32 does. Up to n·depth random draws.
   * @throws TypeError for a non-item; RangeError for an `n` out of range (nothing changes); Error when
   *   called from this sketch's own `random` while it updates.
   */
  incrBy(item: Item, n: number): string | null {
    checkItem(WHERE, "item", item);
    checkInteger(WHERE, "n", n, 0, TOPK_MAX_INCREMENT);
    return this.#incr(item, n);
  }

  #incr(item: Item, n: number): string | null {
    if (this.#updating) throw reentered("add, addAll or incrBy");
    const src = sourceOf(item);
    const pos = this.#pos;
    // Every row's bucket before any draw: a user `random` may itself hash (and reuse the scratch).
    const fp = this.#prepare(src, pos);
    const nonAscii = this.#nonAscii;
    let len = src.length;
    const fps = this.#fp;
    const counts = this.#count;
    const table = this.#table;
    const random = this.#random;
    const newFp = this.#newFp;
    const newCount = this.#newCount;
    const heapMin = this.#hCount[0]!;
    let maxCount = 0;
    this.#updating = true;
    try {
      for (let i = 0; i < this.depth; i++) {
        const at = pos[i]!;
        let c = counts[at]!;
        let f = fps[at]!;
        if (c === 0) {
          f = fp;
          c = n;
          if (n > maxCount) maxCount = n;
        } else if (f === fp) {
          c = (c + n) >>> 0;
          if (c > maxCount) maxCount = c;
        } else {
          for (let units = n; units > 0; units--) {
            const d =
              c < TABLE ? table[c]! : table[TABLE - 1]! ** Math.floor(c / (TABLE - 1)) * table[c % (TABLE - 1)]!;
            if (random() / RAND_MAX < d) {
              c--;
              if (c === 0) {
                f = fp;
                c = units;
                if (c > maxCount) maxCount = c;
                break;
              }
            }
          }
        }
        newFp[i] = f;
        newCount[i] = c;
      }
    } finally {
      this.#updating = false;
    }
    for (let i = 0; i < this.depth; i++) {
      const at = pos[i]!;
      fps[at] = newFp[i]!;
      counts[at] = newCount[i]!;
    }
    if (maxCount < heapMin) return null;
    // A non-ASCII string is compared as its UTF-8 bytes, re-encoded: `random` may have used the scratch.
    let cmp: Source = src;
    if (nonAscii) {
      len = encodeScratch(src as string);
      cmp = scratchBytes();
    }
    const slot = this.#find(fp, typeof item === "string" ? item : null, cmp, len);
    if (slot >= 0) {
      this.#hCount[slot] = maxCount;
      this.#siftDown(slot);
      return null;
    }
    const expelled = this.#hName[0]!;
    // The sketch keeps a plain copy of its own: a caller's array (a Buffer's pooled memory, a
    // subarray) may change after the call.
    const copy =
      typeof src !== "string" ? new Uint8Array(src) : nonAscii ? (cmp as Uint8Array).slice(0, len) : utf8(src);
    this.#hCount[0] = maxCount;
    this.#hFp[0] = fp;
    this.#hBytes[0] = copy;
    this.#hName[0] = cName(copy);
    this.#hText[0] = typeof item === "string" ? item : null;
    this.#siftDown(0);
    return expelled;
  }

  /**
   * The heap slot holding the item — fingerprint `fp`, bytes the first `len` of `src` (an ASCII
   * string's code units or a byte array), `text` the string it was given as (a fast equality check)
   * or null — scanning from the last slot down as RedisBloom does; -1 if none.
   */
  #find(fp: number, text: string | null, src: Source, len: number): number {
    const hFp = this.#hFp;
    for (let j = this.k - 1; j >= 0; j--) {
      if (hFp[j] !== fp) continue;
      const stored = this.#hBytes[j];
      if (!stored || stored.length !== len) continue;
      if (text !== null && this.#hText[j] === text) return j;
      if (sameBytes(stored, src, len)) return j;
    }
    return -1;
  }

  /** RedisBloom's heapifyDown from `start` (see the class comment for its ≤-then-< rule). */
  #siftDown(start: number): void {
    const len = this.k;
    const hc = this.#hCount;
    if (len < 2 || (len - 2) >> 1 < start) return;
    let child = 2 * start + 1;
    if (child + 1 < len && hc[child]! > hc[child + 1]!) child++;
    if (hc[child]! > hc[start]!) return;
    const topCount = hc[start]!;
    const topFp = this.#hFp[start]!;
    const topBytes = this.#hBytes[start]!;
    const topName = this.#hName[start]!;
    const topText = this.#hText[start]!;
    do {
      this.#move(child, start);
      start = child;
      if ((len - 2) >> 1 < child) break;
      child = 2 * child + 1;
      if (child + 1 < len && hc[child]! > hc[child + 1]!) child++;
    } while (hc[child]! < topCount);
    hc[start] = topCount;
    this.#hFp[start] = topFp;
    this.#hBytes[start] = topBytes;
    this.#hName[start] = topName;
    this.#hText[start] = topText;
  }

  #move(from: number, to: number): void {
    this.#hCount[to] = this.#hCount[from]!;
    this.#hFp[to] = this.#hFp[from]!;
    this.#hBytes[to] = this.#hBytes[from]!;
    this.#hName[to] = this.#hName[from]!;
    this.#hText[to] = this.#hText[from]!;
  }

  // --- reads -----------------------------------------------------------------------------------

  /**
   * TOPK.QUERY: true when the item is in the top-k list — even when its buckets have since been
   * decayed below the list's minimum (its {@link count} can then be 0), as in RedisBloom.
   * O(|item| + k), no allocation.
   * @throws TypeError when `item` is not a string, number, bigint or Uint8Array.
   */
  has(item: Item): boolean {
    const src = typeof item === "string" ? item : sourceOf(checkItem(WHERE, "item", item));
    let fp = murmur2Source(src, src.length, FINGERPRINT_SEED);
    if (fp < 0) {
      const len = encodeScratch(src as string); // first: it may replace the buffer scratchBytes() returns
      fp = murmur2Source(scratchBytes(), len, FINGERPRINT_SEED);
    }
    return this.#findItem(item, fp) >= 0;
  }

  /**
   * TOPK.COUNT: the item's estimated count — the largest count among the buckets holding its
   * fingerprint (for an item in the list, only counts ≥ the list's minimum). An estimate, not the
   * true count: HeavyKeeper under-counts items that share buckets with heavier ones and can credit an
   * item with a colliding fingerprint's count. O(depth·|item| + k), no allocation.
   * @throws TypeError when `item` is not an item.
   */
  count(item: Item): number {
    const pos = this.#readPos;
    const fp = this.#prepare(typeof item === "string" ? item : sourceOf(checkItem(WHERE, "item", item)), pos);
    const inHeap = this.#findItem(item, fp) >= 0;
    const heapMin = this.#hCount[0]!;
    let res = 0;
    for (let i = 0; i < this.depth; i++) {
      const at = pos[i]!;
      const c = this.#count[at]!;
      if (this.#fp[at] === fp && (!inHeap || c >= heapMin) && c > res) res = c;
    }
    return res;
  }

  /**
   * Fills `pos` with the item's buckets and returns its fingerprint; #nonAscii tells whether the item
   * was a string hashed from its re-encoded UTF-8 bytes (the scratch buffer) rather than in place.
   */
  #prepare(src: Source, pos: Int32Array): number {
    let bytes: Source = src;
    let len = src.length;
    let fp = murmur2Source(bytes, len, FINGERPRINT_SEED);
    this.#nonAscii = fp < 0;
    if (fp < 0) {
      len = encodeScratch(src as string);
      bytes = scratchBytes();
      fp = murmur2Source(bytes, len, FINGERPRINT_SEED);
    }
    for (let i = 0; i < this.depth; i++) pos[i] = i * this.width + (murmur2Source(bytes, len, i) % this.width);
    return fp;
  }

  #findItem(item: Item, fp: number): number {
    const src = sourceOf(item);
    if (typeof src === "string") {
      let ascii = true;
      for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) > 0x7f) ascii = false;
      if (!ascii) {
        const len = encodeScratch(src); // first: it may replace the buffer scratchBytes() returns
        return this.#find(fp, typeof item === "string" ? item : null, scratchBytes(), len);
      }
    }
    return this.#find(fp, typeof item === "string" ? item : null, src, src.length);
  }

  /**
   * TOPK.LIST: the items in the list, by estimated count descending (ties in heap order, as
   * RedisBloom's stable sort leaves them), stopping at the first count 0. With `{ withCount: true }`,
   * TOPK.LIST WITHCOUNT: `[item, count]` pairs in that order. O(k log k).
   * @throws TypeError for an unknown option or a `withCount` that is not a boolean.
   */
  list(): string[];
  list(options: TopKListOptions & { withCount: true }): [string, number][];
  list(options?: TopKListOptions & { withCount?: false }): string[];
  list(options?: TopKListOptions): string[] | [string, number][];
  list(options?: TopKListOptions): string[] | [string, number][] {
    const withCount = checkFlag(WHERE, "withCount", checkOptions(WHERE, options, ["withCount"]).withCount, false);
    const order = this.#sorted();
    if (withCount) return order.map((j): [string, number] => [this.#hName[j]!, this.#hCount[j]!]);
    return order.map((j) => this.#hName[j]!);
  }

  #sorted(): number[] {
    const hc = this.#hCount;
    const order = Array.from({ length: this.k }, (_, j) => j).sort((a, b) => hc[b]! - hc[a]!);
    const end = order.findIndex((j) => hc[j] === 0);
    return end < 0 ? order : order.slice(0, end);
  }

  /** TOPK.INFO: `{ k, width, depth, decay }`. O(1). */
  info(): TopKInfo {
    return { k: this.k, width: this.width, depth: this.depth, decay: this.decay };
  }

  /**
   * Bytes of the typed arrays the sketch holds: the buckets (8·width·depth), the decay table, the
   * list's counts and fingerprints, the listed items' bytes and the per-row scratch. O(k).
   */
  get byteLength(): number {
    let n =
      this.#fp.byteLength +
      this.#count.byteLength +
      this.#table.byteLength +
      this.#hCount.byteLength +
      this.#hFp.byteLength +
      this.#pos.byteLength +
      this.#readPos.byteLength +
      this.#newFp.byteLength +
      this.#newCount.byteLength;
    for (const b of this.#hBytes) if (b) n += b.byteLength;
    return n;
  }

  /**
   * Empties every bucket and the list. O(width·depth + k).
   * @throws Error when called from this sketch's own `random` while it updates.
   */
  clear(): void {
    if (this.#updating) throw reentered("clear()");
    this.#fp.fill(0);
    this.#count.fill(0);
    this.#hCount.fill(0);
    this.#hFp.fill(0);
    this.#hBytes.fill(null);
    this.#hName.fill(null);
    this.#hText.fill(null);
  }

  /**
   * An independent copy: same parameters, buckets and list. It draws from the same `random`
   * function as this sketch (a generator cannot be copied); to replay draws separately, rebuild it
   * with `TopK.fromBytes(t.toBytes(), { random })`. O(width·depth + k·|item|).
   */
  clone(): TopK {
    const t = new TopK({ k: this.k, width: this.width, depth: this.depth, decay: this.decay, random: this.#random });
    t.#fp.set(this.#fp);
    t.#count.set(this.#count);
    t.#hCount.set(this.#hCount);
    t.#hFp.set(this.#hFp);
    for (let j = 0; j < this.k; j++) {
      const b = this.#hBytes[j];
      t.#hBytes[j] = b ? b.slice() : null;
      t.#hName[j] = this.#hName[j]!;
      t.#hText[j] = this.#hText[j]!;
    }
    return t;
  }

  /**
   * Throws unless the state is consistent: array sizes; empty heap slots with count 0 and no name;
   * every heap item a plain Uint8Array whose MurmurHash2(bytes, 1919) is its fingerprint and whose
   * C-string form is its name; no item twice. O(width·depth + k·|item|).
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const n = this.width * this.depth;
    if (this.#fp.length !== n || this.#count.length !== n) fail("bucket arrays");
    if (this.#hCount.length !== this.k || this.#hBytes.length !== this.k || this.#hName.length !== this.k) {
      fail("heap arrays");
    }
    const seen = new Set<string>();
    for (let j = 0; j < this.k; j++) {
      const b = this.#hBytes[j];
      if (b === null || b === undefined) {
        if (this.#hCount[j] !== 0 || this.#hName[j] !== null) fail(`empty slot ${j} has a count or a name`);
        continue;
      }
      if (b.constructor !== Uint8Array) fail(`slot ${j} holds a ${b.constructor.name}, not a Uint8Array of its own`);
      if (murmur2Source(b, b.length, FINGERPRINT_SEED) !== this.#hFp[j]) fail(`slot ${j} fingerprint`);
      if (this.#hName[j] !== cName(b)) fail(`slot ${j} name`);
      const t = this.#hText[j];
      if (t !== null && t !== undefined && decoder.decode(utf8(t)) !== decoder.decode(b)) fail(`slot ${j} text`);
      const key = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
      if (seen.has(key)) fail(`item in slot ${j} twice`);
      seen.add(key);
    }
  }

  /**
   * Always throws: a sketch's state is private, so `JSON.stringify` would write `{}` (and
   * `structuredClone` or `postMessage` would send an empty object). Send {@link toBytes} and rebuild
   * it with {@link TopK.fromBytes}.
   * @throws TypeError, always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  // --- serialization ---------------------------------------------------------------------------

  /**
   * The sketch as bytes (RedisBloom has no TOPK dump, so the format is redstruct's): "RSTK", version
   * byte 1, u32 k, u32 width, u32 depth, f64 decay, width·depth (u32 fingerprint, u32 count) pairs
   * row by row, then the k heap slots in array order, each u32 count, u32 fingerprint, u32 length
   * (0xffffffff for an empty slot) and the item's bytes; little-endian. The random source is not
   * saved. O(width·depth + k·|item|).
   */
  toBytes(): Uint8Array {
    let size = HEADER + 8 * this.#fp.length + 12 * this.k;
    for (const b of this.#hBytes) if (b) size += b.length;
    const w = new ByteWriter(size);
    w.magic(MAGIC).u8(VERSION).u32(this.k).u32(this.width).u32(this.depth).f64(this.decay);
    for (let i = 0; i < this.#fp.length; i++) w.u32(this.#fp[i]!).u32(this.#count[i]!);
    for (let j = 0; j < this.k; j++) {
      const b = this.#hBytes[j];
      w.u32(this.#hCount[j]!)
        .u32(this.#hFp[j]!)
        .u32(b ? b.length : EMPTY);
      if (b) w.raw(b);
    }
    return w.finish();
  }

  /**
   * Reads {@link toBytes} output into a new sketch, with `random` (default: a fresh fast generator)
   * as the decay's source — the one thing bytes cannot carry. The input is copied as it is read: it
   * may change afterwards. Every size is checked against the input before anything is allocated.
   * @throws TypeError when `bytes` is not a Uint8Array (or is detached) or an option is wrong;
   *   RedstructFormatError for truncated, corrupt or inconsistent input.
   */
  static fromBytes(bytes: Uint8Array, options?: { random?: () => number }): TopK {
    const o = checkOptions(WHERE, options, ["random"]);
    const random = checkRandom(o.random);
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    const k = r.u32("k");
    const width = r.u32("the width");
    const depth = r.u32("the depth");
    const decay = r.f64("the decay");
    if (k < 1 || k > TOPK_MAX_K) throw formatError(WHERE, `bad k ${k}`);
    if (width < 1 || depth < 1 || width * depth > TOPK_MAX_BUCKETS) {
      throw formatError(WHERE, `bad dimensions ${width}×${depth}`);
    }
    if (!(decay > 0 && decay <= 1)) throw formatError(WHERE, `bad decay ${decay}`);
    if (r.remaining < 8 * width * depth + 12 * k) {
      throw formatError(WHERE, `${width}×${depth} buckets and ${k} slots need more than ${r.remaining} bytes`);
    }
    const t = new TopK({ k, width, depth, decay, random: random ?? IDLE });
    if (random === undefined) t.#random = defaultRandom();
    for (let i = 0; i < width * depth; i++) {
      t.#fp[i] = r.u32();
      t.#count[i] = r.u32();
    }
    const seen = new Set<string>();
    for (let j = 0; j < k; j++) {
      const count = r.u32("a slot count");
      const fp = r.u32("a slot fingerprint");
      const len = r.u32("a slot length");
      if (len === EMPTY) {
        if (count !== 0 || fp !== 0) throw formatError(WHERE, `empty slot ${j} with a count or fingerprint`);
        continue;
      }
      const b = new Uint8Array(r.view(len, "an item")); // a copy: the input may be a caller's Buffer
      if (murmur2Source(b, len, FINGERPRINT_SEED) !== fp) throw formatError(WHERE, `slot ${j}: fingerprint mismatch`);
      const key = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
      if (seen.has(key)) throw formatError(WHERE, `slot ${j}: item listed twice`);
      seen.add(key);
      t.#hCount[j] = count;
      t.#hFp[j] = fp;
      t.#hBytes[j] = b;
      t.#hName[j] = cName(b);
    }
    r.end();
    return t;
  }

  static {
    defineInspect(TopK, (t) => ({ fields: { ...t.info(), list: t.list({ withCount: true }) } }));
  }
}

const MAGIC = "RSTK";
const VERSION = 1;
const HEADER = 4 + 1 + 12 + 8;
const EMPTY = 0xffffffff;
const IDLE = () => 0;

/** Does `stored` equal the first `len` bytes of `src` (an ASCII string's code units, or bytes)? */
function sameBytes(stored: Uint8Array, src: Source, len: number): boolean {
  if (typeof src === "string") {
    for (let i = 0; i < len; i++) if (stored[i] !== src.charCodeAt(i)) return false;
  } else {
    for (let i = 0; i < len; i++) if (stored[i] !== src[i]) return false;
  }
  return true;
}

/** The `random` option: undefined, or a function. */
function checkRandom(random: unknown): (() => number) | undefined {
  if (random !== undefined && typeof random !== "function") {
    throw typeError(WHERE, "random", random, "a function returning integers in [0, 2^31 − 1]");
  }
  return random as (() => number) | undefined;
}

/** What an update of a sketch throws when that sketch's `random` calls back into an update. */
function reentered(what: string): Error {
  return new Error(
    `redstruct/${WHERE}: ${what} was called from inside this sketch's random callback while an update ` +
      "was drawing from it; the callback may read the sketch (has, count, list, info, toBytes, clone) " +
      "but not update it (add, addAll, incrBy, clear)",
  );
}

/** The default draw: mulberry32 from a random seed, shifted to C's rand() range [0, 2^31 − 1]. */
function defaultRandom(): () => number {
  const next = mulberry32(randomSeed());
  return () => next() >>> 1;
}
