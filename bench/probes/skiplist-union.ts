/**
 * Probe (not part of `npm run bench`): where the time of `SortedSet.union` of two 10^5-member sets
 * goes — accumulating (Map of members), sorting the run, bulk-loading — against what a user would
 * write (a Map merge and an array sort) and js-sdsl (a Map merge, then an OrderedMap keyed by
 * (score, member)). One process, medians of 7 rounds.
 *
 *     node --expose-gc --import tsx bench/probes/skiplist-union.ts
 */
import { OrderedMap } from "@js-sdsl/ordered-map";
import { compareMembers, SortedSet } from "../../src/skiplist/index.js";
import { distinctStrings, prng } from "../lib.js";

const n = 1e5;
const random = prng(17);
const pool = distinctStrings(n * 1.5, 17, "member:");
const aEntries: [string, number][] = pool.slice(0, n).map((m) => [m, Math.floor(random() * 1e6)]);
const bEntries: [string, number][] = pool.slice(n / 2).map((m) => [m, Math.floor(random() * 1e6)]);
const a = SortedSet.from(aEntries, { seed: 1 });
const b = SortedSet.from(bEntries, { seed: 2 });
const mapA = new Map(aEntries);
const mapB = new Map(bEntries);
const byScoreThenMember = (x: [string, number], y: [string, number]) =>
  x[1] - y[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0);

const tasks: Record<string, () => number> = {
  "SortedSet.union([a, b])": () => SortedSet.union([a, b]).size,
  "two Maps and a sort": () => {
    const acc = new Map(mapA);
    for (const [m, s] of mapB) acc.set(m, (acc.get(m) ?? 0) + s);
    return [...acc].sort(byScoreThenMember).length;
  },
  "js-sdsl: Map merge + OrderedMap by (score, member)": () => {
    const acc = new Map(mapA);
    for (const [m, s] of mapB) acc.set(m, (acc.get(m) ?? 0) + s);
    const t = new OrderedMap<[number, string], undefined>([], (x, y) => x[0] - y[0] || compareMembers(x[1], y[1]));
    for (const [m, s] of acc) t.setElement([s, m], undefined);
    return t.size();
  },
  "part: Map accumulate only": () => {
    const acc = new Map<string, number>();
    for (const [m, s] of a) acc.set(m, s);
    for (const [m, s] of b) acc.set(m, (acc.get(m) ?? 0) + s);
    return acc.size;
  },
  "part: sort 1.5·10^5 indices by (score, member)": () => {
    const scores = Array.from({ length: pool.length }, () => Math.floor(random() * 2e6));
    const order = new Int32Array(pool.length);
    for (let k = 0; k < order.length; k++) order[k] = k;
    order.sort((i, j) => scores[i]! - scores[j]! || compareMembers(pool[i]!, pool[j]!));
    return order[0]!;
  },
};

const rounds: Record<string, number[]> = {};
for (let r = 0; r < 7; r++) {
  for (const [name, fn] of Object.entries(tasks)) {
    (globalThis as { gc?: () => void }).gc?.();
    const t0 = performance.now();
    fn();
    (rounds[name] ??= []).push(performance.now() - t0);
  }
}
const median = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1]!;
const base = median(rounds["two Maps and a sort"]!);
for (const [name, t] of Object.entries(rounds)) {
  console.log(
    `${name.padEnd(52)} ${median(t).toFixed(1).padStart(7)} ms   ×${(base / median(t)).toFixed(2)} vs two Maps and a sort`,
  );
}
