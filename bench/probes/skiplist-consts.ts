/**
 * Probe (not part of `npm run bench`): what an exported or imported constant costs in a hot loop.
 * Two copies of the same score-bound descent run over the towers of one 10^5-member list
 * (src/skiplist/list.ts built by random inserts): one reads the layout constants as this module's
 * own unexported `const`s, the other as exported bindings (an exported binding, like an imported
 * one, lives in a module cell). ns per descent, the fastest of eleven rounds, the copies taking
 * turns. The store's `LAYOUT` object, taken apart into each module's own constants, follows from it.
 *
 *     node --import tsx bench/probes/skiplist-consts.ts
 */
import { Mulberry32 } from "../../src/internal/random.js";
import { OrderedList } from "../../src/skiplist/list.js";
import { distinctStrings, prng } from "../lib.js";

const LINKS = 6;
const NIL = 0;
export const LINKS_CELL = 6;
export const NIL_CELL = 0;

const n = 100_000;
const members = distinctStrings(n, 7);
const rand = prng(5);
const scores = Float64Array.from({ length: n }, () => Math.floor(rand() * 1e9) + rand());
const list = new OrderedList({ nodeSize: 128, levelBits: 2 }, 16, new Mulberry32(1));
for (let i = 0; i < n; i++) list.insert(scores[i]!, members[i]!);
const { t, tf } = list.store;
let levels = 0;
for (let i = 0; i < 32; i++) if (t[LINKS + 2 * i] !== NIL) levels = i + 1;

/** Entries in the nodes before the one holding the first score > s, constants local. */
function local(s: number): number {
  let x = NIL;
  let rank = 0;
  let stop = NIL;
  for (let i = levels - 1; i >= 0; i--) {
    let link = x + LINKS + 2 * i;
    for (let y = t[link]!; y !== NIL && y !== stop; y = t[link]!) {
      if (tf[y >> 1]! > s) {
        stop = y;
        break;
      }
      rank += t[link + 1]!;
      x = y;
      link = x + LINKS + 2 * i;
    }
  }
  return rank;
}

/** The same descent, constants read through module cells. */
function cells(s: number): number {
  let x = NIL_CELL;
  let rank = 0;
  let stop = NIL_CELL;
  for (let i = levels - 1; i >= 0; i--) {
    let link = x + LINKS_CELL + 2 * i;
    for (let y = t[link]!; y !== NIL_CELL && y !== stop; y = t[link]!) {
      if (tf[y >> 1]! > s) {
        stop = y;
        break;
      }
      rank += t[link + 1]!;
      x = y;
      link = x + LINKS_CELL + 2 * i;
    }
  }
  return rank;
}

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const queries = scores.subarray(0, 1000);
let sink = 0;
const best = { local: Number.POSITIVE_INFINITY, cells: Number.POSITIVE_INFINITY };
for (let round = 0; round < 11; round++) {
  for (const [name, f] of [
    ["local", local],
    ["cells", cells],
  ] as const) {
    const t0 = cpu();
    for (let rep = 0; rep < 300; rep++) for (let i = 0; i < queries.length; i++) sink += f(queries[i]!);
    best[name] = Math.min(best[name], ((cpu() - t0) * 1e6) / (300 * queries.length));
  }
}
if (local(queries[0]!) !== cells(queries[0]!)) throw new Error("the two descents disagree");
console.log("| constants | ns per descent |");
console.log("| --- | --- |");
console.log(`| the module's own \`const\` | ${best.local.toFixed(0)} |`);
console.log(`| exported (a module cell) | ${best.cells.toFixed(0)} (${(best.cells / best.local).toFixed(2)}×) |`);
console.log(`(checksum ${sink % 7})`);
