/**
 * The model of RedisBloom's td_qsort (t-digest-c) that src/tdigest/sort.ts must agree with, swap for
 * swap: a quicksort over [start, end] of the means, moving each weight with its mean. Two elements:
 * swap when the first is greater. More: the middle element ⌊(start + end)/2⌋ is the pivot, swapped to
 * the end; a Lomuto partition moves every mean strictly below the pivot to the front, each by one swap
 * in scan order; the pivot is swapped to just after them; then [start, p − 1] and [p + 1, end] are
 * sorted the same way (facts from test/vectors/redisbloom/README.md, "td_compress").
 *
 * Written as directly as the facts read, with an explicit stack instead of recursion (the two halves
 * are disjoint, so the order they are sorted in does not matter). Every range is scanned whole, so a
 * run of m equal means costs m²/2 comparisons: this is the reference the fast sort is tested against,
 * not something to run on large inputs.
 */
export function modelSortByMean(mean: Float64Array, weight: Float64Array, start: number, end: number): void {
  const pending: [number, number][] = [[start, end]];
  const swap = (a: number, b: number) => {
    const m = mean[a]!;
    mean[a] = mean[b]!;
    mean[b] = m;
    const w = weight[a]!;
    weight[a] = weight[b]!;
    weight[b] = w;
  };
  while (pending.length > 0) {
    const [s, e] = pending.pop()!;
    if (e - s < 1) continue;
    if (e - s === 1) {
      if (mean[s]! > mean[e]!) swap(s, e);
      continue;
    }
    const mid = Math.floor((s + e) / 2);
    const pivot = mean[mid]!;
    swap(mid, e);
    let i = s - 1;
    for (let j = s; j < e; j++) {
      if (mean[j]! < pivot) {
        i++;
        if (i !== j) swap(i, j);
      }
    }
    const p = i + 1;
    if (p !== e) swap(p, e);
    pending.push([s, p - 1], [p + 1, e]);
  }
}
