/**
 * Probe (not part of `npm run bench`): the layout parameters of `SortedSet`'s macro nodes —
 * entries per node B, level probability p and overflow policy — at n members built by random
 * inserts (10^6 unless given), timed on the same members and scores in one process. Each layout is
 * built three times, the layouts taking turns (below 2^20 members, a build makes 2^20 / n sets);
 * each figure is the median of the three, in ns per operation. Bytes per member are `byteLength`
 * / n: the typed arrays only (the member strings and the Map are the same for every layout).
 *
 *     node --expose-gc --import tsx bench/probes/skiplist-layout.ts [n]
 */

import { type SortedSet, sortedSetWithLayout } from "../../src/skiplist/sorted-set.js";
import type { Layout } from "../../src/skiplist/zset.js";
import { distinctStrings, prng } from "../lib.js";

const n = Number(process.argv[2] ?? 1e6);
const random = prng(7);
const members = distinctStrings(n, 7, "member:");
const scores = Float64Array.from({ length: n }, () => random());
const Q = 1 << 16;
const builds = Math.max(1, Math.round(2 ** 20 / n));
const picks = Int32Array.from({ length: Q }, () => (random() * n) | 0);
const lows = Float64Array.from({ length: Q }, () => random() * 0.999);
const fresh = Float64Array.from({ length: Q }, () => random());

const layouts: [string, Layout][] = [
  ["B = 16, p = 1/4, shifts + 2→3", { nodeSize: 16, levelBits: 2 }],
  ["B = 32, p = 1/4, shifts + 2→3", { nodeSize: 32, levelBits: 2 }],
  ["B = 64, p = 1/4, shifts + 2→3", { nodeSize: 64, levelBits: 2 }],
  ["B = 128, p = 1/4, shifts + 2→3 (default)", { nodeSize: 128, levelBits: 2 }],
  ["B = 256, p = 1/4, shifts + 2→3", { nodeSize: 256, levelBits: 2 }],
  ["B = 512, p = 1/4, shifts + 2→3", { nodeSize: 512, levelBits: 2 }],
  ["B = 128, p = 1/2, shifts + 2→3", { nodeSize: 128, levelBits: 1 }],
  ["B = 128, p = 1/8, shifts + 2→3", { nodeSize: 128, levelBits: 3 }],
];

const columns = [
  "insert",
  "range of 100",
  "rank(member)",
  "at(i)",
  "score update",
  "delete + re-insert",
  "bytes/member",
] as const;
type Column = (typeof columns)[number];
const results = new Map<string, Record<Column, number[]>>();
let sink = 0;

function time(count: number, f: () => void): number {
  const t0 = performance.now();
  f();
  return ((performance.now() - t0) * 1e6) / count;
}

function measure(set: SortedSet): Omit<Record<Column, number>, "insert" | "bytes/member"> {
  return {
    "range of 100": time(Q >> 4, () => {
      for (let i = 0; i < Q >> 4; i++) sink += set.rangeByScore(lows[i]!, 1, { count: 100 }).length;
    }),
    "rank(member)": time(Q, () => {
      for (let i = 0; i < Q; i++) sink += set.rank(members[picks[i]!]!)!;
    }),
    "at(i)": time(Q, () => {
      for (let i = 0; i < Q; i++) sink += set.at(picks[i]!)![1];
    }),
    "score update": time(Q, () => {
      for (let i = 0; i < Q; i++) set.add(members[picks[i]!]!, fresh[i]!);
    }),
    "delete + re-insert": time(Q, () => {
      for (let i = 0; i < Q; i++) {
        const member = members[picks[i]!]!;
        const score = set.score(member)!;
        set.delete(member);
        set.add(member, score);
      }
    }),
  };
}

for (let round = 0; round < 3; round++) {
  for (const [name, layout] of layouts) {
    (globalThis as { gc?: () => void }).gc?.();
    let set = sortedSetWithLayout(layout, { seed: 1 });
    const insert = time(n * builds, () => {
      for (let b = 0; b < builds; b++) {
        set = sortedSetWithLayout(layout, { seed: 1 });
        for (let i = 0; i < n; i++) set.add(members[i]!, scores[i]!);
      }
    });
    const row = { insert, "bytes/member": set.byteLength / n, ...measure(set) };
    const acc =
      results.get(name) ?? (Object.fromEntries(columns.map((c) => [c, []])) as unknown as Record<Column, number[]>);
    for (const c of columns) acc[c].push(row[c]);
    results.set(name, acc);
    console.error(`round ${round + 1}: ${name}`);
  }
}

const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1]!;
console.log(`| layout, n = ${n} | ${columns.map((c) => (c === "bytes/member" ? c : `${c} (ns)`)).join(" | ")} |`);
console.log(`| --- | ${columns.map(() => "---").join(" | ")} |`);
for (const [name, acc] of results)
  console.log(`| ${name} | ${columns.map((c) => median(acc[c]).toFixed(0)).join(" | ")} |`);
console.log(`(checksum ${sink % 7})`);
