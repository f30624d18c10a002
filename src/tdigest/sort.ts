/**
 * The quicksort RedisBloom's t-digest (t-digest-c, td_qsort) sorts its centroids with, reproduced
 * step for step: which of two equal means ends first decides how their weights merge, so only the
 * same sequence of swaps gives RedisBloom's answers (a stable sort changes 647 of the 5,422 recorded
 * replies).
 *
 * The algorithm (facts from test/vectors/redisbloom/README.md, "td_compress"): sort [start, end] of the
 * means, moving each weight with its mean. Two elements: swap when the first is greater. More: the
 * pivot is the middle element ⌊(start + end)/2⌋, swapped to the end; a Lomuto partition moves every
 * mean strictly below the pivot to the front (in scan order, each by one swap); the pivot is swapped
 * to just after them; then [start, p − 1] and [p + 1, end] are sorted the same way. Not stable; NaN
 * compares false both ways, so a NaN mean stays wherever the swaps leave it.
 *
 * The two halves are disjoint, so sorting them in either order gives the same array: the recursion
 * is an explicit stack that takes the smaller half first (depth ≤ log2 n, where the recursive form
 * reaches depth n on runs of equal means, which a stack in JavaScript cannot afford). Costs as the
 * original: O(n log n) expected, O(n²) when most means are equal.
 */

/** Pending ranges: pairs [start, end]; the smaller-first order bounds them by 2·log2(2^31). */
const stack = new Int32Array(128);

/** Sorts `mean[start..end]` (inclusive) ascending with td_qsort's swaps, applying each swap to `weight` too. */
export function sortByMean(mean: Float64Array, weight: Float64Array, start: number, end: number): void {
  let top = 0;
  for (;;) {
    const span = end - start;
    if (span === 1) {
      const a = mean[start]!;
      const b = mean[end]!;
      if (a > b) {
        mean[start] = b;
        mean[end] = a;
        const w = weight[start]!;
        weight[start] = weight[end]!;
        weight[end] = w;
      }
    } else if (span > 1) {
      const mid = (start + end) >>> 1;
      const pivot = mean[mid]!;
      let w = weight[mid]!;
      mean[mid] = mean[end]!;
      weight[mid] = weight[end]!;
      mean[end] = pivot;
      weight[end] = w;
      let i = start - 1;
      for (let j = start; j < end; j++) {
        const m = mean[j]!;
        if (m < pivot) {
          i++;
          if (i !== j) {
            mean[j] = mean[i]!;
            mean[i] = m;
            w = weight[j]!;
            weight[j] = weight[i]!;
            weight[i] = w;
          }
        }
      }
      const p = i + 1;
      if (p !== end) {
        mean[end] = mean[p]!;
        mean[p] = pivot;
        w = weight[end]!;
        weight[end] = weight[p]!;
        weight[p] = w;
      }
      // Continue with the smaller side; push the larger.
      const leftEnd = p - 1;
      const rightStart = p + 1;
      if (leftEnd - start < end - rightStart) {
        if (end > rightStart) {
          stack[top++] = rightStart;
          stack[top++] = end;
        }
        end = leftEnd;
      } else {
        if (leftEnd > start) {
          stack[top++] = start;
          stack[top++] = leftEnd;
        }
        start = rightStart;
      }
      continue;
    }
    if (top === 0) return;
    end = stack[--top]!;
    start = stack[--top]!;
  }
}
