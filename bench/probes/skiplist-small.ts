/**
 * Probe (not part of `npm run bench`): how a small `SortedSet` is held — the measurement that chose
 * the compact form (two sorted arrays and a Map) up to 128 entries, converting to the skiplist past
 * it and back at 64.
 *
 * 1. Bytes per member at 16 and 128 members (20,000 sets each, member strings allocated beforehand;
 *    heap plus array buffers after GC): the compact form, the skiplist form with B = 128 and with a
 *    smaller node (B = 16), and a sorted array with a Map beside it.
 * 2. Nanoseconds per operation of the compact form and of the skiplist form at 32 … 1024 members:
 *    add (building the set from empty), rank, delete + re-add, a range of 10, score — where the
 *    compact form stops paying for itself is where the bound goes.
 * 3. What the switch costs: the add that converts a set of 128 entries to the skiplist form, and the
 *    delete that converts one of 65 back, against an ordinary add and delete at those sizes.
 *
 * Each figure is the median of five rounds with the contenders taking turns, in CPU time (the
 * machine is shared, CPU time is what the process itself spent).
 *
 *     node --expose-gc --import tsx bench/probes/skiplist-small.ts
 */
import { type SortedSet, sortedSetWithLayout } from "../../src/skiplist/sorted-set.js";
import type { Layout } from "../../src/skiplist/zset.js";
import { distinctStrings, lowerBound, prng } from "../lib.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with node --expose-gc");
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1]!;
const retained = (): number => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
let sink = 0;

const COMPACT: Layout = { nodeSize: 128, levelBits: 2, compactMax: 4096 };
const LIST: Layout = { nodeSize: 128, levelBits: 2, compactMax: 0 };
const LIST_16: Layout = { nodeSize: 16, levelBits: 2, compactMax: 0 };
const DEFAULT: Layout = { nodeSize: 128, levelBits: 2 };

// ---------------------------------------------------------------- 1. bytes per member

console.log("1. Bytes per member (20,000 sets each)\n");
console.log("| members | compact form | skiplist, B = 128 | skiplist, B = 16 | sorted array + Map |");
console.log("| --- | --- | --- | --- | --- |");
for (const n of [16, 128]) {
  const copies = 20_000;
  const members = distinctStrings(n, 21, "s:");
  const rand = prng(0x5a11 + n);
  const scores = Float64Array.from({ length: n }, () => Math.floor(rand() * 1e9));
  const ofLayout = (layout: Layout) => () => {
    const z = sortedSetWithLayout(layout, { seed: 1 });
    for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
    return z;
  };
  const builders: (() => unknown)[] = [
    ofLayout(COMPACT),
    ofLayout(LIST),
    ofLayout(LIST_16),
    () => {
      const s: number[] = [];
      const m: string[] = [];
      const index = new Map<string, number>();
      for (let i = 0; i < n; i++) {
        index.set(members[i]!, scores[i]!);
        const j = lowerBound(s, scores[i]!);
        s.splice(j, 0, scores[i]!);
        m.splice(j, 0, members[i]!);
      }
      return { s, m, index };
    },
  ];
  const cells = builders.map((build) => {
    let keep: unknown[] | null = [];
    const before = retained();
    for (let c = 0; c < copies; c++) keep.push(build());
    const bytes = (retained() - before) / (n * copies);
    sink += keep.length;
    keep = null;
    return bytes.toFixed(1);
  });
  console.log(`| ${n} | ${cells.join(" | ")} |`);
}

// ---------------------------------------------------------------- 2. speed by size

interface Work {
  members: string[];
  scores: Float64Array;
  picks: Int32Array;
  lo: Float64Array;
  hi: Float64Array;
}

function work(n: number): Work {
  const rand = prng(0x600d + n);
  const members = distinctStrings(n, 5, "m:");
  const scores = Float64Array.from({ length: n }, () => Math.floor(rand() * 1e9) + rand());
  const sorted = Float64Array.from(scores).sort();
  const Q = 256;
  const picks = Int32Array.from({ length: Q }, () => Math.floor(rand() * n));
  const lo = new Float64Array(Q);
  const hi = new Float64Array(Q);
  for (let i = 0; i < Q; i++) {
    const r = Math.floor(rand() * Math.max(1, n - 9));
    lo[i] = sorted[r]!;
    hi[i] = sorted[Math.min(n - 1, r + 9)]!;
  }
  return { members, scores, picks, lo, hi };
}

const OPS = ["add", "rank", "delete + re-add", "range of 10", "score"] as const;

/** ns per operation of each kind on a set of `layout`, n members. */
function time(layout: Layout, n: number, w: Work): number[] {
  const { members, scores, picks, lo, hi } = w;
  const builds = Math.max(1, Math.round(2 ** 17 / n));
  let z: SortedSet = sortedSetWithLayout(layout, { seed: 1 });
  let t0 = cpu();
  for (let b = 0; b < builds; b++) {
    z = sortedSetWithLayout(layout, { seed: 1 });
    for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
  }
  const add = ((cpu() - t0) * 1e6) / (builds * n);
  const reps = 200;
  const Q = picks.length;
  const out = [add];
  t0 = cpu();
  for (let r = 0; r < reps; r++) for (let i = 0; i < Q; i++) sink += z.rank(members[picks[i]!]!)!;
  out.push(((cpu() - t0) * 1e6) / (reps * Q));
  t0 = cpu();
  for (let r = 0; r < reps / 4; r++)
    for (let i = 0; i < Q; i++) {
      const j = picks[i]!;
      z.delete(members[j]!);
      z.add(members[j]!, scores[j]!);
    }
  out.push(((cpu() - t0) * 1e6) / ((reps / 4) * Q));
  t0 = cpu();
  for (let r = 0; r < reps / 2; r++) for (let i = 0; i < Q; i++) sink += z.rangeByScore(lo[i]!, hi[i]!).length;
  out.push(((cpu() - t0) * 1e6) / ((reps / 2) * Q));
  t0 = cpu();
  for (let r = 0; r < reps; r++) for (let i = 0; i < Q; i++) sink += z.score(members[picks[i]!]!)!;
  out.push(((cpu() - t0) * 1e6) / (reps * Q));
  z.checkInvariants();
  return out;
}

console.log("\n2. ns per operation, compact form ÷ skiplist form (B = 128); below 1 the compact form is faster\n");
console.log(`| members | ${OPS.map((o) => `${o}: compact / list`).join(" | ")} |`);
console.log(`| --- | ${OPS.map(() => "---").join(" | ")} |`);
for (const n of [32, 64, 128, 256, 512, 1024]) {
  const w = work(n);
  const results = { compact: OPS.map((): number[] => []), list: OPS.map((): number[] => []) };
  for (let round = 0; round < 5; round++) {
    for (const [name, layout] of [
      ["compact", COMPACT],
      ["list", LIST],
    ] as const) {
      const times = time(layout, n, w);
      for (let k = 0; k < times.length; k++) results[name][k]!.push(times[k]!);
    }
  }
  const cells = OPS.map((_, k) => {
    const c = median(results.compact[k]!);
    const l = median(results.list[k]!);
    return `${c.toFixed(0)} / ${l.toFixed(0)} (${(c / l).toFixed(2)})`;
  });
  console.log(`| ${n} | ${cells.join(" | ")} |`);
}

// ---------------------------------------------------------------- 3. the switch

console.log("\n3. The switch (default layout: compact up to 128 entries, back at 64), ns\n");
{
  const members = distinctStrings(200, 9, "c:");
  const rand = prng(0x5e7);
  const scores = Float64Array.from({ length: 200 }, () => rand());
  const up: number[] = [];
  const plainAdd: number[] = [];
  const down: number[] = [];
  const plainDelete: number[] = [];
  const sets = 2000;
  for (let round = 0; round < 5; round++) {
    const zs = Array.from({ length: sets }, () => {
      const z = sortedSetWithLayout(DEFAULT, { seed: 2 });
      for (let i = 0; i < 127; i++) z.add(members[i]!, scores[i]!);
      return z;
    });
    let t0 = cpu();
    for (const z of zs) z.add(members[127]!, scores[127]!); // the 128th: still compact
    plainAdd.push(((cpu() - t0) * 1e6) / sets);
    t0 = cpu();
    for (const z of zs) z.add(members[128]!, scores[128]!); // the 129th: converts
    up.push(((cpu() - t0) * 1e6) / sets);
    for (const z of zs) for (let i = 129; i < 129 + 6; i++) z.delete(members[i - 129]!); // down to 123
    for (const z of zs) for (let i = 6; i < 63; i++) z.delete(members[i]!); // down to 66
    t0 = cpu();
    for (const z of zs) z.delete(members[63]!); // to 65: still the list
    plainDelete.push(((cpu() - t0) * 1e6) / sets);
    t0 = cpu();
    for (const z of zs) z.delete(members[64]!); // to 64: converts back
    down.push(((cpu() - t0) * 1e6) / sets);
    for (const z of zs) z.checkInvariants();
  }
  console.log("| change | ns |");
  console.log("| --- | --- |");
  console.log(`| the 128th add (compact, no conversion) | ${median(plainAdd).toFixed(0)} |`);
  console.log(`| the 129th add (converts 129 entries to the skiplist) | ${median(up).toFixed(0)} |`);
  console.log(`| a delete leaving 65 (the skiplist, no conversion) | ${median(plainDelete).toFixed(0)} |`);
  console.log(`| a delete leaving 64 (converts back to the compact form) | ${median(down).toFixed(0)} |`);
}
console.log(`\n(checksum ${sink % 7})`);
