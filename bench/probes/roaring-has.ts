/**
 * Probe (not part of `npm run bench`): how far RoaringBitmap.has is from the cheapest lookup JS can
 * make in the same bitmap, against roaring-wasm 1.1.0's `has`, on bench/roaring.bench.ts's two sets
 * (10^6 draws from [0, 2^32) and from [0, 2·10^6)) and its probes (half members) — in one process,
 * medians of alternating rounds, each contender through its own compiled loop. Contenders:
 * - `RoaringBitmap.has`: as shipped (argument check, container search, container test);
 * - `floor: key index + bit test` (dense set only, where every container is a bitmap and keys are
 *   0..30): the container row read straight from the key and one bit tested — no argument check, no
 *   search, no kind test; what any JS lookup in these containers costs at least;
 * - `roaring-wasm has`: the baseline.
 * Every contender's answers are checked against the Set of members first. Quoted in docs/roaring.md.
 *
 *     node --import tsx bench/probes/roaring-has.ts [rounds = 9]
 */
import { RoaringBitmap32, roaringLibraryInitialize } from "roaring-wasm";
import { containersOf, RoaringBitmap } from "../../src/bitmap/roaring.js";
import { ownLoop, prng } from "../lib.js";

const rounds = Number(process.argv[2] ?? 9);
const N = 1_000_000;
const BATCH = 1000;
const REPEAT = 200;
await roaringLibraryInitialize();

interface Contender {
  name: string;
  target: { has(x: number): boolean };
}

for (const [name, draw] of [
  ["sparse", (u: () => number) => Math.floor(u() * 2 ** 32)],
  ["dense", (u: () => number) => Math.floor(u() * 2_000_000)],
] as const) {
  const u = prng(name === "sparse" ? 0xb17 : 0xb18);
  const members = Array.from({ length: N }, () => draw(u));
  const probes: number[] = [];
  for (let i = 0; i < BATCH; i++) probes.push(i % 2 === 0 ? members[(i * 7919) % N]! : draw(u));
  const ours = RoaringBitmap.from(members);
  const wasm = RoaringBitmap32.from(Uint32Array.from(members));
  const contenders: Contender[] = [
    { name: "RoaringBitmap.has", target: ours },
    { name: "roaring-wasm has", target: wasm },
  ];
  if (name === "dense") {
    const c = containersOf(ours);
    const { keys, offs, words } = c;
    if (c.n !== 31 || keys[30] !== 30 || c.kind(0) !== 1) throw new Error("dense: expected 31 bitmap containers");
    contenders.push({
      name: "floor: key index + bit test",
      target: {
        has(x: number): boolean {
          const key = x >>> 16;
          if (key > 30) return false;
          return (words[(offs[key]! >>> 1) + ((x & 0xffff) >>> 5)]! & (1 << (x & 31))) !== 0;
        },
      },
    });
  }
  const set = new Set(members);
  for (const c of contenders)
    for (const x of probes) if (c.target.has(x) !== set.has(x)) throw new Error(`${c.name} disagrees on ${x}`);
  const loops = contenders.map(() => ownLoop<Contender["target"], number>("if (t.has(k[i])) s++;"));
  const times: number[][] = contenders.map(() => []);
  for (let r = 0; r < rounds; r++) {
    contenders.forEach((c, k) => {
      const start = performance.now();
      for (let rep = 0; rep < REPEAT; rep++) loops[k]!(c.target, probes, 0, BATCH);
      times[k]!.push(((performance.now() - start) * 1e6) / (REPEAT * BATCH));
    });
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  const base = median(times[1]!);
  console.log(`${name}: ${ours.size} members, ns per has (median of ${rounds} rounds), and speed vs roaring-wasm`);
  contenders.forEach((c, k) => {
    const t = median(times[k]!);
    console.log(`  ${c.name.padEnd(30)} ${t.toFixed(1).padStart(6)} ns   ${(base / t).toFixed(2)}×`);
  });
  wasm.dispose();
}
