/**
 * Probe (not part of `npm run bench`): the cost of ranking at 10^6 entries, in one process,
 * medians of 7 rounds of 2^18 random members — `SortedSet.rank(member)` (member index, then a walk
 * up the search path), its parts, ranking by score, and js-sdsl's `find(score).index` with and
 * without the member → score lookup it needs to rank a *member*.
 *
 *     node --import tsx bench/probes/skiplist-rank.ts
 */
import { OrderedMap } from "@js-sdsl/ordered-map";
import { SortedSet } from "../../src/skiplist/index.js";
import { distinctStrings, prng } from "../lib.js";

const n = 1e6;
const random = prng(99);
const members = distinctStrings(n, 99, "member:");
const scores = Array.from({ length: n }, () => random());
const set = new SortedSet({ seed: 1 });
const sdsl = new OrderedMap<number, string>([], (a, b) => a - b, true);
const scoreOf = new Map<string, number>();
for (let i = 0; i < n; i++) {
  set.add(members[i]!, scores[i]!);
  sdsl.setElement(scores[i]!, members[i]!);
  scoreOf.set(members[i]!, scores[i]!);
}
const Q = 1 << 18;
const qMembers: string[] = [];
const qScores: number[] = [];
for (let i = 0; i < Q; i++) {
  const j = (random() * n) | 0;
  qMembers.push(members[j]!);
  qScores.push(scores[j]!);
}
const tasks: Record<string, () => number> = {
  "Map.get(member) alone": () => {
    let s = 0;
    for (let i = 0; i < Q; i++) s += scoreOf.get(qMembers[i]!)!;
    return s;
  },
  "SortedSet score(member)": () => {
    let s = 0;
    for (let i = 0; i < Q; i++) s += set.score(qMembers[i]!)!;
    return s;
  },
  "SortedSet rank(member)": () => {
    let s = 0;
    for (let i = 0; i < Q; i++) s += set.rank(qMembers[i]!)!;
    return s;
  },
  "SortedSet countByScore(-inf, s) [by score]": () => {
    let s = 0;
    for (let i = 0; i < Q; i++) s += set.countByScore(Number.NEGATIVE_INFINITY, qScores[i]!, { maxExclusive: true });
    return s;
  },
  "js-sdsl find(score).index": () => {
    let s = 0;
    for (let i = 0; i < Q; i++) s += sdsl.find(qScores[i]!).index;
    return s;
  },
  "js-sdsl find(Map.get(member)).index": () => {
    let s = 0;
    for (let i = 0; i < Q; i++) s += sdsl.find(scoreOf.get(qMembers[i]!)!).index;
    return s;
  },
};
const times: Record<string, number[]> = {};
let sink = 0;
for (let round = 0; round < 7; round++) {
  for (const [name, task] of Object.entries(tasks)) {
    const t0 = performance.now();
    sink += task();
    (times[name] ??= []).push(performance.now() - t0);
  }
}
const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1]!;
for (const [name, t] of Object.entries(times))
  console.log(`${name.padEnd(44)} ${((median(t) * 1e6) / Q).toFixed(0)} ns`);
console.log(`(checksum ${Math.floor(sink) % 7})`);
