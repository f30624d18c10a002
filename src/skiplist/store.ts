/**
 * The node store of the skiplist (./list.ts): where towers and entries live, how they are handed
 * out and given back, and the named accessors every other module reads them through. No object is
 * allocated per entry or per node.
 *
 * Towers: one ArrayBuffer seen as Int32Array `t` and Float64Array `tf`. The node at 8-byte-aligned
 * word address x (its {@link NodeId}) is a block of 6 + 2·level words:
 *
 *     t[x], t[x+1]   first score: the score of the node's entry 0 (tf[x >> 1])
 *     t[x+2]         backward: the previous node (0 = none)
 *     t[x+3]         level | count << 6 (count = entries in the node, 1..B)
 *     t[x+4]         base: the position of the node's entry 0
 *     t[x+5]         up link, level ≥ 2 only: the previous node at the node's top level (0 = header)
 *     t[x+6+2i]      forward link at level i (0 = none); t[x+7+2i] its span
 *
 * The header is the level-32 block at address 0 with no entries; no link points to it, so 0 is also
 * the null link. Blocks are carved from pages, one open page per size class (levels 1, 2, 3, ≥ 4),
 * so the tall nodes a descent lands on sit together; freed blocks go on a free list per level
 * (linked through their backward word).
 *
 * Entries: block k of S consecutive positions (B rounded up to a power of two) holds one node's
 * entries, contiguous but starting anywhere in the block (the node's base), so an insert or a
 * removal moves the shorter side: scores in `es`, member strings in `em`, both in chunks of 2^14
 * positions so that growth allocates a chunk and copies nothing (chunk 0 starts at the size the
 * list needs and doubles up to a whole chunk). `blockNode[k]` is the node owning block k; freed
 * blocks are reused. A range or an iteration reads consecutive positions, B entries per node.
 *
 * Positions ({@link Pos}) index the entry arrays: chunk `p >>> 14`, offset `p & 0x3fff`. A node
 * never straddles two chunks (the block size divides the chunk size).
 */

/** Redis's ZSKIPLIST_MAXLEVEL. */
const MAX_LEVEL = 32;

declare const nodeBrand: unique symbol;
declare const posBrand: unique symbol;
/** A node: the word address of its tower in `t` (0 is the header, and the null link). */
export type NodeId = number & { readonly [nodeBrand]: true };
/** An entry's position in the entry arrays (−1: none). */
export type Pos = number & { readonly [posBrand]: true };

/** The header node; also the null link (no link points to the header). */
const HEADER = 0 as NodeId;
const NIL = 0 as NodeId;
/** No position. */
const NO_POS = -1 as Pos;

/**
 * Tower words: backward link, level | count << 6, base, up link, then (forward, span) per level.
 * The list's descent and walks, the loops every operation spends its time in, read `t` directly
 * (through {@link LAYOUT}); everything else goes through the accessors.
 */
const BACK = 2;
const META = 3;
const BASE = 4;
const UP = 5;
const LINKS = 6;
/** Words of the header block (a level-32 tower): nodes start past it. */
const HEADER_WORDS = LINKS + 2 * MAX_LEVEL;
/** Size classes of tower blocks: levels 1, 2, 3 and ≥ 4. */
const CLASSES = 4;
/** Largest tower page, in words (64 KiB); smaller lists take pages of 1/16 of the words in use (≥ 16). */
const MAX_PAGE = 16384;
/**
 * The allocator's counters, in one Int32Array: per size class the next free word of its open page
 * and the page's end, per level the head of its free list, then the next unused tower word, the
 * entry blocks handed out and the number of freed ones.
 */
const PAGE_NEXT = 0;
const PAGE_END = CLASSES;
const FREE_TOWER = 2 * CLASSES;
const TOP = FREE_TOWER + MAX_LEVEL + 1;
const BLOCK_TOP = TOP + 1;
const FREE_BLOCKS = TOP + 2;
const COUNTERS = TOP + 3;
/**
 * Entry positions per chunk of the entry arrays: growing them allocates a chunk and copies nothing,
 * where growing one flat array copies all of it each time (at 10^6 members, hundreds of megabytes
 * of large arrays allocated and collected over a load). A block never straddles two chunks.
 */
const CHUNK_BITS = 14;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;
/**
 * The layout constants other modules need, as one object each of them takes apart into constants
 * of its own (`const { NIL, LINKS } = LAYOUT;`), as this module keeps its own unexported. V8 folds
 * a module's own unexported `const` into optimized code, but reads an imported or exported binding
 * through its module cell at every use: in a descent that is a third of the time
 * (bench/probes/skiplist-consts.ts).
 */
export const LAYOUT = { MAX_LEVEL, HEADER, NIL, NO_POS, META, BASE, LINKS, HEADER_WORDS, CHUNK_BITS } as const;
/**
 * Entries a new store makes room for at once, at most: a larger `capacity` hint is not allocated up
 * front, the arrays grow as entries arrive, so memory follows use and a careless hint cannot reserve
 * gigabytes.
 */
const EAGER_CAPACITY = 2 ** 16;
/** Empty member references copied at once when the member array grows. */
const TEMPLATE = 1 << 12;

/** A new ArrayBuffer, or a RangeError saying the set cannot grow (nothing is changed then). */
export function allocBuffer(bytes: number): ArrayBuffer {
  try {
    return new ArrayBuffer(bytes);
  } catch {
    throw new RangeError(`redstruct/SortedSet: the set cannot grow: a buffer of ${bytes} bytes could not be allocated`);
  }
}

export class NodeStore {
  /** Towers, as words and as doubles (first scores): one buffer, replaced when it grows. */
  t: Int32Array;
  tf: Float64Array;
  /** Entry scores and member references by position, in chunks of 2^14 positions. */
  readonly es: Float64Array[];
  readonly em: string[][];
  /** The node owning each entry block (NIL when the block is free). */
  #blockNode: Int32Array;
  /** Freed entry blocks, a stack of block numbers (its height is a counter). */
  #freeBlocks: Int32Array;
  /** See {@link COUNTERS}. */
  readonly #c: Int32Array;
  /** log2 of the entry block size (B rounded up to a power of two). */
  readonly logS: number;

  /**
   * A store for nodes of at most `nodeSize` entries with room for `capacity` entries (a hint: at most
   * 65,536 are allocated at once), or a copy of `from`.
   */
  constructor(nodeSize: number, capacity: number, from?: NodeStore) {
    this.logS = 32 - Math.clz32(nodeSize - 1);
    if (from !== undefined) {
      this.t = from.t.slice();
      this.tf = new Float64Array(this.t.buffer);
      this.es = from.es.map((a) => a.slice());
      this.em = from.em.map((a) => a.slice());
      this.#blockNode = from.#blockNode.slice();
      this.#freeBlocks = from.#freeBlocks.slice();
      this.#c = from.#c.slice();
      return;
    }
    const want = Math.min(capacity, EAGER_CAPACITY);
    const nodes = want <= nodeSize ? 1 : Math.ceil(want / Math.max(1, nodeSize >> 1));
    const words = HEADER_WORDS + 16 + 12 * (nodes - 1);
    const positions = Math.max(8, Math.min(CHUNK, 2 ** Math.ceil(Math.log2(Math.max(want, nodes << this.logS)))));
    this.t = new Int32Array(allocBuffer(words * 4));
    this.tf = new Float64Array(this.t.buffer);
    this.t[META] = MAX_LEVEL;
    this.es = [new Float64Array(allocBuffer(positions * 8))];
    this.em = [strings(positions)];
    this.#blockNode = new Int32Array(Math.max(4, nodes));
    this.#freeBlocks = new Int32Array(0);
    this.#c = new Int32Array(COUNTERS);
    this.#c[TOP] = HEADER_WORDS;
  }

  // ---------------------------------------------------------------- towers

  /** Entries held by node x. */
  count(x: NodeId): number {
    return this.t[x + META]! >>> 6;
  }

  /** Levels of node x (1..32; the header's is 32). */
  level(x: NodeId): number {
    return this.t[x + META]! & 63;
  }

  /** Position of node x's entry 0. */
  base(x: NodeId): Pos {
    return this.t[x + BASE]! as Pos;
  }

  /** Position of node x's last entry. */
  last(x: NodeId): Pos {
    const t = this.t;
    return (t[x + BASE]! + (t[x + META]! >>> 6) - 1) as Pos;
  }

  /** The node before x (NIL for the first). */
  back(x: NodeId): NodeId {
    return this.t[x + BACK]! as NodeId;
  }

  /** The previous node at x's top level (HEADER when none), for x of level ≥ 2. */
  up(x: NodeId): NodeId {
    return this.t[x + UP]! as NodeId;
  }

  /** x's forward link at level i. */
  next(x: NodeId, i: number): NodeId {
    return this.t[x + LINKS + 2 * i]! as NodeId;
  }

  /** The span of x's forward link at level i. */
  span(x: NodeId, i: number): number {
    return this.t[x + LINKS + 2 * i + 1]!;
  }

  /** The score of x's entry 0, cached in its tower. */
  firstScore(x: NodeId): number {
    return this.tf[x >> 1]!;
  }

  setBack(x: NodeId, w: NodeId): void {
    this.t[x + BACK] = w;
  }

  setUp(x: NodeId, w: NodeId): void {
    this.t[x + UP] = w;
  }

  setLink(x: NodeId, i: number, y: NodeId, span: number): void {
    const at = x + LINKS + 2 * i;
    this.t[at] = y;
    this.t[at + 1] = span;
  }

  addSpan(x: NodeId, i: number, d: number): void {
    this.t[x + LINKS + 2 * i + 1]! += d;
  }

  /** Adds d to node x's entry count. */
  addCount(x: NodeId, d: number): void {
    this.t[x + META]! += d << 6;
  }

  setFirstScore(x: NodeId, score: number): void {
    this.tf[x >> 1] = score;
  }

  // ---------------------------------------------------------------- entries

  scoreAt(p: Pos): number {
    return this.es[p >>> CHUNK_BITS]![p & CHUNK_MASK]!;
  }

  memberAt(p: Pos): string {
    return this.em[p >>> CHUNK_BITS]![p & CHUNK_MASK]!;
  }

  /** The node holding the entry at p. */
  nodeOf(p: Pos): NodeId {
    return this.#blockNode[p >>> this.logS]! as NodeId;
  }

  /** The end of the positions held by the chunk of position p (chunk 0 may be short). */
  chunkEnd(p: number): number {
    const c = p >>> CHUNK_BITS;
    return c < this.es.length ? (c << CHUNK_BITS) + this.es[c]!.length : 0;
  }

  /**
   * Opens `k` free positions at offset `at` of node x, whose block has room for them, and returns
   * the first. A node's entries may start anywhere in its block, so the shorter side of them moves
   * (half the average move of a node kept at its block's start); when that side has no room left,
   * the entries are placed once with half the free room on it, so inserts at one end of a node —
   * ordered loads, or a new low score — stay cheap. Updates x's base, not its count.
   */
  openGap(x: NodeId, at: number, k: number): Pos {
    const t = this.t;
    const n = t[x + META]! >>> 6;
    const c = t[x + BASE]! >>> CHUNK_BITS;
    const o = c << CHUNK_BITS; // positions of the node's chunk start here
    let base = t[x + BASE]! - o;
    const blockSize = 1 << this.logS;
    const blk = base & -blockSize;
    let end = Math.min(blk + blockSize, this.es[c]!.length); // a list of one node may have a short block
    if (end - blk - n < k) {
      this.room(o + blk + n + k);
      end = Math.min(blk + blockSize, this.es[c]!.length);
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
    return (o + base + at) as Pos;
  }

  /**
   * Closes the `k` positions at offset `from` of node x, whose entries were copied or dropped,
   * moving the shorter side and clearing the member references left behind; updates x's base,
   * count and first score.
   */
  closeGap(x: NodeId, from: number, k: number): void {
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
   * nodes' bases, counts and first scores. Links and spans are the list's.
   */
  moveEntries(x: NodeId, from: number, k: number, y: NodeId, at: number): void {
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

  /** Writes (score, member) at offset j of node x (whose block has room, or gets it). */
  putEntry(x: NodeId, j: number, score: number, member: string): void {
    const p = this.openGap(x, j, 1);
    this.es[p >>> CHUNK_BITS]![p & CHUNK_MASK] = score;
    this.em[p >>> CHUNK_BITS]![p & CHUNK_MASK] = member;
    this.t[x + META]! += 1 << 6;
    if (j === 0) this.tf[x >> 1] = score;
  }

  /**
   * Gives the entry at p a new score that keeps it inside node x, at offset k among the entries
   * that sort before the new key (the old entry counted when it sorts before): the entries between
   * the old and the new place move over by one.
   */
  moveWithin(x: NodeId, p: Pos, k: number, score: number): void {
    const base = this.t[x + BASE]!;
    const j = p - base;
    const es = this.es[base >>> CHUNK_BITS]!;
    const em = this.em[base >>> CHUNK_BITS]!;
    const lb = base & CHUNK_MASK;
    const member = em[lb + j]!;
    const to = k > j ? k - 1 : k;
    if (k > j) shift(es, em, lb + j + 1, lb + k, -1);
    else shift(es, em, lb + k, lb + j, 1);
    es[lb + to] = score;
    em[lb + to] = member;
    this.tf[x >> 1] = es[lb]!;
  }

  /** Writes a new score over the entry at p, which keeps its place. */
  rescore(p: Pos, score: number): void {
    this.es[p >>> CHUNK_BITS]![p & CHUNK_MASK] = score;
    const x = this.nodeOf(p);
    if (p === this.t[x + BASE]) this.tf[x >> 1] = score;
  }

  // ---------------------------------------------------------------- allocation

  /**
   * A node of `level` with an empty entry block. May throw when memory runs out; nothing is changed
   * then.
   */
  newNode(level: number): NodeId {
    const x = this.#allocTower(level);
    const base = this.#allocBlock();
    const t = this.t;
    t[x + META] = level;
    t[x + BASE] = base;
    this.#blockNode[base >>> this.logS] = x;
    return x;
  }

  /** Returns an empty node's tower and block to their free lists. */
  freeNode(x: NodeId): void {
    const t = this.t;
    const c = this.#c;
    const level = t[x + META]! & 63;
    const k = t[x + BASE]! >>> this.logS;
    this.#blockNode[k] = NIL;
    if (c[FREE_BLOCKS] === this.#freeBlocks.length) this.#freeBlocks = grown(this.#freeBlocks);
    this.#freeBlocks[c[FREE_BLOCKS]!++] = k;
    t[x + BACK] = c[FREE_TOWER + level]!;
    t[x + META] = 0;
    c[FREE_TOWER + level] = x;
  }

  #allocTower(level: number): NodeId {
    const c = this.#c;
    let x = c[FREE_TOWER + level]! as NodeId;
    if (x !== NIL) {
      c[FREE_TOWER + level] = this.t[x + BACK]!;
      return x;
    }
    const cls = (level < CLASSES ? level : CLASSES) - 1;
    const words = LINKS + 2 * level;
    x = c[PAGE_NEXT + cls]! as NodeId;
    if (x + words > c[PAGE_END + cls]!) {
      // A new page for this class, sized in proportion to the list (small lists stay small).
      // Even: blocks stay 8-byte aligned; never smaller than the block (a tall node's is 70 words).
      const top = c[TOP]!;
      const page = Math.max(words, 16, Math.min(MAX_PAGE, (top >> 4) & ~1));
      x = top as NodeId;
      if (x + page > this.t.length) this.#growTowers(x + page); // may throw: nothing is changed yet
      c[TOP] = x + page;
      c[PAGE_END + cls] = x + page;
    }
    c[PAGE_NEXT + cls] = x + words;
    return x;
  }

  #growTowers(minWords: number): void {
    // Doubling while small; by a quarter beyond 1 MiB, so the slack stays small.
    const n = this.t.length;
    const words = Math.max(minWords, n < 1 << 18 ? n * 2 : n + (n >> 2));
    const t = new Int32Array(allocBuffer(words * 4));
    t.set(this.t);
    this.t = t;
    this.tf = new Float64Array(t.buffer);
  }

  /** An entry block (its first position), with room in the entry arrays. */
  #allocBlock(): number {
    const c = this.#c;
    if (c[FREE_BLOCKS]! > 0) return this.#freeBlocks[--c[FREE_BLOCKS]!]! << this.logS;
    const k = c[BLOCK_TOP]!;
    const base = k << this.logS;
    // A second block: the arrays now hold whole blocks only (block 0 alone may be short, see room()).
    if (k > 0) this.room(base + (1 << this.logS));
    if (k === this.#blockNode.length) {
      const b = new Int32Array(k * 2);
      b.set(this.#blockNode);
      this.#blockNode = b;
    }
    c[BLOCK_TOP] = k + 1;
    return base;
  }

  /**
   * Makes the entry arrays hold positions below `end`: chunk 0 doubles up to a whole chunk (a list
   * of one node grows its block as it fills), then whole chunks are added. Nothing changes when the
   * memory cannot be had.
   */
  room(end: number): void {
    const first = this.es[0]!;
    if (first.length < CHUNK && end > first.length) {
      const n = Math.min(CHUNK, Math.max(end, first.length * 2));
      const s = new Float64Array(allocBuffer(n * 8));
      const m = this.em[0]!.concat(strings(n - first.length));
      s.set(first);
      this.es[0] = s;
      this.em[0] = m;
    }
    while (this.es.length << CHUNK_BITS < end) {
      const s = new Float64Array(allocBuffer(CHUNK * 8));
      this.es.push(s);
      this.em.push(strings(CHUNK));
    }
  }

  // ---------------------------------------------------------------- for the invariant walk

  /** Tower words in use (addresses below this are carved from pages). */
  get towerTop(): number {
    return this.#c[TOP]!;
  }

  /** Entry blocks handed out, and how many of them are free. */
  get blocks(): number {
    return this.#c[BLOCK_TOP]!;
  }

  get freeBlockCount(): number {
    return this.#c[FREE_BLOCKS]!;
  }

  /** The block number of the i-th free block. */
  freeBlock(i: number): number {
    return this.#freeBlocks[i]!;
  }

  /** The node owning block k (NIL when free). */
  blockOwner(k: number): NodeId {
    return this.#blockNode[k]! as NodeId;
  }

  /** Bytes held by the typed arrays (not the member strings or the arrays referencing them). */
  get byteLength(): number {
    let bytes = this.t.byteLength + this.#blockNode.byteLength + this.#freeBlocks.byteLength + this.#c.byteLength;
    for (const a of this.es) bytes += a.byteLength;
    return bytes;
  }
}

/** Empty member references to copy from, shared by every store. */
let empties: string[] = [];

/**
 * `size` empty member references: a packed array (reads need no hole check) of exactly `size`
 * elements, copied from {@link empties} in pieces of 2^12 — an array grown by `push` keeps up to
 * half again as much room, and `Array.from` with a callback is several times slower.
 */
export function strings(size: number): string[] {
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
function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(Math.max(16, a.length * 2));
  b.set(a);
  return b;
}
