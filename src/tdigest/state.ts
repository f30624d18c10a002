/**
 * Which t-digest states RedisBloom's operations reach: the one check behind `fromBytes`, `fromRedis`
 * (after RESTORE's own rules) and `checkInvariants()`. A state that fails it is one no sequence of
 * TDIGEST.* commands — CREATE, ADD, the queries and DUMP that merge, MERGE, RESET, and RESTORE of what
 * DUMP wrote — can leave a digest in; a state that passes answers every later call as RedisBloom
 * would answer it.
 *
 * Why each rule holds (facts from test/vectors/redisbloom/README.md, "tdigest.json"; n = merged +
 * unmerged nodes, "total" = (double)merged weight + (double)unmerged weight, as td_compress computes it):
 *
 * - Counts. n ≤ capacity (td_add refuses position ≥ capacity). Merged nodes exist exactly when the
 *   compression count is above 0: only a merging td_compress makes them, and counts itself; RESET
 *   zeroes both. A buffer in a digest of total above 1 holds at most capacity − 1 nodes: td_add merges
 *   the buffer before the add that would fill it. The exceptions are the one node added after a merge
 *   that left capacity − 1 centroids, and a buffer filled while the total was at most 1 (when
 *   td_compress does not merge) whose last add lifted the total past 1.
 * - Extremes. A digest without nodes has min = DBL_MAX and max = −DBL_MAX (CREATE, RESET); td_add
 *   updates them with each value, so with nodes min ≤ max — unless every value added was a NaN mean.
 * - Weights. Node weights are integers in [0, 2^63) (the overflow checks keep every sum within
 *   2^63 − 1). The merged weight is in [0, 2^63), or −2^63: td_compress stores (long long) of the total
 *   as a double, and a total of 2^63 − 1 rounds to 2^63, which wraps; such a digest never merges again
 *   (its total is ≤ 1), and only its DUMP keeps a buffer whose unmerged weight can round to 2^63 too —
 *   so a negative unmerged weight (−2^63, plus what was added since) goes with that merged weight.
 *   While the totals stay below 2^53 they
 *   are exact: the unmerged weight is the sum of the buffered weights and the merged weight that of
 *   the merged ones, except for what RESTORE zeroes — DUMP writes no buffered node, and only for a
 *   total ≤ 1, so at most one observation in all is counted by the totals and held by no node.
 *   Past 2^53 the merged weight is the total rounded through a double at every merge (at most one
 *   unit in the last place each time), and buffered weights add up exactly while the total is above 1.
 * - Zero weights. A node of weight 0 is one RESTORE zeroed (mean +0), moved by MERGE (td_add of it
 *   updates min and max with 0), or two such merged (0·(0 − 0)/0: NaN). A zeroed node whose mean lies
 *   outside [min, max] was never added: it is the lone observation of a digest of weight 1 that DUMP
 *   did not write (weightless nodes beside it came through MERGE, which put 0 within [min, max]), so
 *   there is one, in the RESTOREd digest, with its one-observation shortfall.
 * - Means. Every mean of a node with weight is a weighted average of values added, so within
 *   [min, max] up to the rounding of td_compress's update (within 2^−48·max(|min|, |max|) here, which
 *   covers it with room). Infinite means come only from that update overflowing, which needs values
 *   near ±DBL_MAX (|min| or |max| ≥ 2^959), or from td_add of such a mean (which sets min or max to it).
 *   NaN means come from inf − inf and from zeroed nodes merged with each other: any node may hold one.
 * - Order. td_compress sorts every node and merges neighbours, so the merged means are non-decreasing
 *   (up to the same rounding) — unless a NaN or infinite mean took part, after which td_qsort's
 *   comparisons, and so the order, mean nothing.
 * - Attained extremes. The first node after the sort never absorbs another (its quantile is 0) and the
 *   last is never absorbed (its quantile is 1, while the sums are exact), and both keep their means:
 *   so while no observation is missing from the nodes (none RESTORE dropped) and no mean is NaN or
 *   infinite, min is the smallest mean and max is some node's mean.
 *
 * O(n); BigInt arithmetic only for a digest whose totals are past 2^53.
 */
import type { DigestState } from "./redis.js";

/**
 * A digest's state as the check reads it: DigestState's counts, extremes and totals, and every node's
 * mean (at least merged + unmerged of them: the merged nodes, then the buffer) and weight.
 */
export interface StateView extends Omit<DigestState, "weights"> {
  /** Each node's weight as a double: exact unless `exact` holds it. */
  weights: Float64Array;
  /** The exact 64-bit weights, when some may be past 2^53 (else null). */
  exact: BigInt64Array | null;
}

const DBL_MAX = Number.MAX_VALUE;
const LLONG_MIN = -(1n << 63n);
/** Below this magnitude no merge arithmetic overflows: |Δmean·weight| ≤ 2·2^959·2^63 < DBL_MAX. */
const OVERFLOW_FREE = 2 ** 959;
/** Rounding allowance of means, relative to max(|min|, |max|). */
const ROUNDING = 2 ** -48;

/**
 * Why a compression and node counts are not a digest's (the compression an integer in
 * [1, `maxCompression`], the counts integers ≥ 0 within the capacity 6·compression + 10), or null.
 * The readers ask this before allocating anything for the nodes.
 */
export function countProblem(
  compression: number,
  merged: number,
  unmerged: number,
  maxCompression: number,
): string | null {
  if (!Number.isInteger(compression) || compression < 1 || compression > maxCompression) {
    return `compression ${compression}, expected an integer in [1, ${maxCompression}]`;
  }
  const cap = 6 * compression + 10;
  if (
    !Number.isInteger(merged) ||
    merged < 0 ||
    !Number.isInteger(unmerged) ||
    unmerged < 0 ||
    merged + unmerged > cap
  ) {
    return `${merged} merged + ${unmerged} unmerged nodes, beyond the capacity ${cap} of compression ${compression}`;
  }
  return null;
}

/**
 * Why `s` is not a state RedisBloom's operations reach, in words naming the field; null when it is
 * one. `maxCompression` is the largest compression the digest accepts.
 */
export function stateProblem(s: StateView, maxCompression: number): string | null {
  const c = s.compression;
  const merged = s.mergedNodes;
  const unmerged = s.unmergedNodes;
  const counts = countProblem(c, merged, unmerged, maxCompression);
  if (counts !== null) return counts;
  const cap = 6 * c + 10;
  const n = merged + unmerged;
  const compressions = s.totalCompressions;
  if (!Number.isInteger(compressions) || compressions < 0) return `total compressions ${compressions}`;
  if (merged > 0 && compressions === 0) {
    return `${merged} merged nodes with no compression counted`;
  }
  if (merged === 0 && compressions > 0) {
    return `${compressions} compressions counted without merged nodes`;
  }
  const { min, max } = s;
  if (Number.isNaN(min) || Number.isNaN(max)) return `min ${min} / max ${max}: NaN`;
  const mw = s.mergedWeight;
  const uw = s.unmergedWeight;
  if (merged === 0 && mw !== 0n) return `merged weight ${mw} without merged nodes`;
  if (unmerged === 0 && uw !== 0n) return `unmerged weight ${uw} without unmerged nodes`;
  if (n === 0) {
    if (min !== DBL_MAX || max !== -DBL_MAX) {
      return `min ${min} / max ${max} without nodes`;
    }
    return null;
  }
  if (mw < 0n && mw !== LLONG_MIN) return `merged weight ${mw} below 0, not −2^63`;
  if (uw < 0n && mw !== LLONG_MIN) {
    return `unmerged weight ${uw} below 0 with a merged weight of ${mw}`;
  }

  // One pass over the nodes: weights, means against [min, max], and what the later rules need.
  const { means, weights, exact } = s;
  const span = Math.max(Math.abs(min), Math.abs(max));
  const tolerance = span * ROUNDING;
  const name = (i: number) => (i < merged ? `merged centroid ${i}` : `buffered node ${i - merged}`);
  let sumMerged = 0;
  let sumUnmerged = 0;
  let allNaN = true;
  let allFinite = true;
  let zeroOutside = 0;
  // The smallest mean (of all nodes, and of those with weight), and whether some mean is max itself.
  let lowest = Number.POSITIVE_INFINITY;
  let lowestWeighted = Number.POSITIVE_INFINITY;
  let maxHeld = false;
  for (let i = 0; i < n; i++) {
    const w = weights[i]!;
    if (exact === null ? !(Number.isInteger(w) && w >= 0) : exact[i]! < 0n) {
      return `${name(i)}'s weight ${exact === null ? w : exact[i]}: not an integer in [0, 2^63)`;
    }
    if (i < merged) sumMerged += w;
    else sumUnmerged += w;
    const m = means[i]!;
    if (Number.isNaN(m)) {
      allFinite = false;
      continue;
    }
    allNaN = false;
    if (m < lowest) lowest = m;
    if (m === max) maxHeld = true;
    if (w === 0) {
      if (!Object.is(m, 0)) {
        return `${name(i)} has weight 0 and mean ${m}, not 0`;
      }
      if (m < min || m > max) zeroOutside++;
      continue;
    }
    if (m < lowestWeighted) lowestWeighted = m;
    if (Number.isFinite(m)) {
      // (With an infinite min or max, only merges of infinite means made this one: no bound.)
      if (tolerance < Number.POSITIVE_INFINITY && !(m >= min - tolerance && m <= max + tolerance)) {
        return `${name(i)}'s mean ${m} is outside [min ${min}, max ${max}]`;
      }
    } else {
      if (!(span >= OVERFLOW_FREE)) {
        return `${name(i)}'s mean ${m} with min ${min}, max ${max}`;
      }
      allFinite = false;
    }
  }
  if (!(min <= max) && !(allNaN && min === DBL_MAX && max === -DBL_MAX)) {
    return `min ${min} above max ${max} in a digest with nodes`;
  }

  // A NaN or infinite mean in the last sort makes its order meaningless (and a NaN one stays in place).
  if (allFinite) {
    for (let i = 1; i < merged; i++) {
      if (means[i]! < means[i - 1]! - tolerance) {
        return `merged centroid ${i}'s mean ${means[i]} is below centroid ${i - 1}'s ${means[i - 1]}`;
      }
    }
  }

  const total = Number(mw) + Number(uw);
  if (unmerged > 1 && total > 1 && n === cap) {
    const last = exact === null ? BigInt(weights[n - 1]!) : exact[n - 1]!;
    if (Number(mw) + Number(uw - last) > 1) {
      return `${unmerged} buffered nodes fill the capacity ${cap} at weight ${total}`;
    }
  }

  const narrow = mw >= 0n && uw >= 0n && mw + uw <= BigInt(Number.MAX_SAFE_INTEGER);
  if (narrow) {
    // Exact doubles: every weight and sum below 2^53, or above a total that is.
    const m = Number(mw);
    const u = Number(uw);
    if (sumMerged > m) return `the merged centroids' weights sum to ${sumMerged}, above the merged weight ${m}`;
    if (sumUnmerged > u) return `the buffered nodes' weights sum to ${sumUnmerged}, above the unmerged weight ${u}`;
    const shortfall = m - sumMerged + (u - sumUnmerged);
    if (shortfall > 1) {
      return `the merged weight ${m} and unmerged weight ${u} count ${shortfall} observations no node holds`;
    }
    if (zeroOutside > (shortfall === 1 ? 1 : 0)) {
      const nodes = zeroOutside === 1 ? "a node" : `${zeroOutside} nodes`;
      return `${nodes} of weight 0 and mean 0 outside [min ${min}, max ${max}]`;
    }
    // Every value added is still a node's mean, or inside the first or last node of a merge, which
    // keep their means: min and max are means.
    if (shortfall === 0 && allFinite) {
      if (min !== lowest) return `min ${min} is not the smallest mean (${lowest})`;
      if (!maxHeld) return `max ${max} is not any node's mean`;
    }
    return null;
  }
  // Past 2^53 (through self-merges) nothing is dropped but what DUMP leaves of a buffer of total ≤ 1,
  // which td_compress has sorted first, keeping the smallest: min is a mean (of those with weight,
  // when RESTORE's zeroed nodes sort below it).
  if (allFinite && min !== lowest && min !== lowestWeighted) {
    return `min ${min} is not the smallest mean (${lowestWeighted})`;
  }
  // Exact sums in 64 bits, against totals rounded through doubles at every merge.
  let sum = 0n;
  let sumBuffered = 0n;
  for (let i = 0; i < n; i++) {
    const w = exact === null ? BigInt(weights[i]!) : exact[i]!;
    sum += w;
    if (i >= merged) sumBuffered += w;
  }
  if (unmerged > 0 && total > 1 && sumBuffered !== uw) {
    return `the buffered nodes' weights sum to ${sumBuffered}, not the unmerged weight ${uw}`;
  }
  // Each merge rounds the total once; RESTORE rounds each weight. A digest of total ≤ 1 (merged weight
  // −2^63) sorts without merging, moving nodes across the merged/buffered boundary, and DUMP drops
  // whatever ends in the buffer: its nodes may hold less than the totals, never more.
  const m = BigInt.asUintN(64, mw);
  const u = BigInt.asUintN(64, uw);
  const slack = (compressions + 2) * 2 ** -51 * Math.max(Number(m), Number(sum)) + 2;
  if (Number(sum) > Number(m) + Number(u) + slack) {
    return `the nodes' weights sum to ${sum}, above the merged weight ${mw} and unmerged weight ${uw}`;
  }
  if (total > 1 && Number(sum) < Number(m) + Number(u) - slack) {
    return `the nodes' weights sum to ${sum}, short of the merged weight ${mw} and unmerged weight ${uw}`;
  }
  return null;
}
