/**
 * The ordered list behind a large `SortedSet`: a randomized skiplist of *macro nodes* (William Pugh,
 * "Skip Lists: A Probabilistic Alternative to Balanced Trees", 1990; Redis's zskiplist, src/t_zset.c,
 * with the several-entries-per-node layout Redis's own zset is moving to, redis/redis#15353). Its
 * memory — towers, entry blocks, allocators — is the node store's (./store.ts); the member index
 * beside it is ./members.ts; ./zset.ts composes the two.
 *
 * Algorithm: entries are ordered by (score, member in UTF-8 byte order). They are kept in nodes of
 * at most B entries each, in order inside a node and across nodes. Each node draws a level L with
 * probability p^(L−1)·(1−p) (p = 2^−levelBits), capped at 32, and carries a forward link per level.
 * Every link carries a *span*: the number of entries from the first entry of its source node to the
 * first entry of its target (to the end of the list for a level's last link). The rank of an entry
 * is the sum of the spans followed to reach its node plus its offset inside the node, so rank, the
 * entry at a rank and counts below a bound are all O(log n). Each node caches the score of its first
 * entry, so a descent compares against the node it may step to without reading that node's entries.
 *
 * Every search is one descent ({@link OrderedList.#descend}), parameterised by what it compares:
 * a key (score, member), a score bound, a member bound, or a rank. It leaves the path — the last
 * node at or before the target on each level, and their ranks — in the list's own scratch, which
 * the change that follows (an insert, a removal, a split) reads and updates.
 *
 * Splits and merges: an insert into a full node first shifts entries into the next node, or the
 * previous one, when it has room (evening the two out); when both neighbours are full, two full
 * nodes split into three, which keeps nodes about 7/8 full under random inserts. An append after
 * the last entry of the last node, or before the first of the first, starts a new node instead,
 * so ordered loads fill nodes completely. A node left with fewer than B/4 entries (other than the
 * first and the last, which need only one) is merged into a neighbour when both fit in 3B/4
 * entries, or takes entries from it otherwise — the gap between the two bounds keeps an insert and
 * a delete at one boundary from splitting and merging over and over.
 *
 * Invariants (checked by ./invariants.ts): entries strictly increase in (score, member) inside and
 * across nodes; every node holds 1..B entries, and ≥ ⌊B/4⌋ unless it is the first or the last; a
 * node's first score equals its entry 0's score; spans equal rank differences; the backward and up
 * links mirror the forward ones; `tail` is the last node and `level` the highest level in use;
 * unused positions and free blocks hold no member string.
 *
 * Costs (n entries, N ≈ n/(0.8·B) nodes): insert, delete, a score update that moves the entry, rank,
 * entry at a rank, counts below a bound: O(log N + B) expected, each touching one or two entry
 * blocks; a score update that keeps the entry between its neighbours: O(1); delete of k consecutive
 * ranks: O(log N + k); bulk load of n sorted entries: O(n).
 */
import { Mulberry32 } from "../internal/random.js";
import { compareMembers } from "./order.js";
import { LAYOUT, type NodeId, NodeStore, type Pos } from "./store.js";

// The store's constants as this module's own (see LAYOUT: an imported binding is not folded).
const { CHUNK_BITS, HEADER, LINKS, MAX_LEVEL, NIL, NO_POS } = LAYOUT;

const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

/** The list's shape parameters (chosen by measurement, docs/skiplist.md; tests use tiny nodes). */
export interface ListLayout {
  /** Entries per node, B: 2..4096. */
  nodeSize: number;
  /** Node levels use p = 2^−levelBits: 1..8. */
  levelBits: number;
}

/**
 * What a descent compares, and so where it stops: on each level it steps to the next node while
 * that node's first entry is
 * - KEY: at or before the key (score, member) — it ends at the last node starting at or before it;
 * - SCORE: scored below the bound (at or below it when inclusive);
 * - MEMBER: a member below the bound in byte order (at or below it when inclusive);
 * - RANK: at a rank ≤ r — it ends at the node holding rank r;
 * - BEFORE: such that the whole node lies before rank r — it ends at the node before rank r's.
 * Every caller passes a constant kind, so where the descent is inlined the other kinds' tests fold
 * away and the loop is the one a descent written for that kind alone would be.
 */
const KEY = 0;
const SCORE = 1;
const MEMBER = 2;
const RANK = 3;
const BEFORE = 4;
type Kind = typeof KEY | typeof SCORE | typeof MEMBER | typeof RANK | typeof BEFORE;

/** Called with each member a range removal takes out. */
export type OnRemove = (member: string) => void;

export class OrderedList {
  /** Towers and entries (./store.ts). */
  readonly store: NodeStore;
  /** B: most entries in a node. */
  readonly nodeSize: number;
  /** Interior nodes hold at least this many entries. */
  readonly minFill: number;
  /** An underfull node merges into a neighbour when both fit in this many entries. */
  readonly mergeMax: number;
  readonly levelBits: number;
  /** Number of entries. */
  #length = 0;
  /** Highest level in use, 1..32. */
  #level = 1;
  /** Last node, or NIL when empty. */
  #tail = NIL;
  /**
   * The path of the last descent, for the change that follows: per level the last node at or
   * before the target, and its rank (the rank of its first entry; 0 for the header).
   */
  readonly #update = new Int32Array(MAX_LEVEL);
  readonly #rankAt = new Int32Array(MAX_LEVEL);
  /** The rank of the node the last descent ended at (what rankAt[0] holds after a descent that fills the path). */
  #found = 0;
  /** The node the last descent ended at (HEADER when even the first node is past the target). */
  #foundNode: NodeId = HEADER;
  /** Draws node levels (started where the set's levels' stream stands; handed back when dropped). */
  readonly #levels: Mulberry32;
  /** Bits of a draw used for levels (a multiple of levelBits), and the mask that hides the rest. */
  readonly #levelUsed: number;
  readonly #levelLow: number;

  /**
   * An empty list with room for `capacity` entries (a hint), its levels drawn from `levels` — or a
   * copy of `from` drawing from `levels`.
   */
  constructor(layout: ListLayout, capacity: number, levels: Mulberry32, from?: OrderedList) {
    const b = layout.nodeSize;
    this.nodeSize = b;
    // From B = 8 on, interior nodes keep B/4 entries and merges stop at 3B/4, leaving a gap so that
    // alternating inserts and deletes at one boundary do not split and merge over and over. Tiny
    // nodes (the tests') keep half, merging up to B: the bound a split into two still meets.
    this.minFill = b < 8 ? (b + 1) >> 1 : b >> 2;
    this.mergeMax = b < 8 ? b : b - (b >> 2);
    this.levelBits = layout.levelBits;
    this.#levelUsed = Math.floor(32 / this.levelBits) * this.levelBits;
    this.#levelLow = this.#levelUsed === 32 ? 0 : (1 << (32 - this.#levelUsed)) - 1;
    this.#levels = levels;
    this.store = new NodeStore(b, capacity, from?.store);
    if (from !== undefined) {
      this.#length = from.#length;
      this.#level = from.#level;
      this.#tail = from.#tail;
    }
  }

  /** Number of entries. */
  get length(): number {
    return this.#length;
  }

  /** Highest level in use. */
  get level(): number {
    return this.#level;
  }

  /** Last node, or NIL. */
  get tail(): NodeId {
    return this.#tail;
  }

  /** The layout, for a copy or a list of the same shape. */
  get layout(): ListLayout {
    return { nodeSize: this.nodeSize, levelBits: this.levelBits };
  }

  /** An independent copy, its levels drawn from where this list's draws stand. O(n). */
  clone(): OrderedList {
    return new OrderedList(this.layout, 0, new Mulberry32(this.#levels.state), this);
  }

  /** Where the level draws stand (a mulberry32 state), for a list that continues them. */
  get levelState(): number {
    return this.#levels.state;
  }

  /**
   * Draws a node level with P(L) = p^(L−1)·(1−p), p = 2^−levelBits, capped at 32: each run of
   * levelBits leading zero bits of a uniform draw is one promotion; a draw whose used bits are all
   * zero continues with a fresh draw, so the distribution is exact up to the cap.
   */
  #randomLevel(): number {
    const used = this.#levelUsed;
    let level = 1;
    for (;;) {
      const z = Math.clz32(this.#levels.next() | this.#levelLow);
      if (z < used) {
        level += (z / this.levelBits) | 0;
        return level < MAX_LEVEL ? level : MAX_LEVEL;
      }
      level += used / this.levelBits;
      if (level >= MAX_LEVEL) return MAX_LEVEL;
    }
  }

  // ---------------------------------------------------------------- descents

  /**
   * The one descent: from the top level down, steps forward while the next node's first entry is
   * on this side of the target ({@link Kind}). Returns the node it ends at (HEADER when even the
   * first node is past the target), also left in `#foundNode`, with its rank in `#found`. With
   * `path`, fills the path too (the last node at or before the target on each level, and its rank),
   * which a change reads; a read skips those writes.
   */
  #descend(kind: Kind, score: number, member: string, r: number, inclusive: boolean, path = true): NodeId {
    const t = this.store.t;
    const update = this.#update;
    const rankAt = this.#rankAt;
    let x: number = HEADER;
    let rank = 0;
    // `stop` is the node a higher level stopped before: known to be past the target, so the lower
    // levels need not compare it again.
    let stop: number = NIL;
    for (let i = this.#level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      for (let y = t[link]!; y !== NIL && y !== stop; y = t[link]!) {
        const ry = rank + t[link + 1]!;
        if (this.#past(kind, y as NodeId, ry, score, member, r, inclusive)) {
          stop = y;
          break;
        }
        rank = ry;
        x = y;
        link = x + LINKS + 2 * i;
      }
      if (path) {
        update[i] = x;
        rankAt[i] = rank;
      }
    }
    this.#found = rank;
    this.#foundNode = x as NodeId;
    return x as NodeId;
  }

  /** Whether node y, whose first entry has rank ry, lies past the descent's target (see {@link Kind}). */
  #past(kind: Kind, y: NodeId, ry: number, score: number, member: string, r: number, inclusive: boolean): boolean {
    const s = this.store;
    if (kind === RANK) return ry > r;
    if (kind === BEFORE) return ry + s.count(y) > r;
    if (kind === MEMBER) {
      const c = compareMembers(s.memberAt(s.base(y)), member);
      return c > 0 || (c === 0 && !inclusive);
    }
    const ys = s.firstScore(y);
    if (ys !== score) return ys > score;
    return kind === KEY ? compareMembers(s.memberAt(s.base(y)), member) > 0 : !inclusive;
  }

  /** Fills the path with node x's: the last node at or before x on each level, walking up links. */
  #pathOf(x: NodeId): void {
    const s = this.store;
    const update = this.#update;
    const top = this.#level;
    let i = 0;
    for (;;) {
      const l = s.level(x);
      while (i < l && i < top) update[i++] = x;
      if (i >= top) return;
      x = l === 1 ? s.back(x) : s.up(x);
    }
  }

  /** Adds d to the span of every link of the path (an entry added to or removed from its node). */
  #addToPath(d: number): void {
    const s = this.store;
    const update = this.#update;
    for (let i = 0; i < this.#level; i++) s.addSpan(update[i]! as NodeId, i, d);
  }

  /** Number of entries of node x sorting before (score, member) (binary search). */
  #entriesBefore(x: NodeId, score: number, member: string): number {
    const s = this.store;
    const base = s.base(x);
    const es = s.es[base >>> CHUNK_BITS]!;
    const em = s.em[base >>> CHUNK_BITS]!;
    const lb = base & CHUNK_MASK;
    const n = s.count(x);
    // The first entry scoring ≥ score, by scores alone: the step carries no member comparison, so it
    // compiles to conditional moves instead of a branch the random keys mispredict.
    let lo = lb;
    let len = n;
    while (len > 1) {
      const half = len >>> 1;
      lo = es[lo + half - 1]! < score ? lo + half : lo;
      len -= half;
    }
    if (len === 1 && es[lo]! < score) lo++;
    if (lo === lb + n || es[lo] !== score) return lo - lb;
    // Equal scores order by member bytes: search that run by member.
    let hi = lo + 1;
    while (hi < lb + n && es[hi] === score) hi++;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareMembers(em[mid]!, member) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - lb;
  }

  /**
   * Entries of the node a SCORE descent ended at that lie below the bound (at least 1: its first
   * entry is), by binary search from entry 1.
   */
  #belowScore(x: NodeId, score: number, inclusive: boolean): number {
    const s = this.store;
    const base = s.base(x);
    const es = s.es[base >>> CHUNK_BITS]!;
    const lb = base & CHUNK_MASK;
    let lo = 1;
    let hi = s.count(x);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = es[lb + mid]!;
      if (v < score || (inclusive && v === score)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** {@link #belowScore} for a MEMBER descent. */
  #belowMember(x: NodeId, member: string, inclusive: boolean): number {
    const s = this.store;
    const base = s.base(x);
    const em = s.em[base >>> CHUNK_BITS]!;
    const lb = base & CHUNK_MASK;
    let lo = 1;
    let hi = s.count(x);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareMembers(em[lb + mid]!, member);
      if (c < 0 || (inclusive && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A score bound's descent: the entries below the bound in the node it ends at (that node stays the path's foot). */
  #boundScore(score: number, inclusive: boolean): number {
    const x = this.#descend(SCORE, score, "", 0, inclusive, false);
    return x === HEADER ? 0 : this.#belowScore(x, score, inclusive);
  }

  /** A member bound's descent, as {@link #boundScore}. */
  #boundMember(member: string, inclusive: boolean): number {
    const x = this.#descend(MEMBER, 0, member, 0, inclusive, false);
    return x === HEADER ? 0 : this.#belowMember(x, member, inclusive);
  }

  /** After a bound's descent: the first entry not below the bound (forward), or the last below it (reverse). */
  #boundPos(j: number, reverse: boolean): Pos {
    const s = this.store;
    const x = this.#foundNode;
    if (x === HEADER) return reverse ? NO_POS : this.firstPos();
    if (reverse) return (s.base(x) + j - 1) as Pos;
    if (j < s.count(x)) return (s.base(x) + j) as Pos;
    const y = s.next(x, 0);
    return y === NIL ? NO_POS : s.base(y);
  }

  // ---------------------------------------------------------------- reading

  /** The 0-based rank of the entry (score, member), which must be present. O(log N + log B). */
  rank(score: number, member: string): number {
    const x = this.#descend(KEY, score, member, 0, false, false);
    return this.#found + this.#entriesBefore(x, score, member);
  }

  /** Position of the entry (score, member), which must be present; its node's path stays in the scratch. */
  #find(score: number, member: string): Pos {
    const x = this.#descend(KEY, score, member, 0, false);
    return (this.store.base(x) + this.#entriesBefore(x, score, member)) as Pos;
  }

  /** Position of the entry at 0-based rank r (0 ≤ r < length). O(log N). */
  posAt(r: number): Pos {
    const x = this.#descend(RANK, 0, "", r, false, false);
    return (this.store.base(x) + (r - this.#found)) as Pos;
  }

  /** Number of entries scored below s (at or below s when `inclusive`). O(log N). */
  countBelowScore(s: number, inclusive: boolean): number {
    const j = this.#boundScore(s, inclusive);
    return this.#found + j;
  }

  /**
   * Number of entries whose member is below m (at or below when `inclusive`) in byte order,
   * descending as ZRANGEBYLEX does: exact when all scores are equal (the only case Redis defines).
   * O(log N).
   */
  countBelowMember(m: string, inclusive: boolean): number {
    const j = this.#boundMember(m, inclusive);
    return this.#found + j;
  }

  /**
   * The first entry not counted by {@link countBelowScore}(s, inclusive) — or, with `reverse`, the
   * last one counted: where a range from that bound starts walking. −1 when there is none. O(log N).
   */
  seekScore(s: number, inclusive: boolean, reverse: boolean): Pos {
    return this.#boundPos(this.#boundScore(s, inclusive), reverse);
  }

  /** {@link seekScore} for a member bound. */
  seekMember(m: string, inclusive: boolean, reverse: boolean): Pos {
    return this.#boundPos(this.#boundMember(m, inclusive), reverse);
  }

  /**
   * Position of the first entry sorting after (score, member) — the last sorting before it when
   * `reverse` — or −1 when there is none. The key need not be present. O(log N + log B).
   */
  seekKey(score: number, member: string, reverse: boolean): Pos {
    const x = this.#descend(KEY, score, member, 0, false);
    if (x === HEADER) return reverse ? NO_POS : this.firstPos();
    const s = this.store;
    const base = s.base(x);
    const j = this.#entriesBefore(x, score, member); // node x's entries before the key: its first is not
    if (reverse) return j > 0 ? ((base + j - 1) as Pos) : this.prevPos(base);
    if (j === s.count(x)) {
      const y = s.next(x, 0);
      return y === NIL ? NO_POS : s.base(y);
    }
    const p = (base + j) as Pos;
    return s.memberAt(p) === member && s.scoreAt(p) === score ? this.nextPos(p) : p;
  }

  scoreAt(p: Pos): number {
    return this.store.scoreAt(p);
  }

  memberAt(p: Pos): string {
    return this.store.memberAt(p);
  }

  /** Position of the first entry, or −1 when empty. */
  firstPos(): Pos {
    const x = this.store.next(HEADER, 0);
    return x === NIL ? NO_POS : this.store.base(x);
  }

  /** Position of the last entry, or −1 when empty. */
  lastPos(): Pos {
    return this.#tail === NIL ? NO_POS : this.store.last(this.#tail);
  }

  /** Position of the entry after p, or −1. */
  nextPos(p: Pos): Pos {
    const s = this.store;
    const x = s.nodeOf(p);
    if (p < s.last(x)) return (p + 1) as Pos;
    const y = s.next(x, 0);
    return y === NIL ? NO_POS : s.base(y);
  }

  /** Position of the entry before p, or −1. */
  prevPos(p: Pos): Pos {
    const s = this.store;
    const x = s.nodeOf(p);
    if (p > s.base(x)) return (p - 1) as Pos;
    const w = s.back(x);
    return w === NIL ? NO_POS : s.last(w);
  }

  /** Where the run of consecutive positions from p through its node ends: one past the node's last (before its first, in reverse). */
  runEnd(p: Pos, reverse: boolean): number {
    const s = this.store;
    const x = s.nodeOf(p);
    return reverse ? s.base(x) - 1 : s.base(x) + s.count(x);
  }

  /** True when the entry at p sorts before (score, member). */
  #entryBefore(p: Pos, score: number, member: string): boolean {
    const s = this.store.scoreAt(p);
    return s < score || (s === score && compareMembers(this.store.memberAt(p), member) < 0);
  }

  // ---------------------------------------------------------------- changes

  /** Inserts (score, member), which must not be present. O(log N + B). May throw when memory runs out; nothing is changed then. */
  insert(score: number, member: string): void {
    const s = this.store;
    const update = this.#update;
    const rankAt = this.#rankAt;
    let x = this.#descend(KEY, score, member, 0, false);
    let j: number;
    if (x === HEADER) {
      x = s.next(HEADER, 0);
      if (x === NIL) x = this.#splitAfter(HEADER, 0); // the first node
      for (let i = 0; i < s.level(x); i++) {
        update[i] = x;
        rankAt[i] = 0;
      }
      j = 0;
    } else {
      j = this.#entriesBefore(x, score, member);
    }
    if (s.count(x) === this.nodeSize) this.#makeRoom(x, j, score, member);
    else s.putEntry(x, j, score, member);
    this.#addToPath(1);
    this.#length++;
  }

  /**
   * Puts (score, member) at offset j of full node x (the path holding x's), making room first, and
   * leaves the path of the node it went to. An append past the last entry of the last node, or
   * before the first of the first, starts a new node, so ordered loads fill nodes completely.
   * Otherwise entries shift into the next node when it has room (evening out the two), or into the
   * previous one; when both are full, two full nodes split into three.
   */
  #makeRoom(x: NodeId, j: number, score: number, member: string): void {
    const s = this.store;
    const rankAt = this.#rankAt;
    const b = this.nodeSize;
    const y = s.next(x, 0);
    const appends = j === b && y === NIL;
    const prepends = j === 0 && s.back(x) === NIL;
    if (!appends && !prepends && y !== NIL) {
      const m = s.count(y);
      if (m < b - 1) {
        const k = (b - m + 1) >> 1; // even out the free room of x and y; y keeps one at least
        s.moveEntries(x, b - k, k, y, 0);
        this.#shiftStart(y, -k, x);
        if (j > b - k) this.#putEntered(y, j - (b - k), rankAt[0]! + b - k, score, member);
        else s.putEntry(x, j, score, member);
        return;
      }
      const w = s.back(x);
      const mw = w === NIL ? b : s.count(w);
      if (mw < b - 1) {
        // Shift x's first entries into the previous node instead; x starts k entries later.
        const k = (b - mw + 1) >> 1;
        this.#pathOf(w);
        s.moveEntries(x, 0, k, w, mw);
        this.#shiftStart(x, k, w);
        // Ranks are not needed past this point: no node is added.
        if (j < k) this.#putEntered(w, mw + j, 0, score, member);
        else this.#putEntered(x, j - k, 0, score, member);
        return;
      }
      const third = Math.floor(b / 3);
      if (third >= 1 && 2 * third >= this.minFill && m - third >= this.minFill) {
        // x and y (nearly) full: a new node z between them takes the last third of x and the first of y.
        const z = this.#splitAfter(x, b - third);
        s.moveEntries(y, 0, third, z, third);
        this.#shiftStart(y, third, z);
        if (j > b - third) this.#putEntered(z, j - (b - third), rankAt[0]! + b - third, score, member);
        else s.putEntry(x, j, score, member);
        return;
      }
    }
    // Halves of the B + 1 entries, the new one included: x keeps ⌈(B+1)/2⌉.
    const half = (b + 2) >> 1;
    const h = appends ? b : prepends ? 0 : j < half ? half - 1 : half;
    const z = this.#splitAfter(x, h);
    if (appends || (j >= half && !prepends)) this.#putEntered(z, j - h, rankAt[0]! + h, score, member);
    else s.putEntry(x, j, score, member);
  }

  /** Puts the entry at offset j of node y, whose rank is ry, after making y's own levels its path. */
  #putEntered(y: NodeId, j: number, ry: number, score: number, member: string): void {
    const update = this.#update;
    const rankAt = this.#rankAt;
    for (let i = 0; i < this.store.level(y); i++) {
      update[i] = y;
      rankAt[i] = ry;
    }
    this.store.putEntry(y, j, score, member);
  }

  /**
   * Creates a node y after node x (the path holding x's) and moves x's entries from offset h on into
   * it. Returns y. The node is allocated before anything changes.
   */
  #splitAfter(x: NodeId, h: number): NodeId {
    const s = this.store;
    const update = this.#update;
    const rankAt = this.#rankAt;
    const level = this.#randomLevel();
    const y = s.newNode(level);
    if (level > this.#level) {
      for (let i = this.#level; i < level; i++) {
        update[i] = HEADER;
        rankAt[i] = 0;
        s.setLink(HEADER, i, NIL, this.#length);
      }
      this.#level = level;
    }
    if (x !== HEADER) s.moveEntries(x, h, s.count(x) - h, y, 0);
    const ry = rankAt[0]! + h;
    for (let i = 0; i < level; i++) {
      const p = update[i]! as NodeId;
      const next = s.next(p, i);
      const d = ry - rankAt[i]!;
      s.setLink(y, i, next, s.span(p, i) - d);
      s.setLink(p, i, y, d);
      // y now precedes `next` at level i; if that is next's top level (≥ 2), it is next's up link.
      if (i > 0 && next !== NIL && s.level(next) === i + 1) s.setUp(next, y);
    }
    if (level > 1) s.setUp(y, update[level - 1]! as NodeId);
    s.setBack(y, x);
    const after = s.next(y, 0);
    if (after !== NIL) s.setBack(after, y);
    else this.#tail = y;
    return y;
  }

  /** Deletes the entry (score, member), which must be present. O(log N + B). */
  delete(score: number, member: string): void {
    this.#removeAt(this.#find(score, member));
  }

  /** Unlinks the entry at p (the path holding its node's), rebalancing its node when underfull. */
  #removeAt(p: Pos): void {
    const s = this.store;
    const x = s.nodeOf(p);
    s.closeGap(x, p - s.base(x), 1);
    this.#addToPath(-1);
    this.#length--;
    this.#rebalance(x);
  }

  /** Whether node x breaks the fill bound: empty, or an interior node under ⌊B/4⌋. */
  #underfull(x: NodeId): boolean {
    const s = this.store;
    const n = s.count(x);
    return n === 0 || (n < this.minFill && s.back(x) !== NIL && s.next(x, 0) !== NIL);
  }

  /**
   * Restores the fill bound at node x: an empty node is unlinked; an underfull interior node is
   * merged into the previous node when both fit in 3B/4 entries, or takes entries from it to even
   * them out. (The first and the last node need only one entry, so an underfull node has both
   * neighbours.)
   */
  #rebalance(x: NodeId): void {
    if (!this.#underfull(x)) return;
    const s = this.store;
    const n = s.count(x);
    const w = s.back(x);
    this.#pathOf(w);
    if (n === 0) {
      this.#unlink(x);
      return;
    }
    const m = s.count(w);
    if (m + n <= this.mergeMax) {
      s.moveEntries(x, 0, n, w, m); // ranks unchanged: x's spans fold into its predecessors'
      this.#unlink(x);
    } else {
      const k = (m - n) >> 1;
      s.moveEntries(w, m - k, k, x, 0);
      this.#shiftStart(x, -k, w); // x starts k entries earlier
    }
  }

  /**
   * Node y's first entry moved d ranks (entries moved between y and `prev`, the node before it):
   * the links into y — from `prev` at prev's levels, else from the path (which runs through prev) —
   * change by d, and y's own links by −d.
   */
  #shiftStart(y: NodeId, d: number, prev: NodeId): void {
    const s = this.store;
    const update = this.#update;
    const level = s.level(y);
    const own = prev === HEADER ? 0 : s.level(prev);
    for (let i = 0; i < level; i++) {
      s.addSpan(i < own ? prev : (update[i]! as NodeId), i, d);
      s.addSpan(y, i, -d);
    }
  }

  /** Unlinks node x, whose predecessors are the path, folding its spans into theirs, and frees it. */
  #unlink(x: NodeId): void {
    const s = this.store;
    const update = this.#update;
    const level = s.level(x);
    for (let i = 0; i < level; i++) {
      const p = update[i]! as NodeId;
      const next = s.next(x, i);
      s.setLink(p, i, next, s.span(p, i) + s.span(x, i));
      // x's predecessor at level i becomes next's up link when level i is next's top (≥ 2).
      if (i > 0 && next !== NIL && s.level(next) === i + 1) s.setUp(next, p);
    }
    const after = s.next(x, 0);
    if (after !== NIL) s.setBack(after, s.back(x));
    else this.#tail = s.back(x);
    while (this.#level > 1 && s.next(HEADER, this.#level - 1) === NIL) this.#level--;
    s.freeNode(x);
  }

  /**
   * Gives the entry (score, member), which must be present, the score `to`. When its neighbours
   * still bracket it the score is written in place (O(1) after the descent, as Redis's
   * zslUpdateScore does); when it stays inside its node, the entries between its old and new places
   * move over by one (no span changes); otherwise it is unlinked and inserted again.
   */
  update(score: number, member: string, to: number): void {
    const s = this.store;
    const p = this.#find(score, member);
    const prev = this.prevPos(p);
    const next = this.nextPos(p);
    if ((prev < 0 || this.#entryBefore(prev, to, member)) && (next < 0 || !this.#entryBefore(next, to, member))) {
      s.rescore(p, to);
      return;
    }
    const x = s.nodeOf(p);
    const w = s.back(x);
    const y = s.next(x, 0);
    if (
      s.count(x) > 1 &&
      (w === NIL || this.#entryBefore(s.last(w), to, member)) &&
      (y === NIL || !this.#entryBefore(s.base(y), to, member))
    ) {
      s.moveWithin(x, p, this.#entriesBefore(x, to, member), to); // counts the old entry when it sorts before
      return;
    }
    this.#removeAt(p);
    this.insert(to, member);
  }

  /**
   * Deletes the entries at 0-based ranks start..end−1 (0 ≤ start < end ≤ length), Redis's
   * zslDeleteRangeByRank on nodes: one descent to the node before the start, then whole nodes
   * unlinked or trimmed as the path advances, and the two nodes at the ends rebalanced. Each member
   * taken out is passed to `removed`. O(log N + k).
   */
  deleteRanks(start: number, end: number, removed: OnRemove): void {
    const s = this.store;
    const update = this.#update;
    const x = this.#descend(BEFORE, 0, "", start, false);
    let cur = s.next(x, 0);
    let j = start - (this.#rankAt[0]! + s.count(x));
    let remaining = end - start;
    let first = NIL;
    let last = NIL;
    while (remaining > 0) {
      const n = s.count(cur);
      const k = Math.min(n - j, remaining);
      const base = s.base(cur);
      const em = s.em[base >>> CHUNK_BITS]!;
      const from = (base & CHUNK_MASK) + j;
      for (let p = from; p < from + k; p++) removed(em[p]!);
      this.#length -= k;
      s.closeGap(cur, j, k);
      const level = s.level(cur);
      for (let i = 0; i < this.#level; i++) s.addSpan(i < level ? cur : (update[i]! as NodeId), i, -k);
      remaining -= k;
      const next = s.next(cur, 0);
      if (n === k) {
        this.#unlink(cur);
      } else {
        if (first === NIL) first = cur;
        else last = cur;
        for (let i = 0; i < level; i++) update[i] = cur;
      }
      cur = next;
      j = 0;
    }
    if (first !== NIL) this.#rebalance(first);
    if (last !== NIL && s.count(last) !== 0) this.#rebalance(last);
  }

  // ---------------------------------------------------------------- walks

  /** Pushes k entries as [member, score] from position p on, forward or backward. */
  collect(p: Pos, k: number, reverse: boolean, out: [string, number][]): void {
    const s = this.store;
    let x = s.nodeOf(p);
    let j = p - s.base(x);
    while (k > 0) {
      const base = s.base(x);
      const es = s.es[base >>> CHUNK_BITS]!;
      const em = s.em[base >>> CHUNK_BITS]!;
      const lb = base & CHUNK_MASK;
      if (reverse) {
        for (; j >= 0 && k > 0; j--, k--) out.push([em[lb + j]!, es[lb + j]!]);
        x = s.back(x);
        j = s.count(x) - 1;
      } else {
        const n = s.count(x);
        for (; j < n && k > 0; j++, k--) out.push([em[lb + j]!, es[lb + j]!]);
        x = s.next(x, 0);
        j = 0;
      }
    }
  }

  /** Pushes the entries from p on while their score is ≤ max (< max when exclusive), at most `limit`. */
  collectUpTo(p: Pos, max: number, exclusive: boolean, limit: number, out: [string, number][]): void {
    if (p < 0) return;
    const s = this.store;
    let x = s.nodeOf(p);
    let j = p - s.base(x);
    while (x !== NIL) {
      const base = s.base(x);
      const es = s.es[base >>> CHUNK_BITS]!;
      const em = s.em[base >>> CHUNK_BITS]!;
      const lb = base & CHUNK_MASK;
      const n = s.count(x);
      for (; j < n; j++) {
        const v = es[lb + j]!;
        if ((exclusive ? v >= max : v > max) || out.length >= limit) return;
        out.push([em[lb + j]!, v]);
      }
      x = s.next(x, 0);
      j = 0;
    }
  }

  /** Pushes the entries from p backward while their score is ≥ min (> min when exclusive), at most `limit`. */
  collectDownTo(p: Pos, min: number, exclusive: boolean, limit: number, out: [string, number][]): void {
    if (p < 0) return;
    const s = this.store;
    let x = s.nodeOf(p);
    let j = p - s.base(x);
    while (x !== NIL) {
      const base = s.base(x);
      const es = s.es[base >>> CHUNK_BITS]!;
      const em = s.em[base >>> CHUNK_BITS]!;
      const lb = base & CHUNK_MASK;
      for (; j >= 0; j--) {
        const v = es[lb + j]!;
        if ((exclusive ? v <= min : v < min) || out.length >= limit) return;
        out.push([em[lb + j]!, v]);
      }
      x = s.back(x);
      j = s.count(x) - 1;
    }
  }

  // ---------------------------------------------------------------- bulk load

  /**
   * Fills an empty list with `count` entries given in order: entry k is (scores[order[k]],
   * members[order[k]]) (order null: k itself), strictly increasing in (score, member) — the caller
   * sorted them and made the members distinct. One pass, no search: nodes are filled to 7/8 of B,
   * each linked after the last node of each of its levels, spans read off the ranks. O(n).
   */
  loadSorted(
    members: readonly string[],
    scores: ArrayLike<number>,
    order: ArrayLike<number> | null,
    count: number,
  ): void {
    const s = this.store;
    const update = this.#update;
    const rankAt = this.#rankAt;
    update.fill(HEADER);
    rankAt.fill(0);
    const b = this.nodeSize;
    const fill = b - (b >> 3);
    const nodes = Math.ceil(count / fill);
    const per = nodes === 0 ? 0 : Math.floor(count / nodes);
    const extra = nodes === 0 ? 0 : count % nodes;
    let top = 1;
    let prev = HEADER;
    let k = 0;
    for (let node = 0; node < nodes; node++) {
      const n = per + (node < extra ? 1 : 0);
      const level = this.#randomLevel();
      if (level > top) top = level;
      const x = s.newNode(level);
      const base = s.base(x);
      s.room(base + n);
      const es = s.es[base >>> CHUNK_BITS]!;
      const em = s.em[base >>> CHUNK_BITS]!;
      const lb = base & CHUNK_MASK;
      for (let e = 0; e < n; e++, k++) {
        const i = order === null ? k : order[k]!;
        es[lb + e] = scores[i]!;
        em[lb + e] = members[i]!;
      }
      s.addCount(x, n);
      s.setFirstScore(x, es[lb]!);
      const rank = k - n;
      const up = update[level - 1]! as NodeId; // the previous node at the new node's top level: its up link
      for (let i = 0; i < level; i++) {
        s.setLink(update[i]! as NodeId, i, x, rank - rankAt[i]!);
        update[i] = x;
        rankAt[i] = rank;
      }
      if (level > 1) s.setUp(x, up);
      s.setBack(x, prev);
      prev = x;
    }
    for (let i = 0; i < MAX_LEVEL; i++) s.setLink(update[i]! as NodeId, i, NIL, count - rankAt[i]!);
    this.#length = count;
    this.#level = top;
    this.#tail = prev;
  }

  /** Bytes held by the typed arrays (not the member strings or the arrays referencing them). */
  get byteLength(): number {
    return this.store.byteLength;
  }
}
