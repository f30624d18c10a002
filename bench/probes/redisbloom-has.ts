/**
 * Probe (not part of `npm run bench`): where RedisBloomFilter.has spends its time at 10^6 keys of
 * ~40 characters, 50 % members, against bloomfilter 1.1.0's `test` — in one process, medians of
 * alternating rounds over the same interleaved queries as bench/bloom.bench.ts. Contenders:
 * - `filter.has`: RedisBloomFilter.has as shipped;
 * - `hash + probe`, `hash + contains`: its path on the first link, through the general probe or
 *   the has-only contains;
 * - `hash only`: the two MurmurHash64A passes (WebAssembly) and nothing else;
 * - `positions only`: hash and all k positions, no bit test;
 * - `wasm positions`: hash, then all k positions in WebAssembly, then the bit tests;
 * - `branch-free`: the same, testing all k bits without a branch;
 * - `encodeInto`: the key copied with TextEncoder.encodeInto instead of the charCode loop;
 * - `lazy (wasm rem)`: hash, h1 mod M and h2 mod M in WebAssembly, then incremental positions in JS,
 *   stopping at the first clear bit;
 * - `lazy (js reduce)`: the same with both remainders taken in JS (float-exact Horner steps);
 * - `bf locations`: bloomfilter's hash and positions only; `bloomfilter.test`: the baseline.
 * Every variant's answers are checked against `filter.has` first. Quoted in docs/bloom.md.
 *
 *     node --expose-gc --import tsx bench/probes/redisbloom-has.ts [keys = 10^6] [rounds = 9] [cons|flat]
 */
// @ts-expect-error bloomfilter ships no type declarations
import { BloomFilter as Jd } from "bloomfilter";
import { RedisBloomFilter } from "../../src/bloom/index.js";
import {
  contains,
  FORCE64,
  hashItem,
  type Link,
  linkShape,
  NOROUND,
  newLink,
  probe,
  reduce64,
} from "../../src/bloom/redisbloom-link.js";
import { wasmMurmur } from "../../src/hash/murmur64a-wasm.js";
import { distinctStrings } from "../lib.js";

const n = Number(process.argv[2] ?? 1e6);
const rounds = Number(process.argv[3] ?? 9);
const wasm = wasmMurmur!;
const SEED_HI = 0xc6a4a793;
const SEED_LO = 0x5bd1e995;
const TWO32 = 2 ** 32;

const pool = distinctStrings(n, 21, "https://cdn.example.com/user/");
const absent = distinctStrings(n, 22, "https://cdn.example.com/user/").map((k) => `${k}!`);
const queries: string[] = [];
for (let i = 0; i < n; i++) queries.push(pool[i]!, absent[i]!);
// "flat": sequential strings (JSON round trip) instead of the concatenations (V8 cons strings) the
// bench's keys are, whose every charCodeAt goes through the cons indirection.
if (process.argv[4] === "flat")
  for (let i = 0; i < queries.length; i++) queries[i] = JSON.parse(JSON.stringify(queries[i]));

const filter = new RedisBloomFilter({ capacity: n, errorRate: 0.01 });
for (const k of pool) filter.add(k);
// The same first link, built beside the filter so the variants can reach its bytes.
const shape = linkShape(n, 0.005, FORCE64 | NOROUND);
if (typeof shape === "string") throw new Error(shape);
const link: Link = newLink(shape, 0.005);
for (const k of pool) {
  hashItem(k, true);
  probe(link, true);
}
const jd = (
  Jd as { withTargetError(n: number, p: number): { add(k: string): void; test(k: string): boolean } }
).withTargetError(n, 0.01);
for (const k of pool) jd.add(k);
console.log(`k = ${link.hashes}, ${link.data.length} bytes; bloomfilter ${(jd as unknown as { k: number }).k} hashes`);

const AB = new Uint32Array(4);
const R = new Float64Array(2);

function hashOnly(q: string[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    wasm.chainInto(q[i]!, SEED_HI, SEED_LO, AB);
    s += AB[0]! & 1;
  }
  return s;
}

function positionsFirst(q: string[]): number {
  const data = link.data;
  const m = link.mod;
  const k = link.hashes;
  const w = link.wrap;
  let s = 0;
  outer: for (let i = 0; i < q.length; i++) {
    wasm.chainInto(q[i]!, SEED_HI, SEED_LO, AB);
    const at = wasm.positions(k, m, w);
    for (let j = 0; j < k; j++) {
      const r = at[j]!;
      if ((data[(r * 0.125) >>> 0]! & (1 << (r & 7))) === 0) continue outer;
    }
    s++;
  }
  return s;
}

/** Incremental positions from r and step, tracking a + i·b's 64-bit wrap; first clear bit stops. */
function walk(data: Uint8Array, m: number, k: number, w: number, r: number, step: number): boolean {
  let xLo = AB[0]!;
  let xHi = AB[1]!;
  const bLo = AB[2]!;
  const bHi = AB[3]!;
  for (let i = 0; ; ) {
    if ((data[(r * 0.125) >>> 0]! & (1 << (r & 7))) === 0) return false;
    if (++i === k) return true;
    xLo += bLo;
    let carry = 0;
    if (xLo >= TWO32) {
      xLo -= TWO32;
      carry = 1;
    }
    xHi += bHi + carry;
    r += step;
    if (r >= m) r -= m;
    if (xHi >= TWO32) {
      xHi -= TWO32;
      r -= w;
      if (r < 0) r += m;
    }
  }
}

function positionsBranchFree(q: string[]): number {
  const data = link.data;
  const m = link.mod;
  const k = link.hashes;
  const w = link.wrap;
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    wasm.chainInto(q[i]!, SEED_HI, SEED_LO, AB);
    const at = wasm.positions(k, m, w);
    let missing = 0;
    for (let j = 0; j < k; j++) {
      const r = at[j]!;
      const mask = 1 << (r & 7);
      missing |= (data[(r * 0.125) >>> 0]! & mask) ^ mask;
    }
    if (missing === 0) s++;
  }
  return s;
}

const encoder = new TextEncoder();
const scratch = new Uint8Array(1024);
/** As `wasm positions`, the item's bytes by TextEncoder.encodeInto (then copied in: pessimistic). */
function viaEncodeInto(q: string[]): number {
  const data = link.data;
  const m = link.mod;
  const k = link.hashes;
  const w = link.wrap;
  let s = 0;
  outer: for (let i = 0; i < q.length; i++) {
    const len = encoder.encodeInto(q[i]!, scratch).written;
    wasm.chainInto(scratch.subarray(0, len), SEED_HI, SEED_LO, AB);
    const at = wasm.positions(k, m, w);
    for (let j = 0; j < k; j++) {
      const r = at[j]!;
      if ((data[(r * 0.125) >>> 0]! & (1 << (r & 7))) === 0) continue outer;
    }
    s++;
  }
  return s;
}

function positionsOnly(q: string[]): number {
  const m = link.mod;
  const k = link.hashes;
  const w = link.wrap;
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    wasm.chainInto(q[i]!, SEED_HI, SEED_LO, AB);
    s += wasm.positions(k, m, w)[k - 1]! & 1;
  }
  return s;
}

function jdLocations(q: string[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++)
    s += (jd as unknown as { locations(k: string): Uint32Array }).locations(q[i]!)[0]! & 1;
  return s;
}

function lazyWasmRem(q: string[]): number {
  const data = link.data;
  const m = link.mod;
  const k = link.hashes;
  const w = link.wrap;
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    wasm.chainInto(q[i]!, SEED_HI, SEED_LO, AB);
    wasm.remaindersInto(m, R);
    if (walk(data, m, k, w, R[0]!, R[1]!)) s++;
  }
  return s;
}

function lazyJsReduce(q: string[]): number {
  const data = link.data;
  const m = link.mod;
  const k = link.hashes;
  const w = link.wrap;
  const inv = link.inv;
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    wasm.chainInto(q[i]!, SEED_HI, SEED_LO, AB);
    if (walk(data, m, k, w, reduce64(AB[1]!, AB[0]!, m, inv), reduce64(AB[3]!, AB[2]!, m, inv))) s++;
  }
  return s;
}

function shipped(q: string[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) if (filter.has(q[i]!)) s++;
  return s;
}

/** RedisBloomFilter.has's path on the link: hash, then the general probe. */
function viaProbe(q: string[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    hashItem(q[i]!, true);
    if (probe(link, false)) s++;
  }
  return s;
}

/** The same with the has-only `contains`. */
function viaContains(q: string[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    hashItem(q[i]!, true);
    if (contains(link)) s++;
  }
  return s;
}

function baseline(q: string[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) if (jd.test(q[i]!)) s++;
  return s;
}

// Same answers, query by query, before any timing.
for (let i = 0; i < queries.length; i += 97) {
  const one = [queries[i]!];
  const want = shipped(one);
  for (const f of [
    viaProbe,
    viaContains,
    viaEncodeInto,
    positionsFirst,
    positionsBranchFree,
    lazyWasmRem,
    lazyJsReduce,
  ]) {
    if (f(one) !== want) throw new Error(`${f.name} disagrees on ${one[0]}`);
  }
}

const contenders: [string, (q: string[]) => number][] = [
  ["filter.has", shipped],
  ["hash + probe", viaProbe],
  ["hash + contains", viaContains],
  ["hash only", hashOnly],
  ["positions only", positionsOnly],
  ["wasm positions", positionsFirst],
  ["branch-free", positionsBranchFree],
  ["encodeInto", viaEncodeInto],
  ["lazy (wasm rem)", lazyWasmRem],
  ["lazy (js reduce)", lazyJsReduce],
  ["bf locations", jdLocations],
  ["bloomfilter.test", baseline],
];
const times = contenders.map(() => [] as number[]);
const counts = contenders.map(() => 0);
for (let round = 0; round < rounds; round++) {
  // Rotate the order each round, so no contender always runs right after the same one.
  for (let c = 0; c < contenders.length; c++) {
    const at = (c + round) % contenders.length;
    const t0 = performance.now();
    counts[at] = contenders[at]![1](queries);
    times[at]!.push(performance.now() - t0);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const base = median(times[contenders.length - 1]!);
for (let c = 0; c < contenders.length; c++) {
  const t = median(times[c]!);
  const ns = (t * 1e6) / queries.length;
  console.log(
    `${contenders[c]![0].padEnd(18)} ${ns.toFixed(1).padStart(6)} ns/query  ${(base / t).toFixed(2)}× bloomfilter  (${counts[c]} true)`,
  );
}
