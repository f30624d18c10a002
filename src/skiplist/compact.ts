/**
 * The compact form of a small `SortedSet`, Redis's listpack encoding in spirit (a zset of at most
 * zset-max-listpack-entries = 128 entries is one flat run of member/score pairs there): the entries
 * in order in two plain arrays — scores (a packed array of doubles) and members — beside a `Map`
 * member → score. No typed array, no tower, no slot: a set of 16 members costs about what a sorted
 * array with a Map costs (docs/skiplist.md, "Small sets"). ./zset.ts converts it to the skiplist
 * form (./list.ts with ./members.ts) when it outgrows its bound, and back when it shrinks well below.
 *
 * Positions are array indexes. Every search is a binary search by (score, member bytes); an insert
 * or a removal moves the entries after it (at most the bound, by `splice`).
 *
 * Invariants (checked by ./invariants.ts): the entries strictly increase in (score, member); the Map
 * holds exactly the members, each with its entry's score; no score is NaN.
 *
 * Costs (n entries, n ≤ the bound): score, has: O(1); insert, delete, a score update, rank, bound
 * searches: O(log n) comparisons plus O(n) element moves; ranges: O(log n + k).
 */
import { compareMembers } from "./order.js";

/** A packed array of doubles (an array literal of a non-integer is one; it stays one when emptied). */
function doubles(): number[] {
  const a = [0.5];
  a.length = 0;
  return a;
}

export class CompactList {
  /** Scores and members in order: entry i is (scores[i], members[i]). */
  readonly scores: number[];
  readonly members: string[];
  /** member → score. */
  readonly map: Map<string, number>;

  /** An empty list, or a copy of `from`. */
  constructor(from?: CompactList) {
    if (from === undefined) {
      this.scores = doubles();
      this.members = [];
      this.map = new Map();
    } else {
      this.scores = from.scores.slice();
      this.members = from.members.slice();
      this.map = new Map(from.map);
    }
  }

  /** Number of entries. */
  get length(): number {
    return this.members.length;
  }

  /** Entries sorting before (score, member): where the key is, or would go. O(log n). */
  #search(score: number, member: string): number {
    const scores = this.scores;
    let lo = 0;
    let hi = scores.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = scores[mid]!;
      if (s < score || (s === score && compareMembers(this.members[mid]!, member) < 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // ---------------------------------------------------------------- reading

  /** The member's score, or undefined. O(1). */
  score(member: string): number | undefined {
    return this.map.get(member);
  }

  /** The rank of the entry (score, member), which must be present. */
  rank(score: number, member: string): number {
    return this.#search(score, member);
  }

  posAt(r: number): number {
    return r;
  }

  /** Number of entries scored below s (at or below when `inclusive`). */
  countBelowScore(s: number, inclusive: boolean): number {
    const scores = this.scores;
    let lo = 0;
    let hi = scores.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = scores[mid]!;
      if (v < s || (inclusive && v === s)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Number of entries whose member is below m (at or below when `inclusive`), by binary search: exact when all scores are equal. */
  countBelowMember(m: string, inclusive: boolean): number {
    const members = this.members;
    let lo = 0;
    let hi = members.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareMembers(members[mid]!, m);
      if (c < 0 || (inclusive && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first entry not counted below the bound, or with `reverse` the last one counted; −1 when none. */
  #seek(j: number, reverse: boolean): number {
    if (reverse) return j - 1;
    return j < this.members.length ? j : -1;
  }

  seekScore(s: number, inclusive: boolean, reverse: boolean): number {
    return this.#seek(this.countBelowScore(s, inclusive), reverse);
  }

  seekMember(m: string, inclusive: boolean, reverse: boolean): number {
    return this.#seek(this.countBelowMember(m, inclusive), reverse);
  }

  /** The first entry sorting after (score, member) — the last before it with `reverse` — or −1. */
  seekKey(score: number, member: string, reverse: boolean): number {
    const j = this.#search(score, member);
    if (reverse) return j - 1;
    const n = this.members.length;
    const at = j < n && this.scores[j] === score && this.members[j] === member ? j + 1 : j;
    return at < n ? at : -1;
  }

  scoreAt(p: number): number {
    return this.scores[p]!;
  }

  memberAt(p: number): string {
    return this.members[p]!;
  }

  firstPos(): number {
    return this.members.length > 0 ? 0 : -1;
  }

  lastPos(): number {
    return this.members.length - 1;
  }

  nextPos(p: number): number {
    return p + 1 < this.members.length ? p + 1 : -1;
  }

  prevPos(p: number): number {
    return p - 1;
  }

  /** The run from p to the end of the entries (to before the first, in reverse): all of them. */
  runEnd(_p: number, reverse: boolean): number {
    return reverse ? -1 : this.members.length;
  }

  /** Pushes k entries as [member, score] from position p on, forward or backward. */
  collect(p: number, k: number, reverse: boolean, out: [string, number][]): void {
    const { scores, members } = this;
    if (reverse) for (let i = p; i > p - k; i--) out.push([members[i]!, scores[i]!]);
    else for (let i = p; i < p + k; i++) out.push([members[i]!, scores[i]!]);
  }

  /** Pushes the entries from p on while their score is ≤ max (< max when exclusive), at most `limit`. */
  collectUpTo(p: number, max: number, exclusive: boolean, limit: number, out: [string, number][]): void {
    if (p < 0) return;
    const { scores, members } = this;
    for (let i = p; i < members.length && out.length < limit; i++) {
      const v = scores[i]!;
      if (exclusive ? v >= max : v > max) return;
      out.push([members[i]!, v]);
    }
  }

  /** Pushes the entries from p backward while their score is ≥ min (> min when exclusive), at most `limit`. */
  collectDownTo(p: number, min: number, exclusive: boolean, limit: number, out: [string, number][]): void {
    const { scores, members } = this;
    for (let i = p; i >= 0 && out.length < limit; i--) {
      const v = scores[i]!;
      if (exclusive ? v <= min : v < min) return;
      out.push([members[i]!, v]);
    }
  }

  // ---------------------------------------------------------------- changes

  /** Adds (score, member), which must not be present. */
  insert(score: number, member: string): void {
    const j = this.#search(score, member);
    this.scores.splice(j, 0, score);
    this.members.splice(j, 0, member);
    this.map.set(member, score);
  }

  /** Removes the entry (score, member), which must be present. */
  delete(score: number, member: string): void {
    const j = this.#search(score, member);
    this.scores.splice(j, 1);
    this.members.splice(j, 1);
    this.map.delete(member);
  }

  /** Gives the present entry (score, member) the score `to`: the entries between its old and new places move over by one. */
  update(score: number, member: string, to: number): void {
    const { scores, members } = this;
    const j = this.#search(score, member);
    const k = this.#search(to, member); // counts the old entry when it sorts before the new key
    if (k > j + 1) {
      for (let i = j; i < k - 1; i++) {
        scores[i] = scores[i + 1]!;
        members[i] = members[i + 1]!;
      }
      scores[k - 1] = to;
      members[k - 1] = member;
    } else if (k < j) {
      for (let i = j; i > k; i--) {
        scores[i] = scores[i - 1]!;
        members[i] = members[i - 1]!;
      }
      scores[k] = to;
      members[k] = member;
    } else {
      scores[j] = to;
    }
    this.map.set(member, to);
  }

  /** Deletes the entries at ranks start..end−1. */
  deleteRanks(start: number, end: number): void {
    for (let i = start; i < end; i++) this.map.delete(this.members[i]!);
    this.scores.splice(start, end - start);
    this.members.splice(start, end - start);
  }

  /**
   * Fills an empty list with `count` entries given in order: entry k is (scores[order[k]],
   * members[order[k]]) (order null: k itself), strictly increasing in (score, member). The Map is
   * filled in the inputs' own order. Returns false when a member repeats.
   */
  loadSorted(
    members: readonly string[],
    scores: ArrayLike<number>,
    order: ArrayLike<number> | null,
    count: number,
  ): boolean {
    for (let k = 0; k < count; k++) {
      const i = order === null ? k : order[k]!;
      this.scores.push(scores[i]!);
      this.members.push(members[i]!);
    }
    for (let j = 0; j < count; j++) this.map.set(members[j]!, scores[j]!);
    return this.map.size === count;
  }

  /** Bytes of the two arrays' elements: 16 per entry. */
  get byteLength(): number {
    return 16 * this.members.length;
  }
}
