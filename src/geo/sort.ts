/**
 * The two sorts GEOSEARCH's order depends on, reproduced so that ties (equal distances) and NaN
 * distances come out in Redis's order:
 *
 * - without COUNT, or with COUNT at or above the number of matches, Redis calls libc's `qsort`; the
 *   glibc Redis 7.0 runs on (2.36) sorts through a stable top-down merge sort (msort: the left half
 *   has ⌊n/2⌋ elements, a merge takes from the left while `cmp(left, right) ≤ 0`);
 * - with COUNT below the number of matches, Redis's own partial quicksort (src/pqsort.c: Bentley
 *   and McIlroy's three-way quicksort with median-of-three, ninther above 40 elements and insertion
 *   sort below 7, skipping the partitions that lie wholly outside the ranks wanted).
 *
 * Both sort an array of indexes by `dist[index]` with Redis's comparator (1, 0 or −1; a NaN compares
 * as less in both directions, as in C), ascending or, negated, descending. Neither is a general
 * sort: their only purpose is to reproduce those exact permutations.
 */

/** Redis's sort_gp_asc / sort_gp_desc on distances. */
function compare(dist: Float64Array, a: number, b: number, desc: boolean): number {
  const x = dist[a]!;
  const y = dist[b]!;
  const c = x > y ? 1 : x === y ? 0 : -1;
  return desc ? -c : c;
}

/** glibc's qsort for arrays that fit in memory: stable merge sort of idx[0..n). */
export function mergeSort(idx: Int32Array, n: number, dist: Float64Array, desc: boolean): void {
  if (n > 1) mergeRun(idx, 0, n, new Int32Array(n), dist, desc);
}

function mergeRun(idx: Int32Array, from: number, n: number, tmp: Int32Array, dist: Float64Array, desc: boolean): void {
  if (n <= 1) return;
  let n1 = n >>> 1;
  let n2 = n - n1;
  mergeRun(idx, from, n1, tmp, dist, desc);
  mergeRun(idx, from + n1, n2, tmp, dist, desc);
  let b1 = from;
  let b2 = from + n1;
  let t = 0;
  while (n1 > 0 && n2 > 0) {
    if (compare(dist, idx[b1]!, idx[b2]!, desc) <= 0) {
      tmp[t++] = idx[b1++]!;
      n1--;
    } else {
      tmp[t++] = idx[b2++]!;
      n2--;
    }
  }
  while (n1 > 0) {
    tmp[t++] = idx[b1++]!;
    n1--;
  }
  // What is left of the right half is already in place.
  for (let i = 0; i < t; i++) idx[from + i] = tmp[i]!;
}

function swap(idx: Int32Array, i: number, j: number): void {
  const t = idx[i]!;
  idx[i] = idx[j]!;
  idx[j] = t;
}

function vecswap(idx: Int32Array, i: number, j: number, n: number): void {
  for (let k = 0; k < n; k++) swap(idx, i + k, j + k);
}

function med3(idx: Int32Array, a: number, b: number, c: number, dist: Float64Array, desc: boolean): number {
  const ia = idx[a]!;
  const ib = idx[b]!;
  const ic = idx[c]!;
  return compare(dist, ia, ib, desc) < 0
    ? compare(dist, ib, ic, desc) < 0
      ? b
      : compare(dist, ia, ic, desc) < 0
        ? c
        : a
    : compare(dist, ib, ic, desc) > 0
      ? b
      : compare(dist, ia, ic, desc) < 0
        ? a
        : c;
}

/** Whether [from, from + n) holds neither wanted rank bound inside or between them. */
function outside(from: number, n: number, lrange: number, rrange: number): boolean {
  return (lrange < from && rrange < from) || (lrange >= from + n && rrange >= from + n);
}

/**
 * Redis's pqsort(idx + base, n, cmp, lrange, rrange): sorts idx[base..base + n) enough that ranks
 * lrange..rrange (absolute) hold what a full sort would put there, in pqsort's order among equals.
 */
export function partialQuickSort(
  idx: Int32Array,
  base: number,
  n: number,
  dist: Float64Array,
  desc: boolean,
  lrange: number,
  rrange: number,
): void {
  for (;;) {
    if (n < 7) {
      for (let pm = base + 1; pm < base + n; pm++) {
        for (let pl = pm; pl > base && compare(dist, idx[pl - 1]!, idx[pl]!, desc) > 0; pl--) swap(idx, pl, pl - 1);
      }
      return;
    }
    let pm = base + (n >>> 1);
    if (n > 7) {
      let pl = base;
      let pn = base + n - 1;
      if (n > 40) {
        const d = n >>> 3;
        pl = med3(idx, pl, pl + d, pl + 2 * d, dist, desc);
        pm = med3(idx, pm - d, pm, pm + d, dist, desc);
        pn = med3(idx, pn - 2 * d, pn - d, pn, dist, desc);
      }
      pm = med3(idx, pl, pm, pn, dist, desc);
    }
    swap(idx, base, pm);
    let pa = base + 1;
    let pb = pa;
    let pc = base + n - 1;
    let pd = pc;
    for (;;) {
      let c: number;
      while (pb <= pc && (c = compare(dist, idx[pb]!, idx[base]!, desc)) <= 0) {
        if (c === 0) swap(idx, pa++, pb);
        pb++;
      }
      while (pb <= pc && (c = compare(dist, idx[pc]!, idx[base]!, desc)) >= 0) {
        if (c === 0) swap(idx, pc, pd--);
        pc--;
      }
      if (pb > pc) break;
      swap(idx, pb++, pc--);
    }
    const pn = base + n;
    let r = Math.min(pa - base, pb - pa);
    vecswap(idx, base, pb - r, r);
    r = Math.min(pd - pc, pn - pd - 1);
    vecswap(idx, pb, pn - r, r);
    r = pb - pa;
    if (r > 1 && !outside(base, r, lrange, rrange)) partialQuickSort(idx, base, r, dist, desc, lrange, rrange);
    r = pd - pc;
    if (r <= 1) return;
    base = pn - r;
    n = r;
    if (outside(base, n, lrange, rrange)) return;
  }
}
