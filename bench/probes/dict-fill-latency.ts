/**
 * Probe (not part of `npm run bench`): every single `set` timed while one structure fills from 0
 * to n entries, alone in a fresh process (the suite fills Map and Dict, with both key types, in
 * one process whose heap holds every phase's keys). Three fills; prints each fill's slowest sets
 * and, per set, the fastest of the three, as the suite's "min of 3" series does.
 *
 *     node --expose-gc --import tsx bench/probes/dict-fill-latency.ts [dict|map] [int|string] [n = 8e6]
 */
import { Dict } from "../../src/dict/index.js";

const impl = process.argv[2] ?? "dict";
const kind = process.argv[3] ?? "int";
const n = Number(process.argv[4] ?? 8e6);
const keys: (number | string)[] = new Array(n);
for (let i = 0; i < n; i++) {
  const x = Math.imul(i, 0x9e3779b1) & 0x7fffffff;
  keys[i] = kind === "int" ? x : `k:${x.toString(36)}`;
}
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const slowest = (d: Float64Array, k: number) =>
  Array.from({ length: d.length }, (_, i) => i)
    .sort((a, b) => d[b]! - d[a]!)
    .slice(0, k)
    .map((i) => `#${i} ${d[i]!.toFixed(2)} ms`)
    .join(", ");
const best = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
for (let trial = 0; trial < 3; trial++) {
  gc();
  let m: { set(k: number | string, v: number): unknown } | null =
    impl === "map" ? new Map<number | string, number>() : new Dict<number | string, number>();
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    m.set(keys[i]!, i);
    const dt = performance.now() - t0;
    d[i] = dt;
    if (dt < best[i]!) best[i] = dt;
  }
  console.log(`fill ${trial + 1}: slowest ${slowest(d, 4)}`);
  m = null;
}
const sorted = best.slice().sort();
console.log(
  `${impl}, ${kind} keys, 0 → ${n}, min of 3 per set: p99.9 ${(sorted[Math.floor(n * 0.999)]! * 1000).toFixed(1)} µs, ` +
    `p99.99 ${(sorted[Math.floor(n * 0.9999)]! * 1000).toFixed(1)} µs; slowest ${slowest(best, 4)}`,
);
