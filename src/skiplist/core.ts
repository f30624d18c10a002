/**
 * The skiplist behind `SortedSet`: a randomized skiplist of *macro nodes* (William Pugh, "Skip
 * Lists: A Probabilistic Alternative to Balanced Trees", 1990; Redis's zset skiplist, src/t_zset.c,
 * with the several-entries-per-node layout Redis's own zset is moving to, redis/redis#15353).
 *
 * Algorithm: entries are ordered by (score, member in UTF-8 byte order). They are kept in nodes of
 * at most B entries each, in order inside a node and across nodes. Each node draws a level L with
 * probability p^(L−1)·(1−p) (p = 2^−levelBits), capped at 32, and carries a forward link per level.
 * Every link carries a *span*: the number of entries from the first entry of its source node to the
 * first entry of its target (to the end of the set for a level's last link). The rank of an entry
 * is the sum of the spans followed to reach its node plus its offset inside the node, so rank, the
 * entry at a rank and counts below a bound are all O(log n). Each node caches the score of its first
 * entry, so a descent compares against the node it may step to without reading that node's entries.
 *
 * Memory layout (no object per entry or per node):
 * - Towers: one ArrayBuffer seen as Int32Array `t` and Float64Array `tf`. The node at 8-byte-aligned
 *   word address x (its id) is a block of 6 + 2·level words:
 *
 *       t[x], t[x+1]   first score: the score of the node's entry 0 (tf[x >> 1])
 *       t[x+2]         backward: the previous node (0 = none)
 *       t[x+3]         level | count << 6 (count = entries in the node, 1..B)
 *       t[x+4]         base: position of the node's entry 0 in the entry arrays
 *       t[x+5]         up link, level ≥ 2 only: the previous node at the node's top level (0 = header)
 *       t[x+6+2i]      forward link at level i (0 = none); t[x+7+2i] its span
 *
 *   The header is the level-32 block at address 0 with no entries; no link points to it, so 0 is
 *   also the null link. Blocks are carved from pages, one open page per size class (levels 1, 2, 3,
 *   ≥ 4), so the tall nodes a descent lands on sit together; freed blocks go on a list per level.
 * - Entries: block k of S consecutive positions (B rounded up to a power of two) holds one node's
 *   entries, contiguous but starting anywhere in the block (`base`), so an insert or removal moves
 *   the shorter side: scores in `es`, member strings in `em`, both in chunks of 2^14 positions so
 *   that growth allocates a chunk and copies nothing (chunk 0 starts small and doubles: a set of one
 *   node costs about a sorted array). `blockNode[k]` is the node owning block k; freed blocks are
 *   reused. A range or an iteration reads consecutive positions, B entries per node visited.
 * - Member index: `index` (Map member → slot) and `slotScore[slot]`, the member's score, give
 *   O(1) ZSCORE as Redis's dict beside the skiplist does. An entry's position is found by a descent
 *   on (score, member), so entries moving inside or between nodes (splits, merges, shifts) never
 *   touch the index. A removed member stays in the Map as a tombstone (slot 0) until tombstones
 *   outnumber live members, then all are purged at once (amortized O(1)): V8's Map keeps a deleted
 *   entry in its bucket chain until the next rehash, so deleting and re-adding the same members made
 *   every lookup of them slower and slower; overwriting a tombstone reuses the entry.
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
 * Invariants (checked by {@link ZSkipList.checkInvariants}): entries strictly increase in (score,
 * member) inside and across nodes; every node holds 1..B entries, and ≥ ⌊B/4⌋ unless it is the first
 * or the last; a node's first score equals its entry 0's score; spans equal rank differences; the
 * backward and up links mirror the forward ones; `tail` is the last node and `level` the highest
 * level in use; `index` maps exactly the members present to their slots (others to 0), and each
 * slot's score is its entry's score; unused positions and free blocks hold no member string.
 *
 * Costs (n entries, N ≈ n/(0.7·B) nodes): insert, delete, a score update that moves the entry,
 * rank, entry at a rank, counts below a bound: O(log N + B) expected, each touching one or two
 * entry blocks; a score update that keeps the entry between its neighbours: O(1); delete of k
 * consecutive ranks: O(log N + k); bulk load of n sorted entries: O(n).
 */
import { invariantFailure } from "../internal/errors.js";
import { mulberry32 } from "../internal/random.js";
import { compareMembers } from "./order.js";

/** Redis's ZSKIPLIST_MAXLEVEL. */
export const MAX_LEVEL = 32;
/** Most members a set holds (the member limit). */
export const MAX_SIZE = 2 ** 26;
/**
 * Entries a new list makes room for at once, at most: a larger `capacity` hint is not allocated up
 * front, the arrays grow as entries arrive, so memory follows use and a careless hint cannot reserve
 * gigabytes.
 */
const EAGER_CAPACITY = 2 ** 16;
/** Entries per node, B (chosen by measurement: docs/skiplist.md). */
const NODE_SIZE = 128;
/** log2(1/p) for the node levels: p = 1/4 (chosen by measurement: docs/skiplist.md). */
const LEVEL_BITS = 2;
/** Overflow policy (chosen by measurement: docs/skiplist.md). */
const POLICY = 3;

const HEADER = 0;
const NIL = 0;
const BACK = 2;
const META = 3;
const BASE = 4;
const UP = 5;
const LINKS = 6;
const HEADER_WORDS = LINKS + 2 * MAX_LEVEL;
/** Size classes of tower blocks: levels 1, 2, 3 and ≥ 4. */
const CLASSES = 4;
/** Offsets in ZSkipList's `alloc` array, and its length (even: the views after it stay 8-byte aligned). */
const PAGE_NEXT = 0;
const PAGE_END = CLASSES;
const FREE_TOWER = 2 * CLASSES;
const ALLOC_WORDS = FREE_TOWER + MAX_LEVEL + 2;
/** Largest tower page, in words (64 KiB); smaller lists take pages of 1/16 of the words in use (≥ 16). */
const MAX_PAGE = 16384;
/** Slots the score array grows by doubling up to; beyond, by an eighth (little slack at 10^6). */
const DOUBLING = 1 << 16;
/**
 * Entry positions per chunk of the entry arrays: growing them allocates a chunk and copies nothing,
 * where growing one flat array copies all of it each time (at 10^6 members, hundreds of megabytes
 * of large arrays allocated and collected over a load). A block never straddles two chunks (its
 * size divides this).
 */
export const CHUNK_BITS = 14;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;
/** Empty member references copied at once when the member array grows. */
const TEMPLATE = 1 << 12;
/** mulberry32's state advances by this constant per draw (a Weyl sequence). */
const WEYL = 0x6d2b79f5;

/** Internal layout parameters, for tests and the probes that chose the defaults. */
export interface Layout {
  /** Entries per node, B: 2..4096. */
  nodeSize: number;
  /** Node levels use p = 2^−levelBits: 1..8. */
  levelBits: number;
  /** Overflow policy (see ZSkipList.makeRoom): 0..3. */
  policy?: number;
}

/**
 * Scratch of every list's searches: the node at or before the target on each level, and its rank.
 * Shared, since an operation never runs inside another, so that a small set does not carry them.
 */
const UPDATE = new Int32Array(MAX_LEVEL);
const RANK_AT = new Int32Array(MAX_LEVEL);
/** A placeholder for arrays a list allocates on first use. */
const NONE = new Int32Array(0);

export class ZSkipList {
  /** Number of entries. */
  length = 0;
  /** Highest level in use, 1..32. */
  level = 1;
  /** Last node, or NIL when empty. */
  tail = NIL;
  /** member → slot, or 0 (a tombstone) for a removed member. */
  index = new Map<string, number>();

  /** Towers (set, like the other typed arrays, by {@link initialArrays} and grown as needed). */
  t!: Int32Array;
  tf!: Float64Array;
  /** Entry scores and member references, by position, in chunks of 2^14 positions. */
  es: Float64Array[] = [];
  em: string[][] = [];
  /** Node owning each entry block. */
  blockNode!: Int32Array;
  /** Each member's score, by slot (the value of its index entry). Slot 0 is never used. */
  slotScore!: Float64Array;
  /** Set by {@link posOf}: the rank of the entry found. */
  posRank = 0;
  /**
   * Set by the countBelow* descents: the position of the first entry at or past the bound and of
   * the last entry before it (−1 when there is none), where a range query starts walking.
   */
  boundPos = -1;
  boundPrev = -1;

  /** B: most entries in a node. */
  readonly nodeSize: number;
  /** Interior nodes hold at least this many entries. */
  readonly minFill: number;
  /** An underfull node merges into a neighbour when both fit in this many entries. */
  readonly mergeMax: number;
  /** log2 of the entry block stride (B rounded up to a power of two), and the stride − 1. */
  readonly logS: number;
  readonly blockMask: number;
  readonly levelBits: number;

  /** Next unused tower word. */
  private top = HEADER_WORDS;
  /**
   * Tower allocation state in one small array: per size class the next free word of its open page
   * (at PAGE_NEXT + class) and the page's end (PAGE_END + class), and per level the head of its
   * free list (FREE_TOWER + level).
   */
  private alloc!: Int32Array;
  /** Entry blocks handed out so far, and the stack of freed ones. */
  private blockTop = 0;
  private freeBlocks: Int32Array<ArrayBuffer> = NONE;
  private freeBlockCount = 0;
  /** Next unused slot, and the stack of freed ones. */
  private slotTop = 1;
  private freeSlots: Int32Array<ArrayBuffer> = NONE;
  private freeSlotCount = 0;
  /** Where {@link makeRoom} put the room: node and offset. */
  private roomNode = NIL;
  private roomAt = 0;
  /**
   * Overflow policy: 0 split in half; 1 shift into the next node first; 2 also split two full nodes
   * into three; 3 also shift into the previous node before that.
   */
  private readonly policy: number;
  private readonly update = UPDATE;
  private readonly rankAt = RANK_AT;
  private random: () => number;
  private seed: number;
  private draws = 0;
  /** Bits of a draw used for levels (a multiple of levelBits), and the mask that hides the rest. */
  private readonly levelUsed: number;
  private readonly levelLow: number;
  private readonly initialWords: number;
  private readonly initialPositions: number;
  private readonly initialSlots: number;
  /** Whether the initial arrays share one buffer (see {@link initialArrays}). */
  private readonly small: boolean;

  /** `capacity`: entries to make room for (a hint; at most {@link EAGER_CAPACITY} are allocated at once). */
  constructor(seed: number, capacity = 16, layout: Layout = { nodeSize: NODE_SIZE, levelBits: LEVEL_BITS }) {
    const b = layout.nodeSize;
    this.nodeSize = b;
    // From B = 8 on, interior nodes keep B/4 entries and merges stop at 3B/4, leaving a gap so that
    // alternating inserts and deletes at one boundary do not split and merge over and over. Tiny
    // nodes (the tests') keep half, merging up to B: the bound a split into two still meets.
    this.minFill = b < 8 ? (b + 1) >> 1 : b >> 2;
    this.mergeMax = b < 8 ? b : b - (b >> 2);
    this.logS = 32 - Math.clz32(b - 1);
    this.blockMask = (1 << this.logS) - 1;
    this.levelBits = layout.levelBits;
    this.policy = layout.policy ?? POLICY;
    this.levelUsed = Math.floor(32 / this.levelBits) * this.levelBits;
    this.levelLow = this.levelUsed === 32 ? 0 : (1 << (32 - this.levelUsed)) - 1;
    this.seed = seed >>> 0;
    this.random = mulberry32(this.seed);
    // Room for `capacity` entries (at most EAGER_CAPACITY): a small set starts with a few hundred
    // bytes, its first block as long as its first entries need.
    const want = Math.min(capacity, EAGER_CAPACITY);
    const nodes = want <= b ? 1 : Math.ceil(want / Math.max(1, b >> 1));
    this.initialWords = HEADER_WORDS + 16 + 12 * (nodes - 1);
    this.initialPositions =
      want <= b ? Math.max(8, want) : Math.min(CHUNK, 2 ** Math.ceil(Math.log2(nodes << this.logS)));
    this.initialSlots = Math.max(8, want + 1);
    this.small = want <= b;
    this.initialArrays();
  }

  /**
   * Gives the list its initial arrays. A small list takes them as views of one buffer: an
   * ArrayBuffer and a view cost about a hundred bytes each beyond their data, so a set of a few
   * members costs about what its entries do; each array leaves the shared buffer when it grows.
   */
  private initialArrays(): void {
    const towers = this.initialWords * 4;
    const slots = this.initialSlots * 8;
    const positions = this.initialPositions * 8;
    const blocks = 4 * 4;
    const shared = this.small ? new ArrayBuffer(ALLOC_WORDS * 4 + blocks + towers + slots + positions) : undefined;
    let at = 0;
    const take = (bytes: number): [ArrayBuffer, number] => {
      if (shared === undefined) return [this.allocBuffer(bytes), 0];
      at += bytes;
      return [shared, at - bytes];
    };
    this.alloc = new Int32Array(...take(ALLOC_WORDS * 4), ALLOC_WORDS);
    this.blockNode = new Int32Array(...take(blocks), 4);
    const [tb, to] = take(towers);
    this.t = new Int32Array(tb, to, this.initialWords);
    this.tf = new Float64Array(tb, to, this.initialWords >> 1);
    this.t[META] = MAX_LEVEL;
    this.slotScore = new Float64Array(...take(slots), this.initialSlots);
    this.es = [new Float64Array(...take(positions), this.initialPositions)];
    this.em = [strings(this.initialPositions)];
  }

  // ---------------------------------------------------------------- random draws

  /** A uniform 32-bit draw from the list's generator (the one that draws levels). */
  randomUint32(): number {
    this.draws++;
    return this.random();
  }

  /** Restarts the generator from `state` (a {@link generatorState}): the draws continue from there. */
  resetGenerator(state: number): void {
    this.seed = state >>> 0;
    this.draws = 0;
    this.random = mulberry32(this.seed);
  }

  /** The seed from which mulberry32 continues exactly where this list's generator stands. */
  generatorState(): number {
    return (this.seed + Math.imul(this.draws, WEYL)) >>> 0;
  }

  /**
   * Draws a node level with P(L) = p^(L−1)·(1−p), p = 2^−levelBits, capped at 32: each run of
   * levelBits leading zero bits of a uniform draw is one promotion; a draw whose used bits are all
   * zero continues with a fresh draw, so the distribution is exact up to the cap.
   */
  private randomLevel(): number {
    const used = this.levelUsed;
    let level = 1;
    for (;;) {
      const z = Math.clz32(this.randomUint32() | this.levelLow);
      if (z < used) {
        level += (z / this.levelBits) | 0;
        return level < MAX_LEVEL ? level : MAX_LEVEL;
      }
      level += used / this.levelBits;
      if (level >= MAX_LEVEL) return MAX_LEVEL;
    }
  }

  // ---------------------------------------------------------------- allocation

  private allocTower(level: number): number {
    const alloc = this.alloc;
    let x = alloc[FREE_TOWER + level]!;
    if (x !== NIL) {
      alloc[FREE_TOWER + level] = this.t[x + BACK]!;
    } else {
      const c = (level < CLASSES ? level : CLASSES) - 1;
      const words = LINKS + 2 * level;
      x = alloc[PAGE_NEXT + c]!;
      if (x + words > alloc[PAGE_END + c]!) {
        // A new page for this class, sized in proportion to the list (small sets stay small).
        // Even: blocks stay 8-byte aligned; never smaller than the block (a tall node's is 70 words).
        const page = Math.max(words, 16, Math.min(MAX_PAGE, (this.top >> 4) & ~1));
        x = this.top;
        if (x + page > this.t.length) this.growTowers(x + page); // may throw: nothing is changed yet
        this.top = x + page;
        alloc[PAGE_END + c] = this.top;
      }
      alloc[PAGE_NEXT + c] = x + words;
    }
    return x;
  }

  private growTowers(minWords: number): void {
    // Doubling while small; by a quarter beyond 1 MiB, so the slack stays small.
    const n = this.t.length;
    const words = Math.max(minWords, n < 1 << 18 ? n * 2 : n + (n >> 2));
    const t = new Int32Array(this.allocBuffer(words * 4));
    t.set(this.t);
    this.t = t;
    this.tf = new Float64Array(t.buffer);
  }

  private allocBuffer(bytes: number): ArrayBuffer {
    try {
      return new ArrayBuffer(bytes);
    } catch {
      throw new RangeError(
        `redstruct/SortedSet: size ${this.length} cannot grow: a buffer of ${bytes} bytes could not be allocated`,
      );
    }
  }

  /** An entry block (its first position), with room in the entry arrays. */
  private allocBlock(): number {
    if (this.freeBlockCount > 0) return this.freeBlocks[--this.freeBlockCount]! << this.logS;
    const k = this.blockTop;
    const base = k << this.logS;
    // A second block: the arrays now hold whole blocks only (block 0 alone may be short, see room()).
    if (k > 0) this.room(base + (1 << this.logS));
    if (k === this.blockNode.length) {
      const b = new Int32Array(k * 2);
      b.set(this.blockNode);
      this.blockNode = b;
    }
    this.blockTop = k + 1;
    return base;
  }

  /**
   * Makes the entry arrays hold positions below `end`: chunk 0 doubles up to a whole chunk (a set
   * of one node grows its block entry by entry), then whole chunks are added. Nothing changes when
   * the memory cannot be had.
   */
  private room(end: number): void {
    const first = this.es[0]!;
    if (first.length < CHUNK && end > first.length) {
      const size = Math.min(CHUNK, Math.max(end, first.length * 2));
      const s = new Float64Array(this.allocBuffer(size * 8));
      const m = this.em[0]!.concat(strings(size - first.length));
      s.set(first);
      this.es[0] = s;
      this.em[0] = m;
    }
    while (this.es.length << CHUNK_BITS < end) {
      const s = new Float64Array(this.allocBuffer(CHUNK * 8));
      this.es.push(s);
      this.em.push(strings(CHUNK));
    }
  }

  /** A node of `level` with an empty entry block. May throw when memory runs out; nothing is changed then. */
  private newNode(level: number): number {
    const x = this.allocTower(level);
    const base = this.allocBlock();
    const t = this.t;
    t[x + META] = level;
    t[x + BASE] = base;
    this.blockNode[base >>> this.logS] = x;
    return x;
  }

  /** Returns an empty node's tower and block to their free lists. */
  private freeNode(x: number): void {
    const t = this.t;
    const level = t[x + META]! & 63;
    const k = t[x + BASE]! >>> this.logS;
    this.blockNode[k] = NIL;
    if (this.freeBlockCount === this.freeBlocks.length) this.freeBlocks = grown(this.freeBlocks);
    this.freeBlocks[this.freeBlockCount++] = k;
    t[x + BACK] = this.alloc[FREE_TOWER + level]!;
    t[x + META] = 0;
    this.alloc[FREE_TOWER + level] = x;
  }

  /** A slot: where a member's score is kept, the value of its index entry. */
  private allocSlot(): number {
    if (this.freeSlotCount > 0) return this.freeSlots[--this.freeSlotCount]!;
    const slot = this.slotTop++;
    if (slot === this.slotScore.length) {
      const n = this.slotScore.length;
      const p = new Float64Array(this.allocBuffer(8 * (n < DOUBLING ? n * 2 : n + (n >> 3))));
      p.set(this.slotScore);
      this.slotScore = p;
    }
    return slot;
  }

  private freeSlot(slot: number): void {
    if (this.freeSlotCount === this.freeSlots.length) this.freeSlots = grown(this.freeSlots);
    this.freeSlots[this.freeSlotCount++] = slot;
  }

  /** Marks `member` removed in the index; purges the tombstones once they outnumber live members. */
  private forget(member: string): void {
    this.index.set(member, 0);
    const tombstones = this.index.size - this.length;
    if (tombstones > 64 && tombstones > this.length) {
      for (const [key, slot] of this.index) if (slot === 0) this.index.delete(key);
    }
  }

  // ---------------------------------------------------------------- reading

  /** Slot of `member`, or 0 when absent. O(1). */
  find(member: string): number {
    return this.index.get(member) ?? 0;
  }

  /**
   * Position of the entry (score, member), which must be present: one descent, then a binary search
   * in the node. Leaves the node's path in `update`/`rankAt` (for a change that follows) and the
   * entry's rank in `posRank`. O(log N + log B).
   */
  posOf(score: number, member: string): number {
    const x = this.descend(score, member);
    const j = this.entriesBefore(x, score, member);
    this.posRank = this.rankAt[0]! + j;
    return this.t[x + BASE]! + j;
  }

  /**
   * Position of the first entry sorting after (score, member) — the last sorting before it when
   * `reverse` — or −1 when there is none. The key need not be present. O(log N + log B).
   */
  adjacentPos(score: number, member: string, reverse: boolean): number {
    const x = this.descend(score, member);
    if (x === HEADER) return reverse ? -1 : this.firstPos();
    const t = this.t;
    const base = t[x + BASE]!;
    const j = this.entriesBefore(x, score, member); // node x's entries before the key: its first is not
    if (reverse) return j > 0 ? base + j - 1 : this.prevPos(base);
    if (j === t[x + META]! >>> 6) {
      const y = t[x + LINKS]!;
      return y === NIL ? -1 : t[y + BASE]!;
    }
    const p = base + j;
    return this.memberAt(p) === member && this.scoreAt(p) === score ? this.nextPos(p) : p;
  }

  scoreAt(pos: number): number {
    return this.es[pos >>> CHUNK_BITS]![pos & CHUNK_MASK]!;
  }

  memberAt(pos: number): string {
    return this.em[pos >>> CHUNK_BITS]![pos & CHUNK_MASK]!;
  }

  /** The score of a live slot. */
  scoreOf(slot: number): number {
    return this.slotScore[slot]!;
  }

  /** Node holding the entry at `pos`. */
  nodeOf(pos: number): number {
    return this.blockNode[pos >>> this.logS]!;
  }

  countOf(x: number): number {
    return this.t[x + META]! >>> 6;
  }

  levelOf(x: number): number {
    return this.t[x + META]! & 63;
  }

  /** First node, or NIL. */
  firstNode(): number {
    return this.t[LINKS]!;
  }

  /** Next node in order, or NIL. */
  nextNode(x: number): number {
    return this.t[x + LINKS]!;
  }

  /** Position of a node's entry 0. */
  baseOf(x: number): number {
    return this.t[x + BASE]!;
  }

  /** Position of the first entry, or −1 when empty. */
  firstPos(): number {
    const x = this.t[LINKS]!;
    return x === NIL ? -1 : this.t[x + BASE]!;
  }

  /** Position of the last entry, or −1 when empty. */
  lastPos(): number {
    const x = this.tail;
    return x === NIL ? -1 : this.t[x + BASE]! + (this.t[x + META]! >>> 6) - 1;
  }

  /** Position of the entry after `pos`, or −1. */
  nextPos(pos: number): number {
    const t = this.t;
    const x = this.blockNode[pos >>> this.logS]!;
    const base = t[x + BASE]!;
    if (pos + 1 - base < t[x + META]! >>> 6) return pos + 1;
    const y = t[x + LINKS]!;
    return y === NIL ? -1 : t[y + BASE]!;
  }

  /** Position of the entry before `pos`, or −1. */
  prevPos(pos: number): number {
    const t = this.t;
    const x = this.blockNode[pos >>> this.logS]!;
    if (pos > t[x + BASE]!) return pos - 1;
    const w = t[x + BACK]!;
    return w === NIL ? -1 : t[w + BASE]! + (t[w + META]! >>> 6) - 1;
  }

  /** Member of node y's first entry. */
  private firstMember(y: number): string {
    const base = this.t[y + BASE]!;
    return this.em[base >>> CHUNK_BITS]![base & CHUNK_MASK]!;
  }

  /** Number of entries of node x sorting before (score, member) (binary search). */
  private entriesBefore(x: number, score: number, member: string): number {
    const t = this.t;
    const base = t[x + BASE]!;
    const es = this.es[base >>> CHUNK_BITS]!;
    const em = this.em[base >>> CHUNK_BITS]!;
    const lb = base & CHUNK_MASK;
    const n = t[x + META]! >>> 6;
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

  // ---------------------------------------------------------------- descents

  /**
   * Descends to the last node whose first entry sorts at or before (score, member), filling
   * `update` (that node's path: the last node at or before it on each level) and `rankAt` (their
   * ranks). Returns the node, or HEADER when every node starts after the key.
   */
  private descend(score: number, member: string): number {
    const { update, rankAt, tf } = this;
    const t = this.t;
    let x = HEADER;
    let rank = 0;
    // `stop` is the node a higher level stopped before: known to start after the key, so the lower
    // levels need not compare it again.
    let stop = NIL;
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      let y = t[link]!;
      while (y !== NIL && y !== stop) {
        const ys = tf[y >> 1]!;
        if (ys > score || (ys === score && compareMembers(this.firstMember(y), member) > 0)) {
          stop = y;
          break;
        }
        rank += t[link + 1]!;
        x = y;
        link = x + LINKS + 2 * i;
        y = t[link]!;
      }
      update[i] = x;
      rankAt[i] = rank;
    }
    return x;
  }

  /** Fills `update` with node x's path (the last node at or before x on each level), walking up links. */
  private pathOf(x: number): void {
    const { update } = this;
    const t = this.t;
    const top = this.level;
    let i = 0;
    for (;;) {
      const l = x === HEADER ? MAX_LEVEL : t[x + META]! & 63;
      while (i < l && i < top) update[i++] = x;
      if (i >= top) return;
      x = l === 1 ? t[x + BACK]! : t[x + UP]!;
    }
  }

  /** Adds d to the span of every link of `update` (an entry added to or removed from its node). */
  private addToPath(d: number): void {
    const { update } = this;
    const t = this.t;
    for (let i = 0; i < this.level; i++) t[update[i]! + LINKS + 2 * i + 1]! += d;
  }

  // ---------------------------------------------------------------- changes

  /** Inserts (score, member), which must not be present (the caller checks `index`). */
  insert(score: number, member: string): void {
    const slot = this.allocSlot();
    try {
      this.insertEntry(score, member);
    } catch (e) {
      this.freeSlot(slot);
      throw e;
    }
    this.slotScore[slot] = score;
    this.index.set(member, slot);
  }

  /** Links an entry (score, member). O(log N + B). */
  private insertEntry(score: number, member: string): void {
    const { update, rankAt } = this;
    let x = this.descend(score, member);
    let j: number;
    if (x === HEADER) {
      x = this.t[LINKS]!;
      if (x === NIL) x = this.splitAfter(HEADER, 0); // the first node
      for (let i = 0; i < (this.t[x + META]! & 63); i++) {
        update[i] = x;
        rankAt[i] = 0;
      }
      j = 0;
    } else {
      j = this.entriesBefore(x, score, member);
    }
    if (this.t[x + META]! >>> 6 === this.nodeSize) {
      this.makeRoom(x, j);
      x = this.roomNode;
      j = this.roomAt;
    }
    this.putEntry(x, j, score, member);
    this.addToPath(1);
    this.length++;
  }

  /**
   * Makes room in full node x for an entry at offset j (`update`/`rankAt` holding x's path) and
   * leaves in `roomNode`/`roomAt` (and `update`/`rankAt`) where it goes. An append past the last
   * entry of the last node, or before the first of the first, starts a new node, so ordered loads
   * fill nodes completely. Otherwise, by policy: entries shift into the next node when it has room
   * (evening out the two), and two full nodes split into three; or x splits in half.
   */
  private makeRoom(x: number, j: number): void {
    const { rankAt } = this;
    const t = this.t;
    const b = this.nodeSize;
    const y = t[x + LINKS]!;
    const appends = j === b && y === NIL;
    const prepends = j === 0 && t[x + BACK] === NIL;
    this.roomNode = x;
    this.roomAt = j;
    if (!appends && !prepends && y !== NIL && this.policy !== 0) {
      const m = t[y + META]! >>> 6;
      if (m < b - 1) {
        const k = (b - m + 1) >> 1; // even out the free room of x and y; y keeps one at least
        this.moveEntries(x, b - k, k, y, 0);
        this.shiftStart(y, -k, x);
        if (j > b - k) this.enter(y, j - (b - k), rankAt[0]! + b - k);
        return;
      }
      if (this.policy === 3) {
        const w = t[x + BACK]!;
        const mw = w === NIL ? b : t[w + META]! >>> 6;
        if (mw < b - 1) {
          // Shift x's first entries into the previous node instead; x starts k entries later.
          const k = (b - mw + 1) >> 1;
          this.pathOf(w);
          this.moveEntries(x, 0, k, w, mw);
          this.shiftStart(x, k, w);
          if (j < k) this.enter(w, mw + j, 0);
          else this.enter(x, j - k, 0); // ranks are not needed past this point: no node is added
          return;
        }
      }
      const third = Math.floor(b / 3);
      if (this.policy >= 2 && third >= 1 && 2 * third >= this.minFill && m - third >= this.minFill) {
        // x and y (nearly) full: a new node z between them takes the last third of x and the first of y.
        const z = this.splitAfter(x, b - third);
        this.moveEntries(y, 0, third, z, third);
        this.shiftStart(y, third, z);
        if (j > b - third) this.enter(z, j - (b - third), rankAt[0]! + b - third);
        return;
      }
    }
    // Halves of the B + 1 entries, the new one included: x keeps ⌈(B+1)/2⌉.
    const half = (b + 2) >> 1;
    const h = appends ? b : prepends ? 0 : j < half ? half - 1 : half;
    const z = this.splitAfter(x, h);
    if (appends || (j >= half && !prepends)) this.enter(z, j - h, rankAt[0]! + h);
  }

  /** The entry goes to node y at offset j: y's path becomes `update` (y at its own levels, rank ry). */
  private enter(y: number, j: number, ry: number): void {
    const { update, rankAt } = this;
    for (let i = 0; i < (this.t[y + META]! & 63); i++) {
      update[i] = y;
      rankAt[i] = ry;
    }
    this.roomNode = y;
    this.roomAt = j;
  }

  /**
   * Creates a node y after node x (`update`/`rankAt` holding x's path) and moves x's entries from
   * offset h on into it. Returns y. The node is allocated before anything changes.
   */
  private splitAfter(x: number, h: number): number {
    const { update, rankAt } = this;
    const level = this.randomLevel();
    const y = this.newNode(level);
    const t = this.t;
    if (level > this.level) {
      for (let i = this.level; i < level; i++) {
        update[i] = HEADER;
        rankAt[i] = 0;
        t[HEADER + LINKS + 2 * i + 1] = this.length;
      }
      this.level = level;
    }
    if (x !== HEADER) this.moveEntries(x, h, (t[x + META]! >>> 6) - h, y, 0);
    const ry = rankAt[0]! + h;
    for (let i = 0; i < level; i++) {
      const pl = update[i]! + LINKS + 2 * i;
      const yl = y + LINKS + 2 * i;
      const next = t[pl]!;
      t[yl] = next;
      t[pl] = y;
      const d = ry - rankAt[i]!;
      t[yl + 1] = t[pl + 1]! - d;
      t[pl + 1] = d;
      // y now precedes `next` at level i; if that is next's top level (≥ 2), it is next's up link.
      if (i > 0 && next !== NIL && (t[next + META]! & 63) === i + 1) t[next + UP] = y;
    }
    if (level > 1) t[y + UP] = update[level - 1]!;
    t[y + BACK] = x;
    const after = t[y + LINKS]!;
    if (after !== NIL) t[after + BACK] = y;
    else this.tail = y;
    return y;
  }

  /**
   * Opens `k` free positions at offset `at` of node x, whose block has room for them, and returns
   * the first. A node's entries may start anywhere in its block, so the shorter side of them moves
   * (half the average move of a node kept at its block's start); when that side has no room left,
   * the entries are placed once with half the free room on it, so inserts at one end of a node —
   * ordered loads, or a new low score — stay cheap. Updates x's base, not its count.
   */
  private openGap(x: number, at: number, k: number): number {
    const t = this.t;
    const n = t[x + META]! >>> 6;
    const c = t[x + BASE]! >>> CHUNK_BITS;
    const o = c << CHUNK_BITS; // positions of the node's chunk start here
    let base = t[x + BASE]! - o;
    const blk = base & ~this.blockMask;
    const size = this.blockMask + 1;
    let end = Math.min(blk + size, this.es[c]!.length); // a set of one node may have a short block
    if (end - blk - n < k) {
      this.room(o + blk + n + k);
      end = Math.min(blk + size, this.es[c]!.length);
    }
    const es = this.es[c]!;
    const em = this.em[c]!;
    const half = Math.max(k, (end - blk - n) >> 1);
    if (at < n - at) {
      if (base - blk < k) {
        const to = blk + half;
        shift(es, em, base, base + n, to - base);
        vacate(em, base, Math.min(to, base + n));
        base = to;
      }
      if (at > 0) shift(es, em, base, base + at, -k);
      base -= k;
    } else {
      if (end - (base + n) < k) {
        const to = end - n - half;
        shift(es, em, base, base + n, to - base);
        vacate(em, Math.max(to + n, base), base + n);
        base = to;
      }
      if (at < n) shift(es, em, base + at, base + n, k);
    }
    t[x + BASE] = o + base;
    return o + base + at;
  }

  /**
   * Closes the `k` positions at offset `from` of node x, whose entries were copied or dropped,
   * moving the shorter side and clearing the member references left behind; updates x's base,
   * count and first score.
   */
  private closeGap(x: number, from: number, k: number): void {
    const t = this.t;
    const n = t[x + META]! >>> 6;
    const c = t[x + BASE]! >>> CHUNK_BITS;
    const base = t[x + BASE]! & CHUNK_MASK;
    const es = this.es[c]!;
    const em = this.em[c]!;
    if (from < n - from - k) {
      if (from > 0) shift(es, em, base, base + from, k);
      vacate(em, base, base + k);
      t[x + BASE]! += k;
    } else {
      if (from + k < n) shift(es, em, base + from + k, base + n, -k);
      vacate(em, base + n - k, base + n);
    }
    t[x + META]! -= k << 6;
    if (from === 0 && n > k) this.tf[x >> 1] = es[t[x + BASE]! & CHUNK_MASK]!;
  }

  /**
   * Moves `k` entries of node x from offset `from` to node y at offset `at` (x ≠ y), updating both
   * nodes' bases, counts and first scores. Spans are the caller's; no index changes (it maps
   * members to scores, not to places).
   */
  private moveEntries(x: number, from: number, k: number, y: number, at: number): void {
    if (k === 0) return;
    const p = this.openGap(y, at, k);
    const src = this.t[x + BASE]! + from;
    const ys = this.es[p >>> CHUNK_BITS]!;
    const ym = this.em[p >>> CHUNK_BITS]!;
    const xs = this.es[src >>> CHUNK_BITS]!;
    const xm = this.em[src >>> CHUNK_BITS]!;
    const pl = p & CHUNK_MASK;
    const sl = src & CHUNK_MASK;
    for (let i = 0; i < k; i++) {
      ys[pl + i] = xs[sl + i]!;
      ym[pl + i] = xm[sl + i]!;
    }
    this.t[y + META]! += k << 6;
    if (at === 0) this.tf[y >> 1] = ys[pl]!;
    this.closeGap(x, from, k);
  }

  /** Writes (score, member) at offset j of node x (which has room). */
  private putEntry(x: number, j: number, score: number, member: string): void {
    const p = this.openGap(x, j, 1);
    this.es[p >>> CHUNK_BITS]![p & CHUNK_MASK] = score;
    this.em[p >>> CHUNK_BITS]![p & CHUNK_MASK] = member;
    this.t[x + META]! += 1 << 6;
    if (j === 0) this.tf[x >> 1] = score;
  }

  /** Deletes `member`, which must be present. O(log N + B). */
  deleteMember(member: string): void {
    const slot = this.index.get(member)!;
    this.deleteAt(this.posOf(this.slotScore[slot]!, member), slot);
  }

  /**
   * Deletes the member of a live slot, whose entry is at `pos` — found by {@link posOf}, whose path
   * is still in `update`. O(log N + B).
   */
  deleteAt(pos: number, slot: number): void {
    const member = this.memberAt(pos);
    this.removeAt(pos);
    this.freeSlot(slot);
    this.forget(member);
  }

  /**
   * Unlinks the entry at `pos` (its slot stays allocated), rebalancing its node when underfull.
   * `update` holds the node's path (from {@link posOf}).
   */
  private removeAt(pos: number): void {
    const x = this.blockNode[pos >>> this.logS]!;
    this.closeGap(x, pos - this.t[x + BASE]!, 1);
    this.addToPath(-1);
    this.length--;
    this.rebalance(x);
  }

  /** Whether node x breaks the fill bound: empty, or an interior node under ⌊B/4⌋. */
  private underfull(x: number): boolean {
    const t = this.t;
    const n = t[x + META]! >>> 6;
    return n === 0 || (n < this.minFill && t[x + BACK] !== NIL && t[x + LINKS] !== NIL);
  }

  /**
   * Restores the fill bound at node x: an empty node is unlinked; an underfull interior node is
   * merged into the previous node when both fit in 3B/4 entries, or takes entries from it to even
   * them out. (The first and the last node need only one entry, so an underfull node has both
   * neighbours.)
   */
  private rebalance(x: number): void {
    if (!this.underfull(x)) return;
    const t = this.t;
    const n = t[x + META]! >>> 6;
    const w = t[x + BACK]!;
    this.pathOf(w);
    if (n === 0) {
      this.unlink(x);
      return;
    }
    const m = t[w + META]! >>> 6;
    if (m + n <= this.mergeMax) {
      this.moveEntries(x, 0, n, w, m); // ranks unchanged: x's spans fold into its predecessors'
      this.unlink(x);
    } else {
      const k = (m - n) >> 1;
      this.moveEntries(w, m - k, k, x, 0);
      this.shiftStart(x, -k, w); // x starts k entries earlier
    }
  }

  /**
   * Node y's first entry moved d ranks (entries moved between y and `prev`, the node before it):
   * the links into y — from `prev` at prev's levels, else from `update` (a path through prev) —
   * change by d, and y's own links by −d.
   */
  private shiftStart(y: number, d: number, prev: number): void {
    const { update } = this;
    const t = this.t;
    const level = t[y + META]! & 63;
    const own = prev === HEADER ? 0 : t[prev + META]! & 63;
    for (let i = 0; i < level; i++) {
      t[(i < own ? prev : update[i]!) + LINKS + 2 * i + 1]! += d;
      t[y + LINKS + 2 * i + 1]! -= d;
    }
  }

  /** Unlinks node x, whose predecessors are in `update`, folding its spans into theirs, and frees it. */
  private unlink(x: number): void {
    const { update } = this;
    const t = this.t;
    const level = t[x + META]! & 63;
    for (let i = 0; i < level; i++) {
      const p = update[i]!;
      const pl = p + LINKS + 2 * i;
      const xl = x + LINKS + 2 * i;
      const next = t[xl]!;
      t[pl] = next;
      t[pl + 1]! += t[xl + 1]!;
      // x's predecessor at level i becomes next's up link when level i is next's top (≥ 2).
      if (i > 0 && next !== NIL && (t[next + META]! & 63) === i + 1) t[next + UP] = p;
    }
    const after = t[x + LINKS]!;
    if (after !== NIL) t[after + BACK] = t[x + BACK]!;
    else this.tail = t[x + BACK]!;
    while (this.level > 1 && t[HEADER + LINKS + 2 * (this.level - 1)] === NIL) this.level--;
    this.freeNode(x);
  }

  /** True when the entry at `pos` can take `score` without moving (its neighbours still bracket it). */
  staysInPlace(pos: number, score: number): boolean {
    const member = this.memberAt(pos);
    const prev = this.prevPos(pos);
    const next = this.nextPos(pos);
    return (prev < 0 || this.entryBefore(prev, score, member)) && (next < 0 || !this.entryBefore(next, score, member));
  }

  /** True when the entry at `pos` sorts before (score, member). */
  private entryBefore(pos: number, score: number, member: string): boolean {
    const s = this.scoreAt(pos);
    return s < score || (s === score && compareMembers(this.memberAt(pos), member) < 0);
  }

  /**
   * Gives the entry at `pos` (of the member with `slot`; found by {@link posOf}, whose path is still
   * in `update`) a new score. When its neighbours still bracket it the score is written in place
   * (O(1), as Redis's zslUpdateScore does); when it stays inside its node, the entries between its
   * old and new places move over by one (no span changes); otherwise it is unlinked and inserted again.
   */
  updateScore(pos: number, slot: number, score: number): void {
    this.slotScore[slot] = score;
    if (this.staysInPlace(pos, score)) {
      this.es[pos >>> CHUNK_BITS]![pos & CHUNK_MASK] = score;
      const x = this.blockNode[pos >>> this.logS]!;
      if (pos === this.t[x + BASE]) this.tf[x >> 1] = score;
      return;
    }
    const x = this.blockNode[pos >>> this.logS]!;
    const t = this.t;
    const member = this.memberAt(pos);
    const w = t[x + BACK]!;
    const y = t[x + LINKS]!;
    const n = t[x + META]! >>> 6;
    if (
      n > 1 &&
      (w === NIL || this.entryBefore(t[w + BASE]! + (t[w + META]! >>> 6) - 1, score, member)) &&
      (y === NIL || !this.entryBefore(t[y + BASE]!, score, member))
    ) {
      // The entries between the old place and the new one move over by one: no span changes.
      const base = t[x + BASE]!;
      const j = pos - base;
      const k = this.entriesBefore(x, score, member); // counts the old entry when it sorts before
      const es = this.es[base >>> CHUNK_BITS]!;
      const em = this.em[base >>> CHUNK_BITS]!;
      const lb = base & CHUNK_MASK;
      const to = k > j ? k - 1 : k;
      if (k > j) shift(es, em, lb + j + 1, lb + k, -1);
      else shift(es, em, lb + k, lb + j, 1);
      es[lb + to] = score;
      em[lb + to] = member;
      this.tf[x >> 1] = es[lb]!;
      return;
    }
    this.removeAt(pos);
    this.insertEntry(score, member);
  }

  /** Position of the entry at 0-based rank r (0 ≤ r < length). O(log N). */
  posAt(r: number): number {
    const t = this.t;
    let x = HEADER;
    let traversed = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      while (t[link] !== NIL && traversed + t[link + 1]! <= r) {
        traversed += t[link + 1]!;
        x = t[link]!;
        link = x + LINKS + 2 * i;
      }
    }
    return t[x + BASE]! + (r - traversed);
  }

  /**
   * Sets `boundPos`/`boundPrev` around offset j of node x (the count of its entries below a bound)
   * and returns rank + j. Node x's first entry is below the bound (or x is HEADER).
   */
  private bound(x: number, rank: number, j: number): number {
    const t = this.t;
    if (x === HEADER) {
      this.boundPrev = -1;
      this.boundPos = this.firstPos();
      return 0;
    }
    const base = t[x + BASE]!;
    this.boundPrev = base + j - 1;
    if (j < t[x + META]! >>> 6) {
      this.boundPos = base + j;
    } else {
      const y = t[x + LINKS]!;
      this.boundPos = y === NIL ? -1 : t[y + BASE]!;
    }
    return rank + j;
  }

  /** Number of entries whose score is < s (or ≤ s when `inclusive`); sets the bound positions. O(log N). */
  countBelowScore(s: number, inclusive: boolean): number {
    const { tf } = this;
    const t = this.t;
    let x = HEADER;
    let rank = 0;
    let stop = NIL; // a node already known to start past the bound (see descend)
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      let y = t[link]!;
      while (y !== NIL && y !== stop) {
        const ys = tf[y >> 1]!;
        if (ys > s || (ys === s && !inclusive)) {
          stop = y;
          break;
        }
        rank += t[link + 1]!;
        x = y;
        link = x + LINKS + 2 * i;
        y = t[link]!;
      }
    }
    if (x === HEADER) return this.bound(x, 0, 0);
    const base = t[x + BASE]!;
    const es = this.es[base >>> CHUNK_BITS]!;
    const lb = base & CHUNK_MASK;
    let lo = 1;
    let hi = t[x + META]! >>> 6;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = es[lb + mid]!;
      if (v < s || (v === s && inclusive)) lo = mid + 1;
      else hi = mid;
    }
    return this.bound(x, rank, lo);
  }

  /**
   * Number of entries whose member is < m (or ≤ m when `inclusive`) in byte order, descending as
   * ZRANGEBYLEX does: exact when all scores are equal (the only case Redis defines); sets the bound
   * positions. O(log N).
   */
  countBelowMember(m: string, inclusive: boolean): number {
    const t = this.t;
    let x = HEADER;
    let rank = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      let y = t[link]!;
      while (y !== NIL) {
        const c = compareMembers(this.firstMember(y), m);
        if (c > 0 || (c === 0 && !inclusive)) break;
        rank += t[link + 1]!;
        x = y;
        link = x + LINKS + 2 * i;
        y = t[link]!;
      }
    }
    if (x === HEADER) return this.bound(x, 0, 0);
    const base = t[x + BASE]!;
    const em = this.em[base >>> CHUNK_BITS]!;
    const lb = base & CHUNK_MASK;
    let lo = 1;
    let hi = t[x + META]! >>> 6;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareMembers(em[lb + mid]!, m);
      if (c < 0 || (c === 0 && inclusive)) lo = mid + 1;
      else hi = mid;
    }
    return this.bound(x, rank, lo);
  }

  /**
   * Deletes the entries at 0-based ranks start..end−1 (0 ≤ start < end ≤ length), Redis's
   * zslDeleteRangeByRank on nodes: one descent to the node before the start, then whole nodes
   * unlinked or trimmed as the path advances, and the two nodes at the ends rebalanced.
   * O(log N + k).
   */
  deleteRanks(start: number, end: number): void {
    const { update, rankAt } = this;
    let t = this.t;
    // The path of the last node lying wholly before `start`.
    let x = HEADER;
    let rank = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + LINKS + 2 * i;
      let y = t[link]!;
      while (y !== NIL && rank + t[link + 1]! + (t[y + META]! >>> 6) <= start) {
        rank += t[link + 1]!;
        x = y;
        link = x + LINKS + 2 * i;
        y = t[link]!;
      }
      update[i] = x;
      rankAt[i] = rank;
    }
    let cur = t[x + LINKS]!;
    let j = start - (rank + (t[x + META]! >>> 6));
    let remaining = end - start;
    let first = NIL;
    let last = NIL;
    while (remaining > 0) {
      t = this.t;
      const n = t[cur + META]! >>> 6;
      const k = Math.min(n - j, remaining);
      const base = t[cur + BASE]!;
      const em = this.em[base >>> CHUNK_BITS]!;
      for (let p = (base & CHUNK_MASK) + j; p < (base & CHUNK_MASK) + j + k; p++) {
        const member = em[p]!;
        this.freeSlot(this.index.get(member)!);
        this.length--;
        this.forget(member);
      }
      this.closeGap(cur, j, k);
      const level = t[cur + META]! & 63;
      for (let i = 0; i < this.level; i++) t[(i < level ? cur : update[i]!) + LINKS + 2 * i + 1]! -= k;
      remaining -= k;
      const next = t[cur + LINKS]!;
      if (n === k) {
        this.unlink(cur);
      } else {
        if (first === NIL) first = cur;
        else last = cur;
        for (let i = 0; i < level; i++) update[i] = cur;
      }
      cur = next;
      j = 0;
    }
    if (first !== NIL) this.rebalance(first);
    if (last !== NIL && this.t[last + META] !== 0) this.rebalance(last);
  }

  // ---------------------------------------------------------------- walks

  /** Pushes k entries as [member, score] from position `pos` on, forward or backward. */
  collect(pos: number, k: number, reverse: boolean, out: [string, number][]): void {
    const t = this.t;
    let x = this.blockNode[pos >>> this.logS]!;
    let j = pos - t[x + BASE]!;
    while (k > 0) {
      const base = t[x + BASE]!;
      const es = this.es[base >>> CHUNK_BITS]!;
      const em = this.em[base >>> CHUNK_BITS]!;
      const lb = base & CHUNK_MASK;
      if (reverse) {
        for (; j >= 0 && k > 0; j--, k--) out.push([em[lb + j]!, es[lb + j]!]);
        x = t[x + BACK]!;
        j = (t[x + META]! >>> 6) - 1;
      } else {
        const n = t[x + META]! >>> 6;
        for (; j < n && k > 0; j++, k--) out.push([em[lb + j]!, es[lb + j]!]);
        x = t[x + LINKS]!;
        j = 0;
      }
    }
  }

  /** Pushes the entries from `pos` on while their score is ≤ max (< max when exclusive), at most `limit`. */
  collectUpTo(pos: number, max: number, exclusive: boolean, limit: number, out: [string, number][]): void {
    const t = this.t;
    if (pos < 0) return;
    let x = this.blockNode[pos >>> this.logS]!;
    let j = pos - t[x + BASE]!;
    while (x !== NIL) {
      const base = t[x + BASE]!;
      const es = this.es[base >>> CHUNK_BITS]!;
      const em = this.em[base >>> CHUNK_BITS]!;
      const lb = base & CHUNK_MASK;
      const n = t[x + META]! >>> 6;
      for (; j < n; j++) {
        const s = es[lb + j]!;
        if ((exclusive ? s >= max : s > max) || out.length >= limit) return;
        out.push([em[lb + j]!, s]);
      }
      x = t[x + LINKS]!;
      j = 0;
    }
  }

  /** Pushes the entries from `pos` backward while their score is ≥ min (> min when exclusive), at most `limit`. */
  collectDownTo(pos: number, min: number, exclusive: boolean, limit: number, out: [string, number][]): void {
    const t = this.t;
    if (pos < 0) return;
    let x = this.blockNode[pos >>> this.logS]!;
    let j = pos - t[x + BASE]!;
    while (x !== NIL) {
      const base = t[x + BASE]!;
      const es = this.es[base >>> CHUNK_BITS]!;
      const em = this.em[base >>> CHUNK_BITS]!;
      const lb = base & CHUNK_MASK;
      for (; j >= 0; j--) {
        const s = es[lb + j]!;
        if ((exclusive ? s <= min : s < min) || out.length >= limit) return;
        out.push([em[lb + j]!, s]);
      }
      x = t[x + BACK]!;
      j = (t[x + META]! >>> 6) - 1;
    }
  }

  // ---------------------------------------------------------------- whole-list operations

  /**
   * Fills an empty list with `count` entries given in order: entry k is (scores[order[k]],
   * members[order[k]]) (order omitted: k itself), strictly increasing in (score, member) — the
   * caller sorted them and made the members distinct. One pass, no search: nodes are filled to 7/8
   * of B, each linked after the last node of each of its levels, spans read off the ranks. Member j
   * takes slot j + 1, and the index is filled in the run's own order: the run comes from walking the
   * inputs' indexes, so its member strings were allocated roughly in that order and hashing them
   * then misses the cache far less often than in score order. O(n).
   */
  loadSorted(
    members: readonly string[],
    scores: ArrayLike<number>,
    order: ArrayLike<number> | null,
    count: number,
  ): void {
    const { update, rankAt } = this;
    for (let i = 0; i < MAX_LEVEL; i++) {
      update[i] = HEADER;
      rankAt[i] = 0;
    }
    if (count + 1 > this.slotScore.length) this.slotScore = new Float64Array(this.allocBuffer(8 * (count + 1)));
    this.slotTop = count + 1;
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
      const level = this.randomLevel();
      if (level > top) top = level;
      const x = this.newNode(level);
      const t = this.t;
      const base = t[x + BASE]!;
      this.room(base + n);
      const es = this.es[base >>> CHUNK_BITS]!;
      const em = this.em[base >>> CHUNK_BITS]!;
      const lb = base & CHUNK_MASK;
      for (let e = 0; e < n; e++, k++) {
        const j = order === null ? k : order[k]!;
        es[lb + e] = scores[j]!;
        em[lb + e] = members[j]!;
        this.slotScore[j + 1] = scores[j]!;
      }
      t[x + META]! += n << 6;
      this.tf[x >> 1] = es[lb]!;
      const rank = k - n;
      const up = update[level - 1]!; // the previous node at the new node's top level: its up link
      for (let i = 0; i < level; i++) {
        const ul = update[i]! + LINKS + 2 * i;
        t[ul] = x;
        t[ul + 1] = rank - rankAt[i]!;
        update[i] = x;
        rankAt[i] = rank;
      }
      if (level > 1) t[x + UP] = up;
      t[x + BACK] = prev;
      prev = x;
    }
    const t = this.t;
    for (let i = 0; i < MAX_LEVEL; i++) {
      const ul = update[i]! + LINKS + 2 * i;
      t[ul] = NIL;
      t[ul + 1] = count - rankAt[i]!;
    }
    for (let j = 0; j < count; j++) this.index.set(members[j]!, j + 1);
    this.length = count;
    this.level = top;
    this.tail = prev;
  }

  /**
   * Removes everything and returns the arrays to their initial sizes (like `Map#clear`, memory is
   * released). The generator goes on where it was.
   */
  clear(): void {
    this.index.clear();
    this.initialArrays();
    this.freeSlots = NONE;
    this.freeBlocks = NONE;
    this.freeSlotCount = 0;
    this.freeBlockCount = 0;
    this.blockTop = 0;
    this.slotTop = 1;
    this.top = HEADER_WORDS;
    this.length = 0;
    this.level = 1;
    this.tail = NIL;
  }

  /** An independent copy: the same entries in the same layout, the generator at the same state. */
  clone(): ZSkipList {
    const layout = { nodeSize: this.nodeSize, levelBits: this.levelBits, policy: this.policy };
    const c = new ZSkipList(this.generatorState(), 0, layout);
    c.length = this.length;
    c.level = this.level;
    c.tail = this.tail;
    c.index = new Map(this.index);
    c.t = this.t.slice();
    c.tf = new Float64Array(c.t.buffer);
    c.es = this.es.map((a) => a.slice());
    c.em = this.em.map((a) => a.slice());
    c.blockNode = this.blockNode.slice();
    c.slotScore = this.slotScore.slice();
    c.top = this.top;
    c.alloc.set(this.alloc);
    c.blockTop = this.blockTop;
    c.freeBlocks = this.freeBlocks.slice();
    c.freeBlockCount = this.freeBlockCount;
    c.slotTop = this.slotTop;
    c.freeSlots = this.freeSlots.slice();
    c.freeSlotCount = this.freeSlotCount;
    return c;
  }

  /** The end of the positions held by the chunk of position `pos` (chunk 0 may be short). */
  private chunkEnd(pos: number): number {
    const c = pos >>> CHUNK_BITS;
    return c < this.es.length ? (c << CHUNK_BITS) + this.es[c]!.length : 0;
  }

  /** Bytes held by the typed arrays (not the member strings, the arrays referencing them or the index). */
  byteLength(): number {
    let bytes = this.t.byteLength + this.blockNode.byteLength + this.slotScore.byteLength;
    for (const a of this.es) bytes += a.byteLength;
    return bytes + this.freeSlots.byteLength + this.freeBlocks.byteLength;
  }

  /** Walks the whole structure and throws an Error naming the first broken invariant. O(n + N·levels). */
  checkInvariants(where: string): void {
    const fail: (what: string) => never = invariantFailure(where);
    const t = this.t;
    const b = this.nodeSize;
    if (this.level < 1 || this.level > MAX_LEVEL) fail(`level ${this.level}`);
    // Level 0: nodes, entries, order, back and up links, ranks, slots.
    const rankOfNode = new Map<number, number>();
    const lastAt = new Int32Array(MAX_LEVEL); // the last node seen at each level (HEADER at first)
    const seenSlots = new Set<number>();
    let prev = NIL;
    let entries = 0;
    let prevPos = -1;
    for (let x = t[LINKS]!; x !== NIL; x = t[x + LINKS]!) {
      if (rankOfNode.size > this.length) fail("node chain longer than the entries (cycle?)");
      if ((x & 1) !== 0 || x < HEADER_WORDS || x >= this.top) fail(`node address ${x} out of the used towers`);
      const level = t[x + META]! & 63;
      const n = t[x + META]! >>> 6;
      if (level < 1 || level > this.level) fail(`node ${x} has level ${level}`);
      if (n < 1 || n > b) fail(`node ${x} holds ${n} entries (1..${b})`);
      const interior = t[x + BACK] !== NIL && t[x + LINKS] !== NIL;
      if (interior && n < this.minFill) fail(`interior node ${x} holds ${n} < ${this.minFill} entries`);
      if (t[x + BACK] !== prev) fail(`node ${x} backward ${t[x + BACK]} ≠ ${prev}`);
      if (level > 1 && t[x + UP] !== lastAt[level - 1]) fail(`node ${x} up link ${t[x + UP]} ≠ ${lastAt[level - 1]}`);
      for (let i = 0; i < level; i++) lastAt[i] = x;
      const base = t[x + BASE]!;
      const blk = base & ~this.blockMask;
      if (blk >>> this.logS >= this.blockTop || base + n > blk + this.blockMask + 1) fail(`node ${x} base ${base}`);
      if (this.blockNode[base >>> this.logS] !== x)
        fail(`block of node ${x} owned by ${this.blockNode[base >>> this.logS]}`);
      if (!Object.is(this.tf[x >> 1], this.scoreAt(base)))
        fail(`node ${x} first score ${this.tf[x >> 1]} ≠ ${this.scoreAt(base)}`);
      const held = Math.min(blk + this.blockMask + 1, this.chunkEnd(blk)); // one node's block may be short
      if (base + n > held) fail(`node ${x}'s entries pass its block`);
      for (let pos = blk; pos < held; pos++) {
        const member = this.memberAt(pos);
        if (pos < base || pos >= base + n) {
          if (member !== "") fail(`unused position ${pos} keeps a member`);
          continue;
        }
        const score = this.scoreAt(pos);
        const slot = this.index.get(member);
        if (slot === undefined || slot < 1 || slot >= this.slotTop || seenSlots.has(slot))
          fail(`the index maps ${JSON.stringify(member)} to slot ${slot}`);
        seenSlots.add(slot!);
        if (!Object.is(this.slotScore[slot!], score))
          fail(`slot ${slot} holds ${this.slotScore[slot!]}, the entry ${score}`);
        if (Number.isNaN(score)) fail(`NaN score at position ${pos}`);
        if (prevPos >= 0 && !this.entryBefore(prevPos, score, member)) fail(`order broken at rank ${entries}`);
        prevPos = pos;
      }
      rankOfNode.set(x, entries);
      entries += n;
      prev = x;
    }
    if (entries !== this.length) fail(`nodes hold ${entries} entries, length is ${this.length}`);
    if (this.tail !== prev) fail(`tail ${this.tail} ≠ last node ${prev}`);
    let live = 0;
    for (const slot of this.index.values()) if (slot !== 0) live++;
    if (live !== this.length) fail(`index maps ${live} members to slots, length is ${this.length}`);
    if (this.index.size - this.length > Math.max(64, this.length)) fail("tombstones were not purged");
    if (this.slotTop - 1 - this.freeSlotCount !== this.length) fail("slots in use ≠ length");
    for (let i = 0; i < this.freeSlotCount; i++) if (seenSlots.has(this.freeSlots[i]!)) fail("a free slot is in use");
    if (this.blockTop - this.freeBlockCount !== rankOfNode.size) fail("entry blocks in use ≠ nodes");
    for (let i = 0; i < this.freeBlockCount; i++) {
      const base = this.freeBlocks[i]! << this.logS;
      if (this.blockNode[this.freeBlocks[i]!] !== NIL) fail(`free block ${this.freeBlocks[i]} has an owner`);
      const held = Math.min(1 << this.logS, this.chunkEnd(base) - base);
      for (let j = 0; j < held; j++) if (this.memberAt(base + j) !== "") fail(`free block ${base} keeps a member`);
    }
    // Every level: targets are live and tall enough, spans equal rank differences.
    let linked = 0;
    for (let i = 0; i < this.level; i++) {
      let x = HEADER;
      let rx = 0;
      for (;;) {
        const link = x + LINKS + 2 * i;
        const y = t[link]!;
        const ry = y === NIL ? this.length : rankOfNode.get(y);
        if (ry === undefined) fail(`level ${i} links to a node not on level 0`);
        if (y !== NIL && (t[y + META]! & 63) <= i) fail(`level ${i} links to node ${y} of level ${t[y + META]! & 63}`);
        if (t[link + 1] !== ry! - rx)
          fail(`span at level ${i} from rank ${rx} is ${t[link + 1]}, expected ${ry! - rx}`);
        if (y === NIL) break;
        linked++;
        x = y;
        rx = ry!;
      }
    }
    if (this.level > 1 && t[LINKS + 2 * (this.level - 1)] === NIL) fail(`top level ${this.level} is empty`);
    for (let i = this.level; i < MAX_LEVEL; i++)
      if (t[LINKS + 2 * i] !== NIL) fail(`header links above level ${this.level}`);
    let declared = 0;
    for (const x of rankOfNode.keys()) declared += t[x + META]! & 63;
    if (linked !== declared) fail(`${linked} links in use, nodes declare ${declared}`);
  }
}

/** Empty member references to copy from, shared by every list. */
let empties: string[] = [];

/**
 * `size` empty member references: a packed array (reads need no hole check) of exactly `size`
 * elements, copied from {@link empties} in pieces of 2^12 — an array grown by `push` keeps up to
 * half again as much room (measured: 11 bytes per element for 2^14 elements, against 8), and
 * `Array.from` with a callback took a quarter of the time of building a 1,000-member set.
 */
function strings(size: number): string[] {
  if (empties.length === 0) empties = Array.from({ length: TEMPLATE }, () => "");
  if (size <= TEMPLATE) return empties.slice(0, size);
  const pieces: string[][] = [];
  for (let k = size; k > 0; k -= TEMPLATE) pieces.push(k < TEMPLATE ? empties.slice(0, k) : empties);
  return ([] as string[]).concat(...pieces);
}

/**
 * Moves the entries at [from, to) of a block by d positions (either way, overlaps allowed). A typed
 * array's `copyWithin` is a call into the engine's runtime with a fixed cost of a dozen or so
 * element moves, so short moves are a plain loop.
 */
function shift(es: Float64Array, em: string[], from: number, to: number, d: number): void {
  if (to - from > 16) {
    es.copyWithin(from + d, from, to);
    if (d > 0) for (let i = to - 1; i >= from; i--) em[i + d] = em[i]!;
    else for (let i = from; i < to; i++) em[i + d] = em[i]!;
  } else if (d > 0) {
    for (let i = to - 1; i >= from; i--) {
      es[i + d] = es[i]!;
      em[i + d] = em[i]!;
    }
  } else {
    for (let i = from; i < to; i++) {
      es[i + d] = es[i]!;
      em[i + d] = em[i]!;
    }
  }
}

/** Clears positions [from, to) of their member references (so the strings can be collected). */
function vacate(em: string[], from: number, to: number): void {
  for (let i = from; i < to; i++) em[i] = "";
}

/** A copy of `a` with twice the room (at least 16). */
function grown(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(16, a.length * 2));
  b.set(a);
  return b;
}
