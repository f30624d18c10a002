/**
 * Probe (not part of `npm run bench`): the layout parameters of `SortedSet`'s macro nodes.
 *
 * 1. Entries per node B and level probability p, at n members built by random inserts (10^6 unless
 *    given), timed on the same members and scores in one process, on the skiplist form alone (no
 *    compact form below 128). Each layout is built three times, the layouts taking turns (below
 *    2^20 members, a build makes 2^20 / n sets); each figure is the median of the three, in ns per
 *    operation. Bytes per member are `byteLength` / n: the typed arrays only (the member strings
 *    and the Map are the same for every layout).
 * 2. The overflow policy — what an insert into a full node does — simulated on node counts alone
 *    (the list keeps only the policy that won; the others live here): 10^5 random inserts into
 *    nodes of B = 128, and the fill they leave, for four policies: split the node in half; shift
 *    entries into the next node when it has room, else split; also split two full nodes into three;
 *    also shift into the previous node (the list's). Entry arrays cost 16 bytes per position, so a
 *    fill f costs 16 / f bytes per member.
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
  ["B = 16, p = 1/4", { nodeSize: 16, levelBits: 2, compactMax: 0 }],
  ["B = 32, p = 1/4", { nodeSize: 32, levelBits: 2, compactMax: 0 }],
  ["B = 64, p = 1/4", { nodeSize: 64, levelBits: 2, compactMax: 0 }],
  ["B = 128, p = 1/4 (default)", { nodeSize: 128, levelBits: 2, compactMax: 0 }],
  ["B = 256, p = 1/4", { nodeSize: 256, levelBits: 2, compactMax: 0 }],
  ["B = 512, p = 1/4", { nodeSize: 512, levelBits: 2, compactMax: 0 }],
  ["B = 128, p = 1/2", { nodeSize: 128, levelBits: 1, compactMax: 0 }],
  ["B = 128, p = 1/8", { nodeSize: 128, levelBits: 3, compactMax: 0 }],
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

// ---------------------------------------------------------------- 2. overflow policies

/**
 * Inserts `inserts` entries at uniformly random ranks into nodes of at most b entries, making room
 * in a full node by `policy` (0: split in half; 1: also shift into the next node first; 2: also
 * split two full nodes into three; 3: also shift into the previous node — the list's), with the
 * list's rules for appends and prepends (a new node) and its even-out amounts. Returns the fill.
 */
function simulateFill(b: number, inserts: number, policy: number, rand: () => number): number {
  const counts: number[] = [];
  let total = 0;
  for (let k = 0; k < inserts; k++) {
    let r = Math.floor(rand() * (total + 1));
    let x = 0;
    while (x < counts.length && r > counts[x]!) r -= counts[x++]!;
    if (x === counts.length) {
      if (x === 0) counts.push(0);
      else {
        x--;
        r = counts[x]!;
      }
    }
    if (counts[x]! < b) {
      counts[x]!++;
    } else {
      const j = r;
      const last = x === counts.length - 1;
      const first = x === 0;
      const third = Math.floor(b / 3);
      const minFill = b >> 2;
      const y = counts[x + 1];
      const w = counts[x - 1];
      if (j === b && last) counts.push(1);
      else if (j === 0 && first) counts.unshift(1);
      else if (policy >= 1 && y !== undefined && y < b - 1) {
        const move = (b - y + 1) >> 1;
        counts[x] = b - move;
        counts[x + 1] = y + move;
        if (j > b - move) counts[x + 1]!++;
        else counts[x]!++;
      } else if (policy === 3 && w !== undefined && w < b - 1) {
        const move = (b - w + 1) >> 1;
        counts[x - 1] = w + move;
        counts[x] = b - move;
        if (j < move) counts[x - 1]!++;
        else counts[x]!++;
      } else if (policy >= 2 && y !== undefined && y - third >= minFill) {
        counts.splice(x + 1, 0, 2 * third);
        counts[x] = b - third;
        counts[x + 2] = y - third;
        if (j > b - third) counts[x + 1]!++;
        else counts[x]!++;
      } else {
        const half = (b + 2) >> 1;
        const h = j < half ? half - 1 : half;
        counts.splice(x + 1, 0, b - h);
        counts[x] = h;
        if (j >= half) counts[x + 1]!++;
        else counts[x]!++;
      }
    }
    total++;
  }
  return total / (counts.length * b);
}

console.log("\n| overflow policy, B = 128, 10^5 random inserts | fill | entry-array bytes per member |");
console.log("| --- | --- | --- |");
for (const [name, policy] of [
  ["split in half", 0],
  ["shift into the next node, else split", 1],
  ["also split two full nodes into three", 2],
  ["also shift into the previous node (the list's)", 3],
] as const) {
  const fill = simulateFill(128, 100_000, policy, prng(0xf111));
  console.log(`| ${name} | ${fill.toFixed(2)} | ${(16 / fill).toFixed(1)} |`);
}
