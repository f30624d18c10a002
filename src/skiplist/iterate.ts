/**
 * Iteration over a `SortedSet` that the set may change underneath, with `Map`'s guarantee: every
 * member present for the whole iteration is visited exactly once, and the iteration always ends.
 *
 * An iterator walks the entries in order directly while the set keeps its shape: O(1) per step, no
 * allocation beyond the result, a step inside a node one comparison. It remembers the position of
 * the next entry; a removal may move entries (a node closing its gap, a merge), so then it also
 * remembers the next member, and finds its entry again by its score before the next step. The set keeps weak
 * references to its live iterators and tells them of every change before making it:
 * - a score written in place (the member keeps its place in the order) changes nothing for them;
 * - removing one member moves an iterator that was about to visit it to the member beside it, so
 *   deleting the current entry while iterating stays O(1);
 * - any other change (a member added, a score that moves a member, a range removal, a pop) makes
 *   each live iterator copy the members it has not visited yet, in order, before the change. From
 *   then on it visits those members that are still present, with their current scores. That copy
 *   is taken at most once per iterator, on the first such change: O(members left), so a loop that
 *   updates every member it visits costs O(n) in all rather than revisiting moved members forever
 *   or skipping those moved behind it.
 * Members added during the iteration are not visited; a member removed before it is reached is not
 * visited; a member removed and added back may or may not be. The number of steps is at most the
 * size of the set when the iterator was created.
 *
 * The references are weak so an iterator that is dropped before its end (`zs.keys().next()` to peek
 * at the first member) costs nothing once collected; finished ones are pruned when the list of
 * references doubles.
 */
import { CHUNK_BITS, type ZSkipList } from "./core.js";

/** What an iterator yields: 0 = `[member, score]`, 1 = member, 2 = score. */
export type IterKind = 0 | 1 | 2;

/** An iterator over a sorted set's entries, members or scores; see the module comment. */
export class SortedSetIterator<T> implements IterableIterator<T> {
  /** In live mode, the position of the next entry to visit (−1 at the end); set by {@link moveTo}. */
  private hint = -1;
  /** The end of the hint's run inside its node: one past its last entry (before its first, in reverse). */
  private edge = 0;
  /** The entry arrays of the chunk holding the hint's node, and the chunk's first position. */
  private scores!: Float64Array;
  private members!: string[];
  private chunk = 0;
  /** Set by a removal, which may move entries: the hint is then found again from {@link member}. */
  private moved = false;
  /** The next member to visit while {@link moved} (null at the end). */
  private member: string | null = null;
  /** Members not visited yet, copied on the first change that could reorder the walk; null until then. */
  private rest: string[] | null = null;
  private pos = 0;
  /** True once the iterator has returned `done` (or was returned early). */
  done = false;

  constructor(
    private readonly list: ZSkipList,
    private readonly cursors: Cursors,
    private readonly kind: IterKind,
    readonly reverse: boolean,
  ) {
    this.moveTo(reverse ? list.lastPos() : list.firstPos());
    cursors.add(this);
  }

  /** True while the iterator still walks the live list (not detached, not done). */
  get live(): boolean {
    return this.rest === null && !this.done;
  }

  next(): IteratorResult<T, undefined> {
    const list = this.list;
    if (this.rest === null) {
      const p = this.moved ? this.found() : this.hint;
      if (p >= 0) {
        const value = this.make(this.members[p - this.chunk]!, this.scores[p - this.chunk]!);
        this.step(p);
        return { value, done: false };
      }
    } else {
      const rest = this.rest;
      while (this.pos < rest.length) {
        const member = rest[this.pos++]!;
        const slot = list.find(member);
        if (slot !== 0) return { value: this.make(member, list.scoreOf(slot)), done: false };
      }
      this.rest = [];
    }
    this.finish();
    return { value: undefined, done: true };
  }

  /** Ends the iteration early (a `break` out of `for…of` calls this). */
  return(): IteratorResult<T, undefined> {
    this.finish();
    return { value: undefined, done: true };
  }

  [Symbol.iterator](): this {
    return this;
  }

  /** The hint after a removal: the remembered member's entry, found by its score (−1 at the end). */
  private found(): number {
    const list = this.list;
    const member = this.member;
    this.moved = false;
    this.member = null;
    this.moveTo(member === null ? -1 : list.posOf(list.scoreOf(list.find(member)), member));
    return this.hint;
  }

  /**
   * Makes position p (−1: the end) the next to visit: takes the arrays of its chunk (a node never
   * straddles two) and where the run from p to the end of its node stops, in walk order.
   */
  private moveTo(p: number): void {
    this.hint = p;
    if (p < 0) return;
    const list = this.list;
    const c = p >>> CHUNK_BITS;
    this.chunk = c << CHUNK_BITS;
    this.scores = list.es[c]!;
    this.members = list.em[c]!;
    const x = list.nodeOf(p);
    this.edge = this.reverse ? list.baseOf(x) - 1 : list.baseOf(x) + list.countOf(x);
  }

  /** Moves to the entry after (before, in reverse) position p, which was just read. */
  private step(p: number): void {
    const list = this.list;
    if (this.reverse) {
      if (p - 1 > this.edge) this.hint = p - 1;
      else this.moveTo(list.prevPos(p));
    } else if (p + 1 < this.edge) this.hint = p + 1;
    else this.moveTo(list.nextPos(p));
  }

  private make(member: string, score: number): T {
    const kind = this.kind;
    return (kind === 0 ? [member, score] : kind === 1 ? member : score) as T;
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.hint = -1;
    this.rest = [];
    this.cursors.release(this);
  }

  /** Copies the members not visited yet, in walk order, so a change to the set cannot disturb the walk. */
  detach(): void {
    const list = this.list;
    const rest: string[] = [];
    for (let p = this.moved ? this.found() : this.hint; p >= 0; p = this.reverse ? list.prevPos(p) : list.nextPos(p))
      rest.push(list.memberAt(p));
    this.rest = rest;
    this.pos = 0;
    this.hint = -1;
  }

  /** Called before `member` is removed: step over it if it is the next to visit, and remember the next member. */
  removing(member: string): void {
    const list = this.list;
    let p = this.moved ? this.found() : this.hint;
    if (p >= 0 && list.memberAt(p) === member) p = this.reverse ? list.prevPos(p) : list.nextPos(p);
    this.member = p < 0 ? null : list.memberAt(p);
    this.moved = true;
  }

  /** Called when the set is emptied: nothing present now was present throughout. */
  end(): void {
    this.done = true;
    this.hint = -1;
    this.moved = false;
    this.member = null;
    this.rest = [];
  }
}

/** The live iterators of one set, held weakly. */
export class Cursors {
  private refs: WeakRef<SortedSetIterator<unknown>>[] = [];
  private pruneAt = 16;

  /** True when some iterator may still be walking the live chain. O(1); checked before every change. */
  get active(): boolean {
    return this.refs.length !== 0;
  }

  add(it: SortedSetIterator<unknown>): void {
    if (this.refs.length >= this.pruneAt) {
      this.refs = this.refs.filter((r) => r.deref()?.live === true);
      this.pruneAt = Math.max(16, 2 * this.refs.length);
    }
    this.refs.push(new WeakRef(it));
  }

  /** Drops a finished iterator when it is the newest (the common case: one loop at a time). */
  release(it: SortedSetIterator<unknown>): void {
    const n = this.refs.length;
    if (n !== 0 && this.refs[n - 1]!.deref() === it) this.refs.pop();
  }

  /** Before a change that adds members or reorders them: every live iterator copies what it has left. */
  detachAll(): void {
    for (const r of this.refs) {
      const it = r.deref();
      if (it?.live) it.detach();
    }
    this.refs = [];
    this.pruneAt = 16;
  }

  /** Before `member` is removed. */
  removing(member: string): void {
    for (const r of this.refs) {
      const it = r.deref();
      if (it?.live) it.removing(member);
    }
  }

  /** When the set is cleared. */
  endAll(): void {
    for (const r of this.refs) r.deref()?.end();
    this.refs = [];
    this.pruneAt = 16;
  }
}
