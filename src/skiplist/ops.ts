/**
 * Set operations across sorted sets — ZUNION(STORE), ZINTER(STORE), ZDIFF(STORE), ZINTERCARD — done
 * the way Redis's zunionInterDiffGenericCommand (src/t_zset.c) does them, so every score is Redis's
 * to the bit:
 * - the inputs are taken smallest first (Redis sorts them by cardinality; glibc's qsort, a merge
 *   sort, keeps equal sizes in argument order), each keeping its own weight; that order fixes the
 *   order of floating-point sums;
 * - a weight multiplies a score before aggregation; union zeroes a NaN product (`inf · 0`) from any
 *   input, intersection only from the first (smallest) input — a NaN from a later input goes into
 *   the aggregate as it is: SUM then zeroes the running total (NaN sums are made 0), MIN and MAX
 *   ignore it (a comparison with NaN is false);
 * - SUM turns `inf + −inf` into 0; MIN and MAX keep the current value on ties.
 *
 * The result comes out as a *run*: members and scores in arrays, plus the permutation that sorts
 * them by (score, member bytes) — or none when they are already in order, as a difference always is
 * (it keeps the first input's order) — which the caller bulk-loads into a new skiplist in O(n)
 * (ZSkipList.loadSorted) instead of n random inserts.
 *
 * Costs, for inputs of sizes n1 ≤ … ≤ nk: union O(Σ ni + u log u) for u results; intersection
 * O(n1 · k + r log r); difference O(n1 · k); intersection count O(n1 · k), less with a limit.
 */
import type { ZSkipList } from "./core.js";
import { compareMembers } from "./order.js";

const NIL = 0;

/** AGGREGATE SUM / MIN / MAX. */
export type Aggregate = "sum" | "min" | "max";

/** Members and scores of a result, and the order that sorts them (null: already sorted). */
export interface Run {
  members: string[];
  scores: number[];
  order: Int32Array | null;
  /** member → position in the arrays, for the new set's index (union builds it anyway). */
  index: Map<string, number> | null;
}

/** Redis's zunionInterAggregate. */
function combine(target: number, value: number, aggregate: Aggregate): number {
  if (aggregate === "sum") {
    const sum = target + value;
    return sum !== sum ? 0 : sum; // inf + −inf (or a NaN operand) is 0
  }
  if (aggregate === "min") return value < target ? value : target;
  return value > target ? value : target;
}

/** Sorts the run by (score, member bytes) unless it already is. */
function sortRun(members: string[], scores: number[]): Int32Array | null {
  const n = members.length;
  let sorted = true;
  for (let k = 1; k < n; k++) {
    const a = scores[k - 1]!;
    const b = scores[k]!;
    if (a > b || (a === b && compareMembers(members[k - 1]!, members[k]!) > 0)) {
      sorted = false;
      break;
    }
  }
  if (sorted) return null;
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  order.sort((i, j) => {
    const a = scores[i]!;
    const b = scores[j]!;
    return a < b ? -1 : a > b ? 1 : compareMembers(members[i]!, members[j]!);
  });
  return order;
}

/** ZUNION: `lists` and `weights` smallest input first. */
export function unionRun(lists: readonly ZSkipList[], weights: readonly number[], aggregate: Aggregate): Run {
  const index = new Map<string, number>();
  const members: string[] = [];
  const scores: number[] = [];
  for (let s = 0; s < lists.length; s++) {
    const list = lists[s]!;
    const w = weights[s]!;
    for (let x = list.first(); x !== NIL; x = list.nextOf(x)) {
      let score = w * list.scoreOf(x);
      if (score !== score) score = 0;
      const member = list.memberOf(x);
      const j = index.get(member);
      if (j === undefined) {
        index.set(member, members.length);
        members.push(member);
        scores.push(score);
      } else {
        scores[j] = combine(scores[j]!, score, aggregate);
      }
    }
  }
  return { members, scores, order: sortRun(members, scores), index };
}

/** ZINTER: `lists` and `weights` smallest input first. */
export function intersectRun(lists: readonly ZSkipList[], weights: readonly number[], aggregate: Aggregate): Run {
  const members: string[] = [];
  const scores: number[] = [];
  const first = lists[0]!;
  const w0 = weights[0]!;
  outer: for (let x = first.first(); x !== NIL; x = first.nextOf(x)) {
    const member = first.memberOf(x);
    let score = w0 * first.scoreOf(x);
    if (score !== score) score = 0;
    for (let s = 1; s < lists.length; s++) {
      const list = lists[s]!;
      const y = list.find(member);
      if (y === NIL) continue outer;
      score = combine(score, list.scoreOf(y) * weights[s]!, aggregate); // a NaN product is not zeroed here
    }
    members.push(member);
    scores.push(score);
  }
  return { members, scores, order: sortRun(members, scores), index: null };
}

/** ZDIFF: the members of `lists[0]` in none of the others, with their scores, in order. */
export function diffRun(lists: readonly ZSkipList[]): Run {
  const members: string[] = [];
  const scores: number[] = [];
  const first = lists[0]!;
  outer: for (let x = first.first(); x !== NIL; x = first.nextOf(x)) {
    const member = first.memberOf(x);
    for (let s = 1; s < lists.length; s++) if (lists[s]!.find(member) !== NIL) continue outer;
    members.push(member);
    scores.push(first.scoreOf(x));
  }
  return { members, scores, order: null, index: null };
}

/** ZINTERCARD: the size of the intersection, counting stopped at `limit` (0: no limit); smallest first. */
export function intersectCount(lists: readonly ZSkipList[], limit: number): number {
  const first = lists[0]!;
  let count = 0;
  outer: for (let x = first.first(); x !== NIL; x = first.nextOf(x)) {
    const member = first.memberOf(x);
    for (let s = 1; s < lists.length; s++) if (lists[s]!.find(member) === NIL) continue outer;
    if (++count === limit) break;
  }
  return count;
}
