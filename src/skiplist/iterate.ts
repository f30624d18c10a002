/**
 * Iteration over a `SortedSet` that the set may change underneath, with `Map`'s guarantee: every
 * member present for the whole iteration is visited exactly once, and the iteration always ends.
 *
 * An iterator walks the entries in order and remembers the key (score, member) of the last entry it
 * visited, its cursor. While the set keeps its shape it steps from position to position: O(1) per
 * step, one comparison inside a node. After a change it finds its place again by key — the first
 * entry after the cursor, one descent — so removals (of the next member, of ranges, pops) need
 * nothing else. Adds and score changes are what could break the guarantee: a member moved from ahead
 * of the cursor to behind it would be skipped, one moved from behind to ahead visited twice, and a
 * loop that adds ahead of itself would never end. So the set keeps a journal of those changes,
 * appended in O(1) per change whatever the number of iterators, and each iterator reads the entries
 * it has not seen before its next step (so the cursor they are judged against is the one they
 * happened at), keeping two small sets:
 * - `skip`: members ahead of the cursor not to visit — already visited and moved ahead, or added
 *   during the iteration;
 * - `owed`: members moved behind the cursor before their visit, visited after the walk ends (each
 *   with its score at that moment, if still present).
 * An iterator that is never finished (`zs.keys().next()` to peek at the first member) therefore costs
 * nothing per change: it reads the journal only when stepped. The journal is bounded: once it holds
 * more entries than the set has members (and 64), every live iterator reads it and it is emptied —
 * O(1) amortised per change and iterator. An iterator whose two sets outgrow the set (a long-lived
 * iterator under heavy churn) instead copies the members it has left, in walk order, once, and
 * leaves the journal: from then on it visits those still present, with their current scores.
 * Iterators are held weakly, so a dropped one stops being read once collected.
 *
 * Members added during the iteration are not visited; a member removed before it is reached is not
 * visited; a member removed and added back may or may not be. The number of steps is at most the
 * size of the set when the iterator was created. `clear()` ends every iterator.
 */

import { CHUNK_BITS, type ZSkipList } from "./core.js";
import { compareMembers } from "./order.js";

/** What an iterator yields: 0 = `[member, score]`, 1 = member, 2 = score. */
export type IterKind = 0 | 1 | 2;

/** Journal entries kept before every live iterator must read them: at least this many. */
const MIN_LOG = 64;

/**
 * The changes of one set that iterators must read (adds and score changes), and its live iterators.
 * The set calls {@link changed}, {@link added}, {@link moved} and {@link cleared} while any iterator
 * is live ({@link active}).
 */
export class Journal {
  /** Bumped by every change: an iterator whose step saw another version finds its place by key. */
  version = 0;
  /** Bumped by every clear: iterators created before it end. */
  clears = 0;
  /** Journal index of `members[0]` (iterators hold journal indexes, which survive trimming). */
  start = 0;
  /** Per entry: the member, its score before (NaN for an add) and after. */
  readonly members: string[] = [];
  readonly before: number[] = [];
  readonly after: number[] = [];
  #refs: WeakRef<SortedSetIterator<unknown>>[] = [];
  #pruneAt = 16;

  /** True while some iterator may still be walking. O(1); checked before every change. */
  get active(): boolean {
    return this.#refs.length !== 0;
  }

  /** Journal index one past the last entry. */
  get end(): number {
    return this.start + this.members.length;
  }

  add(it: SortedSetIterator<unknown>): void {
    if (this.#refs.length >= this.#pruneAt) {
      this.#refs = this.#refs.filter((r) => r.deref()?.walking === true);
      this.#pruneAt = Math.max(16, 2 * this.#refs.length);
    }
    if (this.#refs.length === 0) this.#trim();
    this.#refs.push(new WeakRef(it));
  }

  /** Drops an iterator that no longer reads the journal, when it is the newest (one loop at a time). */
  release(it: SortedSetIterator<unknown>): void {
    const refs = this.#refs;
    if (refs.length !== 0 && refs[refs.length - 1]!.deref() === it) refs.pop();
    if (refs.length === 0) this.#trim();
  }

  /** A change that moves no member across another: a removal, or a range removal. */
  changed(): void {
    this.version++;
  }

  /** `member` was added with `score` to a set of `size` members. */
  added(member: string, score: number, size: number): void {
    this.version++;
    this.#log(member, Number.NaN, score, size);
  }

  /** `member`'s score went from `from` to `to`, in a set of `size` members. */
  moved(member: string, from: number, to: number, size: number): void {
    this.version++;
    this.#log(member, from, to, size);
  }

  /** The set was emptied: every iterator ends. */
  cleared(): void {
    this.version++;
    this.clears++;
    this.#refs = [];
    this.#pruneAt = 16;
    this.#trim();
  }

  #log(member: string, from: number, to: number, size: number): void {
    this.members.push(member);
    this.before.push(from);
    this.after.push(to);
    if (this.members.length > Math.max(MIN_LOG, size)) {
      const live: WeakRef<SortedSetIterator<unknown>>[] = [];
      for (const r of this.#refs) {
        const it = r.deref();
        if (it?.walking !== true) continue;
        it.read();
        if (it.walking) live.push(r);
      }
      this.#refs = live;
      this.#pruneAt = Math.max(16, 2 * live.length);
      this.#trim();
    }
  }

  /** Empties the journal: no live iterator needs what it holds. */
  #trim(): void {
    this.start = this.end;
    this.members.length = 0;
    this.before.length = 0;
    this.after.length = 0;
  }
}

/** An iterator over a sorted set's entries, members or scores; see the module comment. */
export class SortedSetIterator<T> implements IterableIterator<T> {
  /** The next position to visit (−1: the walk is over); valid while {@link version} is current. */
  private hint = -1;
  /** The end of the hint's run inside its node: one past its last entry (before its first, in reverse). */
  private edge = 0;
  /** The entry arrays of the chunk holding the hint's node, and the chunk's first position. */
  private scores!: Float64Array;
  private members!: string[];
  private chunk = 0;
  /** The journal's version at the last step, and how far the journal has been read. */
  private version: number;
  private seen: number;
  private readonly clears: number;
  /** The cursor: the key of the last entry visited (none before the first visit). */
  private started = false;
  private cursorScore = 0;
  private cursorMember = "";
  private skip: Set<string> | null = null;
  private owed: Set<string> | null = null;
  /** After the walk (or once detached): the members left to visit if still present, and the next. */
  private rest: string[] | null = null;
  private pos = 0;
  private done = false;

  constructor(
    private readonly list: ZSkipList,
    private readonly journal: Journal,
    private readonly kind: IterKind,
    readonly reverse: boolean,
  ) {
    this.version = journal.version;
    this.seen = journal.end;
    this.clears = journal.clears;
    this.moveTo(reverse ? list.lastPos() : list.firstPos());
    journal.add(this);
  }

  /** True while the iterator walks the set and reads its journal (not done, not detached). */
  get walking(): boolean {
    return this.rest === null && !this.done;
  }

  next(): IteratorResult<T, undefined> {
    if (!this.done && this.clears !== this.journal.clears) this.finish();
    if (this.rest === null && !this.done) {
      if (this.version !== this.journal.version) this.resume();
      const value = this.rest === null ? this.walk() : undefined;
      if (value !== undefined) return { value, done: false };
    }
    if (this.rest !== null) {
      const list = this.list;
      const rest = this.rest;
      while (this.pos < rest.length) {
        const member = rest[this.pos++]!;
        const slot = list.find(member);
        if (slot !== 0) return { value: this.make(member, list.scoreOf(slot)), done: false };
      }
      this.finish();
    }
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

  /**
   * The next entry of the walk, skipping the members in {@link skip}; at the end of the walk,
   * switches to the owed members and returns undefined.
   */
  private walk(): T | undefined {
    const skip = this.skip;
    for (let p = this.hint; p >= 0; p = this.hint) {
      const c = p - this.chunk;
      // Both read before the step: it may move to another chunk's arrays.
      const member = this.members[c]!;
      const score = this.scores[c]!;
      this.step(p);
      if (skip?.delete(member)) continue;
      this.started = true;
      this.cursorScore = score;
      this.cursorMember = member;
      return this.make(member, score);
    }
    // The walk is over: nothing is ahead any more, so the journal has nothing left to say.
    this.rest = this.owed === null ? [] : [...this.owed];
    this.pos = 0;
    this.skip = this.owed = null;
    this.journal.release(this);
    return undefined;
  }

  /** After a change: reads the journal, then finds the entry after the cursor by its key. */
  private resume(): void {
    this.read();
    if (this.rest !== null) return;
    this.version = this.journal.version;
    const list = this.list;
    if (!this.started) this.moveTo(this.reverse ? list.lastPos() : list.firstPos());
    else this.moveTo(list.adjacentPos(this.cursorScore, this.cursorMember, this.reverse));
  }

  /**
   * Reads the journal entries since the last read against the cursor (which has not moved since
   * they were written): an add ahead is skipped; a move across the cursor is owed or skipped.
   * Detaches when the two sets outgrow the set.
   */
  read(): void {
    const j = this.journal;
    const end = j.end;
    for (let i = this.seen; i < end; i++) {
      const k = i - j.start;
      const member = j.members[k]!;
      const from = j.before[k]!;
      const ahead = this.ahead(j.after[k]!, member);
      if (Number.isNaN(from)) {
        if (ahead) (this.skip ??= new Set()).add(member);
      } else if (ahead !== this.ahead(from, member)) {
        if (ahead) {
          if (this.owed?.delete(member) !== true) (this.skip ??= new Set()).add(member);
        } else if (this.skip?.delete(member) !== true) (this.owed ??= new Set()).add(member);
      }
    }
    this.seen = end;
    if ((this.skip?.size ?? 0) + (this.owed?.size ?? 0) > Math.max(MIN_LOG, 2 * this.list.length)) this.detach();
  }

  /** Whether (score, member) sorts after the cursor in walk order (everything does before the first visit). */
  private ahead(score: number, member: string): boolean {
    if (!this.started) return true;
    const c = score - this.cursorScore || compareMembers(member, this.cursorMember);
    return this.reverse ? c < 0 : c > 0;
  }

  /** Copies the members left — those ahead of the cursor not skipped, then the owed — and leaves the journal. */
  private detach(): void {
    const list = this.list;
    const skip = this.skip;
    const rest: string[] = [];
    let p = !this.started
      ? this.reverse
        ? list.lastPos()
        : list.firstPos()
      : list.adjacentPos(this.cursorScore, this.cursorMember, this.reverse);
    for (; p >= 0; p = this.reverse ? list.prevPos(p) : list.nextPos(p)) {
      const member = list.memberAt(p);
      if (skip === null || !skip.has(member)) rest.push(member);
    }
    if (this.owed !== null) for (const m of this.owed) rest.push(m);
    this.rest = rest;
    this.pos = 0;
    this.skip = this.owed = null;
    this.hint = -1;
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
    const walking = this.walking;
    this.done = true;
    this.hint = -1;
    this.rest = null;
    this.skip = this.owed = null;
    if (walking) this.journal.release(this);
  }
}
