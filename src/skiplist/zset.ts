/**
 * What a `SortedSet` holds, composed as Redis composes a zset (src/t_zset.c): a small set is one
 * compact run of entries (./compact.ts: two sorted arrays and a Map member → score, the listpack's
 * role); past {@link COMPACT_MAX} entries it becomes a member index (./members.ts: member → slot →
 * score, the dict's role) beside an ordered list (./list.ts: a skiplist of macro nodes). The set
 * converts up once when an insert would pass the bound, and back down when removals leave half of it
 * or less, each conversion O(n) on a set of n ≈ the bound, so the gap between the two keeps a set
 * near the bound from converting back and forth (each conversion is paid for by n/2 changes).
 *
 * Every method that reads or walks positions asks the form in use ({@link Entries}, which both
 * forms implement); those that change membership branch on the form, as t_zset.c's zsetAdd does on
 * the encoding. Iterators see the set through {@link Cursor} (./iterate.ts), which this class
 * implements, so a live iterator survives a conversion (a conversion is a change: the iterator finds
 * its place again by key).
 *
 * Random draws: `seed` seeds two streams of one generator (mulberry32, a Weyl sequence of period
 * 2^32): node levels start at `seed`, ZRANDMEMBER's draws at `seed` XOR 2^31, half the period away.
 * Reading random members therefore never changes the shape of later inserts, and a seeded set draws
 * the same members and builds the same shape on every run. A copy (clone) continues both streams
 * where the original stands; a saved set (toBytes) records the members' stream, and its copy is
 * seeded so that stream continues (its levels then start half a period away from it).
 */
import { MULBERRY_STEP, Mulberry32, mulberry32Output } from "../internal/random.js";
import { CompactList } from "./compact.js";
import { checkCompact, checkIndexed } from "./invariants.js";
import { type ListLayout, OrderedList } from "./list.js";
import { MemberIndex } from "./members.js";
import { LAYOUT } from "./store.js";

// The store's constant as this module's own (see LAYOUT: an imported binding is not folded).
const { CHUNK_BITS } = LAYOUT;

/** Most members a set holds (the member limit). */
export const MAX_SIZE = 2 ** 26;
/**
 * Entries a compact set holds at most before it converts, as Redis's zset-max-listpack-entries
 * (chosen by measurement: bench/probes/skiplist-small.ts, docs/skiplist.md).
 */
const COMPACT_MAX = 128;
/** ZRANDMEMBER's stream starts this far from the levels' (XOR 2^31: half of mulberry32's period). */
export const DRAW_STREAM = 0x80000000;
/** B and p of the ordered list (chosen by measurement: bench/probes/skiplist-layout.ts, docs/skiplist.md). */
const LIST_LAYOUT: ListLayout = { nodeSize: 128, levelBits: 2 };

/** Internal layout parameters, for tests and the probes that chose the defaults. */
export interface Layout extends ListLayout {
  /** Entries a compact set holds at most: 0 (always the list form) .. 4096. @defaultValue 128 */
  compactMax?: number;
}

/** The reading half both forms share: positions (opaque numbers, −1 for none), bounds, walks. */
export interface Entries {
  readonly length: number;
  rank(score: number, member: string): number;
  posAt(r: number): number;
  countBelowScore(s: number, inclusive: boolean): number;
  countBelowMember(m: string, inclusive: boolean): number;
  seekScore(s: number, inclusive: boolean, reverse: boolean): number;
  seekMember(m: string, inclusive: boolean, reverse: boolean): number;
  seekKey(score: number, member: string, reverse: boolean): number;
  scoreAt(p: number): number;
  memberAt(p: number): string;
  firstPos(): number;
  lastPos(): number;
  nextPos(p: number): number;
  prevPos(p: number): number;
  runEnd(p: number, reverse: boolean): number;
  collect(p: number, k: number, reverse: boolean, out: [string, number][]): void;
  collectUpTo(p: number, max: number, exclusive: boolean, limit: number, out: [string, number][]): void;
  collectDownTo(p: number, min: number, exclusive: boolean, limit: number, out: [string, number][]): void;
  readonly byteLength: number;
}

/** What an iterator reads of its set (./iterate.ts): positions in walk order, the run at a position, lookups. */
export interface Cursor {
  readonly size: number;
  /** The first position in walk order (the last entry, in reverse), or −1. */
  start(reverse: boolean): number;
  /** The first position after (score, member) in walk order, or −1; the key need not be present. */
  seekKey(score: number, member: string, reverse: boolean): number;
  /** The position after p in walk order, or −1. */
  step(p: number, reverse: boolean): number;
  /** Where the run of consecutive positions from p ends in walk order (exclusive). */
  runEnd(p: number, reverse: boolean): number;
  /** The arrays holding the run at p — its scores and members — and the position of their element 0. */
  runScores(p: number): ArrayLike<number>;
  runMembers(p: number): ArrayLike<string>;
  runOrigin(p: number): number;
  memberAt(p: number): string;
  score(member: string): number | undefined;
}

export class ZSet implements Cursor {
  /** The compact form, or null for the list form. */
  #compact: CompactList | null = null;
  /** The list form: the member index and the ordered list (both null in the compact form). */
  #index: MemberIndex | null = null;
  #list: OrderedList | null = null;
  /** The form in use, for what both do alike. */
  #order: Entries;
  readonly #layout: Layout;
  readonly #compactMax: number;
  /** Entries the list form makes room for when it starts (a hint). */
  readonly #capacity: number;
  /**
   * ZRANDMEMBER's stream and the node levels' (see the module comment), as mulberry32 states (int32
   * bit patterns): a small set keeps two numbers, not two generator objects. The list form draws
   * its levels from a generator started at `#levels` and hands its state back when it is dropped.
   */
  #draws: number;
  #levels: number;

  /** An empty set (or a copy of `from`), its draws seeded by `seed`, room for `capacity` entries (a hint). */
  constructor(seed: number, capacity: number, layout: Layout = LIST_LAYOUT, from?: ZSet) {
    this.#layout = layout;
    this.#compactMax = layout.compactMax ?? COMPACT_MAX;
    this.#capacity = capacity;
    if (from !== undefined) {
      this.#draws = from.#draws;
      this.#levels = from.#levels;
      if (from.#compact !== null) {
        this.#order = this.#compact = new CompactList(from.#compact);
      } else {
        this.#index = new MemberIndex(0, from.#index!);
        this.#order = this.#list = from.#list!.clone();
      }
      return;
    }
    this.#levels = seed | 0;
    this.#draws = (seed ^ DRAW_STREAM) | 0;
    this.#order = this.#empty(capacity);
  }

  /** An empty form: compact unless the layout has none; sets the fields and returns it. */
  #empty(capacity: number): Entries {
    if (this.#compactMax > 0) {
      this.#dropList();
      this.#index = this.#list = null;
      return (this.#compact = new CompactList());
    }
    this.#dropList();
    this.#compact = null;
    this.#index = new MemberIndex(capacity);
    return (this.#list = this.#newList(capacity));
  }

  /** A new, empty list form drawing its levels from where the levels' stream stands. */
  #newList(capacity: number): OrderedList {
    return new OrderedList(this.#layout, capacity, new Mulberry32(this.#levels));
  }

  /** Takes back the levels' stream from the list form about to be dropped. */
  #dropList(): void {
    if (this.#list !== null) this.#levels = this.#list.levelState;
  }

  /** The list form holding the compact form's entries (a set about to pass the bound). O(n). */
  #toList(): void {
    const c = this.#compact!;
    const n = c.length;
    const capacity = Math.max(this.#capacity, 2 * n);
    const index = new MemberIndex(capacity);
    const list = this.#newList(capacity);
    index.fill(c.members, c.scores, n);
    list.loadSorted(c.members, c.scores, null, n);
    this.#compact = null;
    this.#index = index;
    this.#order = this.#list = list;
  }

  /** The compact form holding the list form's entries, once removals leave half the bound or less. O(n). */
  #shrink(): void {
    const list = this.#list;
    if (list === null || list.length > this.#compactMax >> 1 || this.#compactMax === 0) return;
    const n = list.length;
    const members = new Array<string>(n);
    const scores = new Float64Array(n);
    let i = 0;
    for (let p = list.firstPos(); p >= 0; p = list.nextPos(p), i++) {
      members[i] = list.memberAt(p);
      scores[i] = list.scoreAt(p);
    }
    const c = new CompactList();
    c.loadSorted(members, scores, null, n);
    this.#dropList();
    this.#index = this.#list = null;
    this.#order = this.#compact = c;
  }

  /** Whether the compact form is in use (for tests). */
  get compact(): boolean {
    return this.#compact !== null;
  }

  // ---------------------------------------------------------------- members

  /**
   * Number of entries. Read by nearly every call of the API, so it branches on the form here rather
   * than calling through {@link Entries} (one call fewer for V8 to inline into each caller).
   */
  get size(): number {
    const l = this.#list;
    return l !== null ? l.length : this.#compact!.members.length;
  }

  /** The member's score, or undefined when absent. O(1). */
  score(member: string): number | undefined {
    const index = this.#index;
    if (index === null) return this.#compact!.score(member);
    const slot = index.slotOf(member);
    return slot === 0 ? undefined : index.scoreOf(slot);
  }

  /**
   * Adds a member known to be absent. O(log n). May throw when memory runs out; nothing is changed
   * then.
   */
  insert(member: string, score: number): void {
    const c = this.#compact;
    if (c !== null) {
      if (c.length < this.#compactMax) {
        c.insert(score, member);
        return;
      }
      this.#toList();
    }
    const index = this.#index!;
    const slot = index.add(member, score);
    try {
      this.#list!.insert(score, member);
    } catch (e) {
      index.remove(member, slot);
      throw e;
    }
  }

  /** Gives a present member, scored `from`, the score `to`. O(log n); O(1) after the search when it keeps its place. */
  update(member: string, from: number, to: number): void {
    const index = this.#index;
    if (index === null) {
      this.#compact!.update(from, member, to);
      return;
    }
    index.setScore(index.slotOf(member), to);
    this.#list!.update(from, member, to);
  }

  /** Deletes `member`; returns false when it was absent. O(log n). */
  delete(member: string): boolean {
    const index = this.#index;
    if (index === null) {
      const c = this.#compact!;
      const score = c.score(member);
      if (score === undefined) return false;
      c.delete(score, member);
      return true;
    }
    const slot = index.slotOf(member);
    if (slot === 0) return false;
    this.#list!.delete(index.scoreOf(slot), member);
    index.remove(member, slot);
    this.#shrink();
    return true;
  }

  /** Deletes the entries at ranks start..end−1 (0 ≤ start < end ≤ size). O(log n + k). */
  deleteRanks(start: number, end: number): void {
    const c = this.#compact;
    if (c !== null) {
      c.deleteRanks(start, end);
      return;
    }
    const index = this.#index!;
    this.#list!.deleteRanks(start, end, (member) => index.remove(member, index.slotOf(member)));
    this.#shrink();
  }

  /**
   * Fills an empty set with `count` entries in order (see {@link OrderedList.loadSorted}): the
   * compact form when they fit in it, else the list form, bulk-loaded. Returns false when a member
   * repeats (the set is then not usable). O(n).
   */
  loadSorted(
    members: readonly string[],
    scores: ArrayLike<number>,
    order: ArrayLike<number> | null,
    count: number,
  ): boolean {
    const c = this.#compact;
    if (c !== null && count <= this.#compactMax) return c.loadSorted(members, scores, order, count);
    const capacity = Math.max(this.#capacity, count);
    this.#dropList();
    const index = new MemberIndex(capacity);
    const list = this.#newList(capacity);
    const distinct = index.fill(members, scores, count);
    list.loadSorted(members, scores, order, count);
    this.#compact = null;
    this.#index = index;
    this.#order = this.#list = list;
    return distinct;
  }

  /** Empties the set; its arrays go back to their first size (memory is released). */
  clear(): void {
    this.#order = this.#empty(Math.min(this.#capacity, 16));
  }

  /** An independent copy: the same entries and form, both random streams where this one's stand. O(n). */
  clone(): ZSet {
    return new ZSet(0, this.#capacity, this.#layout, this);
  }

  // ---------------------------------------------------------------- reading the form in use

  rank(member: string, score: number): number {
    return this.#order.rank(score, member);
  }

  posAt(r: number): number {
    return this.#order.posAt(r);
  }

  /** The entry at 0-based rank r (0 ≤ r < size), as ZRANGE r r WITHSCORES gives it: one dispatch, not three. */
  entryAt(r: number): [string, number] {
    const l = this.#list;
    if (l !== null) {
      const p = l.posAt(r);
      return [l.memberAt(p), l.scoreAt(p)];
    }
    const c = this.#compact!;
    return [c.members[r]!, c.scores[r]!];
  }

  countBelowScore(s: number, inclusive: boolean): number {
    return this.#order.countBelowScore(s, inclusive);
  }

  countBelowMember(m: string, inclusive: boolean): number {
    return this.#order.countBelowMember(m, inclusive);
  }

  seekScore(s: number, inclusive: boolean, reverse: boolean): number {
    return this.#order.seekScore(s, inclusive, reverse);
  }

  seekMember(m: string, inclusive: boolean, reverse: boolean): number {
    return this.#order.seekMember(m, inclusive, reverse);
  }

  seekKey(score: number, member: string, reverse: boolean): number {
    return this.#order.seekKey(score, member, reverse);
  }

  scoreAt(p: number): number {
    return this.#order.scoreAt(p);
  }

  memberAt(p: number): string {
    return this.#order.memberAt(p);
  }

  firstPos(): number {
    return this.#order.firstPos();
  }

  lastPos(): number {
    return this.#order.lastPos();
  }

  nextPos(p: number): number {
    return this.#order.nextPos(p);
  }

  prevPos(p: number): number {
    return this.#order.prevPos(p);
  }

  collect(p: number, k: number, reverse: boolean, out: [string, number][]): void {
    this.#order.collect(p, k, reverse, out);
  }

  collectUpTo(p: number, max: number, exclusive: boolean, limit: number, out: [string, number][]): void {
    this.#order.collectUpTo(p, max, exclusive, limit, out);
  }

  collectDownTo(p: number, min: number, exclusive: boolean, limit: number, out: [string, number][]): void {
    this.#order.collectDownTo(p, min, exclusive, limit, out);
  }

  // ---------------------------------------------------------------- Cursor

  start(reverse: boolean): number {
    return reverse ? this.#order.lastPos() : this.#order.firstPos();
  }

  step(p: number, reverse: boolean): number {
    return reverse ? this.#order.prevPos(p) : this.#order.nextPos(p);
  }

  runEnd(p: number, reverse: boolean): number {
    return this.#order.runEnd(p, reverse);
  }

  runScores(p: number): ArrayLike<number> {
    const c = this.#compact;
    return c !== null ? c.scores : this.#list!.store.es[p >>> CHUNK_BITS]!;
  }

  runMembers(p: number): ArrayLike<string> {
    const c = this.#compact;
    return c !== null ? c.members : this.#list!.store.em[p >>> CHUNK_BITS]!;
  }

  runOrigin(p: number): number {
    return this.#compact !== null ? 0 : (p >>> CHUNK_BITS) << CHUNK_BITS;
  }

  // ---------------------------------------------------------------- set operations (./ops.ts)

  /**
   * Calls fn(id, member) for every member: ids are small positive integers, distinct per member and
   * stable while the set does not change (slots in the list form, in the index's order — the order
   * the member strings were allocated in, kind to the cache; places + 1 in the compact form).
   */
  forEachId(fn: (id: number, member: string) => void): void {
    const index = this.#index;
    if (index !== null) {
      index.forEach(fn);
      return;
    }
    const members = this.#compact!.members;
    for (let i = 0; i < members.length; i++) fn(i + 1, members[i]!);
  }

  /** The id of `member` (see {@link forEachId}), or 0 when absent. */
  idOf(member: string): number {
    const index = this.#index;
    if (index !== null) return index.slotOf(member);
    const c = this.#compact!;
    const score = c.score(member);
    return score === undefined ? 0 : c.rank(score, member) + 1;
  }

  /** Every id is below this. */
  get idBound(): number {
    return this.#index !== null ? this.#index.slotBound : this.#compact!.length + 1;
  }

  /** The score of the member with id `id`. */
  scoreOfId(id: number): number {
    const index = this.#index;
    return index !== null ? index.scoreOf(id) : this.#compact!.scores[id - 1]!;
  }

  // ---------------------------------------------------------------- random draws

  /** A uniform integer in [0, n), n ≤ 2^26, from ZRANDMEMBER's stream (rejection keeps it exact). */
  randomBelow(n: number): number {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      this.#draws = (this.#draws + MULBERRY_STEP) | 0;
      const u = mulberry32Output(this.#draws);
      if (u < limit) return u % n;
    }
  }

  /** The seed from which ZRANDMEMBER's stream continues where it stands (what toBytes records). */
  get generatorState(): number {
    return this.#draws >>> 0;
  }

  // ---------------------------------------------------------------- diagnostics

  /** Bytes held by the form's arrays (typed arrays in the list form; the two entry arrays in the compact one). */
  get byteLength(): number {
    const index = this.#index;
    return this.#order.byteLength + (index === null ? 0 : index.byteLength);
  }

  /** Walks the form in use and throws an Error naming the first broken invariant. O(n). */
  checkInvariants(where: string): void {
    const c = this.#compact;
    if (c !== null) checkCompact(c, this.#compactMax, where);
    else checkIndexed(this.#list!, this.#index!, this.#compactMax, where);
  }
}
