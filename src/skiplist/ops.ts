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
 * (it keeps the first input's order) — which the caller bulk-loads into a new set in O(n)
 * (ZSet.loadSorted) instead of n random inserts.
 *
 * Costs, for k inputs of sizes n1 ≤ … ≤ nk: union O(k · Σ ni + u) for u results (each member is
 * looked up in the inputs after the first one holding it; the run is radix-sorted); intersection
 * O(k · n1 + r) for r results; difference O(k · n1); intersection count O(k · n1), less with a
 * limit. Ties of equal scores add a comparison sort of each tie.
 */
import { compareMembers } from "./order.js";
import type { ZSet } from "./zset.js";

/** AGGREGATE SUM / MIN / MAX. */
export type Aggregate = "sum" | "min" | "max";

/** Members and scores of a result, and the order that sorts them (null: already sorted). */
export interface Run {
  members: string[];
  scores: number[];
  order: Int32Array | null;
}

/** Redis's zunionInterAggregate. */
function combine(target: number, value: number, aggregate: Aggregate): number {
  if (aggregate === "sum") {
    const sum = target + value;
    return Number.isNaN(sum) ? 0 : sum; // inf + −inf (or a NaN operand) is 0
  }
  if (aggregate === "min") return value < target ? value : target;
  return value > target ? value : target;
}

/** True on little-endian hosts, where word 1 of a Float64Array element holds the high bits. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The permutation sorting the run by (score, member bytes), or null when it already is in order.
 *
 * A least-significant-digit radix sort on the scores' bits (four passes of 16 bits over a key that
 * orders like the doubles: the sign bit flipped for positives, every bit for negatives; −0 read as
 * 0, which Redis's order treats as equal), skipping the passes whose digit is the same for every
 * key (the low words of integer-valued scores), then a comparison sort of each run of equal scores
 * by member bytes. O(n) plus the ties, against n log n comparator calls for `Array#sort`.
 */
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
  const f64 = new Float64Array(n);
  for (let k = 0; k < n; k++) f64[k] = scores[k]! + 0; // −0 + 0 is +0
  const words = new Uint32Array(f64.buffer);
  const hiAt = LITTLE_ENDIAN ? 1 : 0;
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const h = words[2 * k + hiAt]!;
    const l = words[2 * k + 1 - hiAt]!;
    if (h >>> 31 === 1) {
      hi[k] = ~h >>> 0;
      lo[k] = ~l >>> 0;
    } else {
      hi[k] = (h | 0x80000000) >>> 0;
      lo[k] = l;
    }
  }
  let order = new Int32Array(n);
  let spare = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  const counts = new Int32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    const key = pass < 2 ? lo : hi;
    const shift = (pass & 1) * 16;
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[(key[k]! >>> shift) & 0xffff]!++;
    if (counts[(key[0]! >>> shift) & 0xffff] === n) continue; // one digit for all: nothing moves
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      spare[counts[(key[i]! >>> shift) & 0xffff]!++] = i;
    }
    const t = order;
    order = spare;
    spare = t;
  }
  // Runs of equal scores, by member bytes.
  for (let start = 0; start < n; ) {
    const s = f64[order[start]!]!;
    let end = start + 1;
    while (end < n && f64[order[end]!] === s) end++;
    if (end - start > 1) {
      const run = Array.from(order.subarray(start, end)).sort((i, j) => compareMembers(members[i]!, members[j]!));
      order.set(run, start);
    }
    start = end;
  }
  return order;
}

/** ZUNION: `lists` and `weights` smallest input first. */
export function unionRun(lists: readonly ZSet[], weights: readonly number[], aggregate: Aggregate): Run {
  const members: string[] = [];
  const scores: number[] = [];
  const k = lists.length;
  // A member is combined once, when met in the first input holding it (Redis's order), by looking
  // it up in the later inputs — their own indexes stand in for an accumulator Map — and marking the
  // ids found there so that input's walk skips them without another lookup. Each input is walked
  // in its index's order (insertion order), not score order: the member strings and Map entries
  // are then visited roughly in the order they were allocated, which at 10^5 members halves the
  // cache misses of the lookups (the result is sorted afterwards anyway).
  const seen: Uint8Array[] = lists.map((l, s) => new Uint8Array(s === 0 ? 0 : l.idBound));
  for (let s = 0; s < k; s++) {
    const list = lists[s]!;
    const w = weights[s]!;
    const mine = seen[s]!;
    list.forEachId((id, member) => {
      if (s !== 0 && mine[id] === 1) return; // combined already
      let score = w * list.scoreOfId(id);
      if (Number.isNaN(score)) score = 0;
      for (let t = s + 1; t < k; t++) {
        const other = lists[t]!;
        const y = other.idOf(member);
        if (y === 0) continue;
        seen[t]![y] = 1;
        let value = weights[t]! * other.scoreOfId(y);
        if (Number.isNaN(value)) value = 0;
        score = combine(score, value, aggregate);
      }
      members.push(member);
      scores.push(score);
    });
  }
  return { members, scores, order: sortRun(members, scores) };
}

/** ZINTER: `lists` and `weights` smallest input first. */
export function intersectRun(lists: readonly ZSet[], weights: readonly number[], aggregate: Aggregate): Run {
  const members: string[] = [];
  const scores: number[] = [];
  const first = lists[0]!;
  const w0 = weights[0]!;
  outer: for (let p = first.firstPos(); p >= 0; p = first.nextPos(p)) {
    const member = first.memberAt(p);
    let score = w0 * first.scoreAt(p);
    if (Number.isNaN(score)) score = 0;
    for (let s = 1; s < lists.length; s++) {
      const other = lists[s]!.score(member);
      if (other === undefined) continue outer;
      score = combine(score, other * weights[s]!, aggregate); // a NaN product is not zeroed here
    }
    members.push(member);
    scores.push(score);
  }
  return { members, scores, order: sortRun(members, scores) };
}

/** ZDIFF: the members of `lists[0]` in none of the others, with their scores, in order. */
export function diffRun(lists: readonly ZSet[]): Run {
  const members: string[] = [];
  const scores: number[] = [];
  const first = lists[0]!;
  outer: for (let p = first.firstPos(); p >= 0; p = first.nextPos(p)) {
    const member = first.memberAt(p);
    for (let s = 1; s < lists.length; s++) if (lists[s]!.score(member) !== undefined) continue outer;
    members.push(member);
    scores.push(first.scoreAt(p));
  }
  return { members, scores, order: null };
}

/** ZINTERCARD: the size of the intersection, counting stopped at `limit` (0: no limit); smallest first. */
export function intersectCount(lists: readonly ZSet[], limit: number): number {
  const first = lists[0]!;
  let count = 0;
  outer: for (let p = first.firstPos(); p >= 0; p = first.nextPos(p)) {
    const member = first.memberAt(p);
    for (let s = 1; s < lists.length; s++) if (lists[s]!.score(member) === undefined) continue outer;
    if (++count === limit) break;
  }
  return count;
}
