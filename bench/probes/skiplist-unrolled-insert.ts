/**
 * Probe (not part of `npm run bench`, not shipped): what would it take for a sorted set to insert
 * as fast as sorted-btree? Times 10^6 random inserts, in one process (medians of 3 rounds), into
 * - sorted-btree alone (the goal's yardstick), and sorted-btree plus a member → score `Map`;
 * - a `Map.set(member, score)` alone — the member index ZADD keeps for O(1) ZSCORE;
 * - `SortedSet` (p = 1/4 skiplist, one entry per node, plus its member index);
 * - a minimal *unrolled* skiplist prototype — nodes holding up to B entries (default 16) in sorted
 *   order, levels drawn with p = 1/4 per node, spans counting entries — with and without the
 *   member index. Insert only (split in halves when full); `check()` verifies order and spans.
 *
 *     B=16 node --expose-gc --import tsx bench/probes/skiplist-unrolled-insert.ts
 */
import { createRequire } from "node:module";
import { SortedSet } from "../../src/skiplist/index.js";
import { distinctStrings, prng } from "../lib.js";

interface OrderedMap {
  set(key: number, value: string): unknown;
}
const BTree = createRequire(import.meta.url)("sorted-btree").default as new () => OrderedMap;

const B = Number(process.env.B ?? 16);
const MAX_LEVEL = 32;

/**
 * Block of a node at word address x: [count, level, (forward, span) × level, pad to even]
 * [scores: f64 × B][member slots: i32 × B]. The header node sits at address 0 (so 0 is also the
 * null link) and holds no entries. span(a → b) = entries in a and the nodes between a and b.
 */
class UnrolledSkipList {
  i32: Int32Array;
  f64: Float64Array;
  top = 0;
  level = 1;
  length = 0;
  readonly members: string[] = [];
  readonly index: { set(member: string, score: number): unknown };
  readonly update = new Int32Array(MAX_LEVEL);
  readonly rankAt = new Int32Array(MAX_LEVEL);
  seed = 12345;

  constructor(withIndex: boolean) {
    const buf = new ArrayBuffer(1 << 20);
    this.i32 = new Int32Array(buf);
    this.f64 = new Float64Array(buf);
    this.alloc(MAX_LEVEL); // the header, at 0
    this.index = withIndex ? new Map<string, number>() : { set: () => undefined };
  }

  randomLevel(): number {
    let level = 1;
    for (;;) {
      this.seed = (Math.imul(this.seed, 1103515245) + 12345) >>> 0;
      if (level === MAX_LEVEL || this.seed >>> 30 !== 0) return level;
      level++;
    }
  }

  static linkWords(level: number): number {
    return (2 + 2 * level + 1) & ~1;
  }
  scoresAt(x: number): number {
    return (x + UnrolledSkipList.linkWords(this.i32[x + 1]!)) >> 1;
  }
  membersAt(x: number): number {
    return x + UnrolledSkipList.linkWords(this.i32[x + 1]!) + 2 * B;
  }

  alloc(level: number): number {
    const words = (UnrolledSkipList.linkWords(level) + 3 * B + 1) & ~1;
    if (this.top + words > this.i32.length) {
      const buf = new ArrayBuffer(this.i32.length * 8);
      const bigger = new Int32Array(buf);
      bigger.set(this.i32);
      this.i32 = bigger;
      this.f64 = new Float64Array(buf);
    }
    const x = this.top;
    this.top += words;
    this.i32[x] = 0;
    this.i32[x + 1] = level;
    return x;
  }

  add(member: string, score: number): void {
    const { i32, f64, update, rankAt } = this;
    // Descend comparing with each next node's first score: x ends at the node to insert into.
    let x = 0;
    let rank = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let link = x + 2 + 2 * i;
      let y = i32[link]!;
      while (y !== 0 && f64[(y + UnrolledSkipList.linkWords(i32[y + 1]!)) >> 1]! <= score) {
        rank += i32[link + 1]!;
        x = y;
        link = x + 2 + 2 * i;
        y = i32[link]!;
      }
      update[i] = x;
      rankAt[i] = rank;
    }
    let t = x;
    if (t === 0) {
      // Below every key (or the list is empty): position 0 of the first node.
      t = i32[2]!;
      if (t === 0) {
        t = this.alloc(1);
        this.i32[2] = t;
        this.i32[3] = 0;
      }
    }
    if (this.i32[t]! === B) t = this.split(t, score);
    const I32 = this.i32;
    const F64 = this.f64;
    const cnt = I32[t]!;
    const s0 = this.scoresAt(t);
    const m0 = this.membersAt(t);
    let p = cnt;
    while (p > 0 && F64[s0 + p - 1]! > score) {
      F64[s0 + p] = F64[s0 + p - 1]!;
      I32[m0 + p] = I32[m0 + p - 1]!;
      p--;
    }
    F64[s0 + p] = score;
    I32[m0 + p] = this.members.length;
    this.members.push(member);
    I32[t] = cnt + 1;
    // The link that jumps over the new entry, at every level, counts one more.
    const lt = I32[t + 1]!;
    for (let i = 0; i < this.level; i++) {
      const at = (i < lt ? t : this.update[i]!) + 3 + 2 * i;
      I32[at] = I32[at]! + 1;
    }
    this.length++;
    this.index.set(member, score);
  }

  /** Moves the upper half of full node x into a new node z after it; returns where `score` goes. */
  split(x: number, score: number): number {
    const lz = this.randomLevel();
    const z = this.alloc(lz);
    const { i32, f64, update, rankAt } = this;
    for (let i = this.level; i < lz; i++) {
      update[i] = 0;
      rankAt[i] = 0;
      i32[2 + 2 * i + 1] = this.length;
    }
    if (lz > this.level) this.level = lz;
    const h = B >> 1;
    const sx = this.scoresAt(x);
    const mx = this.membersAt(x);
    const sz = this.scoresAt(z);
    const mz = this.membersAt(z);
    for (let k = h; k < B; k++) {
      f64[sz + k - h] = f64[sx + k]!;
      i32[mz + k - h] = i32[mx + k]!;
    }
    i32[x] = h;
    i32[z] = B - h;
    const lx = i32[x + 1]!;
    const rx = update[0] === x ? rankAt[0]! : 0;
    const rz = rx + h;
    for (let i = 0; i < lz; i++) {
      const pred = i < lx ? x : update[i]!;
      const rp = i < lx ? rx : rankAt[i]!;
      const pl = pred + 2 + 2 * i;
      i32[z + 2 + 2 * i] = i32[pl]!;
      i32[z + 3 + 2 * i] = i32[pl + 1]! - (rz - rp);
      i32[pl] = z;
      i32[pl + 1] = rz - rp;
    }
    if (score < f64[sz]!) return x;
    for (let i = 0; i < lz; i++) update[i] = z;
    return z;
  }

  check(): void {
    let previous = Number.NEGATIVE_INFINITY;
    let n = 0;
    for (let x = this.i32[2]!; x !== 0; x = this.i32[x + 2]!) {
      const s = this.scoresAt(x);
      for (let k = 0; k < this.i32[x]!; k++) {
        if (this.f64[s + k]! < previous) throw new Error("out of order");
        previous = this.f64[s + k]!;
        n++;
      }
    }
    if (n !== this.length) throw new Error(`${n} entries linked, ${this.length} inserted`);
    for (let i = 0; i < this.level; i++) {
      let sum = 0;
      let y = 0;
      do {
        sum += this.i32[y + 3 + 2 * i]!;
        y = this.i32[y + 2 + 2 * i]!;
      } while (y !== 0);
      if (sum !== n) throw new Error(`level ${i}: spans sum to ${sum}, not ${n}`);
    }
  }
}

const n = 1e6;
const random = prng(42);
const members = distinctStrings(n, 42, "m:");
const scores = Array.from({ length: n }, () => random());
const times: Record<string, number[]> = {};
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const time = (name: string, build: () => void) => {
  gc();
  const t0 = performance.now();
  build();
  (times[name] ??= []).push(performance.now() - t0);
};
for (let round = 0; round < 3; round++) {
  time("sorted-btree", () => {
    const t = new BTree();
    for (let i = 0; i < n; i++) t.set(scores[i]!, members[i]!);
  });
  time("sorted-btree + Map", () => {
    const t = new BTree();
    const m = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      t.set(scores[i]!, members[i]!);
      m.set(members[i]!, scores[i]!);
    }
  });
  time("Map.set(member, score) alone", () => {
    const m = new Map<string, number>();
    for (let i = 0; i < n; i++) m.set(members[i]!, scores[i]!);
  });
  time("SortedSet", () => {
    const z = new SortedSet({ seed: 1 });
    for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
  });
  time(`unrolled (B = ${B}) + Map`, () => {
    const u = new UnrolledSkipList(true);
    for (let i = 0; i < n; i++) u.add(members[i]!, scores[i]!);
    if (round === 0) u.check();
  });
  time(`unrolled (B = ${B}), no member index`, () => {
    const u = new UnrolledSkipList(false);
    for (let i = 0; i < n; i++) u.add(members[i]!, scores[i]!);
  });
}
const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1]!;
const base = median(times["sorted-btree"]!);
for (const [name, t] of Object.entries(times)) {
  const m = median(t);
  console.log(`${name.padEnd(36)} ${((m * 1e3) / n).toFixed(2)} µs/insert  ${(base / m).toFixed(2)}× sorted-btree`);
}
