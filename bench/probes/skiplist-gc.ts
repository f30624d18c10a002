/**
 * Probe (not part of `npm run bench`): what a full garbage collection costs a program whose sorted
 * sets all die between collections. Builds sets of n members (10^3 unless given) by random adds,
 * a full GC before each timed batch, with the module's kept sets (`LAYOUTS_KEPT`, one per form) in
 * place and with them dropped; ns per add, the median of seven batches. With them dropped, every
 * collection finds no object of the set's internal layouts, V8 discards the optimized code built on
 * them (`--trace-deopt` names the reason "weak objects"), and the next batch runs at about half
 * speed.
 *
 *     node --expose-gc --import tsx bench/probes/skiplist-gc.ts [n]
 */
import { LAYOUTS_KEPT, SortedSet } from "../../src/skiplist/sorted-set.js";
import { distinctStrings, prng } from "../lib.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with node --expose-gc");
const n = Number(process.argv[2] ?? 1000);
const members = distinctStrings(n, 21, "m:");
const rand = prng(9);
const scores = Float64Array.from({ length: n }, () => rand());
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1]!;
let sink = 0;

/** ns per add over batches of sets built from empty, a full GC before each batch. */
function measure(): number {
  const reps = Math.ceil(2e5 / n);
  const times: number[] = [];
  for (let round = 0; round < 7; round++) {
    gc!();
    const t0 = cpu();
    for (let k = 0; k < reps; k++) {
      const z = new SortedSet({ seed: 1 });
      for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
      sink += z.size;
    }
    times.push(((cpu() - t0) * 1e6) / (reps * n));
  }
  return median(times);
}

const kept = measure();
LAYOUTS_KEPT.length = 0;
const dropped = measure();
console.log(`| n = ${n} | ns per add |`);
console.log("| --- | --- |");
console.log(`| one set of each form kept alive (the module's default) | ${kept.toFixed(0)} |`);
console.log(`| none kept: every GC finds no set | ${dropped.toFixed(0)} (${(dropped / kept).toFixed(2)}×) |`);
console.log(`(checksum ${sink % 7})`);
