/**
 * Probe (not part of `npm run bench`): where the time of `rangeByScore` over 100 consecutive entries
 * goes at 10^6 entries, against sorted-btree's `getRange` — in one process, medians of 9 rounds of
 * 2,000 random ranges, timed in CPU time (process.cpuUsage) so other processes on a shared machine
 * disturb the figures less than wall time would.
 *
 * Rows, each a part of the full call:
 * - the descent alone (`countByScore(-inf, lo)`: the O(log n) search for the range's start);
 * - `rangeByScore` with LIMIT count 1: the descent plus one step and one tuple;
 * - the full `rangeByScore` (descent + 100 level-0 steps + one `[member, score]` tuple per entry),
 *   and the same walk without building the result (`countByScore` over the range does the
 *   descents only, so the walk's share is the difference);
 * - the same entries after `compact()` (nodes and member slots laid out in score order, so a walk
 *   reads consecutive memory) — what the cache misses of a set built by random inserts cost;
 * - on a bare ZSkipList holding the same entries: the descent plus the level-0 walk without building
 *   a result, and an *interleaved* walk (the level-1 chain first, then the runs of level-0 nodes
 *   between level-1 nodes stepped side by side, so their misses are independent loads the CPU could
 *   overlap) — tried as a way to close the gap without changing the structure;
 * - sorted-btree `getRange` (tuples too).
 *
 *     node --expose-gc --import tsx bench/probes/skiplist-range.ts
 */
import { createRequire } from "node:module";
import { ZSkipList } from "../../src/skiplist/core.js";
import { SortedSet } from "../../src/skiplist/index.js";
import { distinctStrings, prng } from "../lib.js";

const n = 1e6;
const random = prng(0x5c0e + n);
const members = distinctStrings(n, 7);
const scores = new Float64Array(n);
for (let i = 0; i < n; i++) scores[i] = Math.floor(random() * 1e9) + random();
const zs = new SortedSet({ seed: 1 });
interface RangeTree {
  set(k: number, v: string): void;
  getRange(lo: number, hi: number, inclusive: boolean): [number, string][];
}
const BTree = createRequire(import.meta.url)("sorted-btree").default as new (
  entries: undefined,
  compare: (a: number, b: number) => number,
) => RangeTree;
const btree = new BTree(undefined, (a, b) => a - b);
for (let i = 0; i < n; i++) {
  zs.add(members[i]!, scores[i]!);
  btree.set(scores[i]!, members[i]!);
}
const ordered = new SortedSet({ seed: 1 });
for (let i = 0; i < n; i++) ordered.add(members[i]!, scores[i]!);
ordered.compact();
const bare = new ZSkipList(1);
for (let i = 0; i < n; i++) bare.insert(scores[i]!, members[i]!);

// Node layout of core.ts: i32[x + 3] = level | slot << 6, i32[x + 4 + 2i] = link at level i, and
// i32[x + 5 + 2i] its span; f64[x >> 1] = score.
const META = 3;
const LINKS = 4;

/** A descent to the last node with score < lo, recording where it left level 1 (node, rank). */
function descend(list: ZSkipList, lo: number): [last: number, rank: number, below1: number, below1Rank: number] {
  const { i32, f64 } = list;
  let x = 0;
  let rank = 0;
  let below1 = 0;
  let below1Rank = 0;
  for (let i = list.level - 1; i >= 0; i--) {
    for (let y = i32[x + LINKS + 2 * i]!; y !== 0 && f64[y >> 1]! < lo; y = i32[x + LINKS + 2 * i]!) {
      rank += i32[x + LINKS + 2 * i + 1]!;
      x = y;
    }
    if (i === 1) {
      below1 = x;
      below1Rank = rank;
    }
  }
  return [x, rank, below1, below1Rank];
}

const segNode = new Int32Array(4096);
const segPos = new Int32Array(4096);
/** The entries with lo ≤ score ≤ hi, level-0 runs between level-1 nodes walked side by side. */
function interleaved(list: ZSkipList, lo: number, hi: number): [string, number][] {
  const { i32, f64, members } = list;
  const [last, startRank, below1, below1Rank] = descend(list, lo);
  const out: [string, number][] = [];
  const first = i32[last + LINKS]!;
  if (first === 0) return out;
  let segs = 0;
  let node = first;
  let pos = 0;
  let p = list.level > 1 ? below1 : 0;
  let pRank = below1Rank;
  for (;;) {
    segNode[segs] = node;
    segPos[segs] = pos;
    segs++;
    const next = list.level > 1 ? i32[p + LINKS + 2]! : 0;
    if (next === 0 || f64[next >> 1]! > hi) break;
    pRank += i32[p + LINKS + 3]!;
    p = next;
    node = next;
    pos = pRank - startRank - 1;
  }
  const whole = segs - 1;
  out.length = segPos[whole]!;
  for (let step = 0, active = whole; active > 0; step++) {
    active = 0;
    for (let j = 0; j < whole; j++) {
      const at = segPos[j]! + step;
      if (at >= segPos[j + 1]!) continue;
      const x = segNode[j]!;
      out[at] = [members[i32[x + META]! >>> 6]!, f64[x >> 1]!];
      segNode[j] = i32[x + LINKS]!;
      active++;
    }
  }
  for (let x = segNode[whole]!; x !== 0 && f64[x >> 1]! <= hi; x = i32[x + LINKS]!) {
    out.push([members[i32[x + META]! >>> 6]!, f64[x >> 1]!]);
  }
  return out;
}
const sorted = Float64Array.from(scores).sort();
const Q = 2000;
const lo = new Float64Array(Q);
const hi = new Float64Array(Q);
for (let i = 0; i < Q; i++) {
  const r = Math.floor(random() * (n - 100));
  lo[i] = sorted[r]!;
  hi[i] = sorted[r + 99]!;
}

let sink = 0;
const tasks: Record<string, () => void> = {
  "descent only: countByScore(-inf, lo)": () => {
    for (let i = 0; i < Q; i++) sink += zs.countByScore(Number.NEGATIVE_INFINITY, lo[i]!, { maxExclusive: true });
  },
  "rangeByScore, count 1 (descent + one tuple)": () => {
    for (let i = 0; i < Q; i++) sink += zs.rangeByScore(lo[i]!, hi[i]!, { count: 1 }).length;
  },
  "rangeByScore (full: descent + 100 steps + 100 tuples)": () => {
    for (let i = 0; i < Q; i++) sink += zs.rangeByScore(lo[i]!, hi[i]!).length;
  },
  "countByScore(lo, hi): two descents, no walk": () => {
    for (let i = 0; i < Q; i++) sink += zs.countByScore(lo[i]!, hi[i]!);
  },
  "rangeByScore after compact()": () => {
    for (let i = 0; i < Q; i++) sink += ordered.rangeByScore(lo[i]!, hi[i]!).length;
  },
  "bare list: descent + level-0 walk, no result built": () => {
    for (let i = 0; i < Q; i++) {
      const [last] = descend(bare, lo[i]!);
      for (let x = bare.nextOf(last); x !== 0 && bare.scoreOf(x) <= hi[i]!; x = bare.nextOf(x)) sink++;
    }
  },
  "bare list: descent + interleaved runs (tuples)": () => {
    for (let i = 0; i < Q; i++) sink += interleaved(bare, lo[i]!, hi[i]!).length;
  },
  "sorted-btree getRange": () => {
    for (let i = 0; i < Q; i++) sink += btree.getRange(lo[i]!, hi[i]!, true).length;
  },
};
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (let i = 0; i < 50; i++) {
  const want = JSON.stringify(zs.rangeByScore(lo[i]!, hi[i]!));
  if (JSON.stringify(interleaved(bare, lo[i]!, hi[i]!)) !== want) throw new Error(`interleaved walk differs at ${i}`);
}
const rounds: Record<string, number[]> = {};
for (let r = 0; r < 9; r++) {
  for (const [name, fn] of Object.entries(tasks)) {
    (globalThis as { gc?: () => void }).gc?.();
    const t0 = cpu();
    fn();
    (rounds[name] ??= []).push(((cpu() - t0) * 1000) / Q);
  }
}
const median = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1]!;
const base = median(rounds["sorted-btree getRange"]!);
for (const [name, t] of Object.entries(rounds)) {
  const m = median(t);
  console.log(`${name.padEnd(56)} ${m.toFixed(2).padStart(7)} µs/range   ${(base / m).toFixed(2)}× getRange`);
}
console.log(`(checksum ${sink % 997})`);
