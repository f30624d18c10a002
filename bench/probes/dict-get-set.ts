/**
 * Probe (not part of `npm run bench`): Dict vs Map get / set (overwrite) with integer or string
 * keys, in one process, medians of 9 alternating rounds of 2^20 random present keys each. Lighter than the
 * suite's tinybench tasks (no harness between the two contenders), used to check the suite's
 * noisier 10^6+ cells.
 *
 *     node --import tsx bench/probes/dict-get-set.ts [entries = 10^6] [int|string]
 */
import { Dict } from "../../src/dict/index.js";

type Key = number | string;
const n = Number(process.argv[2] ?? 1e6);
const kind = process.argv[3] ?? "int";
const keys: Key[] = [];
for (let i = 0; i < n; i++) {
  const x = Math.imul(i, 0x9e3779b1) & 0x7fffffff;
  keys.push(kind === "int" ? x : `key:${x.toString(36)}`);
}
const map = new Map<Key, number>();
const dict = new Dict<Key, number>();
for (const k of keys) {
  map.set(k, 1);
  dict.set(k, 1);
}
while (dict.rehashFor(1000));
let state = 12345;
const picks = new Array<Key>(1 << 20);
for (let i = 0; i < picks.length; i++) {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  picks[i] = keys[state % n]!;
}
// One function per contender and operation, so each call site stays monomorphic.
function getMap(m: Map<Key, number>, p: Key[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) s += m.get(p[i]!)!;
  return s;
}
function getDict(m: Dict<Key, number>, p: Key[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) s += m.get(p[i]!)!;
  return s;
}
function setMap(m: Map<Key, number>, p: Key[]): number {
  for (let i = 0; i < p.length; i++) m.set(p[i]!, 2);
  return m.size;
}
function setDict(m: Dict<Key, number>, p: Key[]): number {
  for (let i = 0; i < p.length; i++) m.set(p[i]!, 2);
  return m.size;
}
const times: Record<string, number[]> = { getMap: [], getDict: [], setMap: [], setDict: [] };
let sink = 0;
const time = (name: string, f: () => number) => {
  const t0 = performance.now();
  sink += f();
  times[name]!.push(performance.now() - t0);
};
for (let r = 0; r < 9; r++) {
  time("getMap", () => getMap(map, picks));
  time("getDict", () => getDict(dict, picks));
  time("setMap", () => setMap(map, picks));
  time("setDict", () => setDict(dict, picks));
}
const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1]!;
const ns = (name: string) => (median(times[name]!) * 1e6) / picks.length;
console.log(
  `${n} ${kind} keys: get Map ${ns("getMap").toFixed(0)} ns, Dict ${ns("getDict").toFixed(0)} ns → ` +
    `${(ns("getMap") / ns("getDict")).toFixed(2)}×; set Map ${ns("setMap").toFixed(0)} ns, ` +
    `Dict ${ns("setDict").toFixed(0)} ns → ${(ns("setMap") / ns("setDict")).toFixed(2)}× (checksum ${sink % 7})`,
);
