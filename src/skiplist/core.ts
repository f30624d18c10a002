/**
 * The skiplist behind `SortedSet`: Redis's zset skiplist (src/t_zset.c, after William Pugh,
 * "Skip Lists: A Probabilistic Alternative to Balanced Trees", 1990) stored in typed arrays.
 *
 * Algorithm (Redis facts): nodes are ordered by (score, member in UTF-8 byte order); a node gets
 * level L with probability (1/4)^(L-1)·(3/4), capped at 32; every forward link carries a *span*, the
 * number of level-0 steps it jumps, so the rank of a node is the sum of the spans followed to reach
 * it and the node at a rank is found by descending while the spans still fit — both O(log n). A
 * level-0 `backward` link makes reverse walks O(1) per step.
 *
 * Memory layout: one ArrayBuffer seen through a Float64Array (`f64`) and an Int32Array (`i32`), no
 * object per node. A node is a block of 32-bit words at an 8-byte-aligned word address x, which is
 * also its id: 4 + 2·level words, plus 2 for a node of level ≥ 2:
 *
 *     i32[x], i32[x+1]   score (f64[x >> 1])
 *     i32[x+2]           backward: address of the previous node (0 = none)
 *     i32[x+3]           level | memberSlot << 6   (the member string is members[memberSlot])
 *     i32[x+4+2i]        forward link at level i (address, 0 = none)
 *     i32[x+5+2i]        span of that link
 *     i32[x+4+2·level]   level ≥ 2 only: up link, the previous node at the node's top level
 *                        (0 = the header); i32[x+5+2·level] is padding
 *
 * The header is the level-32 block at address 0; no link ever points *to* it, so 0 doubles as the
 * null link. Keeping a node's score beside its links matters: a search step reads the link and
 * span of the current node and the score of the next, so each node visited costs one cache miss
 * instead of one per parallel array (a structure-of-arrays variant of this file — scores, links,
 * spans and link offsets in separate arrays — measured 1.6–2.3× slower on inserts, rank and
 * by-rank access at 10^6 entries, where every step misses the cache). Blocks average
 * 4 + 2·4/3 + 2·1/4 words ≈ 29 bytes; member strings live in one `members` array, addressed by slot.
 * Blocks are carved from pages, one open page per size class (levels 1, 2, 3, ≥ 4), so tall nodes —
 * the only ones a descent lands on above level 0 — sit together in few cache lines and pages.
 * The up links make rank a walk *up* the search path from the node (see {@link ZSkipList.rankOf}).
 * Deleted blocks go on one free list per level (chained through the backward word) and member slots
 * on a free stack, so a steady state of inserts and deletes allocates nothing; the buffer grows by
 * doubling when a level's free list and its class's page are both empty. `index` (Map member →
 * address) gives O(1) ZSCORE, as Redis's dict beside the skiplist does. A removed member stays in the Map as a tombstone (address
 * 0) until tombstones outnumber live members, then all are purged at once (amortized O(1)): V8's
 * Map keeps a deleted entry in its bucket chain until the next rehash, so deleting and re-adding
 * the same members over and over made every lookup of them slower and slower (measured: 100k
 * delete + set pairs on a 10^6-entry Map took 0.4 s, then 0.8 s, then 2.2 s); overwriting a
 * tombstone reuses the entry instead.
 *
 * Invariants (checked by {@link ZSkipList.checkInvariants}): at every level the chain is strictly
 * increasing in (score, member); span of a link = rank(target) − rank(source), or length − rank(source)
 * for the last link of a level; level-0 backward links mirror the forward ones; the up link of a
 * node of level L ≥ 2 is its predecessor on level L − 1 (0 for the header); `tail` is the last
 * node; `level` is the highest level in use (≥ 1); `index` maps exactly the members in the list to
 * their nodes, every other key to the tombstone 0.
 *
 * Costs: insert, delete, score update that moves the node, rank, node at rank, count below a
 * score/member: O(log n) expected. Score update that keeps the order: O(1). Delete of k consecutive
 * ranks: O(log n + k). Bulk load of n entries already in order (an empty list only): O(n).
 * Memory: the buffer starts with room for at most 2^16 entries and doubles on demand; clear()
 * returns it to that size. At most 2^26 members (the slot field's width).
 */
import { mulberry32 } from "../internal/random.js";
import { compareMembers } from "./order.js";

/** Redis's ZSKIPLIST_MAXLEVEL. */
export const MAX_LEVEL = 32;
/**
 * Most members a list holds: a node's member slot has 26 bits (the word beside its level). At
 * ≈ 29 bytes of blocks per node that is a buffer of ≈ 2 GiB, near what engines allocate at once.
 */
export const MAX_SIZE = 2 ** 26;
/**
 * Entries a new list makes room for at once, at most (≈ 2 MiB): a larger `capacity` hint is not
 * allocated up front, the buffer doubles as entries arrive (copies totalling O(n)), so memory
 * follows use and a careless hint cannot reserve gigabytes.
 */
export const EAGER_CAPACITY = 2 ** 16;
const HEADER = 0;
const NIL = 0;
const BACK = 2;
const META = 3;
const LINKS = 4;
const HEADER_WORDS = LINKS + 2 * MAX_LEVEL;

/**
 * Blocks are carved from pages, one current page per size class: levels 1, 2, 3 and ≥ 4. A descent
 * lands at level i only on nodes taller than i, so packing tall nodes together keeps the upper
 * levels' nodes in few cache lines and pages instead of scattered among level-1 nodes (measured at
 * 10^6 against a single shared page: rank and by-rank access each ≈ 10–15 % faster).
 */
const CLASSES = 4;
/** Largest page, in words (64 KiB); smaller lists take pages of 1/16 of the words in use (≥ 64). */
const MAX_PAGE = 16384;

/**
 * Words in the block of a level-`level` node: a node of level ≥ 2 carries two more words after its
 * links, the up link (its predecessor at its top level) and a pad that keeps blocks 8-byte aligned.
 */
function blockWords(level: number): number {
  return level === 1 ? LINKS + 2 : LINKS + 2 * level + 2;
}

export class ZSkipList {
  /** Number of nodes (the header excluded). */
  length = 0;
  /** Highest level in use, 1..32. */
  level = 1;
  /** Last node, or NIL when empty. */
  tail = NIL;
  /** member → node address, or NIL (a tombstone) for a removed member; see {@link find}. */
  index = new Map<string, number>();

  f64: Float64Array;
  i32: Int32Array;
  /** Member strings by slot. */
  members: string[] = [];
  /**
   * Set by the countBelow* descents: the last node below the bound (HEADER when none), so a range
   * query starts walking from it (or from its successor) without another descent.
   */
  lastBelow = HEADER;

  /** Next unused word of the buffer. */
  private top = HEADER_WORDS;
  /** Per size class: next free word of its current page, and the end of that page. */
  private readonly pageNext = new Int32Array(CLASSES);
  private readonly pageEnd = new Int32Array(CLASSES);
  /** Head of the free-block list for each level (0 = empty; the header is never free). */
  private readonly freeBlock = new Int32Array(MAX_LEVEL + 1);
  private freeSlots = new Int32Array(16);
  private freeSlotCount = 0;
  /** Scratch for searches: the rightmost node visited at each level, and its rank. */
  private readonly update = new Int32Array(MAX_LEVEL);
  private readonly rankAt = new Int32Array(MAX_LEVEL);
  private readonly random: () => number;
  /** Words of the buffer a new or cleared list starts with. */
  private readonly initialWords: number;

  /** `capacity`: entries to make room for (a hint; at most {@link EAGER_CAPACITY} are allocated at once). */
  constructor(seed: number, capacity = 16) {
    this.random = mulberry32(seed);
    // ≈ 7.2 words per node on average (4/3 links, up links on a quarter of the nodes), plus room for
    // partly filled pages, so a presized list rarely grows.
    this.initialWords = HEADER_WORDS + CLASSES * 64 + 8 * Math.max(16, Math.min(capacity, EAGER_CAPACITY));
    const buf = new ArrayBuffer(this.initialWords * 4);
    this.f64 = new Float64Array(buf);
    this.i32 = new Int32Array(buf);
    this.i32[META] = MAX_LEVEL;
  }

  /** A uniform 32-bit draw from the list's generator (the one that draws levels). */
  randomUint32(): number {
    return this.random();
  }

  /**
   * Draws a level with P(L) = (1/4)^(L-1)·(3/4), capped at 32. Each pair of leading zero bits of a
   * uniform 32-bit draw is one "promote" coin of probability 1/4; an all-zero draw (16 promotions)
   * continues with a fresh draw, so the distribution stays exact up to the cap.
   */
  private randomLevel(): number {
    let level = 1;
    for (;;) {
      const z = Math.clz32(this.random());
      level += z >>> 1;
      if (z < 32 || level >= MAX_LEVEL) return Math.min(level, MAX_LEVEL);
    }
  }

  private allocNode(level: number, member: string): number {
    let x = this.freeBlock[level]!;
    if (x !== NIL) {
      this.freeBlock[level] = this.i32[x + BACK]!;
    } else {
      const c = (level < CLASSES ? level : CLASSES) - 1;
      const words = blockWords(level);
      x = this.pageNext[c]!;
      if (x + words > this.pageEnd[c]!) {
        // A new page for this class, sized in proportion to the list (small sets stay small).
        const page = Math.max(64, Math.min(MAX_PAGE, (this.top >> 4) & ~1)); // even: blocks stay 8-byte aligned
        x = this.top;
        if (x + page > this.i32.length) this.grow(x + page); // may throw: nothing is changed yet
        this.top = x + page;
        this.pageEnd[c] = this.top;
      }
      this.pageNext[c] = x + words;
    }
    let slot: number;
    if (this.freeSlotCount > 0) {
      slot = this.freeSlots[--this.freeSlotCount]!;
      this.members[slot] = member;
    } else {
      slot = this.members.length;
      this.members.push(member);
    }
    this.i32[x + META] = level | (slot << 6);
    return x;
  }

  private grow(minWords: number): void {
    const words = Math.max(minWords, this.i32.length * 2);
    let buf: ArrayBuffer;
    try {
      buf = new ArrayBuffer(words * 4);
    } catch {
      throw new RangeError(
        `redstruct/SortedSet: size ${this.length} cannot grow: a buffer of ${words * 4} bytes could not be allocated`,
      );
    }
    const i32 = new Int32Array(buf);
    i32.set(this.i32);
    this.i32 = i32;
    this.f64 = new Float64Array(buf);
  }

  private freeNode(x: number): void {
    const meta = this.i32[x + META]!;
    const level = meta & 63;
    const slot = meta >>> 6;
    this.members[slot] = ""; // let the string be collected
    if (this.freeSlotCount === this.freeSlots.length) {
      const s = new Int32Array(this.freeSlots.length * 2);
      s.set(this.freeSlots);
      this.freeSlots = s;
    }
    this.freeSlots[this.freeSlotCount++] = slot;
    this.i32[x + BACK] = this.freeBlock[level]!;
    this.i32[x + META] = 0;
    this.freeBlock[level] = x;
  }

  /** Node holding `member`, or NIL when absent. O(1). */
  find(member: string): number {
    return this.index.get(member) ?? NIL;
  }

  /** Marks `member` removed in the index; purges the tombstones once they outnumber live members. */
  private forget(member: string): void {
    this.index.set(member, NIL);
    const tombstones = this.index.size - this.length;
    if (tombstones > 64 && tombstones > this.length) {
      for (const [key, node] of this.index) if (node === NIL) this.index.delete(key);
    }
  }

  /** Score of node x. */
  scoreOf(x: number): number {
    return this.f64[x >> 1]!;
  }

  /** Member of node x. */
  memberOf(x: number): string {
    return this.members[this.i32[x + META]! >>> 6]!;
  }

  /** Level (tower height) of node x. */
  levelOf(x: number): number {
    return this.i32[x + META]! & 63;
  }

  /** Next node in order, or NIL. */
  nextOf(x: number): number {
    return this.i32[x + LINKS]!;
  }

  /** Previous node in order, or NIL. */
  prevOf(x: number): number {
    return this.i32[x + BACK]!;
  }

  /** First node (lowest), or NIL. */
  first(): number {
    return this.i32[LINKS]!;
  }

  /** True when node `y` sorts before (score, member). */
  private before(y: number, score: number, member: string): boolean {
    const s = this.f64[y >> 1]!;
    return s < score || (s === score && compareMembers(this.members[this.i32[y + META]! >>> 6]!, member) < 0);
  }

  /**
   * Inserts a node for (score, member), which must not be present (the caller checks `index`).
   * Returns its address. O(log n) expected; allocates only when the buffer must grow.
   */
  insert(score: number, member: string): number {
    const { update, rankAt, f64 } = this;
    let i32 = this.i32;
    let x = HEADER;
    // `stop` is the node a higher level stopped before: known to sort after the new entry, so the
    // lower levels need not load and compare it again.
    let stop = NIL;
    for (let i = this.level - 1; i >= 0; i--) {
      let rank = i === this.level - 1 ? 0 : rankAt[i + 1]!;
      let link = x + LINKS + 2 * i;
      let y = i32[link]!;
      while (y !== NIL && y !== stop) {
        const ys = f64[y >> 1]!;
        if (ys > score || (ys === score && compareMembers(this.members[i32[y + META]! >>> 6]!, member) > 0)) {
          stop = y;
          break;
        }
        rank += i32[link + 1]!;
        x = y;
        link = x + LINKS + 2 * i;
        y = i32[link]!;
      }
      rankAt[i] = rank;
      update[i] = x;
    }
    const level = this.randomLevel();
    if (level > this.level) {
      for (let i = this.level; i < level; i++) {
        rankAt[i] = 0;
        update[i] = HEADER;
        i32[HEADER + LINKS + 2 * i + 1] = this.length;
      }
      this.level = level;
    }
    const node = this.allocNode(level, member);
    i32 = this.i32; // allocNode may have grown the buffer
    this.f64[node >> 1] = score;
    const rank0 = rankAt[0]!;
    for (let i = 0; i < level; i++) {
      const ul = update[i]! + LINKS + 2 * i;
      const nl = node + LINKS + 2 * i;
      const next = i32[ul]!;
      i32[nl] = next;
      i32[ul] = node;
      const d = rank0 - rankAt[i]!;
      i32[nl + 1] = i32[ul + 1]! - d;
      i32[ul + 1] = d + 1;
      // The new node now precedes `next` at level i; if that is next's top level (≥ 2), it is its
      // new up link. `next` was just compared by the descent, so this read is a cache hit.
      if (i > 0 && next !== NIL && (i32[next + META]! & 63) === i + 1) i32[next + LINKS + 2 * i + 2] = node;
    }
    if (level > 1) i32[node + LINKS + 2 * level] = update[level - 1]!;
    for (let i = level; i < this.level; i++) {
      const ul = update[i]! + LINKS + 2 * i + 1;
      i32[ul] = i32[ul]! + 1;
    }
    i32[node + BACK] = update[0]!; // HEADER (0) means "no previous node"
    const after = i32[node + LINKS]!;
    if (after !== NIL) i32[after + BACK] = node;
    else this.tail = node;
    this.length++;
    this.index.set(member, node);
    return node;
  }

  /**
   * Fills an empty list with `count` entries given in order: entry k is (scores[order[k]],
   * members[order[k]]) (order omitted: k itself), strictly increasing in (score, member) — the
   * caller sorted them. One pass, no search: each node is linked after the last node of each of its
   * levels, its spans read off the ranks. O(count), against O(count log count) random inserts that
   * each miss the cache at every level. `index`, when given, must hold exactly these members as keys
   * (an accumulator the caller built): its values are overwritten with node addresses, which is
   * cheaper than adding the keys to a new Map.
   */
  loadSorted(
    members: readonly string[],
    scores: ArrayLike<number>,
    order: ArrayLike<number> | null,
    count: number,
    index: Map<string, number> | null,
  ): void {
    const { update, rankAt } = this;
    const map = index ?? this.index;
    for (let i = 0; i < MAX_LEVEL; i++) {
      update[i] = HEADER;
      rankAt[i] = 0;
    }
    let top = 1;
    let prev = HEADER;
    const nodeOf = order === null ? null : new Int32Array(count);
    for (let k = 0; k < count; k++) {
      const j = order === null ? k : order[k]!;
      const member = members[j]!;
      const level = this.randomLevel();
      if (level > top) top = level;
      const node = this.allocNode(level, member);
      const i32 = this.i32; // allocNode may have grown the buffer
      this.f64[node >> 1] = scores[j]!;
      const rank = k + 1;
      const up = update[level - 1]!; // the previous node at the new node's top level: its up link
      for (let i = 0; i < level; i++) {
        const ul = update[i]! + LINKS + 2 * i;
        i32[ul] = node;
        i32[ul + 1] = rank - rankAt[i]!;
        update[i] = node;
        rankAt[i] = rank;
      }
      if (level > 1) i32[node + LINKS + 2 * level] = up;
      i32[node + BACK] = prev;
      prev = node;
      if (nodeOf === null) map.set(member, node);
      else nodeOf[j] = node;
    }
    // The index is filled in the run's own order, not the sorted one: the run comes from walking the
    // inputs' indexes, so its member strings were allocated roughly in that order and hashing them
    // then misses the cache far less often than in score order.
    if (nodeOf !== null) for (let j = 0; j < count; j++) map.set(members[j]!, nodeOf[j]!);
    const i32 = this.i32;
    for (let i = 0; i < MAX_LEVEL; i++) {
      const ul = update[i]! + LINKS + 2 * i;
      i32[ul] = NIL;
      i32[ul + 1] = count - rankAt[i]!;
    }
    this.length = count;
    this.level = top;
    this.tail = prev;
    if (index !== null) this.index = index;
  }

  /** Fills `update` with the rightmost node before (score, member) at each level. O(log n). */
  private findUpdate(score: number, member: string): void {
    const { update, i32 } = this;
    let x = HEADER;
    let stop = NIL; // as in insert: a node already known not to come before the target
    for (let i = this.level - 1; i >= 0; i--) {
      let y = i32[x + LINKS + 2 * i]!;
      while (y !== NIL && y !== stop) {
        if (!this.before(y, score, member)) {
          stop = y;
          break;
        }
        x = y;
        y = i32[x + LINKS + 2 * i]!;
      }
      update[i] = x;
    }
  }

  /** Unlinks node x given `update` (its predecessors); does not free it. */
  private unlink(x: number): void {
    const { update, i32 } = this;
    for (let i = 0; i < this.level; i++) {
      const ul = update[i]! + LINKS + 2 * i;
      if (i32[ul] === x) {
        const xl = x + LINKS + 2 * i;
        const next = i32[xl]!;
        i32[ul + 1] = i32[ul + 1]! + i32[xl + 1]! - 1;
        i32[ul] = next;
        // x's predecessor at level i becomes next's up link when level i is next's top (≥ 2).
        if (i > 0 && next !== NIL && (i32[next + META]! & 63) === i + 1) i32[next + LINKS + 2 * i + 2] = update[i]!;
      } else {
        i32[ul + 1] = i32[ul + 1]! - 1;
      }
    }
    const after = i32[x + LINKS]!;
    if (after !== NIL) i32[after + BACK] = i32[x + BACK]!;
    else this.tail = i32[x + BACK]!;
    while (this.level > 1 && i32[HEADER + LINKS + 2 * (this.level - 1)] === NIL) this.level--;
    this.length--;
  }

  /** Removes node x (found through `index`). O(log n) expected. */
  delete(x: number): void {
    const member = this.memberOf(x);
    this.findUpdate(this.f64[x >> 1]!, member);
    this.unlink(x);
    this.freeNode(x);
    this.forget(member);
  }

  /** True when node x can take `score` without moving (its neighbours still bracket it). */
  staysInPlace(x: number, score: number): boolean {
    const prev = this.i32[x + BACK]!;
    const after = this.i32[x + LINKS]!;
    const member = this.memberOf(x);
    return (prev === NIL || this.before(prev, score, member)) && (after === NIL || !this.before(after, score, member));
  }

  /**
   * Gives node x a new score. When the neighbours still bracket it the score is written in place
   * (O(1), as Redis's zslUpdateScore does); otherwise the node is unlinked and re-inserted, keeping
   * its member. Returns the address now holding the member.
   */
  updateScore(x: number, score: number): number {
    if (this.staysInPlace(x, score)) {
      this.f64[x >> 1] = score;
      return x;
    }
    const member = this.memberOf(x);
    this.delete(x);
    return this.insert(score, member);
  }

  /**
   * 1-based rank of node x. Redis's zslGetRank descends from the header comparing (score, member);
   * this walks the same search path backwards instead: the search reaches x at x's top level from
   * x's predecessor p on that level, whose link there spans rank(x) − rank(p), and reaches p the
   * same way. Following up links (level-0 `backward` for level-1 nodes) and summing those spans
   * visits exactly the nodes the descent lands on, without comparing scores or members and without
   * touching the nodes a descent only compares against. O(log n) expected.
   */
  rankOf(x: number): number {
    const i32 = this.i32;
    let rank = 0;
    while (x !== HEADER) {
      const top = (i32[x + META]! & 63) - 1;
      const p = top === 0 ? i32[x + BACK]! : i32[x + LINKS + 2 * top + 2]!;
      rank += i32[p + LINKS + 2 * top + 1]!;
      x = p;
    }
    return rank;
  }

  /** Node at 1-based rank r (1 ≤ r ≤ length), or NIL (Redis zslGetElementByRank). O(log n). */
  nodeAt(r: number): number {
    const i32 = this.i32;
    let x = HEADER;
    let traversed = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      while (i32[link] !== NIL && traversed + i32[link + 1]! <= r) {
        traversed += i32[link + 1]!;
        x = i32[link]!;
        link = x + LINKS + 2 * i;
      }
      if (traversed === r) return x;
    }
    return NIL;
  }

  /** Number of nodes whose score is < s (or ≤ s when `inclusive`). O(log n). */
  countBelowScore(s: number, inclusive: boolean): number {
    const { i32, f64 } = this;
    let x = HEADER;
    let count = 0;
    let stop = NIL; // a node already known to be past the bound (see insert)
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      let y = i32[link]!;
      while (y !== NIL && y !== stop) {
        const ys = f64[y >> 1]!;
        if (ys > s || (ys === s && !inclusive)) {
          stop = y;
          break;
        }
        count += i32[link + 1]!;
        x = y;
        link = x + LINKS + 2 * i;
        y = i32[link]!;
      }
    }
    this.lastBelow = x;
    return count;
  }

  /**
   * Number of nodes before (score, member) in the set order, counting a node equal to it too when
   * `inclusive`. Used to find where an iteration resumes after the set changed. O(log n).
   */
  countBelowEntry(score: number, member: string, inclusive: boolean): number {
    const { i32, f64 } = this;
    let x = HEADER;
    let count = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      let y = i32[link]!;
      while (y !== NIL) {
        const s = f64[y >> 1]!;
        if (s > score) break;
        if (s === score) {
          const c = compareMembers(this.memberOf(y), member);
          if (c > 0 || (c === 0 && !inclusive)) break;
        }
        count += i32[link + 1]!;
        x = y;
        link = x + LINKS + 2 * i;
        y = i32[link]!;
      }
    }
    return count;
  }

  /**
   * Number of nodes whose member is < m (or ≤ m when `inclusive`) in byte order, descending the
   * skiplist as ZRANGEBYLEX does: exact when all scores are equal (the only case Redis defines).
   */
  countBelowMember(m: string, inclusive: boolean): number {
    const i32 = this.i32;
    let x = HEADER;
    let count = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      let y = i32[link]!;
      while (y !== NIL) {
        const c = compareMembers(this.memberOf(y), m);
        if (c > 0 || (c === 0 && !inclusive)) break;
        count += i32[link + 1]!;
        x = y;
        link = x + LINKS + 2 * i;
        y = i32[link]!;
      }
    }
    this.lastBelow = x;
    return count;
  }

  /**
   * Deletes the nodes at 1-based ranks start..end (1 ≤ start ≤ end ≤ length), Redis's
   * zslDeleteRangeByRank: one descent to the start, then k unlinks with the same `update`.
   * Returns the number removed. O(log n + k).
   */
  deleteRanks(start: number, end: number): number {
    const { update, i32 } = this;
    let x = HEADER;
    let traversed = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      while (i32[link] !== NIL && traversed + i32[link + 1]! < start) {
        traversed += i32[link + 1]!;
        x = i32[link]!;
        link = x + LINKS + 2 * i;
      }
      update[i] = x;
    }
    let removed = 0;
    x = i32[x + LINKS]!;
    traversed++;
    while (x !== NIL && traversed <= end) {
      const after = i32[x + LINKS]!;
      const member = this.memberOf(x);
      this.unlink(x);
      this.freeNode(x);
      this.forget(member);
      removed++;
      traversed++;
      x = after;
    }
    return removed;
  }

  /**
   * Removes everything and returns the buffer to its initial size (like `Map#clear`, memory is
   * released). Only the words in use are zeroed when the buffer is kept, so clearing never touches
   * (and commits) pages that were never used. O(words in use).
   */
  clear(): void {
    this.index.clear();
    this.members = [];
    if (this.i32.length > this.initialWords) {
      const buf = new ArrayBuffer(this.initialWords * 4);
      this.f64 = new Float64Array(buf);
      this.i32 = new Int32Array(buf);
    } else {
      this.i32.fill(0, 0, this.top);
    }
    this.resetEmpty();
  }

  /** The bookkeeping of an empty list over a zeroed buffer: no free blocks, pages or nodes. */
  private resetEmpty(): void {
    this.freeSlots = new Int32Array(16);
    this.i32[META] = MAX_LEVEL;
    this.freeBlock.fill(0);
    this.pageNext.fill(0);
    this.pageEnd.fill(0);
    this.freeSlotCount = 0;
    this.top = HEADER_WORDS;
    this.length = 0;
    this.level = 1;
    this.tail = NIL;
  }

  /**
   * Rebuilds the list in a fresh buffer with its nodes laid out in order (a bulk load of its own
   * entries), so a walk along level 0 reads consecutive memory instead of jumping between the
   * addresses random inserts left; the buffer shrinks to what the entries use. Node levels are drawn
   * afresh. Every node address changes. O(n).
   */
  relayout(): void {
    const n = this.length;
    const members = new Array<string>(n);
    const scores = new Float64Array(n);
    let k = 0;
    for (let x = this.i32[LINKS]!; x !== NIL; x = this.i32[x + LINKS]!) {
      members[k] = this.memberOf(x);
      scores[k++] = this.f64[x >> 1]!;
    }
    this.index = new Map();
    this.members = [];
    const buf = new ArrayBuffer((HEADER_WORDS + CLASSES * 64 + 8 * Math.max(16, n)) * 4);
    this.f64 = new Float64Array(buf);
    this.i32 = new Int32Array(buf);
    this.resetEmpty();
    this.loadSorted(members, scores, null, n, null);
  }

  /** Bytes held by the typed arrays (not the member strings or the index). */
  byteLength(): number {
    return this.i32.byteLength + this.freeSlots.byteLength;
  }

  /** Walks the whole structure and throws an Error naming the first broken invariant. O(n·levels). */
  checkInvariants(where: string): void {
    const fail = (msg: string): never => {
      throw new Error(`redstruct/${where}: invariant violated: ${msg}`);
    };
    const i32 = this.i32;
    if (this.level < 1 || this.level > MAX_LEVEL) fail(`level ${this.level}`);
    // Level 0: order, backward links, ranks, index.
    const rank = new Map<number, number>();
    const lastAt = new Int32Array(MAX_LEVEL); // the last node seen at each level (HEADER at first)
    let prev = NIL;
    let r = 0;
    for (let x = i32[LINKS]!; x !== NIL; x = i32[x + LINKS]!) {
      r++;
      if (r > this.length) fail("level-0 chain longer than length (cycle?)");
      if ((x & 1) !== 0 || x < HEADER_WORDS || x >= this.top) fail(`node address ${x} out of the used buffer`);
      const level = this.levelOf(x);
      if (level < 1 || level > this.level) fail(`node ${x} has level ${level}`);
      if (Number.isNaN(this.scoreOf(x))) fail(`node ${x} has a NaN score`);
      if (i32[x + BACK] !== prev) fail(`node ${x} backward ${i32[x + BACK]} ≠ ${prev}`);
      if (prev !== NIL && !this.before(prev, this.scoreOf(x), this.memberOf(x))) fail(`order broken at rank ${r}`);
      if (level > 1 && i32[x + LINKS + 2 * level] !== lastAt[level - 1])
        fail(`node ${x} up link ${i32[x + LINKS + 2 * level]} ≠ ${lastAt[level - 1]}`);
      for (let i = 0; i < level; i++) lastAt[i] = x;
      if (this.index.get(this.memberOf(x)) !== x)
        fail(`index does not map ${JSON.stringify(this.memberOf(x))} to ${x}`);
      rank.set(x, r);
      prev = x;
    }
    if (r !== this.length) fail(`level 0 holds ${r} nodes, length is ${this.length}`);
    if (this.tail !== prev) fail(`tail ${this.tail} ≠ last node ${prev}`);
    let live = 0;
    for (const node of this.index.values()) if (node !== NIL) live++;
    if (live !== this.length) fail(`index maps ${live} members to nodes, length is ${this.length}`);
    if (this.index.size - this.length > Math.max(64, this.length)) fail("tombstones were not purged");
    if (this.members.length - this.freeSlotCount !== this.length) fail("member slots in use ≠ length");
    // Every level: targets are live and tall enough, and spans equal rank differences.
    let linked = 0;
    for (let i = 0; i < this.level; i++) {
      let x = HEADER;
      let rx = 0;
      for (;;) {
        const link = x + LINKS + 2 * i;
        const y = i32[link]!;
        const ry = y === NIL ? this.length : rank.get(y);
        if (ry === undefined) fail(`level ${i} links to a node not on level 0`);
        if (y !== NIL && this.levelOf(y) <= i) fail(`level ${i} links to node ${y} of level ${this.levelOf(y)}`);
        if (i32[link + 1] !== ry! - rx)
          fail(`span at level ${i} from rank ${rx} is ${i32[link + 1]}, expected ${ry! - rx}`);
        if (y === NIL) break;
        linked++;
        x = y;
        rx = ry!;
      }
    }
    if (this.level > 1 && i32[LINKS + 2 * (this.level - 1)] === NIL) fail(`top level ${this.level} is empty`);
    for (let i = this.level; i < MAX_LEVEL; i++) {
      if (i32[LINKS + 2 * i] !== NIL) fail(`header links above level ${this.level}`);
    }
    // Every node appears on each of its levels.
    let declared = 0;
    for (const x of rank.keys()) declared += this.levelOf(x);
    if (linked !== declared) fail(`${linked} links in use, nodes declare ${declared}`);
  }
}
