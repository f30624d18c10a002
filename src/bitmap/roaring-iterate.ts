/**
 * Ascending iteration over a Roaring bitmap's members, whole or within [lo, hi).
 *
 * The iterator keeps a cursor into one container — an index into an array container's values, a
 * word and its remaining bits in a bitmap container, a run and the next value of a run container —
 * so each step is O(1) amortized with no allocation but the `{ value, done }` result. It survives
 * changes to the bitmap: when the bitmap's version moved since the last step, the cursor is placed
 * again at the smallest member greater than the last one yielded (O(log containers + log
 * container)), so an iteration never yields a member twice, never goes backwards, and yields every
 * member that was added after the cursor's place and is still there when reached.
 *
 * @see ./roaring.ts
 * @internal
 */
import { ARRAY, BITMAP, type Containers, lowerBound, runBefore, WORDS } from "./roaring-containers.js";

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/** Iterator over the members of a bitmap in [lo, hi), ascending. */
export class RoaringIterator implements IterableIterator<number> {
  readonly #c: Containers;
  /** The bounds [start, end) of the members yielded (end ≤ 2^32). */
  readonly #start: number;
  readonly #end: number;
  #version: number;
  /** The cursor is past the last member (a change to the bitmap may move it again). */
  #done = false;
  /** next() has answered done: the iteration is over for good, as a Map iterator's is. */
  #finished = false;
  /** Container index, its kind, its members' high part (key · 65536) and its data offset. */
  #i = 0;
  #kind = ARRAY;
  #base = 0;
  #o = 0;
  /** Array: next arena index, and the end; run: current run, and the run count; bitmap: word index, and the end. */
  #j = 0;
  #jEnd = 0;
  /** Bitmap: the current word's bits not yet yielded. Run: the next low value. */
  #bits = 0;
  #v = 0;
  /** The last member yielded, −1 before the first. */
  #last = -1;

  constructor(c: Containers, lo: number, hi: number) {
    this.#c = c;
    this.#start = lo;
    this.#end = hi;
    this.#version = c.version;
    this.#seek(lo);
  }

  [Symbol.iterator](): this {
    return this;
  }

  /** Places the cursor at the smallest member ≥ x (x an integer ≥ 0), or ends the iteration. */
  #seek(x: number): void {
    if (x >= this.#end || x > 0xffffffff) {
      this.#done = true;
      return;
    }
    const key = Math.floor(x / 65536);
    const i = this.#c.find(key);
    if (i >= 0) this.#load(i, x - key * 65536);
    else this.#load(~i, 0);
  }

  /** Places the cursor in container i at its first member ≥ low, or further on. */
  #load(i: number, low: number): void {
    const c = this.#c;
    for (; i < c.n; i++, low = 0) {
      const kind = c.kind(i);
      const o = c.off(i);
      this.#i = i;
      this.#kind = kind;
      this.#base = c.keys[i]! * 65536;
      this.#o = o;
      if (kind === ARRAY) {
        const end = o + c.cards[i]! + 1;
        const j = lowerBound(c.arena, o, end, low);
        if (j === end) continue;
        this.#j = j;
        this.#jEnd = end;
        this.#done = false;
        return;
      }
      if (kind === BITMAP) {
        const wo = o >>> 1;
        this.#j = wo + (low >>> 5);
        this.#jEnd = wo + WORDS;
        this.#bits = c.words[this.#j]! & (-1 << (low & 31));
        this.#done = false;
        return;
      }
      const a = c.arena;
      const nr = a[o]!;
      let r = runBefore(a, o, nr, low);
      if (r >= 0 && low <= a[o + 2 + 2 * r]!) {
        this.#v = low;
      } else {
        r++;
        if (r === nr) continue;
        this.#v = a[o + 1 + 2 * r]!;
      }
      this.#j = r;
      this.#jEnd = nr;
      this.#done = false;
      return;
    }
    this.#done = true;
  }

  next(): IteratorResult<number, undefined> {
    if (this.#finished) return DONE;
    const c = this.#c;
    if (c.version !== this.#version) {
      this.#version = c.version;
      this.#seek(Math.max(this.#last + 1, this.#start));
    }
    if (this.#done) return this.#finish();
    let low: number;
    for (;;) {
      if (this.#kind === ARRAY) {
        if (this.#j < this.#jEnd) {
          low = c.arena[this.#j++]!;
          break;
        }
      } else if (this.#kind === BITMAP) {
        let bits = this.#bits;
        while (bits === 0 && ++this.#j < this.#jEnd) bits = c.words[this.#j]!;
        if (bits !== 0) {
          const t = bits & -bits;
          this.#bits = bits ^ t;
          low = 32 * (this.#j - (this.#o >>> 1)) + 31 - Math.clz32(t);
          break;
        }
      } else {
        const a = c.arena;
        const o = this.#o;
        if (this.#v <= a[o + 2 + 2 * this.#j]!) {
          low = this.#v++;
          break;
        }
        if (++this.#j < this.#jEnd) {
          this.#v = a[o + 1 + 2 * this.#j]!;
          low = this.#v++;
          break;
        }
      }
      this.#load(this.#i + 1, 0);
      if (this.#done) return this.#finish();
    }
    const value = this.#base + low;
    if (value >= this.#end) return this.#finish();
    this.#last = value;
    return { value, done: false };
  }

  #finish(): IteratorResult<number, undefined> {
    this.#finished = true;
    return DONE;
  }

  /** Ends the iteration (a `break` out of `for … of`). */
  return(): IteratorResult<number, undefined> {
    return this.#finish();
  }
}
