/**
 * The quicksort RedisBloom's t-digest (t-digest-c, td_qsort) sorts its centroids with, reproduced
 * swap for swap: which of two equal means ends first decides how their weights merge, so only the
 * same sequence of swaps gives RedisBloom's answers (a stable sort changes 647 of the 5,422 recorded
 * replies).
 *
 * td_qsort (facts from test/vectors/redisbloom/README.md, "td_compress"): sort [start, end] of the
 * means, moving each weight with its mean. Two elements: swap when the first is greater. More: the
 * pivot is the middle element ⌊(start + end)/2⌋, swapped to the end; a Lomuto partition moves every
 * mean strictly below the pivot to the front (in scan order, each by one swap); the pivot is swapped
 * to just after them; then [start, p − 1] and [p + 1, end] are sorted the same way. Not stable; NaN
 * compares false both ways, so a NaN mean stays wherever the swaps leave it.
 *
 * Ties. When no mean of the range is below the pivot, the partition swaps nothing: its whole effect
 * is the pivot moving to `start` (the element at `end` to the middle, the one at `start` to `end`),
 * and the sort goes on with [start + 1, end]. On a run of m equal means td_qsort does exactly that m
 * times, scanning the range each time: m²/2 comparisons for m moves. This sort makes the same moves
 * without the scans whenever it knows the scan would find nothing: it carries, for each pending range,
 * the smallest non-NaN mean in it and how many elements hold it (learned from the partition that made
 * the range: the elements equal to the pivot are counted there), and a pivot equal to that smallest
 * mean, or a NaN pivot, takes the short step in O(1). A range whose smallest mean is unknown (or used
 * up) is partitioned in full, which teaches it again. So equal means cost O(1) each after one pass:
 * all-equal data sorts in O(n) instead of O(n²), with the permutation td_qsort gives (tested against
 * the direct transcription, test/support/tdigest-sort-model.ts).
 *
 * The two halves of a partition are disjoint, so sorting them in either order gives the same array:
 * the recursion is an explicit stack that takes the smaller half first (at most log2 n ranges wait).
 * Costs: O(n log n) expected, O(n) on all-equal data; O(n²) only on the orders that defeat a middle
 * pivot among distinct means, as in RedisBloom.
 */

/** Pending ranges: [start, end] pairs, and per range its smallest mean and that mean's count (0: unknown). */
const stack = new Int32Array(128);
const stackLow = new Float64Array(64);
const stackCount = new Float64Array(64);

/** Sorts `mean[start..end]` (inclusive) ascending with td_qsort's swaps, applying each swap to `weight` too. */
export function sortByMean(mean: Float64Array, weight: Float64Array, start: number, end: number): void {
  let top = 0;
  // What is known of [start, end]: when count > 0, `low` is its smallest non-NaN mean and `count`
  // elements hold it; when count is 0, nothing is known.
  let low = 0;
  let count = 0;
  for (;;) {
    // td_qsort's partitions that find no mean below the pivot: the pivot goes to `start`.
    while (end - start > 1) {
      const mid = (start + end) >>> 1;
      const pivot = mean[mid]!;
      if (!Number.isNaN(pivot)) {
        if (count === 0 || pivot !== low) break;
        count--;
      }
      const ms = mean[start]!;
      const ws = weight[start]!;
      const wm = weight[mid]!;
      mean[mid] = mean[end]!;
      weight[mid] = weight[end]!;
      mean[end] = ms;
      weight[end] = ws;
      mean[start] = pivot;
      weight[start] = wm;
      start++;
    }
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
      // Elements equal to the pivot (they all end up in the right half, whose smallest mean is the pivot).
      let equal = 0;
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
        } else if (m === pivot) equal++;
      }
      const p = i + 1;
      if (p !== end) {
        mean[end] = mean[p]!;
        mean[p] = pivot;
        w = weight[end]!;
        weight[end] = weight[p]!;
        weight[p] = w;
      }
      // The left half holds every mean below the pivot, so the range's smallest (when known, and the
      // pivot is above it) with its count; the right half's smallest is the pivot, held `equal` times.
      const leftLow = low;
      const leftCount = count > 0 && low < pivot ? count : 0;
      const leftEnd = p - 1;
      const rightStart = p + 1;
      if (leftEnd - start < end - rightStart) {
        if (end > rightStart) {
          stack[2 * top] = rightStart;
          stack[2 * top + 1] = end;
          stackLow[top] = pivot;
          stackCount[top] = equal;
          top++;
        }
        end = leftEnd;
        low = leftLow;
        count = leftCount;
      } else {
        if (leftEnd > start) {
          stack[2 * top] = start;
          stack[2 * top + 1] = leftEnd;
          stackLow[top] = leftLow;
          stackCount[top] = leftCount;
          top++;
        }
        start = rightStart;
        low = pivot;
        count = equal;
      }
      continue;
    }
    if (top === 0) return;
    top--;
    end = stack[2 * top + 1]!;
    start = stack[2 * top]!;
    low = stackLow[top]!;
    count = stackCount[top]!;
  }
}
