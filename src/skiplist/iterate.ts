/**
 * Iteration over a `SortedSet` that the set may change underneath, with `Map`'s guarantee: every
 * member present for the whole iteration is visited exactly once, and the iteration always ends.
 *
 * An iterator walks the level-0 chain directly while the set keeps its shape: O(1) per step, no
 * allocation beyond the result. The set keeps weak references to its live iterators and tells them
 * of every change before making it:
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
import type { ZSkipList } from "./core.js";

const NIL = 0;

/** What an iterator yields: 0 = `[member, score]`, 1 = member, 2 = score. */
export type IterKind = 0 | 1 | 2;

/** An iterator over a sorted set's entries, members or scores; see the module comment. */
export class SortedSetIterator<T> implements IterableIterator<T> {
  /** In live mode, the next node to visit (NIL at the end). Unused once detached. */
  node: number;
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
    this.node = reverse ? list.tail : list.first();
    cursors.add(this);
  }

  /** True while the iterator still walks the live chain (not detached, not done). */
  get live(): boolean {
    return this.rest === null && !this.done;
  }

  next(): IteratorResult<T, undefined> {
    const list = this.list;
    if (this.rest === null) {
      const x = this.node;
      if (x !== NIL) {
        this.node = this.reverse ? list.prevOf(x) : list.nextOf(x);
        return { value: this.make(list.memberOf(x), list.scoreOf(x)), done: false };
      }
    } else {
      const rest = this.rest;
      while (this.pos < rest.length) {
        const member = rest[this.pos++]!;
        const x = list.find(member);
        if (x !== NIL) return { value: this.make(member, list.scoreOf(x)), done: false };
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

  private make(member: string, score: number): T {
    const kind = this.kind;
    return (kind === 0 ? [member, score] : kind === 1 ? member : score) as T;
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.node = NIL;
    this.rest = [];
    this.cursors.release(this);
  }

  /** Copies the members not visited yet, in walk order, so a change to the set cannot disturb the walk. */
  detach(): void {
    const list = this.list;
    const rest: string[] = [];
    for (let x = this.node; x !== NIL; x = this.reverse ? list.prevOf(x) : list.nextOf(x)) rest.push(list.memberOf(x));
    this.rest = rest;
    this.pos = 0;
    this.node = NIL;
  }

  /** Called before node x is removed: step over it if it is the next to visit. */
  removing(x: number): void {
    if (this.node === x) this.node = this.reverse ? this.list.prevOf(x) : this.list.nextOf(x);
  }

  /** Called when the set is emptied: nothing present now was present throughout. */
  end(): void {
    this.done = true;
    this.node = NIL;
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

  /** Before node x is removed. */
  removing(x: number): void {
    for (const r of this.refs) {
      const it = r.deref();
      if (it?.live) it.removing(x);
    }
  }

  /** When the set is cleared. */
  endAll(): void {
    for (const r of this.refs) r.deref()?.end();
    this.refs = [];
    this.pruneAt = 16;
  }
}
