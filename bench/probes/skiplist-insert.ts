/**
 * Probe (not part of `npm run bench`): where the time of a random insert goes at 10^6 members —
 * `SortedSet.add`, the member `Map` work alone (the `get` that ZADD's flags need, then the `set`),
 * sorted-btree alone, and sorted-btree with the same `Map` work (the bench's like-for-like peer).
 * Each row builds the whole structure from empty; five rounds with the rows taking turns, medians
 * in ns per insert.
 *
 *     node --expose-gc --import tsx bench/probes/skiplist-insert.ts
 */
import { createRequire } from "node:module";
import { SortedSet } from "../../src/skiplist/index.js";
import { distinctStrings, prng } from "../lib.js";

interface BTreeMap {
  set(key: number, value: string): boolean;
}
const BTree = createRequire(import.meta.url)("sorted-btree").default as new (
  entries?: undefined,
  compare?: (a: number, b: number) => number,
) => BTreeMap;

const n = 1e6;
const random = prng(11);
const members = distinctStrings(n, 11, "member:");
const scores = Float64Array.from({ length: n }, () => random());
const num = (a: number, b: number) => a - b;

const rows: Record<string, () => unknown> = {
  "SortedSet.add": () => {
    const z = new SortedSet({ seed: 1 });
    for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
    return z;
  },
  "Map get + set alone": () => {
    const index = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      if (index.get(members[i]!) === undefined) index.set(members[i]!, scores[i]!);
    }
    return index;
  },
  "sorted-btree alone": () => {
    const t = new BTree(undefined, num);
    for (let i = 0; i < n; i++) t.set(scores[i]!, members[i]!);
    return t;
  },
  "sorted-btree + Map get + set": () => {
    const t = new BTree(undefined, num);
    const index = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      if (index.get(members[i]!) === undefined) index.set(members[i]!, scores[i]!);
      t.set(scores[i]!, members[i]!);
    }
    return [t, index];
  },
};

const times: Record<string, number[]> = {};
let keep: unknown;
for (let round = 0; round < 5; round++) {
  for (const [name, build] of Object.entries(rows)) {
    keep = undefined;
    (globalThis as { gc?: () => void }).gc?.();
    const t0 = performance.now();
    keep = build();
    (times[name] ??= []).push(((performance.now() - t0) * 1e6) / n);
  }
}
const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1]!;
for (const [name, t] of Object.entries(times)) console.log(`${name.padEnd(30)} ${median(t).toFixed(0)} ns per insert`);
console.log(keep === undefined ? "" : "(done)");
