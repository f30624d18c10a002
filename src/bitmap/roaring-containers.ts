/**
 * The storage of a RoaringBitmap: the container table and the one arena every container's
 * data lives in, with the per-container algorithms (search, add, delete, ranges, conversions, rank
 * and select) that ./roaring.ts and ./roaring-setops.ts build on. The layout, the invariants and
 * the conversion rules are described in ./roaring.ts; this file is their implementation.
 *
 * A container is row `i` of three parallel typed arrays — `keys[i]` (the high 16 bits of its
 * members), `cards[i]` (its cardinality − 1) and `offs[i]` (where its data starts in the arena,
 * bitwise-inverted for a run container) — and its data is a slot of the arena, a Uint16Array (with
 * an Int32Array view over the same buffer for bitmap words):
 * - array (no run flag, cardinality ≤ 4096): the sorted 16-bit values, `capFor(card)` units;
 * - bitmap (no run flag, cardinality > 4096): 2048 32-bit words at an even offset, 4096 units;
 * - run (run flag): the number of runs r, then r pairs (start, last), `capFor(1 + 2r)` units.
 * A slot's size is a function of what it holds, so no capacity is stored: an array or run
 * container moves to a larger slot when it crosses a size class, and leaves the unused tail of a
 * shrunk slot, or its whole old slot, behind as garbage. The arena allocates at its end and is laid
 * out afresh (garbage dropped) when it runs out of room with much garbage in it.
 *
 * @see ./roaring.ts
 * @internal
 */
/** The largest array container (CRoaring's DEFAULT_MAX_SIZE): one more value makes it a bitmap. */
export const ARRAY_MAX = 4096;
/** Arena units (16 bits) of a bitmap container: 2^16 bits, 8 KiB. */
export const BITMAP_UNITS = 4096;
/** 32-bit words of a bitmap container. */
export const WORDS = 2048;
/** Members of a full container. */
export const FULL = 65536;
/** Container kinds, as {@link Containers.kind} answers. */
export const ARRAY = 0;
export const BITMAP = 1;
export const RUN = 2;

const EMPTY16 = new Uint16Array(0);
const EMPTY32 = new Int32Array(0);

/**
 * A Uint16Array that grows (doubling) to the length asked for, so that working space follows what
 * an operation needs rather than the worst case (a container's 65536 values). `get` may return a
 * new array: ask before writing, and keep no older reference.
 */
export class Scratch16 {
  #a = EMPTY16;
  get(n: number): Uint16Array {
    if (this.#a.length < n) this.#a = new Uint16Array(Math.max(n, 2 * this.#a.length, 64));
    return this.#a;
  }
}

/** Bits set in a 32-bit integer. */
export function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Arena units of the slot that holds `n` units: multiples of 4 up to 16, then 8 sizes per doubling
 * (an eighth at most unused). A function of `n` alone, so a container's capacity is never stored.
 */
export function capFor(n: number): number {
  if (n <= 16) return (n + 3) & ~3;
  const step = 1 << (28 - Math.clz32(n - 1));
  return (n + step - 1) & -step;
}

/**
 * Copies `len` units within or between Uint16Arrays: a loop for spans under 256 units, where making
 * the `subarray` view that `set` needs costs more than the copy, `copyWithin` / `set` above.
 */
function copy16(src: Uint16Array, from: number, dst: Uint16Array, to: number, len: number): void {
  if (len < 256) {
    if (src === dst && to > from) for (let k = len - 1; k >= 0; k--) dst[to + k] = src[from + k]!;
    else for (let k = 0; k < len; k++) dst[to + k] = src[from + k]!;
  } else if (src === dst) {
    dst.copyWithin(to, from, from + len);
  } else {
    dst.set(src.subarray(from, from + len), to);
  }
}

/** First index in a[from, to) whose value is ≥ v (to when none). */
export function lowerBound(a: Uint16Array, from: number, to: number, v: number): number {
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (a[mid]! < v) from = mid + 1;
    else to = mid;
  }
  return from;
}

/** Index of the last run (pairs from a[o + 1]) whose start is ≤ v, or −1. */
export function runBefore(a: Uint16Array, o: number, nruns: number, v: number): number {
  let lo = 0;
  let hi = nruns - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (a[o + 1 + 2 * mid]! <= v) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi;
}

// ---------------------------------------------------------------- bitmap words

/** What {@link maskBits} does to the bits of a range. */
const SET = 0;
const CLEAR = 1;

/** Sets or clears bits [lo, hi] (inclusive) of the bitmap at word offset `wo`. */
function maskBits(w: Int32Array, wo: number, lo: number, hi: number, how: number): void {
  const a = lo >>> 5;
  const b = hi >>> 5;
  const ma = -1 << (lo & 31);
  const mb = -1 >>> (31 - (hi & 31));
  for (let k = a; k <= b; k++) {
    const m = (k === a ? ma : -1) & (k === b ? mb : -1);
    const v = w[wo + k]!;
    w[wo + k] = how === SET ? v | m : v & ~m;
  }
}

/** Sets bits [lo, hi] (inclusive) of the bitmap at word offset `wo`. */
export function setBits(w: Int32Array, wo: number, lo: number, hi: number): void {
  maskBits(w, wo, lo, hi, SET);
}

/** Clears bits [lo, hi] (inclusive). */
export function clearBits(w: Int32Array, wo: number, lo: number, hi: number): void {
  maskBits(w, wo, lo, hi, CLEAR);
}

/** Set bits among [lo, hi] (inclusive). */
export function countBits(w: Int32Array, wo: number, lo: number, hi: number): number {
  const a = lo >>> 5;
  const b = hi >>> 5;
  const ma = -1 << (lo & 31);
  const mb = -1 >>> (31 - (hi & 31));
  if (a === b) return popcount(w[wo + a]! & ma & mb);
  let c = popcount(w[wo + a]! & ma) + popcount(w[wo + b]! & mb);
  for (let k = a + 1; k < b; k++) c += popcount(w[wo + k]!);
  return c;
}

/** Set bits of a whole bitmap. */
export function countWords(w: Int32Array, wo: number): number {
  let c = 0;
  for (let k = wo; k < wo + WORDS; k++) c += popcount(w[k]!);
  return c;
}

/** Runs of consecutive set bits in a bitmap (starts of runs: a set bit whose predecessor is clear). */
function bitmapRuns(w: Int32Array, wo: number): number {
  let runs = 0;
  let carry = 0;
  for (let k = wo; k < wo + WORDS; k++) {
    const v = w[k]!;
    runs += popcount(v & ~((v << 1) | carry));
    carry = v >>> 31;
  }
  return runs;
}

/** Runs in a sorted array of `card` values from a[o]. */
function arrayRuns(a: Uint16Array, o: number, card: number): number {
  let runs = 1;
  for (let k = o + 1; k < o + card; k++) if (a[k]! !== a[k - 1]! + 1) runs++;
  return runs;
}

/**
 * Writes the set bits of a bitmap as runs (start, last) into out from `to`; returns the number of
 * runs. `out` must have room for 2 × runs.
 */
export function bitmapToRuns(w: Int32Array, wo: number, out: Uint16Array, to: number): number {
  let r = 0;
  let k = 0;
  let v = w[wo]!;
  for (;;) {
    while (v === 0 && k < WORDS - 1) v = w[wo + ++k]!;
    if (v === 0) return r;
    const start = 32 * k + (31 - Math.clz32(v & -v));
    // Fill the bits below the run's start with ones, then skip words that are all ones.
    let ones = v | ((v & -v) - 1);
    while (ones === -1 && k < WORDS - 1) ones = w[wo + ++k]!;
    if (ones === -1) {
      out[to + 2 * r] = start;
      out[to + 2 * r + 1] = 65535;
      return r + 1;
    }
    const end = 32 * k + (31 - Math.clz32(~ones & (ones + 1))); // first clear bit: one past the run
    out[to + 2 * r] = start;
    out[to + 2 * r + 1] = end - 1;
    r++;
    v = ones & (ones + 1); // the bits above the run's end
  }
}

/** Writes the members of a bitmap, ascending, into out from `to`; returns how many. */
function bitmapToArray(w: Int32Array, wo: number, out: Uint16Array, to: number): number {
  let n = to;
  for (let k = 0; k < WORDS; k++) {
    let v = w[wo + k]!;
    while (v !== 0) {
      const t = v & -v;
      out[n++] = 32 * k + 31 - Math.clz32(t);
      v ^= t;
    }
  }
  return n - to;
}

/**
 * Bytes CRoaring weighs an array container of `card` values at when it picks a kind: 2 + 2·card,
 * as CRoaring did up to 4.3.2 (the CRoaring in roaring-wasm 1.1.0, against which the tests check
 * every byte). CRoaring 4.3.3 (PR #702) weighs 2·card, which moves exact ties between an array and
 * runs; either choice is a valid encoding of the same set.
 */
function arrayWeight(card: number): number {
  return 2 + 2 * card;
}

/**
 * The kind CRoaring's `convert_run_to_efficient_container` leaves a container of `card` members
 * in `runs` runs: a run container unless an array or a bitmap weighs less (ties keep the runs),
 * else an array up to 4096 members and a bitmap above.
 */
export function efficientKind(card: number, runs: number): number {
  const asRun = 2 + 4 * runs;
  if (asRun <= 8192 && asRun <= arrayWeight(card)) return RUN;
  return card <= ARRAY_MAX ? ARRAY : BITMAP;
}

/** Whether CRoaring's `convert_run_optimize` turns an array of `card` values in `runs` runs into runs. */
function arrayToRunPays(card: number, runs: number): boolean {
  return 2 + 4 * runs < arrayWeight(card);
}

/** ARRAY up to 4096 members, BITMAP above: the kind every non-run result of CRoaring takes. */
export function byCard(card: number): number {
  return card <= ARRAY_MAX ? ARRAY : BITMAP;
}

// ---------------------------------------------------------------- the container table

/**
 * The containers of one bitmap (see the file header). Public fields because ./roaring.ts,
 * ./roaring-setops.ts and ./roaring-portable.ts work on them directly; the class never leaves the
 * package (a RoaringBitmap holds it privately).
 */
export class Containers {
  /** Number of containers. */
  n = 0;
  /** High 16 bits of each container's members, strictly increasing over [0, n). */
  keys: Uint16Array = EMPTY16;
  /** Cardinality − 1 of each container. */
  cards: Uint16Array = EMPTY16;
  /** Arena offset of each container's data; `~offset` (negative) for a run container. */
  offs: Int32Array = EMPTY32;
  /** Every container's data, in 16-bit units. */
  arena: Uint16Array = EMPTY16;
  /** The arena's buffer as 32-bit words (bitmap containers start at even units). */
  words: Int32Array = EMPTY32;
  /** Units of the arena in use (slots and garbage); the rest is free. */
  used = 0;
  /** Units in [0, used) that no container owns. */
  garbage = 0;
  /** Members in all containers. */
  size = 0;
  /** Bumped by every change, so that iterators notice one. */
  version = 0;
  /**
   * The first key, and 2^16 · (n − 1) / (last key − first key) rounded down: {@link find} looks
   * first at row (key − first) · scale / 2^16, in 32-bit integer arithmetic (the product stays
   * below 2^32 since n − 1 ≤ last key − first key).
   */
  first = 0;
  scale = 0;

  /** Memory held: bytes of the typed arrays. */
  get byteLength(): number {
    return this.keys.byteLength + this.cards.byteLength + this.offs.byteLength + this.arena.byteLength;
  }

  /** The kind of container i. */
  kind(i: number): number {
    return this.offs[i]! < 0 ? RUN : this.cards[i]! >= ARRAY_MAX ? BITMAP : ARRAY;
  }

  /** Arena offset of container i's data (for a run: of its run count). */
  off(i: number): number {
    const e = this.offs[i]!;
    return e < 0 ? ~e : e;
  }

  /** Cardinality of container i. */
  card(i: number): number {
    return this.cards[i]! + 1;
  }

  /** Units of container i's slot. */
  slot(i: number): number {
    const e = this.offs[i]!;
    if (e < 0) return capFor(1 + 2 * this.arena[~e]!);
    const c = this.cards[i]! + 1;
    return c > ARRAY_MAX ? BITMAP_UNITS : capFor(c);
  }

  /** Units of container i's slot that hold data. */
  #usedOf(i: number): number {
    const e = this.offs[i]!;
    if (e < 0) return 1 + 2 * this.arena[~e]!;
    const c = this.cards[i]! + 1;
    return c > ARRAY_MAX ? BITMAP_UNITS : c;
  }

  /**
   * Index of the container with `key`, or `~insertionPoint` (negative) when there is none. The
   * first probe is interpolated between the first and last keys (exact for consecutive keys, close
   * for evenly spread ones); from there a galloping search brackets the key and a binary search
   * ends it, so a probe that misses costs O(log distance), never more than O(log n) twice.
   */
  find(key: number): number {
    const n = this.n;
    if (n === 0) return -1;
    const keys = this.keys;
    const d = key - this.first;
    let g = d <= 0 ? 0 : Math.imul(d, this.scale) >>> 16;
    if (g >= n) g = n - 1;
    const kg = keys[g]!;
    if (kg === key) return g;
    let lo: number;
    let hi: number;
    if (kg < key) {
      let step = 1;
      lo = g + 1;
      hi = g + 1;
      while (hi < n && keys[hi]! < key) {
        lo = hi + 1;
        step += step;
        hi = g + step;
      }
      if (hi >= n) hi = n - 1;
    } else {
      let step = 1;
      lo = g - 1;
      hi = g - 1;
      while (lo >= 0 && keys[lo]! > key) {
        hi = lo - 1;
        step += step;
        lo = g - step;
      }
      if (lo < 0) lo = 0;
    }
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid]!;
      if (k < key) lo = mid + 1;
      else if (k > key) hi = mid - 1;
      else return mid;
    }
    return ~lo;
  }

  /** Sets {@link first} and {@link scale} after the first, the last or the number of keys changed. */
  rescale(): void {
    const n = this.n;
    this.first = n > 0 ? this.keys[0]! : 0;
    const span = n > 1 ? this.keys[n - 1]! - this.first : 0;
    this.scale = span > 0 ? Math.floor((65536 * (n - 1)) / span) : 0;
  }

  /** Empties the table; the typed arrays are dropped. */
  clear(): void {
    this.n = 0;
    this.keys = EMPTY16;
    this.cards = EMPTY16;
    this.offs = EMPTY32;
    this.arena = EMPTY16;
    this.words = EMPTY32;
    this.used = 0;
    this.garbage = 0;
    this.size = 0;
    this.first = 0;
    this.scale = 0;
    this.version++;
  }

  // ---------------------------------------------------------------- arena

  /**
   * Reserves `units` at the arena's end (at an even unit when `aligned`) and returns its offset.
   * May lay the arena out afresh: every container's offset can change, so callers read offsets
   * again after calling this.
   */
  alloc(units: number, aligned: boolean): number {
    let o = this.used;
    if (aligned) o += o & 1;
    if (o + units > this.arena.length) {
      this.#grow(units + 1);
      o = this.used;
      if (aligned) o += o & 1;
    }
    this.garbage += o - this.used;
    this.used = o + units;
    return o;
  }

  /** Marks container i's slot as garbage (before its row changes or goes). */
  retire(i: number): void {
    this.garbage += this.slot(i);
  }

  /** Makes room for `need` more units: a bigger arena, without the garbage when there is much. */
  #grow(need: number): void {
    if (this.garbage * 8 > this.used) {
      const live = this.#layoutSize();
      this.#relayout(evenUp(Math.ceil((live + need) * 1.25) + 16));
      return;
    }
    const cap = evenUp(Math.ceil((this.used + need) * 1.25) + 16);
    const arena = new Uint16Array(cap);
    arena.set(this.arena.subarray(0, this.used));
    this.arena = arena;
    this.words = new Int32Array(arena.buffer);
  }

  /** Units a fresh layout of the containers takes (slots plus alignment pads). */
  #layoutSize(): number {
    let pos = 0;
    for (let i = 0; i < this.n; i++) {
      if (this.kind(i) === BITMAP) pos += pos & 1;
      pos += this.slot(i);
    }
    return pos;
  }

  /** Copies every container, in key order and without garbage, into a new arena of `capacity` units. */
  #relayout(capacity: number): void {
    const src = this.arena;
    const dst = new Uint16Array(capacity);
    let pos = 0;
    let pads = 0;
    for (let i = 0; i < this.n; i++) {
      const kind = this.kind(i);
      const o = this.off(i);
      if (kind === BITMAP && (pos & 1) !== 0) {
        pos++;
        pads++;
      }
      const slot = this.slot(i);
      copy16(src, o, dst, pos, this.#usedOf(i));
      this.offs[i] = kind === RUN ? ~pos : pos;
      pos += slot;
    }
    this.arena = dst;
    this.words = new Int32Array(dst.buffer);
    this.used = pos;
    this.garbage = pads;
  }

  /** Drops the garbage and every spare unit and row: the typed arrays hold exactly the containers. */
  trim(): void {
    if (this.n !== this.keys.length) this.#resizeRows(this.n);
    if (this.garbage !== 0) {
      this.#relayout(evenUp(this.#layoutSize()));
    } else if (this.arena.length !== evenUp(this.used)) {
      // No garbage: the slots fill [0, used) already, so the prefix is the exact layout.
      this.arena = this.arena.slice(0, evenUp(this.used));
      this.words = new Int32Array(this.arena.buffer);
    }
  }

  // ---------------------------------------------------------------- rows

  #resizeRows(capacity: number): void {
    const keys = new Uint16Array(capacity);
    const cards = new Uint16Array(capacity);
    const offs = new Int32Array(capacity);
    keys.set(this.keys.subarray(0, this.n));
    cards.set(this.cards.subarray(0, this.n));
    offs.set(this.offs.subarray(0, this.n));
    this.keys = keys;
    this.cards = cards;
    this.offs = offs;
  }

  /** Inserts a row at index `at` (data already in the arena at `enc`'s offset). */
  insertRow(at: number, key: number, cardMinus1: number, enc: number): void {
    const n = this.n;
    if (n === this.keys.length) this.#resizeRows(Math.min(FULL, Math.max(4, n + (n >> 1))));
    if (at < n) {
      this.keys.copyWithin(at + 1, at, n);
      this.cards.copyWithin(at + 1, at, n);
      this.offs.copyWithin(at + 1, at, n);
    }
    this.keys[at] = key;
    this.cards[at] = cardMinus1;
    this.offs[at] = enc;
    this.n = n + 1;
    this.rescale();
  }

  /** Removes container i (its members leave `size` too). */
  removeRow(i: number): void {
    this.retire(i);
    this.size -= this.cards[i]! + 1;
    const n = this.n;
    this.keys.copyWithin(i, i + 1, n);
    this.cards.copyWithin(i, i + 1, n);
    this.offs.copyWithin(i, i + 1, n);
    this.n = n - 1;
    this.rescale();
  }

  /**
   * Reserves room for `rows` more rows and `units` more arena units (bulk building): exactly that
   * much when the table is empty, so that a builder that knows its sizes needs no trim.
   */
  reserve(rows: number, units: number): void {
    if (this.n + rows > this.keys.length) this.#resizeRows(Math.min(FULL, this.n + rows));
    if (this.used + units <= this.arena.length) return;
    if (this.used === 0) {
      this.arena = new Uint16Array(evenUp(units));
      this.words = new Int32Array(this.arena.buffer);
    } else {
      this.#grow(units);
    }
  }

  // ---------------------------------------------------------------- appending (bulk building, keys ascending)

  /** Appends an array container of `count` values src[from…]. */
  pushArray(key: number, src: Uint16Array, from: number, count: number): void {
    const o = this.alloc(capFor(count), false);
    copy16(src, from, this.arena, o, count);
    this.insertRow(this.n, key, count - 1, o);
    this.size += count;
  }

  /** Appends a bitmap container copied from the 2048 words src[from…], holding `card` members. */
  pushBitmap(key: number, src: Int32Array, from: number, card: number): void {
    const o = this.alloc(BITMAP_UNITS, true);
    this.words.set(src.subarray(from, from + WORDS), o >>> 1);
    this.insertRow(this.n, key, card - 1, o);
    this.size += card;
  }

  /** Appends a run container of the `runs` pairs (start, last) at src[from…], holding `card` members. */
  pushRun(key: number, src: Uint16Array, from: number, runs: number, card: number): void {
    const o = this.alloc(capFor(1 + 2 * runs), false);
    this.arena[o] = runs;
    copy16(src, from, this.arena, o + 1, 2 * runs);
    this.insertRow(this.n, key, card - 1, ~o);
    this.size += card;
  }

  /** Appends a copy of container i of `from`. */
  pushCopy(from: Containers, i: number): void {
    const kind = from.kind(i);
    const o = from.off(i);
    const card = from.cards[i]! + 1;
    if (kind === ARRAY) this.pushArray(from.keys[i]!, from.arena, o, card);
    else if (kind === BITMAP) this.pushBitmap(from.keys[i]!, from.words, o >>> 1, card);
    else this.pushRun(from.keys[i]!, from.arena, o + 1, from.arena[o]!, card);
  }

  /**
   * Appends a container holding the runs (start, last) at src[from…], as the kind given: the runs
   * themselves, their values as an array, or a bitmap with them set.
   */
  pushRunsAs(kind: number, key: number, src: Uint16Array, from: number, runs: number, card: number): void {
    if (kind === RUN) {
      this.pushRun(key, src, from, runs, card);
    } else if (kind === ARRAY) {
      const o = this.alloc(capFor(card), false);
      runsToArray(src, from, runs, this.arena, o);
      this.insertRow(this.n, key, card - 1, o);
      this.size += card;
    } else {
      const o = this.alloc(BITMAP_UNITS, true);
      const wo = o >>> 1;
      this.words.fill(0, wo, wo + WORDS);
      for (let r = 0; r < runs; r++) setBits(this.words, wo, src[from + 2 * r]!, src[from + 2 * r + 1]!);
      this.insertRow(this.n, key, card - 1, o);
      this.size += card;
    }
  }

  /** Appends a container holding the bitmap src[from…] of `card` members as the kind given. */
  pushBitmapAs(kind: number, key: number, src: Int32Array, from: number, card: number, scratch: Scratch16): void {
    if (kind === BITMAP) {
      this.pushBitmap(key, src, from, card);
    } else if (kind === ARRAY) {
      const o = this.alloc(capFor(card), false);
      bitmapToArray(src, from, this.arena, o);
      this.insertRow(this.n, key, card - 1, o);
      this.size += card;
    } else {
      const buf = scratch.get(2 * bitmapRuns(src, from));
      const runs = bitmapToRuns(src, from, buf, 0);
      this.pushRun(key, buf, 0, runs, card);
    }
  }

  // ---------------------------------------------------------------- one member

  /** Adds `x` (a uint32); true when it was not there. No allocation unless a slot must grow. */
  add(x: number): boolean {
    const key = x >>> 16;
    const low = x & 0xffff;
    const i = this.find(key);
    if (i < 0) {
      const o = this.alloc(4, false);
      this.arena[o] = low;
      this.insertRow(~i, key, 0, o);
      this.size++;
      this.version++;
      return true;
    }
    const e = this.offs[i]!;
    let added: boolean;
    if (e < 0) {
      added = this.#runAdd(i, ~e, low);
    } else {
      const c = this.cards[i]! + 1;
      if (c > ARRAY_MAX) {
        const w = (e >>> 1) + (low >>> 5);
        const m = 1 << (low & 31);
        const v = this.words[w]!;
        if ((v & m) !== 0) return false;
        this.words[w] = v | m;
        this.cards[i] = c;
        added = true;
      } else {
        added = this.#arrayAdd(i, e, c, low);
      }
    }
    if (added) {
      this.size++;
      this.version++;
    }
    return added;
  }

  /** Adds `low` to array container i (offset o, cardinality c): CRoaring's `container_add`. */
  #arrayAdd(i: number, o: number, c: number, low: number): boolean {
    let a = this.arena;
    const p = lowerBound(a, o, o + c, low);
    if (p < o + c && a[p] === low) return false;
    if (c === ARRAY_MAX) {
      this.#arrayToBitmap(i);
      const wo = this.offs[i]! >>> 1;
      this.words[wo + (low >>> 5)] = this.words[wo + (low >>> 5)]! | (1 << (low & 31));
      this.cards[i] = c;
      return true;
    }
    const cap = capFor(c);
    const next = capFor(c + 1);
    if (next !== cap) {
      if (o + cap === this.used && o + next <= a.length) {
        this.used = o + next; // the slot is the arena's last: grow it where it is
      } else {
        const at = p - o;
        const no = this.alloc(next, false);
        a = this.arena;
        const src = this.offs[i]!;
        copy16(a, src, a, no, at);
        a[no + at] = low;
        copy16(a, src + at, a, no + at + 1, c - at);
        this.garbage += cap;
        this.offs[i] = no;
        this.cards[i] = c;
        return true;
      }
    }
    copy16(a, p, a, p + 1, o + c - p);
    a[p] = low;
    this.cards[i] = c;
    return true;
  }

  /** Adds `low` to run container i (data at o). */
  #runAdd(i: number, o: number, low: number): boolean {
    const a = this.arena;
    const nr = a[o]!;
    const r = runBefore(a, o, nr, low);
    if (r >= 0 && low <= a[o + 2 + 2 * r]!) return false;
    const left = r >= 0 && a[o + 2 + 2 * r]! + 1 === low;
    const right = r + 1 < nr && a[o + 1 + 2 * (r + 1)]! === low + 1;
    if (left && right) {
      a[o + 2 + 2 * r] = a[o + 2 + 2 * (r + 1)]!;
      this.#removeRuns(i, r + 1, 1);
    } else if (left) {
      a[o + 2 + 2 * r] = low;
    } else if (right) {
      a[o + 1 + 2 * (r + 1)] = low;
    } else {
      const q = this.#insertRuns(i, r + 1, 1);
      this.arena[q] = low;
      this.arena[q + 1] = low;
    }
    this.cards[i] = this.cards[i]! + 1;
    return true;
  }

  /**
   * Makes room for `count` runs at run index `at` of run container i (moving it to a larger slot if
   * it must) and returns the arena offset of the first new pair.
   */
  #insertRuns(i: number, at: number, count: number): number {
    let o = ~this.offs[i]!;
    let a = this.arena;
    const nr = a[o]!;
    const cap = capFor(1 + 2 * nr);
    const next = capFor(1 + 2 * (nr + count));
    if (next !== cap) {
      if (o + cap === this.used && o + next <= a.length) {
        this.used = o + next;
      } else {
        const no = this.alloc(next, false);
        a = this.arena;
        o = ~this.offs[i]!;
        copy16(a, o, a, no, 1 + 2 * nr);
        this.garbage += cap;
        this.offs[i] = ~no;
        o = no;
      }
    }
    const from = o + 1 + 2 * at;
    copy16(a, from, a, from + 2 * count, 2 * (nr - at));
    a[o] = nr + count;
    return from;
  }

  /** Removes `count` runs from run index `at` of run container i (which keeps at least one). */
  #removeRuns(i: number, at: number, count: number): void {
    const o = ~this.offs[i]!;
    const a = this.arena;
    const nr = a[o]!;
    const from = o + 1 + 2 * at;
    copy16(a, from + 2 * count, a, from, 2 * (nr - at - count));
    a[o] = nr - count;
    this.garbage += capFor(1 + 2 * nr) - capFor(1 + 2 * (nr - count));
  }

  /** Whether `x` (a uint32) is a member. No allocation. */
  has(x: number): boolean {
    const i = this.find(x >>> 16);
    if (i < 0) return false;
    const low = x & 0xffff;
    const e = this.offs[i]!;
    if (e < 0) {
      const a = this.arena;
      const r = runBefore(a, ~e, a[~e]!, low);
      return r >= 0 && low <= a[~e + 2 + 2 * r]!;
    }
    const c = this.cards[i]! + 1;
    if (c > ARRAY_MAX) return (this.words[(e >>> 1) + (low >>> 5)]! & (1 << (low & 31))) !== 0;
    const a = this.arena;
    const p = lowerBound(a, e, e + c, low);
    return p < e + c && a[p] === low;
  }

  /** Deletes `x` (a uint32); true when it was there. No allocation unless a bitmap becomes an array. */
  delete(x: number): boolean {
    const i = this.find(x >>> 16);
    if (i < 0) return false;
    const low = x & 0xffff;
    const e = this.offs[i]!;
    const c = this.cards[i]! + 1;
    if (c === 1) {
      if (!this.has(x)) return false;
      this.removeRow(i);
      this.version++;
      return true;
    }
    if (e < 0) {
      if (!this.#runDelete(i, ~e, low)) return false;
    } else if (c > ARRAY_MAX) {
      const w = (e >>> 1) + (low >>> 5);
      const m = 1 << (low & 31);
      const v = this.words[w]!;
      if ((v & m) === 0) return false;
      this.words[w] = v & ~m;
      this.cards[i] = c - 2;
      if (c - 1 <= ARRAY_MAX) this.#bitmapToArray(i);
    } else {
      const a = this.arena;
      const p = lowerBound(a, e, e + c, low);
      if (p === e + c || a[p] !== low) return false;
      copy16(a, p + 1, a, p, e + c - p - 1);
      this.garbage += capFor(c) - capFor(c - 1);
      this.cards[i] = c - 2;
    }
    this.size--;
    this.version++;
    return true;
  }

  /** Deletes `low` from run container i (data at o, more than one member). */
  #runDelete(i: number, o: number, low: number): boolean {
    const a = this.arena;
    const r = runBefore(a, o, a[o]!, low);
    if (r < 0) return false;
    const s = a[o + 1 + 2 * r]!;
    const last = a[o + 2 + 2 * r]!;
    if (low > last) return false;
    if (s === last) {
      this.#removeRuns(i, r, 1);
    } else if (low === s) {
      a[o + 1 + 2 * r] = s + 1;
    } else if (low === last) {
      a[o + 2 + 2 * r] = last - 1;
    } else {
      const q = this.#insertRuns(i, r + 1, 1);
      const b = this.arena;
      b[q] = low + 1;
      b[q + 1] = last;
      b[q - 1] = low - 1; // the last of run r, just before the new pair
    }
    this.cards[i] = this.cards[i]! - 1;
    return true;
  }

  // ---------------------------------------------------------------- conversions of container i

  /** Array container i (4096 values) → bitmap container, same members. */
  #arrayToBitmap(i: number): void {
    const no = this.alloc(BITMAP_UNITS, true);
    const a = this.arena;
    const w = this.words;
    const o = this.offs[i]!;
    const wo = no >>> 1;
    const c = this.cards[i]! + 1;
    w.fill(0, wo, wo + WORDS);
    for (let k = o; k < o + c; k++) {
      const v = a[k]!;
      w[wo + (v >>> 5)] = w[wo + (v >>> 5)]! | (1 << (v & 31));
    }
    this.retire(i);
    this.offs[i] = no;
  }

  /** Bitmap container i (whose `cards` already says ≤ 4096) → array container, same members. */
  #bitmapToArray(i: number): void {
    const c = this.cards[i]! + 1;
    const no = this.alloc(capFor(c), false);
    bitmapToArray(this.words, this.offs[i]! >>> 1, this.arena, no);
    this.garbage += BITMAP_UNITS;
    this.offs[i] = no;
  }

  /**
   * Replaces container i's data with the runs (start, last) at src[from…] as the kind given
   * (`src` must not be this arena). The row keeps its key; `size` follows the new cardinality.
   */
  replaceWithRuns(i: number, kind: number, src: Uint16Array, from: number, runs: number, card: number): void {
    let o: number;
    if (kind === RUN) {
      o = this.alloc(capFor(1 + 2 * runs), false);
      this.arena[o] = runs;
      copy16(src, from, this.arena, o + 1, 2 * runs);
      o = ~o;
    } else if (kind === ARRAY) {
      o = this.alloc(capFor(card), false);
      runsToArray(src, from, runs, this.arena, o);
    } else {
      o = this.alloc(BITMAP_UNITS, true);
      const wo = o >>> 1;
      this.words.fill(0, wo, wo + WORDS);
      for (let r = 0; r < runs; r++) setBits(this.words, wo, src[from + 2 * r]!, src[from + 2 * r + 1]!);
    }
    this.retire(i);
    this.size += card - (this.cards[i]! + 1);
    this.offs[i] = o;
    this.cards[i] = card - 1;
  }

  /**
   * Replaces container i's data with the bitmap src[from…] (not this arena's) holding `card`
   * members, as the kind given.
   */
  replaceWithBitmap(i: number, kind: number, src: Int32Array, from: number, card: number, scratch: Scratch16): void {
    if (kind === RUN) {
      const buf = scratch.get(2 * bitmapRuns(src, from));
      const runs = bitmapToRuns(src, from, buf, 0);
      this.replaceWithRuns(i, RUN, buf, 0, runs, card);
      return;
    }
    let o: number;
    if (kind === ARRAY) {
      o = this.alloc(capFor(card), false);
      bitmapToArray(src, from, this.arena, o);
    } else {
      o = this.alloc(BITMAP_UNITS, true);
      this.words.set(src.subarray(from, from + WORDS), o >>> 1);
    }
    this.retire(i);
    this.size += card - (this.cards[i]! + 1);
    this.offs[i] = o;
    this.cards[i] = card - 1;
  }

  /** Replaces container i's data with the sorted values src[from…] as an array container. */
  replaceWithArray(i: number, src: Uint16Array, from: number, card: number): void {
    const o = this.alloc(capFor(card), false);
    copy16(src, from, this.arena, o, card);
    this.retire(i);
    this.size += card - (this.cards[i]! + 1);
    this.offs[i] = o;
    this.cards[i] = card - 1;
  }

  /**
   * CRoaring's `convert_run_optimize` on container i: an array or a bitmap becomes a run container
   * when that weighs strictly less, a run container becomes an array or a bitmap when one of those
   * weighs strictly less (see {@link efficientKind}). Returns whether it is a run container after.
   */
  optimize(i: number, scratch: Scratch16): boolean {
    const kind = this.kind(i);
    const card = this.cards[i]! + 1;
    const o = this.off(i);
    if (kind === RUN) {
      const runs = this.arena[o]!;
      const best = efficientKind(card, runs);
      if (best === RUN) return true;
      const buf = scratch.get(2 * runs);
      copy16(this.arena, o + 1, buf, 0, 2 * runs);
      this.replaceWithRuns(i, best, buf, 0, runs, card);
      return false;
    }
    if (kind === ARRAY) {
      const runs = arrayRuns(this.arena, o, card);
      if (!arrayToRunPays(card, runs)) return false;
      const buf = scratch.get(2 * runs);
      arrayToRuns(this.arena, o, card, buf, 0);
      this.replaceWithRuns(i, RUN, buf, 0, runs, card);
      return true;
    }
    const runs = bitmapRuns(this.words, o >>> 1);
    if (2 + 4 * runs >= 8192) return false;
    const buf = scratch.get(2 * runs);
    bitmapToRuns(this.words, o >>> 1, buf, 0);
    this.replaceWithRuns(i, RUN, buf, 0, runs, card);
    return true;
  }

  // ---------------------------------------------------------------- reads of container i

  /** Smallest low value in container i. */
  minOf(i: number): number {
    const e = this.offs[i]!;
    if (e < 0) return this.arena[~e + 1]!;
    if (this.cards[i]! < ARRAY_MAX) return this.arena[e]!;
    const w = this.words;
    let k = e >>> 1;
    while (w[k] === 0) k++;
    const v = w[k]!;
    return 32 * (k - (e >>> 1)) + 31 - Math.clz32(v & -v);
  }

  /** Largest low value in container i. */
  maxOf(i: number): number {
    const e = this.offs[i]!;
    if (e < 0) return this.arena[~e + 2 * this.arena[~e]!]!;
    const c = this.cards[i]! + 1;
    if (c <= ARRAY_MAX) return this.arena[e + c - 1]!;
    const w = this.words;
    let k = (e >>> 1) + WORDS - 1;
    while (w[k] === 0) k--;
    return 32 * (k - (e >>> 1)) + 31 - Math.clz32(w[k]!);
  }

  /** Members of container i that are ≤ low. */
  rankIn(i: number, low: number): number {
    const e = this.offs[i]!;
    const a = this.arena;
    if (e < 0) {
      const o = ~e;
      const nr = a[o]!;
      let n = 0;
      for (let r = 0; r < nr; r++) {
        const s = a[o + 1 + 2 * r]!;
        if (s > low) break;
        const last = a[o + 2 + 2 * r]!;
        n += (low < last ? low : last) - s + 1;
      }
      return n;
    }
    const c = this.cards[i]! + 1;
    if (c <= ARRAY_MAX) return lowerBound(a, e, e + c, low + 1) - e;
    return countBits(this.words, e >>> 1, 0, low);
  }

  /** The low value of rank `r` (0-based) in container i. */
  selectIn(i: number, r: number): number {
    const e = this.offs[i]!;
    const a = this.arena;
    if (e < 0) {
      const o = ~e;
      const nr = a[o]!;
      for (let k = 0; k < nr; k++) {
        const s = a[o + 1 + 2 * k]!;
        const len = a[o + 2 + 2 * k]! - s + 1;
        if (r < len) return s + r;
        r -= len;
      }
      throw new Error("redstruct internal: rank beyond a run container");
    }
    if (this.cards[i]! < ARRAY_MAX) return a[e + r]!;
    const w = this.words;
    const wo = e >>> 1;
    let k = 0;
    for (;;) {
      const c = popcount(w[wo + k]!);
      if (r < c) break;
      r -= c;
      k++;
    }
    let v = w[wo + k]!;
    for (; r > 0; r--) v &= v - 1;
    return 32 * k + 31 - Math.clz32(v & -v);
  }
}

/** Expands runs (start, last) at src[from…] into their values at out[to…]. */
function runsToArray(src: Uint16Array, from: number, runs: number, out: Uint16Array, to: number): void {
  let n = to;
  for (let r = 0; r < runs; r++) {
    const last = src[from + 2 * r + 1]!;
    for (let v = src[from + 2 * r]!; v <= last; v++) out[n++] = v;
  }
}

/** Writes the runs of the sorted values a[o, o + card) as pairs at out[to…]; returns how many runs. */
export function arrayToRuns(a: Uint16Array, o: number, card: number, out: Uint16Array, to: number): number {
  let r = 0;
  let start = a[o]!;
  let prev = start;
  for (let k = o + 1; k < o + card; k++) {
    const v = a[k]!;
    if (v !== prev + 1) {
      out[to + 2 * r] = start;
      out[to + 2 * r + 1] = prev;
      r++;
      start = v;
    }
    prev = v;
  }
  out[to + 2 * r] = start;
  out[to + 2 * r + 1] = prev;
  return r + 1;
}

function evenUp(n: number): number {
  return n + (n & 1);
}
