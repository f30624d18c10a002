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
 * loop that adds ahead of itself would never end. So while iterators exist the set appends those
 * changes to a journal, O(1) per change whatever the number of iterators, and each iterator reads
 * the entries it has not seen before its next step (so the cursor they are judged against is the one
 * they happened at), keeping two small sets:
 * - `skip`: members ahead of the cursor not to visit — already visited and moved ahead, or added
 *   during the iteration;
 * - `owed`: members moved behind the cursor before their visit, visited after the walk ends (each
 *   with its score at that moment, if still present).
 * When the two outgrow the set, what they hold about members now absent (or, for `skip`, now behind
 * the cursor) is dropped, which the guarantee allows: they stay within the set's size.
 *
 * The journal is a chain of fixed-size chunks. The set holds only the newest; an iterator holds the
 * chunk it reads next. So an iterator that is never finished (`zs.keys().next()` to peek at the first
 * member, a `for…of` left by an exception) costs a change nothing: it reads the journal only if it is
 * stepped again, and once it is dropped the garbage collector takes it and every chunk only it
 * held. While one is kept unfinished, the chunks from its place on stay, about 24 bytes per add or
 * score change. Iterators are counted while they walk; while none is, changes are not written. One
 * left unfinished stays counted (nothing tells the set it was dropped: a FinalizationRegistry would,
 * at about 1 µs per iterator, ten times the cost of the rest of a short loop), so from then on the
 * set writes every add and score change to its journal: a few nanoseconds each, and one chunk kept.
 *
 * Members added during the iteration are not visited; a member removed before it is reached is not
 * visited; a member removed and added back may or may not be. The number of steps is at most the
 * size of the set when the iterator was created. `clear()` ends every iterator.
 */

import { compareMembers } from "./order.js";
import type { Cursor } from "./zset.js";

/** What an iterator yields: 0 = `[member, score]`, 1 = member, 2 = score. */
export type IterKind = 0 | 1 | 2;

/** Entries per journal chunk. */
const CHUNK = 256;

/** A run of journal entries: per entry the member, its score before (NaN for an add) and after. */
class Chunk {
  readonly members: string[] = [];
  readonly before: number[] = [];
  readonly after: number[] = [];
  /** The chunk written after this one was full; null for the newest. */
  next: Chunk | null = null;
}

/** Where an iterator reads the journal next: a chunk and an entry in it. */
interface Place {
  chunk: Chunk;
  index: number;
}

/**
 * The changes of one set that iterators must read (adds and score changes), and how many iterators
 * may still read them. The set calls {@link changed}, {@link added}, {@link moved} and
 * {@link cleared} while any is counted ({@link active}).
 */
export class Journal {
  /** Bumped by every change: an iterator whose step saw another version finds its place by key. */
  version = 0;
  /** Bumped by every clear: iterators created before it end. */
  clears = 0;
  /** The chunk changes are appended to. */
  #tail = new Chunk();
  /** Iterators not finished (an abandoned one stays counted: see the module comment). */
  #open = 0;

  /** True while some iterator may still read the journal. O(1); checked before every change. */
  get active(): boolean {
    return this.#open !== 0;
  }

  /** Counts a new iterator and returns where it starts reading: after every change so far. */
  open(): Place {
    this.#open++;
    return { chunk: this.#tail, index: this.#tail.members.length };
  }

  /** An iterator no longer reads the journal: finished, or at the end of its walk. */
  close(): void {
    this.#open--;
  }

  /** A change that moves no member across another: a removal, or a range removal. */
  changed(): void {
    this.version++;
  }

  /** `member` was added with `score`. */
  added(member: string, score: number): void {
    this.version++;
    this.#log(member, Number.NaN, score);
  }

  /** `member`'s score went from `from` to `to`. */
  moved(member: string, from: number, to: number): void {
    this.version++;
    this.#log(member, from, to);
  }

  /** The set was emptied: every iterator ends (and leaves the count when it next steps or is collected). */
  cleared(): void {
    this.version++;
    this.clears++;
  }

  #log(member: string, from: number, to: number): void {
    let t = this.#tail;
    if (t.members.length === CHUNK) {
      const c = new Chunk();
      t.next = c;
      this.#tail = t = c;
    }
    t.members.push(member);
    t.before.push(from);
    t.after.push(to);
  }
}

/** An iterator over a sorted set's entries, members or scores; see the module comment. */
export class SortedSetIterator<T> implements IterableIterator<T> {
  /** The next position to visit (−1: the walk is over); valid while {@link version} is current. */
  private hint = -1;
  /** The end of the hint's run inside its node: one past its last entry (before its first, in reverse). */
  private edge = 0;
  /** The arrays holding the hint's run, and the position of their element 0. */
  private scores!: ArrayLike<number>;
  private members!: ArrayLike<string>;
  private chunk = 0;
  /** The journal's version at the last step, and where the journal is read next. */
  private version: number;
  private place: Place;
  private readonly clears: number;
  /** The cursor: the key of the last entry visited (none before the first visit). */
  private started = false;
  private cursorScore = 0;
  private cursorMember = "";
  private skip: Set<string> | null = null;
  private owed: Set<string> | null = null;
  /** After the walk: the owed members left to visit if still present, and the next. */
  private rest: string[] | null = null;
  private pos = 0;
  private done = false;

  constructor(
    private readonly set: Cursor,
    private readonly journal: Journal,
    private readonly kind: IterKind,
    readonly reverse: boolean,
  ) {
    this.version = journal.version;
    this.clears = journal.clears;
    this.moveTo(set.start(reverse));
    this.place = journal.open();
  }

  next(): IteratorResult<T, undefined> {
    if (!this.done && this.clears !== this.journal.clears) this.finish();
    if (this.rest === null && !this.done) {
      if (this.version !== this.journal.version) this.resume();
      const value = this.rest === null ? this.walk() : undefined;
      if (value !== undefined) return { value, done: false };
    }
    if (this.rest !== null) {
      const rest = this.rest;
      while (this.pos < rest.length) {
        const member = rest[this.pos++]!;
        const score = this.set.score(member);
        if (score !== undefined) return { value: this.make(member, score), done: false };
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
    this.journal.close();
    return undefined;
  }

  /** After a change: reads the journal, then finds the entry after the cursor by its key. */
  private resume(): void {
    this.read();
    this.version = this.journal.version;
    const set = this.set;
    if (!this.started) this.moveTo(set.start(this.reverse));
    else this.moveTo(set.seekKey(this.cursorScore, this.cursorMember, this.reverse));
  }

  /**
   * Reads the journal entries since the last read against the cursor (which has not moved since
   * they were written): an add ahead is skipped; a move across the cursor is owed or skipped. When
   * the two sets outgrow the set, drops what they hold about members absent or (for `skip`) behind.
   */
  private read(): void {
    let { chunk, index } = this.place;
    for (;;) {
      const n = chunk.members.length;
      for (; index < n; index++) {
        const member = chunk.members[index]!;
        const from = chunk.before[index]!;
        const ahead = this.ahead(chunk.after[index]!, member);
        if (Number.isNaN(from)) {
          if (ahead) (this.skip ??= new Set()).add(member);
        } else if (ahead !== this.ahead(from, member)) {
          if (ahead) {
            if (this.owed?.delete(member) !== true) (this.skip ??= new Set()).add(member);
          } else if (this.skip?.delete(member) !== true) (this.owed ??= new Set()).add(member);
        }
      }
      if (chunk.next === null) break;
      chunk = chunk.next;
      index = 0;
    }
    this.place = { chunk, index };
    if ((this.skip?.size ?? 0) + (this.owed?.size ?? 0) > Math.max(64, 2 * this.set.size)) this.prune();
  }

  /**
   * Keeps of `skip` the members present and ahead, of `owed` those present: the rest can no longer
   * matter (an absent member is not owed a visit; one behind is never met by the walk, and a later
   * move ahead is read from the journal). Both then hold at most the set's size. O(their size).
   */
  private prune(): void {
    const set = this.set;
    if (this.skip !== null) {
      for (const m of this.skip) {
        const score = set.score(m);
        if (score === undefined || !this.ahead(score, m)) this.skip.delete(m);
      }
    }
    if (this.owed !== null) for (const m of this.owed) if (set.score(m) === undefined) this.owed.delete(m);
  }

  /** Whether (score, member) sorts after the cursor in walk order (everything does before the first visit). */
  private ahead(score: number, member: string): boolean {
    if (!this.started) return true;
    const c = score - this.cursorScore || compareMembers(member, this.cursorMember);
    return this.reverse ? c < 0 : c > 0;
  }

  /**
   * Makes position p (−1: the end) the next to visit: takes the arrays holding its run (a node's
   * entries, or all of a compact set's) and where the run stops, in walk order.
   */
  private moveTo(p: number): void {
    this.hint = p;
    if (p < 0) return;
    const set = this.set;
    this.chunk = set.runOrigin(p);
    this.scores = set.runScores(p);
    this.members = set.runMembers(p);
    this.edge = set.runEnd(p, this.reverse);
  }

  /** Moves to the entry after (before, in reverse) position p, which was just read. */
  private step(p: number): void {
    if (this.reverse) {
      if (p - 1 > this.edge) this.hint = p - 1;
      else this.moveTo(this.set.step(p, true));
    } else if (p + 1 < this.edge) this.hint = p + 1;
    else this.moveTo(this.set.step(p, false));
  }

  private make(member: string, score: number): T {
    const kind = this.kind;
    return (kind === 0 ? [member, score] : kind === 1 ? member : score) as T;
  }

  private finish(): void {
    if (this.done) return;
    const reading = this.rest === null; // still walking: counted by the journal
    this.done = true;
    this.hint = -1;
    this.rest = null;
    this.skip = this.owed = null;
    if (reading) this.journal.close();
  }
}
