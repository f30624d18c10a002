/**
 * The member index of a large `SortedSet`: member → slot in a `Map`, and each slot's score in a
 * Float64Array — O(1) ZSCORE, as Redis's dict beside the skiplist gives. An entry's place in the
 * ordered list (./list.ts) is found by a descent on (score, member), so entries moving inside or
 * between nodes (splits, merges, shifts) never touch the index; an index of places would have to be
 * rewritten for every entry a split moves. The Map holds a small integer per member (a slot) rather
 * than the score itself: a score that is not a small integer would be a boxed heap number per entry.
 *
 * A removed member stays in the Map as a tombstone (slot 0) until tombstones outnumber live members
 * (and 64), then all are purged at once (amortized O(1)): V8's Map keeps a deleted entry in its
 * bucket chain until the next rehash, so deleting and re-adding the same members made every lookup
 * of them slower and slower; re-adding a member overwrites its tombstone. Freed slots are reused.
 *
 * Invariants (checked by ./invariants.ts): the live members map to distinct slots in 1..slotTop−1,
 * the others to 0; slots in use plus free slots make slotTop − 1; tombstones are purged once they
 * outnumber the live members (and 64).
 */
import { allocBuffer } from "./store.js";

/** Tombstones kept before a purge is considered: at least this many. */
const MIN_TOMBSTONES = 64;
/** Slots the score array grows by doubling up to; beyond, by an eighth (little slack at 10^6). */
const DOUBLING = 1 << 16;
/** Slots allocated up front at most, whatever the capacity hint. */
const EAGER_SLOTS = 1 << 16;

export class MemberIndex {
  /** member → slot, or 0 (a tombstone) for a removed member. */
  #map: Map<string, number>;
  /** Each slot's score. Slot 0 is never used. */
  #scores: Float64Array;
  /** Freed slots, a stack, and its height. */
  #free: Int32Array;
  #freeCount: number;
  /** The next never-used slot. */
  #top: number;
  /** Members present. */
  #live: number;

  /** An empty index with room for `capacity` members (a hint), or a copy of `from`. */
  constructor(capacity: number, from?: MemberIndex) {
    if (from !== undefined) {
      this.#map = new Map(from.#map);
      this.#scores = from.#scores.slice();
      this.#free = from.#free.slice();
      this.#freeCount = from.#freeCount;
      this.#top = from.#top;
      this.#live = from.#live;
      return;
    }
    this.#map = new Map();
    this.#scores = new Float64Array(allocBuffer(8 * Math.max(8, Math.min(capacity, EAGER_SLOTS) + 1)));
    this.#free = new Int32Array(0);
    this.#freeCount = 0;
    this.#top = 1;
    this.#live = 0;
  }

  /** Members present. */
  get size(): number {
    return this.#live;
  }

  /** The slot of `member`, or 0 when absent. O(1). */
  slotOf(member: string): number {
    return this.#map.get(member) ?? 0;
  }

  /** The score of a live slot. */
  scoreOf(slot: number): number {
    return this.#scores[slot]!;
  }

  setScore(slot: number, score: number): void {
    this.#scores[slot] = score;
  }

  /** Adds an absent member; returns its slot. May throw when memory runs out; nothing is changed then. */
  add(member: string, score: number): number {
    let slot: number;
    if (this.#freeCount > 0) {
      slot = this.#free[--this.#freeCount]!;
    } else {
      slot = this.#top;
      if (slot === this.#scores.length) {
        const n = slot;
        const grown = new Float64Array(allocBuffer(8 * (n < DOUBLING ? n * 2 : n + (n >> 3))));
        grown.set(this.#scores);
        this.#scores = grown;
      }
      this.#top = slot + 1;
    }
    this.#scores[slot] = score;
    this.#map.set(member, slot);
    this.#live++;
    return slot;
  }

  /** Removes a present member (whose slot is `slot`): frees the slot, leaves a tombstone, purges them when due. */
  remove(member: string, slot: number): void {
    if (this.#freeCount === this.#free.length) {
      const grown = new Int32Array(Math.max(16, this.#free.length * 2));
      grown.set(this.#free);
      this.#free = grown;
    }
    this.#free[this.#freeCount++] = slot;
    this.#live--;
    const map = this.#map;
    map.set(member, 0);
    const tombstones = map.size - this.#live;
    if (tombstones > MIN_TOMBSTONES && tombstones > this.#live) {
      for (const [key, s] of map) if (s === 0) map.delete(key);
    }
  }

  /**
   * Fills an empty index with `count` members: members[j] takes slot j + 1 and score scores[j]. The
   * Map is filled in the inputs' own order (not the set's): when they come from walking other
   * indexes, their strings were allocated roughly in that order, so hashing them then misses the
   * cache far less often than in score order. Returns false when a member repeats (the index then
   * holds fewer than `count`).
   */
  fill(members: readonly string[], scores: ArrayLike<number>, count: number): boolean {
    if (count + 1 > this.#scores.length) this.#scores = new Float64Array(allocBuffer(8 * (count + 1)));
    for (let j = 0; j < count; j++) {
      this.#scores[j + 1] = scores[j]!;
      this.#map.set(members[j]!, j + 1);
    }
    this.#top = count + 1;
    this.#live = count;
    return this.#map.size === count;
  }

  /** Calls fn(slot, member) for every present member, in the Map's order. */
  forEach(fn: (slot: number, member: string) => void): void {
    this.#map.forEach((slot, member) => {
      if (slot !== 0) fn(slot, member);
    });
  }

  /** One past the highest slot there is room for (slots are below this). */
  get slotBound(): number {
    return this.#scores.length;
  }

  // ---------------------------------------------------------------- for the invariant walk

  /** Entries of the Map, tombstones included. */
  get mapSize(): number {
    return this.#map.size;
  }

  /** The next never-used slot; the number of free slots and the i-th of them. */
  get top(): number {
    return this.#top;
  }

  get freeCount(): number {
    return this.#freeCount;
  }

  freeSlot(i: number): number {
    return this.#free[i]!;
  }

  /** Bytes held by the typed arrays (not the Map). */
  get byteLength(): number {
    return this.#scores.byteLength + this.#free.byteLength;
  }
}
