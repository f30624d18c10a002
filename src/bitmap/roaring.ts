/**
 * RoaringBitmap — a compressed set of 32-bit unsigned integers in Roaring's three container kinds.
 *
 * Algorithm: Chambi, Lemire, Kaser and Godin, "Better bitmap performance with Roaring bitmaps"
 * (Software: Practice and Experience 46(5), 2016, arXiv:1402.6407), with the run containers of
 * Lemire, Ssi-Yan-Kai and Kaser, "Consistently faster and smaller compressed bitmaps with Roaring"
 * (SPE 46(11), 2016, arXiv:1603.06549). A member x is split into its high 16 bits, the key of its
 * container, and its low 16 bits, stored in that container as one of:
 * - an array of the sorted low values, while the container holds at most 4096 of them;
 * - a bitmap of 2^16 bits (8 KiB), when it holds more;
 * - runs, pairs (start, last) of consecutive values, when `addRange` makes them or
 *   `runOptimize()` finds them smaller.
 * Kinds change exactly where CRoaring changes them (CRoaring up to 4.3.2, the one in roaring-wasm
 * 1.1.0, which weighs an array at 2 + 2·card bytes when it compares encodings; see efficientKind in
 * ./roaring-containers.ts), so `toPortable()` writes CRoaring's bytes for the same operations:
 * adding to a full array (4096 values) makes a bitmap; deleting from a bitmap down to 4096 makes
 * an array; single adds and deletes never change a run container's kind;
 * `addRange` on a missing container makes an array of one value, else one run, and follows
 * CRoaring's `container_add_range` elsewhere (a bitmap or array filled to 65536 becomes one run, an
 * array past 4096 a bitmap, runs past 2048 a bitmap or array); `deleteRange` follows
 * `container_remove_range` (runs are then stored as the smallest kind); set operations give the
 * kinds `container_and/or/xor/andnot` give (see ./roaring-setops.ts); `runOptimize()` is
 * `convert_run_optimize`.
 *
 * Memory layout (./roaring-containers.ts): no object per container. Container i is row i of three
 * typed arrays — its key (Uint16Array, sorted), its cardinality − 1 (Uint16Array) and the offset of
 * its data in one arena (Int32Array, bitwise-inverted for runs) — so a container costs 8 bytes
 * besides its data, the same as the portable format's headers. The arena is one Uint16Array (with
 * an Int32Array view of its buffer for bitmap words) holding array values, bitmap words at even
 * offsets, and run containers as a run count then (start, last) pairs. Slots come in size classes
 * (multiples of 4 units up to 16, then 8 per doubling), so a slot's capacity follows from what it
 * holds; a growing container moves to a larger slot at the arena's end, and the arena is laid out
 * afresh without garbage when it runs out of room with more than an eighth of it garbage.
 * `byteLength` counts these typed arrays; bulk builders (`from`, set operations, `fromPortable`,
 * `clone`, `runOptimize`) leave them exactly sized.
 *
 * Invariants (checked by {@link RoaringBitmap.checkInvariants}): keys strictly increasing; every
 * container non-empty; an array holds 1..4096 strictly increasing values; a bitmap holds more than
 * 4096 set bits and exactly its cardinality; a run container holds 1..32768 runs, sorted, with at
 * least one absent value between consecutive runs, within 0..65535, adding up to its cardinality;
 * slots lie within the arena's used part without overlapping, bitmaps at even offsets, and the
 * slots plus the counted garbage are exactly the used part; `size` is the sum of cardinalities.
 *
 * Costs (c containers, k members in the container concerned):
 * - `add` / `has` / `delete`: finding the container is one interpolated probe between the first
 *   and last keys (exact for consecutive keys), then a galloping and binary search, O(log c) at
 *   worst; then O(1) in a bitmap, O(log k) search and an O(k) shift in an array, O(log runs)
 *   (plus a shift when a run is inserted or removed) in runs; no allocation, except when a slot
 *   grows past its class (amortized O(1) copies per member) or an array becomes a bitmap;
 * - `size` O(1); `min`/`max` O(1) for arrays and runs, O(2048) worst case for a bitmap;
 *   `rank` / `at` O(c + k);
 * - iteration O(1) amortized per member; `range(lo, hi)` starts in O(log c + log k);
 * - `addRange` / `deleteRange`: O(containers touched · their size);
 * - `union` / `intersect` / `diff` / `xor` / `merge`: O(c1 + c2) containers, each pair O(k1 + k2)
 *   for arrays (galloping when one is 64 times longer), O(2048) for bitmaps, O(runs) for runs;
 *   `intersectCard` / `unionCard` the same without building the result;
 * - `runOptimize`, `toPortable`, `fromPortable`, `toBytes`, `fromBytes`, `clone`: O(size in bytes).
 */
import { ByteReader, ByteWriter, checkBytes, knownFormat } from "../internal/bytes.js";
import {
  checkInteger,
  describe,
  formatError,
  invariantFailure,
  notJson,
  rangeError,
  typeError,
} from "../internal/errors.js";
import { defineInspect, firstOf } from "../internal/inspect.js";
import { checkInstance, checkIterable, checkOptions } from "../internal/options.js";
import { Bitmap } from "./bitmap.js";
import {
  ARRAY,
  ARRAY_MAX,
  BITMAP,
  BITMAP_UNITS,
  Containers,
  capFor,
  clearBits,
  countBits,
  countWords,
  efficientKind,
  FULL,
  lowerBound,
  RUN,
  Scratch16,
  setBits,
  WORDS,
} from "./roaring-containers.js";
import { RoaringIterator } from "./roaring-iterate.js";
import { COOKIE_NO_RUNS, COOKIE_RUNS, portableSize, readPortable, writePortable } from "./roaring-portable.js";
import { roaringFromRedisString, roaringToRedisString } from "./roaring-redis.js";
import { AND, ANDNOT, combineAll, IOR, intersectCardAll, OR, Scratch, unionCardAll, XOR } from "./roaring-setops.js";

const WHERE = "RoaringBitmap";
/** Magic and version of {@link RoaringBitmap.toBytes}: the portable serialization follows them. */
const MAGIC = "RSRO";
const VERSION = 1;
const TWO32 = 4294967296;

/** The error for a member argument that is not an integer in [0, 2^32 − 1]. */
function memberError(param: string, value: unknown): Error {
  const allowed = "an integer in [0, 2^32 − 1]";
  return typeof value === "number" ? rangeError(WHERE, param, value, allowed) : typeError(WHERE, param, value, allowed);
}

/** Checks the bounds of a range [lo, hi): integers in [0, 2^32]. */
function checkRange(lo: unknown, hi: unknown): void {
  checkInteger(WHERE, "lo", lo, 0, TWO32);
  checkInteger(WHERE, "hi", hi, 0, TWO32);
}

/** The TypeError for an object that has RoaringBitmap's prototype but was not built by its constructor. */
function unbuilt(param: string): TypeError {
  return new TypeError(
    `redstruct/${WHERE}: ${param} is not a RoaringBitmap built by its constructor (an object made with ` +
      "Object.create(RoaringBitmap.prototype) has no state); make bitmaps with new RoaringBitmap(), " +
      "RoaringBitmap.from(), fromPortable() or fromBytes()",
  );
}

/** The TypeError for bitmaps handed to a static combining method as separate arguments. */
function listError(method: string, value: unknown): TypeError {
  return new TypeError(
    `redstruct/${WHERE}: bitmaps must be an iterable of RoaringBitmaps, got ${describe(value)}; pass the ` +
      `bitmaps in one array: RoaringBitmap.${method}([a, b])`,
  );
}

/** The containers of a RoaringBitmap (for ./roaring-redis.ts); set by RoaringBitmap's static block. */
export let containersOf: (r: RoaringBitmap) => Containers;
/** A RoaringBitmap holding the given containers; set by RoaringBitmap's static block. */
export let wrapContainers: (c: Containers) => RoaringBitmap;

/**
 * A set of 32-bit unsigned integers in Roaring containers (arrays, bitmaps and runs), with Redis's
 * bitmap vocabulary where it has one (`add` is `SETBIT x 1`, `has` is `GETBIT`, `size` is
 * `BITCOUNT`), set algebra, rank and select, and the Roaring portable format that CRoaring, the Java
 * RoaringBitmap and Go's roaring exchange, byte for byte.
 */
export class RoaringBitmap implements Iterable<number> {
  #c: Containers;

  static {
    containersOf = (r) => RoaringBitmap.#arg(r, "bitmap");
    wrapContainers = (c) => RoaringBitmap.#wrap(c);
  }

  /**
   * Creates an empty bitmap. O(1); nothing is allocated until the first member arrives.
   * @throws TypeError for any option (there are none) or a non-object `options`.
   */
  constructor(options?: Record<string, never>) {
    checkOptions(WHERE, options, []);
    this.#c = new Containers();
  }

  /** A bitmap holding containers built by a bulk builder. */
  static #wrap(c: Containers): RoaringBitmap {
    const r = new RoaringBitmap();
    r.#c = c;
    return r;
  }

  /**
   * The containers of `this`, or a TypeError (an object that only borrowed the prototype has no
   * state). Every public method reaches its state through here.
   */
  static #of(r: RoaringBitmap): Containers {
    if (!(#c in r)) throw unbuilt("this");
    return r.#c;
  }

  /** {@link #of} for an argument named `param`: anything may arrive there. */
  static #arg(r: unknown, param: string): Containers {
    if (!(r instanceof RoaringBitmap)) checkInstance(WHERE, param, r, RoaringBitmap);
    if (!(#c in (r as object))) throw unbuilt(param);
    return (r as RoaringBitmap).#c;
  }

  /**
   * Builds a bitmap of `items` (as {@link add} of each, so containers take the kinds CRoaring's
   * `roaring_bitmap_add_many` gives), with its typed arrays exactly sized. O(n log n) at most.
   * @throws TypeError when `items` is not a synchronous iterable or an item is not a number;
   *   RangeError for an item that is not an integer in [0, 2^32 − 1].
   */
  static from(items: Iterable<number>): RoaringBitmap {
    checkIterable(WHERE, "items", items);
    const r = new RoaringBitmap();
    const c = r.#c;
    let i = 0;
    for (const x of items) {
      if (x >>> 0 !== x) throw memberError(`items[${i}]`, x);
      c.add(x);
      i++;
    }
    c.trim();
    return r;
  }

  // ---------------------------------------------------------------- members

  /**
   * Adds `x`; true when it was not a member (as `SETBIT key x 1` answering 0). O(log c) plus an
   * O(k) shift in an array container; no allocation unless a container grows past its slot.
   * @throws RangeError (TypeError for a non-number) unless x is an integer in [0, 2^32 − 1].
   */
  add(x: number): boolean {
    const c = RoaringBitmap.#of(this);
    if (x >>> 0 !== x) throw memberError("x", x);
    return c.add(x);
  }

  /**
   * Adds every item; returns how many were not members before (`SADD`'s reply). O(n log c).
   * @throws as {@link from}; the items before a bad one are added.
   */
  addAll(items: Iterable<number>): number {
    const c = RoaringBitmap.#of(this);
    checkIterable(WHERE, "items", items);
    let added = 0;
    let i = 0;
    for (const x of items) {
      if (x >>> 0 !== x) throw memberError(`items[${i}]`, x);
      if (c.add(x)) added++;
      i++;
    }
    return added;
  }

  /**
   * Whether `x` is a member (`GETBIT key x`). O(log c + log k); no allocation.
   * @throws RangeError (TypeError for a non-number) unless x is an integer in [0, 2^32 − 1].
   */
  has(x: number): boolean {
    const c = RoaringBitmap.#of(this);
    if (x >>> 0 !== x) throw memberError("x", x);
    return c.has(x);
  }

  /**
   * Whether each item is a member, in order. O(n (log c + log k)).
   * @throws as {@link from}.
   */
  hasAll(items: Iterable<number>): boolean[] {
    const c = RoaringBitmap.#of(this);
    checkIterable(WHERE, "items", items);
    const out: boolean[] = [];
    for (const x of items) {
      if (x >>> 0 !== x) throw memberError(`items[${out.length}]`, x);
      out.push(c.has(x));
    }
    return out;
  }

  /**
   * Deletes `x`; true when it was a member (as `SETBIT key x 0` answering 1). O(log c) plus an O(k)
   * shift in an array container. A bitmap container left with 4096 members becomes an array.
   * @throws RangeError (TypeError for a non-number) unless x is an integer in [0, 2^32 − 1].
   */
  delete(x: number): boolean {
    const c = RoaringBitmap.#of(this);
    if (x >>> 0 !== x) throw memberError("x", x);
    return c.delete(x);
  }

  /** Members. O(1). */
  get size(): number {
    return RoaringBitmap.#of(this).size;
  }

  /** Bytes of the typed arrays the bitmap holds (container rows and the arena, spare room included). O(1). */
  get byteLength(): number {
    return RoaringBitmap.#of(this).byteLength;
  }

  /** The smallest member, or undefined when empty (`BITPOS key 1` without its −1). O(1), O(2048) in a bitmap. */
  min(): number | undefined {
    const c = RoaringBitmap.#of(this);
    return c.n === 0 ? undefined : c.keys[0]! * 65536 + c.minOf(0);
  }

  /** The largest member, or undefined when empty. O(1), O(2048) in a bitmap. */
  max(): number | undefined {
    const c = RoaringBitmap.#of(this);
    const last = c.n - 1;
    return last < 0 ? undefined : c.keys[last]! * 65536 + c.maxOf(last);
  }

  /**
   * The number of members ≤ x (CRoaring's `roaring_bitmap_rank`; `BITCOUNT` up to bit x). O(c + k).
   * @throws RangeError (TypeError for a non-number) unless x is an integer in [0, 2^32 − 1].
   */
  rank(x: number): number {
    const c = RoaringBitmap.#of(this);
    if (x >>> 0 !== x) throw memberError("x", x);
    const key = x >>> 16;
    let n = 0;
    let i = 0;
    for (; i < c.n && c.keys[i]! < key; i++) n += c.cards[i]! + 1;
    if (i < c.n && c.keys[i] === key) n += c.rankIn(i, x & 0xffff);
    return n;
  }

  /**
   * The member of 0-based rank `index` (the smallest is 0; a negative index counts from the end),
   * or undefined when out of range. O(c + k).
   * @throws RangeError (TypeError for a non-number) unless index is a safe integer.
   */
  at(index: number): number | undefined {
    const c = RoaringBitmap.#of(this);
    checkInteger(WHERE, "index", index, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    let r = index < 0 ? index + c.size : index;
    if (r < 0 || r >= c.size) return undefined;
    for (let i = 0; i < c.n; i++) {
      const card = c.cards[i]! + 1;
      if (r < card) return c.keys[i]! * 65536 + c.selectIn(i, r);
      r -= card;
    }
    return undefined;
  }

  /**
   * The members, ascending. Changes to the bitmap during the iteration are allowed: it continues
   * with the smallest member greater than the last one it yielded. O(1) amortized per member.
   */
  [Symbol.iterator](): IterableIterator<number> {
    return new RoaringIterator(RoaringBitmap.#of(this), 0, TWO32);
  }

  /**
   * The members in [lo, hi), ascending (an empty iteration when lo ≥ hi), with the same tolerance
   * of changes as iteration. O(log c + log k) to start, then O(1) amortized per member.
   * @throws RangeError (TypeError for a non-number) unless lo and hi are integers in [0, 2^32].
   */
  range(lo: number, hi: number): IterableIterator<number> {
    const c = RoaringBitmap.#of(this);
    checkRange(lo, hi);
    return new RoaringIterator(c, lo, hi);
  }

  // ---------------------------------------------------------------- ranges

  /**
   * Adds every integer in [lo, hi) (CRoaring's `roaring_bitmap_add_range`); returns how many were
   * not members. Nothing happens when lo ≥ hi. O(containers touched · their size): a range that
   * covers whole containers makes them single runs.
   * @throws RangeError (TypeError for a non-number) unless lo and hi are integers in [0, 2^32].
   */
  addRange(lo: number, hi: number): number {
    const c = RoaringBitmap.#of(this);
    checkRange(lo, hi);
    if (lo >= hi) return 0;
    const before = c.size;
    const last = hi - 1;
    const scratch = new Scratch16();
    for (let key = Math.floor(lo / 65536); key <= Math.floor(last / 65536); key++) {
      const min = key === Math.floor(lo / 65536) ? lo % 65536 : 0;
      const max = key === Math.floor(last / 65536) ? last % 65536 : 65535;
      addRangeIn(c, key, min, max, scratch);
    }
    c.version++;
    return c.size - before;
  }

  /**
   * Deletes every integer in [lo, hi) (CRoaring's `roaring_bitmap_remove_range`); returns how many
   * were members. Nothing happens when lo ≥ hi. O(containers touched · their size).
   * @throws RangeError (TypeError for a non-number) unless lo and hi are integers in [0, 2^32].
   */
  deleteRange(lo: number, hi: number): number {
    const c = RoaringBitmap.#of(this);
    checkRange(lo, hi);
    if (lo >= hi) return 0;
    const before = c.size;
    const last = hi - 1;
    const loKey = Math.floor(lo / 65536);
    const hiKey = Math.floor(last / 65536);
    const scratch = new Scratch16();
    let i = c.find(loKey);
    if (i < 0) i = ~i;
    while (i < c.n && c.keys[i]! <= hiKey) {
      const key = c.keys[i]!;
      const min = key === loKey ? lo % 65536 : 0;
      const max = key === hiKey ? last % 65536 : 65535;
      if (!deleteRangeIn(c, i, min, max, scratch)) i++;
    }
    c.version++;
    return before - c.size;
  }

  // ---------------------------------------------------------------- across bitmaps

  /** The containers of each bitmap of `bitmaps` (at least one), checked. */
  static #inputs(method: string, bitmaps: Iterable<RoaringBitmap>): Containers[] {
    if (bitmaps instanceof RoaringBitmap) throw listError(method, bitmaps);
    checkIterable(WHERE, "bitmaps", bitmaps);
    const list: Containers[] = [];
    for (const b of bitmaps) list.push(RoaringBitmap.#arg(b, `bitmaps[${list.length}]`));
    if (list.length === 0) throw rangeError(WHERE, "bitmaps", bitmaps, "an iterable of at least one RoaringBitmap");
    return list;
  }

  /** Folds `op` over the inputs, left to right, into a new bitmap. */
  static #fold(op: number, list: Containers[]): RoaringBitmap {
    if (list.length === 1) return RoaringBitmap.#wrap(cloneContainers(list[0]!));
    const s = new Scratch();
    let acc = combineAll(op, list[0]!, list[1]!, s);
    for (let k = 2; k < list.length; k++) {
      if (acc.n === 0 && (op === AND || op === ANDNOT)) break;
      acc = combineAll(op, acc, list[k]!, s);
    }
    return RoaringBitmap.#wrap(acc);
  }

  /**
   * The union of `bitmaps` as a new bitmap (`BITOP OR`; CRoaring's `roaring_bitmap_or` pair by
   * pair, left to right). The inputs are not changed. O(c1 + c2 + …) containers, each pair in
   * O(k1 + k2) for arrays, O(2048) for bitmaps.
   * @throws TypeError when `bitmaps` is not an iterable of RoaringBitmaps (bitmaps passed as separate
   *   arguments included); RangeError for none.
   */
  static union(bitmaps: Iterable<RoaringBitmap>): RoaringBitmap {
    return RoaringBitmap.#fold(OR, RoaringBitmap.#inputs("union", bitmaps));
  }

  /**
   * The intersection of `bitmaps` as a new bitmap (`BITOP AND`). Arrays of very different lengths
   * are intersected by galloping. O(c1 + c2 + …) containers.
   * @throws as {@link union}.
   */
  static intersect(bitmaps: Iterable<RoaringBitmap>): RoaringBitmap {
    return RoaringBitmap.#fold(AND, RoaringBitmap.#inputs("intersect", bitmaps));
  }

  /**
   * The members of the first bitmap that are in none of the others, as a new bitmap (CRoaring's
   * `roaring_bitmap_andnot`, left to right). O(c1 + c2 + …) containers.
   * @throws as {@link union}.
   */
  static diff(bitmaps: Iterable<RoaringBitmap>): RoaringBitmap {
    return RoaringBitmap.#fold(ANDNOT, RoaringBitmap.#inputs("diff", bitmaps));
  }

  /**
   * The members in an odd number of `bitmaps` as a new bitmap (`BITOP XOR`, left to right).
   * O(c1 + c2 + …) containers.
   * @throws as {@link union}.
   */
  static xor(bitmaps: Iterable<RoaringBitmap>): RoaringBitmap {
    return RoaringBitmap.#fold(XOR, RoaringBitmap.#inputs("xor", bitmaps));
  }

  /**
   * The number of members in every one of `bitmaps`, without building the intersection (CRoaring's
   * `roaring_bitmap_and_cardinality` for two). O(c1 + c2 + …) containers; no result allocated.
   * @throws as {@link union}.
   */
  static intersectCard(bitmaps: Iterable<RoaringBitmap>): number {
    const list = RoaringBitmap.#inputs("intersectCard", bitmaps);
    return intersectCardAll(list, new Scratch());
  }

  /**
   * The number of members in any of `bitmaps`, without building the union (for two,
   * |a| + |b| − |a ∩ b|). O(c1 + c2 + …) containers; no result allocated.
   * @throws as {@link union}.
   */
  static unionCard(bitmaps: Iterable<RoaringBitmap>): number {
    const list = RoaringBitmap.#inputs("unionCard", bitmaps);
    return unionCardAll(list, new Scratch());
  }

  /**
   * Adds the members of every other bitmap to this one, in place (CRoaring's
   * `roaring_bitmap_or_inplace`, one after the other); returns this. Each argument is a bitmap, or
   * a single iterable of them. O(c + c_other) containers per other; this bitmap's arrays are
   * rewritten exactly sized.
   * @throws TypeError for an argument that is not a RoaringBitmap.
   */
  merge(...others: (RoaringBitmap | Iterable<RoaringBitmap>)[]): this {
    const c = RoaringBitmap.#of(this);
    const list: Containers[] = [];
    const first = others[0];
    const one =
      others.length === 1 &&
      first !== null &&
      typeof first === "object" &&
      !(first instanceof RoaringBitmap) &&
      (first as { constructor?: { name?: unknown } }).constructor?.name !== WHERE;
    const args: Iterable<unknown> = one ? checkIterable(WHERE, "others", first as Iterable<RoaringBitmap>) : others;
    for (const o of args) list.push(RoaringBitmap.#arg(o, `others[${list.length}]`));
    if (list.length === 0) return this;
    const s = new Scratch();
    for (const other of list) {
      if (other.n === 0) continue;
      adopt(c, combineAll(IOR, c, other, s));
    }
    return this;
  }

  /**
   * Stores each container as the kind that serializes smallest (CRoaring's
   * `roaring_bitmap_run_optimize`: arrays and bitmaps become runs when strictly smaller, runs
   * become arrays or bitmaps when those are strictly smaller), then lays the typed arrays out
   * exactly sized. Returns whether any container is a run container afterwards. O(size in bytes).
   */
  runOptimize(): boolean {
    const c = RoaringBitmap.#of(this);
    const scratch = new Scratch16();
    let runs = false;
    for (let i = 0; i < c.n; i++) if (c.optimize(i, scratch)) runs = true;
    c.trim();
    c.version++;
    return runs;
  }

  // ---------------------------------------------------------------- formats

  /**
   * The Roaring portable serialization (RoaringFormatSpec), byte for byte as CRoaring's
   * `roaring_bitmap_portable_serialize` writes these containers: readable by CRoaring, the Java
   * RoaringBitmap (`deserialize`) and Go's roaring (`ReadFrom`). O(size in bytes).
   */
  toPortable(): Uint8Array {
    return writePortable(RoaringBitmap.#of(this));
  }

  /**
   * Reads a Roaring portable serialization (from CRoaring, Java, Go or {@link toPortable}) that
   * spans all of `bytes`, keeping each container's kind. The bytes are copied. O(size in bytes).
   * @throws TypeError when `bytes` is not a Uint8Array; RedstructFormatError for anything but one
   *   well-formed bitmap — an unknown cookie, more than 65536 containers, unsorted or repeated keys,
   *   offsets that are not where containers start, truncated input or trailing bytes, unsorted array
   *   values, a bitmap whose bits are not its cardinality, overlapping, touching, unsorted or
   *   overflowing runs, runs that do not add up to the cardinality.
   */
  static fromPortable(bytes: Uint8Array): RoaringBitmap {
    checkBytes(WHERE, "bytes", bytes);
    const owner = knownFormat(bytes);
    if (owner) throw formatError(WHERE, `these bytes are ${owner}; fromPortable() reads the Roaring portable format`);
    return RoaringBitmap.#wrap(readPortable(bytes));
  }

  /**
   * The Redis string bitmap with the same members: bit x set for each member x, as `SETBIT` would
   * set them, so `toBitmap().toRedis()` goes to Redis with one `SET`. The string is as long as the
   * largest member needs (up to 512 MiB for a member near 2^32, as in Redis). O(members + bytes).
   */
  toBitmap(): Bitmap {
    RoaringBitmap.#of(this);
    return Bitmap.fromRedis(roaringToRedisString(this));
  }

  /**
   * The members of a Redis string bitmap: its set bits' offsets (`GET` of a key built with `SETBIT`,
   * then `Bitmap.fromRedis`). O(bytes / 8 KiB containers + members).
   * @throws TypeError when `bitmap` is not a Bitmap.
   */
  static fromBitmap(bitmap: Bitmap): RoaringBitmap {
    return roaringFromRedisString(checkInstance(WHERE, "bitmap", bitmap, Bitmap).toRedis());
  }

  /**
   * redstruct's format: the magic "RSRO", a version byte (1), then the portable serialization, so
   * the containers come back with their kinds. O(size in bytes).
   */
  toBytes(): Uint8Array {
    const c = RoaringBitmap.#of(this);
    const w = new ByteWriter(5 + portableSize(c));
    w.magic(MAGIC).u8(VERSION);
    return writePortable(c, w.bytes, w.offset);
  }

  /**
   * Reads {@link toBytes} output. The bytes are copied. O(size in bytes).
   * @throws TypeError when `bytes` is not a Uint8Array; RedstructFormatError for bytes of another
   *   format or version, and for a malformed body (as {@link fromPortable}).
   */
  static fromBytes(bytes: Uint8Array): RoaringBitmap {
    checkBytes(WHERE, "bytes", bytes);
    if (bytes.length >= 4) {
      const low = bytes[0]! | (bytes[1]! << 8);
      if (low === COOKIE_RUNS || (low === COOKIE_NO_RUNS && bytes[2] === 0 && bytes[3] === 0)) {
        throw formatError(
          WHERE,
          "these bytes are a Roaring portable bitmap: read them with RoaringBitmap.fromPortable()",
        );
      }
    }
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    return RoaringBitmap.#wrap(readPortable(bytes.subarray(r.offset)));
  }

  /** An independent copy, its typed arrays exactly sized. O(size in bytes). */
  clone(): RoaringBitmap {
    return RoaringBitmap.#wrap(cloneContainers(RoaringBitmap.#of(this)));
  }

  /** Empties the bitmap and drops its typed arrays. O(1). */
  clear(): void {
    RoaringBitmap.#of(this).clear();
  }

  /**
   * Always throws: a bitmap's state is private, so `JSON.stringify` would write `{}`. Send
   * {@link toBytes} (or {@link toPortable}) and rebuild it with {@link RoaringBitmap.fromBytes}.
   * @throws TypeError, always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  /**
   * Walks every container and throws if an invariant is broken (see the file header). O(size).
   * @throws Error naming the broken invariant.
   */
  checkInvariants(): void {
    checkContainers(RoaringBitmap.#of(this));
  }

  static {
    defineInspect(RoaringBitmap, (r) => ({
      size: r.size,
      entries: (limit) => firstOf(r[Symbol.iterator](), limit),
      fields: { byteLength: r.byteLength },
    }));
  }
}

// ---------------------------------------------------------------- helpers on containers

/** A copy of `c`, exactly sized. */
function cloneContainers(c: Containers): Containers {
  const out = new Containers();
  let units = 0;
  for (let i = 0; i < c.n; i++) {
    if (c.kind(i) === BITMAP) units += units & 1;
    units += c.slot(i);
  }
  out.reserve(c.n, units);
  for (let i = 0; i < c.n; i++) out.pushCopy(c, i);
  return out;
}

/** Makes `c` hold `from`'s containers (same object, so live iterators see the change). */
function adopt(c: Containers, from: Containers): void {
  c.n = from.n;
  c.keys = from.keys;
  c.cards = from.cards;
  c.offs = from.offs;
  c.arena = from.arena;
  c.words = from.words;
  c.used = from.used;
  c.garbage = from.garbage;
  c.size = from.size;
  c.first = from.first;
  c.scale = from.scale;
  c.version++;
}

/**
 * Adds [min, max] (inclusive low values) to the container with `key`, creating it if missing, as
 * CRoaring's `roaring_bitmap_add_range_closed` does.
 */
function addRangeIn(c: Containers, key: number, min: number, max: number, scratch: Scratch16): void {
  const span = max - min + 1;
  let i = c.find(key);
  if (i < 0) {
    // container_range_of_ones(min, max + 1) takes max + 1 − min + 1 for the cardinality and makes
    // an array when that is at most 2: so one value is an array, two or more are one run.
    i = ~i;
    if (span === 1) {
      const o = c.alloc(4, false);
      c.arena[o] = min;
      c.insertRow(i, key, 0, o);
    } else {
      const o = c.alloc(capFor(3), false);
      c.arena[o] = 1;
      c.arena[o + 1] = min;
      c.arena[o + 2] = max;
      c.insertRow(i, key, span - 1, ~o);
    }
    c.size += span;
    return;
  }
  const kind = c.kind(i);
  const card = c.card(i);
  const o = c.off(i);
  if (kind === BITMAP) {
    const wo = o >>> 1;
    const union = card + span - countBits(c.words, wo, min, max);
    if (union === FULL) {
      fullRun(c, i, scratch);
    } else {
      setBits(c.words, wo, min, max);
      c.size += union - card;
      c.cards[i] = union - 1;
    }
    return;
  }
  if (kind === ARRAY) {
    const a = c.arena;
    const less = lowerBound(a, o, o + card, min) - o;
    const greater = o + card - lowerBound(a, o, o + card, max + 1);
    const union = less + span + greater;
    if (union === FULL) {
      fullRun(c, i, scratch);
    } else if (union <= ARRAY_MAX) {
      const buf = scratch.get(union);
      copyFrom(buf, 0, c, o, less);
      for (let v = min; v <= max; v++) buf[less + v - min] = v;
      copyFrom(buf, less + span, c, o + card - greater, greater);
      c.replaceWithArray(i, buf, 0, union);
    } else {
      const w = new Int32Array(WORDS);
      for (let k = o; k < o + card; k++) w[a[k]! >>> 5] = w[a[k]! >>> 5]! | (1 << (a[k]! & 31));
      setBits(w, 0, min, max);
      c.replaceWithBitmap(i, BITMAP, w, 0, union, scratch);
    }
    return;
  }
  // Runs: those wholly before min − 1 and after max + 1 stay; the others merge with [min, max].
  const a = c.arena;
  const nr = a[o]!;
  let less = 0;
  while (less < nr && a[o + 2 + 2 * less]! + 1 < min) less++;
  let greater = 0;
  while (greater < nr - less && a[o + 1 + 2 * (nr - 1 - greater)]! > max + 1) greater++;
  const common = nr - less - greater;
  let lo = min;
  let hi = max;
  if (common > 0) {
    lo = Math.min(lo, a[o + 1 + 2 * less]!);
    hi = Math.max(hi, a[o + 2 + 2 * (less + common - 1)]!);
  }
  const runs = less + 1 + greater;
  const buf = scratch.get(2 * runs);
  copyFrom(buf, 0, c, o + 1, 2 * less);
  buf[2 * less] = lo;
  buf[2 * less + 1] = hi;
  copyFrom(buf, 2 * less + 2, c, o + 1 + 2 * (nr - greater), 2 * greater);
  let union = card + (hi - lo + 1);
  for (let r = less; r < less + common; r++) union -= a[o + 2 + 2 * r]! - a[o + 1 + 2 * r]! + 1;
  // run_size_bytes ≤ bitset bytes: at most 2048 runs stay runs; more become a bitmap (or an array).
  const kind2 = runs <= 2048 ? RUN : union <= ARRAY_MAX ? ARRAY : BITMAP;
  c.replaceWithRuns(i, kind2, buf, 0, runs, union);
}

/** Replaces container i with the full run [0, 65535]. */
function fullRun(c: Containers, i: number, scratch: Scratch16): void {
  const buf = scratch.get(2);
  buf[0] = 0;
  buf[1] = 65535;
  c.replaceWithRuns(i, RUN, buf, 0, 1, FULL);
}

/** Copies `len` arena units of c from `from` into scratch at `to`. */
function copyFrom(scratch: Uint16Array, to: number, c: Containers, from: number, len: number): void {
  const a = c.arena;
  for (let k = 0; k < len; k++) scratch[to + k] = a[from + k]!;
}

/**
 * Deletes [min, max] (inclusive low values) from container i as CRoaring's
 * `container_remove_range`; returns true when the container was removed (i now names the next).
 */
function deleteRangeIn(c: Containers, i: number, min: number, max: number, scratch: Scratch16): boolean {
  const kind = c.kind(i);
  const card = c.card(i);
  const o = c.off(i);
  if (kind === BITMAP) {
    const wo = o >>> 1;
    const left = card - countBits(c.words, wo, min, max);
    if (left === 0) {
      c.removeRow(i);
      return true;
    }
    if (left <= ARRAY_MAX) {
      const w = c.words.slice(wo, wo + WORDS);
      clearBits(w, 0, min, max);
      c.replaceWithBitmap(i, ARRAY, w, 0, left, scratch);
    } else {
      clearBits(c.words, wo, min, max);
      c.size -= card - left;
      c.cards[i] = left - 1;
    }
    return false;
  }
  if (kind === ARRAY) {
    const a = c.arena;
    const less = lowerBound(a, o, o + card, min) - o;
    const greater = o + card - lowerBound(a, o, o + card, max + 1);
    if (less + greater === 0) {
      c.removeRow(i);
      return true;
    }
    if (less + greater === card) return false;
    const buf = scratch.get(less + greater);
    copyFrom(buf, 0, c, o, less);
    copyFrom(buf, less, c, o + card - greater, greater);
    c.replaceWithArray(i, buf, 0, less + greater);
    return false;
  }
  const a = c.arena;
  const nr = a[o]!;
  if (min <= a[o + 1]! && max >= a[o + 2 * nr]!) {
    c.removeRow(i);
    return true;
  }
  // The runs with [min, max] cut out, then stored as the smallest kind.
  const buf = scratch.get(2 * (nr + 1));
  let r = 0;
  let left = 0;
  for (let q = 0; q < nr; q++) {
    const s = a[o + 1 + 2 * q]!;
    const e = a[o + 2 + 2 * q]!;
    if (e < min || s > max) {
      buf[2 * r] = s;
      buf[2 * r + 1] = e;
      r++;
      left += e - s + 1;
      continue;
    }
    if (s < min) {
      buf[2 * r] = s;
      buf[2 * r + 1] = min - 1;
      r++;
      left += min - s;
    }
    if (e > max) {
      buf[2 * r] = max + 1;
      buf[2 * r + 1] = e;
      r++;
      left += e - max;
    }
  }
  if (left === 0) {
    c.removeRow(i);
    return true;
  }
  c.replaceWithRuns(i, efficientKind(left, r), buf, 0, r, left);
  return false;
}

/** Throws unless every invariant of the file header holds. */
function checkContainers(c: Containers): void {
  const fail: (what: string) => never = invariantFailure(WHERE);
  if (c.n < 0 || c.n > FULL || c.n > c.keys.length) fail(`container count ${c.n}`);
  if (c.keys.length !== c.cards.length || c.keys.length !== c.offs.length) fail("row arrays of different lengths");
  if (c.arena.length % 2 !== 0 || (c.arena.length > 0 && c.words.buffer !== c.arena.buffer)) {
    fail("the word view is not the arena's");
  }
  if (c.used < 0 || c.used > c.arena.length) fail(`used ${c.used} of ${c.arena.length}`);
  const slots: [number, number][] = [];
  let total = 0;
  for (let i = 0; i < c.n; i++) {
    const key = c.keys[i]!;
    if (i > 0 && key <= c.keys[i - 1]!) fail(`key ${key} at ${i} after ${c.keys[i - 1]}`);
    const card = c.card(i);
    const kind = c.kind(i);
    const o = c.off(i);
    const slot = c.slot(i);
    if (o < 0 || o + slot > c.used) fail(`container ${i}'s slot [${o}, ${o + slot}) outside the used arena`);
    slots.push([o, slot]);
    const a = c.arena;
    if (kind === ARRAY) {
      for (let k = o + 1; k < o + card; k++)
        if (a[k]! <= a[k - 1]!) fail(`array ${i} not strictly increasing at ${k - o}`);
    } else if (kind === BITMAP) {
      if (o % 2 !== 0) fail(`bitmap ${i} at odd offset ${o}`);
      const bits = countWords(c.words, o >>> 1);
      if (bits !== card) fail(`bitmap ${i} has ${bits} bits, cardinality ${card}`);
      if (card <= ARRAY_MAX) fail(`bitmap ${i} with ${card} ≤ 4096 members`);
    } else {
      const nr = a[o]!;
      if (nr < 1 || nr > FULL / 2) fail(`run container ${i} with ${nr} runs`);
      let sum = 0;
      for (let r = 0; r < nr; r++) {
        const s = a[o + 1 + 2 * r]!;
        const e = a[o + 2 + 2 * r]!;
        if (e < s) fail(`run ${r} of container ${i} ends before it starts`);
        if (r > 0 && s <= a[o + 2 * r]! + 1) fail(`run ${r} of container ${i} overlaps or touches the one before`);
        sum += e - s + 1;
      }
      if (sum !== card) fail(`run container ${i} holds ${sum}, cardinality ${card}`);
    }
    total += card;
  }
  if (total !== c.size) fail(`size ${c.size}, containers hold ${total}`);
  const span = c.n > 1 ? c.keys[c.n - 1]! - c.keys[0]! : 0;
  if (c.first !== (c.n > 0 ? c.keys[0] : 0) || c.scale !== (span > 0 ? Math.floor((65536 * (c.n - 1)) / span) : 0)) {
    fail(`search hint first ${c.first}, scale ${c.scale}`);
  }
  slots.sort((x, y) => x[0] - y[0]);
  let owned = 0;
  for (let k = 0; k < slots.length; k++) {
    const [o, len] = slots[k]!;
    if (k > 0 && o < slots[k - 1]![0] + slots[k - 1]![1]) fail(`slots overlap at ${o}`);
    owned += len;
  }
  if (owned + c.garbage !== c.used) fail(`slots ${owned} + garbage ${c.garbage} ≠ used ${c.used}`);
  if (BITMAP_UNITS !== 2 * WORDS) fail("bitmap slot size");
}
