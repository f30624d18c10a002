/**
 * Set operations between Roaring bitmaps: union, intersection, difference and symmetric
 * difference of two bitmaps (container by container, keys walked in step), their in-place union,
 * and the cardinalities of intersections and unions of any number of bitmaps without building them.
 *
 * Each pair of containers with one key is combined by the kernel for its pair of kinds: sorted
 * merges (galloping when one array is 64 times longer than the other, as in Lemire et al. 2016,
 * §4) for two arrays, 32-bit word operations with popcounts for two bitmaps, bit tests and sets
 * between an array and a bitmap, and one sweep over interval boundaries for any pair with a run
 * container (arrays and bitmaps are read as runs there). The kind of each result container is the
 * one CRoaring's `container_and/or/xor/andnot` (and `container_ior` for the in-place union) give
 * the same pair, so that results serialize as CRoaring's do; the rules are in {@link resultKind}.
 *
 * @see ./roaring.ts
 * @internal
 */
import {
  ARRAY,
  ARRAY_MAX,
  arrayToRuns,
  BITMAP,
  bitmapToRuns,
  byCard,
  Containers,
  countWords,
  efficientKind,
  FULL,
  lowerBound,
  popcount,
  RUN,
  runBefore,
  Scratch16,
  setBits,
  WORDS,
} from "./roaring-containers.js";

/** The four operations, and the in-place union (CRoaring's `container_ior` kinds). */
export const OR = 0;
export const AND = 1;
export const XOR = 2;
export const ANDNOT = 3;
export const IOR = 4;

/**
 * Working buffers of one set operation, made per call (never shared between calls) and grown to
 * what the containers met need.
 */
export class Scratch {
  /** Values or run pairs of a result. */
  readonly out = new Scratch16();
  /** Run pairs of the first operand when it is not a run container. */
  readonly xr = new Scratch16();
  /** Run pairs of the second operand when it is not a run container. */
  readonly yr = new Scratch16();
  #w: Int32Array | null = null;
  /** Cardinality of the last run merge's result. */
  card = 0;
  /** Where {@link runsOf} left an operand's first pair, and its number of runs. */
  at = 0;
  count = 0;

  /** Bitmap words of a result (8 KiB, made on first use). */
  get w(): Int32Array {
    this.#w ??= new Int32Array(WORDS);
    return this.#w;
  }
}

/**
 * The kind CRoaring gives the result of `op` on containers of kinds kx and ky holding cx and cy
 * members, for a result of `card` members in `runs` runs; -1 when the result is empty.
 * - OR: two arrays → by cardinality (an array up to 4096 members, a bitmap above); with a bitmap
 *   and no run → bitmap; a bitmap and a run → the run when it is full, else a bitmap; otherwise the
 *   smallest of run, array and bitmap (`efficientKind`). IOR (in-place union) gives the same kinds.
 * - AND: with an array → array; two runs → smallest; otherwise by cardinality.
 * - XOR: two runs → smallest; an array and a run → smallest when the array has fewer than 32
 *   values, else by cardinality; otherwise by cardinality.
 * - ANDNOT (x minus y): x an array → array; two runs → smallest; a run minus an array → smallest
 *   when the run has at most 32 members, else by cardinality; otherwise by cardinality.
 */
function resultKind(op: number, kx: number, ky: number, cx: number, cy: number, card: number, runs: number): number {
  if (card === 0) return -1;
  switch (op) {
    case OR:
    case IOR:
      if (kx !== RUN && ky !== RUN) return kx === ARRAY && ky === ARRAY ? byCard(card) : BITMAP;
      if (kx === BITMAP || ky === BITMAP) return (kx === RUN ? cx : cy) === FULL ? RUN : BITMAP;
      return efficientKind(card, runs);
    case AND:
      if (kx === ARRAY || ky === ARRAY) return ARRAY;
      if (kx === RUN && ky === RUN) return efficientKind(card, runs);
      return byCard(card);
    case XOR:
      if (kx === RUN && ky === RUN) return efficientKind(card, runs);
      if (kx === ARRAY && ky === RUN) return cx < 32 ? efficientKind(card, runs) : byCard(card);
      if (kx === RUN && ky === ARRAY) return cy < 32 ? efficientKind(card, runs) : byCard(card);
      return byCard(card);
    default:
      if (kx === ARRAY) return ARRAY;
      if (kx === RUN && ky === RUN) return efficientKind(card, runs);
      if (kx === RUN && ky === ARRAY) return cx <= 32 ? efficientKind(card, runs) : byCard(card);
      return byCard(card);
  }
}

// ---------------------------------------------------------------- array kernels

/** First index in a[from, to) with a value ≥ v, galloping from `from` (exponential then binary search). */
function gallop(a: Uint16Array, from: number, to: number, v: number): number {
  if (from >= to || a[from]! >= v) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < to && a[hi]! < v) {
    lo = hi;
    step <<= 1;
    hi = from + step;
  }
  return lowerBound(a, lo + 1, hi < to ? hi + 1 : to, v);
}

/**
 * Intersection of two sorted arrays into out[0…] (or only counted when out is null); returns its
 * length. Galloping through the longer one when it is at least 64 times longer.
 */
function intersectArrays(
  a: Uint16Array,
  ao: number,
  an: number,
  b: Uint16Array,
  bo: number,
  bn: number,
  out: Uint16Array | null,
): number {
  if (an * 64 < bn) return gallopIntersect(a, ao, an, b, bo, bn, out);
  if (bn * 64 < an) return gallopIntersect(b, bo, bn, a, ao, an, out);
  let i = ao;
  let j = bo;
  const ie = ao + an;
  const je = bo + bn;
  let n = 0;
  while (i < ie && j < je) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) i++;
    else if (y < x) j++;
    else {
      if (out !== null) out[n] = x;
      n++;
      i++;
      j++;
    }
  }
  return n;
}

/** Intersection of a short sorted array with a much longer one, galloping through the longer. */
function gallopIntersect(
  s: Uint16Array,
  so: number,
  sn: number,
  l: Uint16Array,
  lo: number,
  ln: number,
  out: Uint16Array | null,
): number {
  let n = 0;
  let j = lo;
  const je = lo + ln;
  for (let i = so; i < so + sn && j < je; i++) {
    const v = s[i]!;
    j = gallop(l, j, je, v);
    if (j < je && l[j] === v) {
      if (out !== null) out[n] = v;
      n++;
      j++;
    }
  }
  return n;
}

/**
 * OR, XOR or ANDNOT (a minus b) of two sorted arrays a[ao, ao+an) and b[bo, bo+bn) into out[0…]
 * in one merge; returns the result's length. (AND is {@link intersectArrays}, which also gallops.)
 */
function mergeArrays(
  op: number,
  a: Uint16Array,
  ao: number,
  an: number,
  b: Uint16Array,
  bo: number,
  bn: number,
  out: Uint16Array,
): number {
  // What each case of the merge emits, fixed for the call (so the branches are predicted).
  const onlyB = op !== ANDNOT;
  const both = op !== XOR && op !== ANDNOT;
  let i = ao;
  let j = bo;
  const ie = ao + an;
  const je = bo + bn;
  let n = 0;
  while (i < ie && j < je) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) {
      out[n++] = x;
      i++;
    } else if (y < x) {
      if (onlyB) out[n++] = y;
      j++;
    } else {
      if (both) out[n++] = x;
      i++;
      j++;
    }
  }
  while (i < ie) out[n++] = a[i++]!;
  if (onlyB) while (j < je) out[n++] = b[j++]!;
  return n;
}

// ---------------------------------------------------------------- run sweep

/**
 * One pass over the boundaries of two lists of runs (pairs start, last at a[ao…] and b[bo…]),
 * writing the runs where `op` holds (x in a, y in b: OR, AND, XOR, ANDNOT = x and not y) to
 * out[0…]. Returns the number of runs; their cardinality is left in `s.card`.
 */
function sweep(
  op: number,
  a: Uint16Array,
  ao: number,
  an: number,
  b: Uint16Array,
  bo: number,
  bn: number,
  out: Uint16Array,
  s: Scratch,
): number {
  let i = 0;
  let j = 0;
  let inA = false;
  let inB = false;
  let open = -1;
  let r = 0;
  let card = 0;
  for (;;) {
    const pa = i < an ? (inA ? a[ao + 2 * i + 1]! + 1 : a[ao + 2 * i]!) : FULL + 1;
    const pb = j < bn ? (inB ? b[bo + 2 * j + 1]! + 1 : b[bo + 2 * j]!) : FULL + 1;
    const p = pa < pb ? pa : pb;
    if (p > FULL) break;
    if (pa === p) {
      if (inA) i++;
      inA = !inA;
    }
    if (pb === p) {
      if (inB) j++;
      inB = !inB;
    }
    const now = op === AND ? inA && inB : op === XOR ? inA !== inB : op === ANDNOT ? inA && !inB : inA || inB;
    if (now) {
      if (open < 0) open = p;
    } else if (open >= 0) {
      out[2 * r] = open;
      out[2 * r + 1] = p - 1;
      r++;
      card += p - open;
      open = -1;
    }
  }
  s.card = card;
  return r;
}

/**
 * Container i of c as runs: returns the array holding its (start, last) pairs, converted into
 * `scratch` unless it is a run container, and leaves the first pair's offset in `s.at` and the
 * number of runs in `s.count`.
 */
function runsOf(c: Containers, i: number, scratch: Scratch16, s: Scratch): Uint16Array {
  const kind = c.kind(i);
  const o = c.off(i);
  if (kind === RUN) {
    s.at = o + 1;
    s.count = c.arena[o]!;
    return c.arena;
  }
  s.at = 0;
  if (kind === ARRAY) {
    const card = c.cards[i]! + 1;
    const buf = scratch.get(2 * card);
    s.count = arrayToRuns(c.arena, o, card, buf, 0);
    return buf;
  }
  const buf = scratch.get(FULL);
  s.count = bitmapToRuns(c.words, o >>> 1, buf, 0);
  return buf;
}

/**
 * The union of two lists of runs (pairs start, last) into out[0…], overlapping and touching runs
 * joined; returns the number of runs, their cardinality left in `s.card`.
 */
function unionRuns(
  a: Uint16Array,
  ao: number,
  an: number,
  b: Uint16Array,
  bo: number,
  bn: number,
  out: Uint16Array,
  s: Scratch,
): number {
  let i = 0;
  let j = 0;
  let r = 0;
  let card = 0;
  let start = -1;
  let last = -2;
  while (i < an || j < bn) {
    let ns: number;
    let nl: number;
    if (j >= bn || (i < an && a[ao + 2 * i]! <= b[bo + 2 * j]!)) {
      ns = a[ao + 2 * i]!;
      nl = a[ao + 2 * i + 1]!;
      i++;
    } else {
      ns = b[bo + 2 * j]!;
      nl = b[bo + 2 * j + 1]!;
      j++;
    }
    if (ns <= last + 1) {
      if (nl > last) last = nl;
    } else {
      if (start >= 0) {
        out[2 * r] = start;
        out[2 * r + 1] = last;
        r++;
        card += last - start + 1;
      }
      start = ns;
      last = nl;
    }
  }
  if (start >= 0) {
    out[2 * r] = start;
    out[2 * r + 1] = last;
    r++;
    card += last - start + 1;
  }
  s.card = card;
  return r;
}

/** The intersection of two lists of runs into out[0…]; returns the number of runs, their cardinality in `s.card`. */
function intersectRuns(
  a: Uint16Array,
  ao: number,
  an: number,
  b: Uint16Array,
  bo: number,
  bn: number,
  out: Uint16Array,
  s: Scratch,
): number {
  let i = 0;
  let j = 0;
  let r = 0;
  let card = 0;
  while (i < an && j < bn) {
    const as = a[ao + 2 * i]!;
    const al = a[ao + 2 * i + 1]!;
    const bs = b[bo + 2 * j]!;
    const bl = b[bo + 2 * j + 1]!;
    const lo = as > bs ? as : bs;
    const hi = al < bl ? al : bl;
    if (lo <= hi) {
      // Intersections of sorted disjoint runs never touch: two in a row are split by a gap of one run.
      out[2 * r] = lo;
      out[2 * r + 1] = hi;
      r++;
      card += hi - lo + 1;
    }
    if (al < bl) i++;
    else j++;
  }
  s.card = card;
  return r;
}

// ---------------------------------------------------------------- one pair of containers

/**
 * Appends to `out` (keys ascending) the container `op`(container i of x, container j of y) under
 * `key`, of the kind CRoaring gives it; nothing when the result is empty.
 */
function combine(
  op: number,
  out: Containers,
  key: number,
  x: Containers,
  i: number,
  y: Containers,
  j: number,
  s: Scratch,
): void {
  const kx = x.kind(i);
  const ky = y.kind(j);
  const cx = x.cards[i]! + 1;
  const cy = y.cards[j]! + 1;
  if (op === IOR && cx === FULL) {
    out.pushCopy(x, i);
    return;
  }
  const xo = x.off(i);
  const yo = y.off(j);
  if (kx === ARRAY && ky === ARRAY) {
    const a = x.arena;
    const b = y.arena;
    const buf = s.out.get(cx + cy);
    const n = op === AND ? intersectArrays(a, xo, cx, b, yo, cy, buf) : mergeArrays(op, a, xo, cx, b, yo, cy, buf);
    if (n === 0) return;
    if (n <= ARRAY_MAX) out.pushArray(key, buf, 0, n);
    else arrayAsBitmap(out, key, buf, n, s);
    return;
  }
  if (kx !== RUN && ky !== RUN) {
    bitmapPair(op, out, key, x, i, kx, y, j, ky, s);
    return;
  }
  const a = runsOf(x, i, s.xr, s);
  const ao = s.at;
  const an = s.count;
  const b = runsOf(y, j, s.yr, s);
  const bo = s.at;
  const bn = s.count;
  const buf = s.out.get(2 * (an + bn));
  const runs =
    op === OR || op === IOR
      ? unionRuns(a, ao, an, b, bo, bn, buf, s)
      : op === AND
        ? intersectRuns(a, ao, an, b, bo, bn, buf, s)
        : sweep(op, a, ao, an, b, bo, bn, buf, s);
  const kind = resultKind(op, kx, ky, cx, cy, s.card, runs);
  if (kind >= 0) out.pushRunsAs(kind, key, buf, 0, runs, s.card);
}

/** Appends the sorted values out[0, n) (more than 4096 of them) as a bitmap container. */
function arrayAsBitmap(out: Containers, key: number, values: Uint16Array, n: number, s: Scratch): void {
  const w = s.w;
  w.fill(0);
  for (let k = 0; k < n; k++) {
    const v = values[k]!;
    w[v >>> 5] = w[v >>> 5]! | (1 << (v & 31));
  }
  out.pushBitmap(key, w, 0, n);
}

/** `op` on two containers that are arrays or bitmaps, at least one a bitmap. */
function bitmapPair(
  op: number,
  out: Containers,
  key: number,
  x: Containers,
  i: number,
  kx: number,
  y: Containers,
  j: number,
  ky: number,
  s: Scratch,
): void {
  const w = s.w;
  const xo = x.off(i);
  const yo = y.off(j);
  if (kx === BITMAP && ky === BITMAP) {
    const a = x.words;
    const b = y.words;
    const ao = xo >>> 1;
    const bo = yo >>> 1;
    let card = 0;
    for (let k = 0; k < WORDS; k++) {
      const u = a[ao + k]!;
      const v = b[bo + k]!;
      const r = op === AND ? u & v : op === XOR ? u ^ v : op === ANDNOT ? u & ~v : u | v;
      w[k] = r;
      card += popcount(r);
    }
    emitBitmap(out, key, card, op === OR || op === IOR ? BITMAP : byCard(card), s);
    return;
  }
  // One array (values) and one bitmap (words).
  const xArray = kx === ARRAY;
  const arr = xArray ? x.arena : y.arena;
  const ao = xArray ? xo : yo;
  const an = xArray ? x.cards[i]! + 1 : y.cards[j]! + 1;
  const bw = xArray ? y.words : x.words;
  const bo = (xArray ? yo : xo) >>> 1;
  const bcard = xArray ? y.cards[j]! + 1 : x.cards[i]! + 1;
  if (op === AND || (op === ANDNOT && xArray)) {
    // The array's values in (AND) or not in (array minus bitmap) the bitmap: an array.
    const keep = op === AND;
    const buf = s.out.get(an);
    let n = 0;
    for (let k = ao; k < ao + an; k++) {
      const v = arr[k]!;
      if (((bw[bo + (v >>> 5)]! & (1 << (v & 31))) !== 0) === keep) buf[n++] = v;
    }
    if (n > 0) out.pushArray(key, buf, 0, n);
    return;
  }
  w.set(bw.subarray(bo, bo + WORDS));
  let card = bcard;
  for (let k = ao; k < ao + an; k++) {
    const v = arr[k]!;
    const at = v >>> 5;
    const m = 1 << (v & 31);
    const had = (w[at]! & m) !== 0;
    if (op === OR || op === IOR) {
      if (!had) {
        w[at] = w[at]! | m;
        card++;
      }
    } else if (op === XOR) {
      w[at] = w[at]! ^ m;
      card += had ? -1 : 1;
    } else if (had) {
      // bitmap minus array
      w[at] = w[at]! & ~m;
      card--;
    }
  }
  emitBitmap(out, key, card, op === OR || op === IOR ? BITMAP : byCard(card), s);
}

/** Appends the bitmap s.w (card members) as `kind`; nothing when empty. */
function emitBitmap(out: Containers, key: number, card: number, kind: number, s: Scratch): void {
  if (card === 0) return;
  if (kind === BITMAP) out.pushBitmap(key, s.w, 0, card);
  else out.pushBitmapAs(ARRAY, key, s.w, 0, card, s.out);
}

// ---------------------------------------------------------------- two bitmaps

/**
 * `op` of two bitmaps' containers as a new Containers (trimmed): keys walked in step; a container
 * whose key only one side has is copied (OR, XOR, and ANDNOT's left side) or dropped.
 */
export function combineAll(op: number, x: Containers, y: Containers, s: Scratch): Containers {
  const out = new Containers();
  const xn = x.n;
  const yn = y.n;
  const rows = op === AND ? Math.min(xn, yn) : op === ANDNOT ? xn : Math.min(FULL, xn + yn);
  out.reserve(rows, op === AND ? 0 : x.used - x.garbage + (op === ANDNOT ? 0 : y.used - y.garbage));
  let i = 0;
  let j = 0;
  const keepX = op !== AND;
  const keepY = op === OR || op === IOR || op === XOR;
  while (i < xn && j < yn) {
    const kx = x.keys[i]!;
    const ky = y.keys[j]!;
    if (kx < ky) {
      if (keepX) out.pushCopy(x, i);
      i++;
    } else if (ky < kx) {
      if (keepY) out.pushCopy(y, j);
      j++;
    } else {
      combine(op, out, kx, x, i, y, j, s);
      i++;
      j++;
    }
  }
  if (keepX) for (; i < xn; i++) out.pushCopy(x, i);
  if (keepY) for (; j < yn; j++) out.pushCopy(y, j);
  out.trim();
  return out;
}

// ---------------------------------------------------------------- cardinalities

/** Whether low is in container i of c. */
function containsLow(c: Containers, i: number, low: number): boolean {
  const e = c.offs[i]!;
  const a = c.arena;
  if (e < 0) {
    const r = runBefore(a, ~e, a[~e]!, low);
    return r >= 0 && low <= a[~e + 2 + 2 * r]!;
  }
  const card = c.cards[i]! + 1;
  if (card > ARRAY_MAX) return (c.words[(e >>> 1) + (low >>> 5)]! & (1 << (low & 31))) !== 0;
  const p = lowerBound(a, e, e + card, low);
  return p < e + card && a[p] === low;
}

/** Members common to container i of x and container j of y. */
function andCard(x: Containers, i: number, y: Containers, j: number, s: Scratch): number {
  const kx = x.kind(i);
  const ky = y.kind(j);
  const xo = x.off(i);
  const yo = y.off(j);
  if (kx === ARRAY && ky === ARRAY)
    return intersectArrays(x.arena, xo, x.cards[i]! + 1, y.arena, yo, y.cards[j]! + 1, null);
  if (kx === BITMAP && ky === BITMAP) {
    const a = x.words;
    const b = y.words;
    let n = 0;
    for (let k = 0; k < WORDS; k++) n += popcount(a[(xo >>> 1) + k]! & b[(yo >>> 1) + k]!);
    return n;
  }
  if (kx !== RUN && ky !== RUN) {
    const [ac, ai] = kx === ARRAY ? [x, i] : [y, j];
    const [bc, bi] = kx === ARRAY ? [y, j] : [x, i];
    const ao = ac.off(ai);
    const bw = bc.words;
    const bo = bc.off(bi) >>> 1;
    let n = 0;
    for (let k = ao; k < ao + ac.cards[ai]! + 1; k++) {
      const v = ac.arena[k]!;
      if ((bw[bo + (v >>> 5)]! & (1 << (v & 31))) !== 0) n++;
    }
    return n;
  }
  const a = runsOf(x, i, s.xr, s);
  const ao = s.at;
  const an = s.count;
  const b = runsOf(y, j, s.yr, s);
  intersectRuns(a, ao, an, b, s.at, s.count, s.out.get(2 * (an + s.count)), s);
  return s.card;
}

/**
 * Members in every one of `list` (at least one bitmap), without building the intersection: for
 * each key all of them hold, the pair's kernel (two bitmaps), word ANDs (all bitmaps), or the
 * smallest container's members tested in the others.
 */
export function intersectCardAll(list: Containers[], s: Scratch): number {
  const k = list.length;
  const first = list[0]!;
  if (k === 1) return first.size;
  const pos = new Int32Array(k);
  let total = 0;
  for (let i = 0; i < first.n; i++) {
    const key = first.keys[i]!;
    pos[0] = i;
    let all = true;
    for (let t = 1; t < k; t++) {
      const c = list[t]!;
      // Keys only grow: search from the last position.
      const p = lowerBound(c.keys, pos[t]!, c.n, key);
      pos[t] = p;
      if (p === c.n || c.keys[p] !== key) {
        all = false;
        if (p === c.n) return total;
        break;
      }
    }
    if (!all) continue;
    if (k === 2) {
      total += andCard(first, i, list[1]!, pos[1]!, s);
      continue;
    }
    total += andCardMany(list, pos, s);
  }
  return total;
}

/** Members common to the containers list[t] row pos[t] (three or more). */
function andCardMany(list: Containers[], pos: Int32Array, s: Scratch): number {
  let smallest = 0;
  let allBitmaps = true;
  for (let t = 0; t < list.length; t++) {
    const c = list[t]!;
    if (c.kind(pos[t]!) !== BITMAP) allBitmaps = false;
    if (c.cards[pos[t]!]! < list[smallest]!.cards[pos[smallest]!]!) smallest = t;
  }
  if (allBitmaps) {
    const w = s.w;
    const c0 = list[0]!;
    w.set(c0.words.subarray(c0.off(pos[0]!) >>> 1, (c0.off(pos[0]!) >>> 1) + WORDS));
    for (let t = 1; t < list.length; t++) {
      const c = list[t]!;
      const o = c.off(pos[t]!) >>> 1;
      for (let q = 0; q < WORDS; q++) w[q] = w[q]! & c.words[o + q]!;
    }
    return countWords(w, 0);
  }
  const c = list[smallest]!;
  const i = pos[smallest]!;
  const a = runsOf(c, i, s.xr, s);
  const ao = s.at;
  const an = s.count;
  let n = 0;
  for (let r = 0; r < an; r++) {
    const last = a[ao + 2 * r + 1]!;
    for (let v = a[ao + 2 * r]!; v <= last; v++) {
      let every = true;
      for (let t = 0; t < list.length && every; t++) if (t !== smallest) every = containsLow(list[t]!, pos[t]!, v);
      if (every) n++;
    }
  }
  return n;
}

/**
 * Members in any of `list` (at least one bitmap), without building the union: per key, the one
 * container's cardinality, two cardinalities less their intersection's, or the popcount of the
 * containers ORed into one scratch bitmap.
 */
export function unionCardAll(list: Containers[], s: Scratch): number {
  const k = list.length;
  const pos = new Int32Array(k);
  let total = 0;
  for (;;) {
    // The smallest key any bitmap still has at its position.
    let key = FULL;
    for (let t = 0; t < k; t++) {
      const c = list[t]!;
      if (pos[t]! < c.n && c.keys[pos[t]!]! < key) key = c.keys[pos[t]!]!;
    }
    if (key === FULL) return total;
    let holders = 0;
    let a = -1;
    let b = -1;
    for (let t = 0; t < k; t++) {
      const c = list[t]!;
      if (pos[t]! < c.n && c.keys[pos[t]!] === key) {
        holders++;
        if (a < 0) a = t;
        else if (b < 0) b = t;
      }
    }
    if (holders === 1) {
      total += list[a]!.cards[pos[a]!]! + 1;
    } else if (holders === 2) {
      const x = list[a]!;
      const y = list[b]!;
      total += x.cards[pos[a]!]! + 1 + y.cards[pos[b]!]! + 1 - andCard(x, pos[a]!, y, pos[b]!, s);
    } else {
      const w = s.w;
      w.fill(0);
      for (let t = 0; t < k; t++) {
        const c = list[t]!;
        if (pos[t]! < c.n && c.keys[pos[t]!] === key) orInto(w, c, pos[t]!);
      }
      total += countWords(w, 0);
    }
    for (let t = 0; t < k; t++) {
      const c = list[t]!;
      if (pos[t]! < c.n && c.keys[pos[t]!] === key) pos[t] = pos[t]! + 1;
    }
  }
}

/** ORs container i of c into the bitmap words w[0, 2048). */
function orInto(w: Int32Array, c: Containers, i: number): void {
  const kind = c.kind(i);
  const o = c.off(i);
  if (kind === BITMAP) {
    const src = c.words;
    for (let q = 0; q < WORDS; q++) w[q] = w[q]! | src[(o >>> 1) + q]!;
  } else if (kind === ARRAY) {
    const a = c.arena;
    for (let k = o; k < o + c.cards[i]! + 1; k++) {
      const v = a[k]!;
      w[v >>> 5] = w[v >>> 5]! | (1 << (v & 31));
    }
  } else {
    const a = c.arena;
    for (let r = 0; r < a[o]!; r++) setBits(w, 0, a[o + 1 + 2 * r]!, a[o + 2 + 2 * r]!);
  }
}
