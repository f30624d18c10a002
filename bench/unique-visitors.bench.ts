/**
 * Unique visitors among numeric user IDs in [0, 10^8): the question the project's seed documents
 * ask — a bitmap, or HyperLogLog? — answered with measurements. For n = 10^3 … 10^7 distinct IDs
 * drawn uniformly from [0, 10^8) (mulberry32 from src/internal/random.ts, seeded; a draw that repeats
 * an ID is drawn again), each structure receives the n IDs as a user adds them, in drawing order:
 *
 * - `Bitmap`: `setBit(id, 1)` — Redis's `SETBIT visitors <id> 1`;
 * - `RoaringBitmap`: `add(id)`, then `runOptimize()` as before storing it (both sizes reported);
 * - `HyperLogLog` at p = 14 (Redis's), `UltraLogLog` at p = 12 and 14, `ExaLogLog` with its defaults
 *   (p = 12, t = 2, d = 24): `add(id)`, which hashes the ID as Redis's `PFADD` does (its decimal string).
 *
 * Reported per n and structure:
 * - memory: `byteLength`, and the ArrayBuffer bytes the structure keeps alive, measured as the change
 *   of `process.memoryUsage().arrayBuffers` across building it, after forced GCs (needs
 *   --expose-gc, which `npm run bench` passes) — a Bitmap's buffer includes its growth slack;
 * - serialized bytes: `toRedis()` for Bitmap and HyperLogLog (the string `SET` stores), `toPortable()`
 *   for RoaringBitmap, `toBytes()` for UltraLogLog and ExaLogLog; and the bytes `SET` stores to reach
 *   Redis's own commands: RoaringBitmap via `toBitmap().toRedis()` (then BITCOUNT), UltraLogLog and
 *   ExaLogLog via `toHyperLogLog().toRedis()` (then PFCOUNT; only at precision 14, the one Redis has);
 * - the count's relative error, `count()` (`size` for RoaringBitmap) against n: checked to be 0 for
 *   the exact structures; for the sketches the mean (bias) and RMSE over independent ID sets (seeds),
 *   with each sketch's default estimator (HyperLogLog: Ertl's, PFCOUNT's; UltraLogLog: FGRA;
 *   ExaLogLog: maximum likelihood) and its published asymptotic RMSE beside it. Seed 0's sketches are
 *   the ones built by `add(id)`; the other seeds hash each ID once (`murmur64aInto`, the hash `add`
 *   uses) and feed every sketch the same hash with `addHash` — the same registers as `add(id)`, which
 *   the suite checks at n ≤ 10^5 (`equals`), at a fraction of the cost;
 * - time: adding all n IDs (ns per ID; the median of 3 to 30 fresh builds, each after a forced GC,
 *   up to 10^6; one build at 10^7), and the first `count()` of a structure that has not counted yet — a copy read back with
 *   `fromRedis` / `fromPortable` / `fromBytes`, median of several copies: a popcount of the whole
 *   string for Bitmap (one built by `setBit` keeps its count: O(1)), O(1) for RoaringBitmap, the
 *   estimator over the registers for the sketches. Each is also given as the speed relative to
 *   HyperLogLog's (its time divided by the structure's, at the same n, in the same run; higher is
 *   faster), HyperLogLog being what Redis users count unique visitors with.
 *
 * The merge question: a week's unique visitors as the union of 7 daily sets, each of n distinct IDs
 * drawn independently (so days overlap as random visitors do): `Bitmap.op("or")`,
 * `RoaringBitmap.union`, `HyperLogLog.union` (PFMERGE), `UltraLogLog.union`, `ExaLogLog.union`, each
 * building a new structure from the 7; the result's bytes and count error, and the time of one union
 * measured with tinybench (`compare`, speed relative to HyperLogLog.union).
 *
 * Quick mode (the default, about two minutes on a shared 2-core machine): seeds per n 200, 100, 30,
 * 10, 3 for n = 10^3 … 10^7, unions of 7 × 10^4 and 7 × 10^6. `--full`: 1000, 300, 100, 30, 10 seeds,
 * unions at every daily n from 10^3 to 10^7. An RMSE over T seeds is uncertain by about ±1.96/√(2T)
 * of itself (95 %): ±80 % at 3 seeds, so the 10^7 row's RMSE is only indicative in quick mode.
 */
import { Bitmap, RoaringBitmap } from "../src/bitmap/index.js";
import { murmur64aInto } from "../src/hash/index.js";
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../src/hll/index.js";
import { mulberry32 } from "../src/internal/random.js";
import {
  type BenchContext,
  type Chart,
  compare,
  type Headline,
  heapUsed,
  lineChart,
  markdownTable,
  ownLoop,
  type Suite,
} from "./lib.js";

const UNIVERSE = 100_000_000;
/** The largest multiple of UNIVERSE below 2^32: draws at or above it are redrawn, so IDs are uniform. */
const DRAW_LIMIT = Math.floor(2 ** 32 / UNIVERSE) * UNIVERSE;
const SIZES = [1e3, 1e4, 1e5, 1e6, 1e7];
const SEEDS_QUICK = [200, 100, 30, 10, 3];
const SEEDS_FULL = [1000, 300, 100, 30, 10];
const DAYS = 7;
const UNION_SIZES_QUICK = [1e4, 1e6];
const BASELINE = "HyperLogLog p14";
/** Fresh builds timed (their median is reported): 3·10^6 IDs' worth, at least 3 and at most 30; one at 10^7. */
const timedBuilds = (n: number) => (n >= 1e7 ? 1 : Math.min(30, Math.max(3, Math.round(3e6 / n))));
/** Copies whose first count is timed. */
const COUNT_COPIES = 9;
/** Redis's HyperLogLog seed: `add` hashes with MurmurHash64A under it. */
const HLL_SEED = 0xadc83b19;

/** Keeps a structure reachable while its memory is read. */
const keep: { value: unknown } = { value: undefined };

/** ArrayBuffer bytes alive after forced GCs; NaN without --expose-gc. */
function arrayBytes(): number {
  const heap = heapUsed(); // forces the GCs
  return Number.isNaN(heap) ? Number.NaN : process.memoryUsage().arrayBuffers;
}

/** What the suite needs of each structure, in the words a user would write. */
interface Contender<T> {
  name: string;
  exact: boolean;
  make(): T;
  /** The loop body adding k[i] (see ownLoop), as user code would. */
  add: string;
  /** Sketches: the loop body adding the precomputed hash of the i-th ID from k = [lo, hi, lo, hi, …]. */
  addHash?: string;
  count(t: T): number;
  /** A copy that has not counted yet (read back from its serialization). */
  uncounted(t: T): T;
  serialize(t: T): Uint8Array;
  /** What serialize() is, for the table. */
  format: string;
  /** The string `SET` stores to reach Redis's own commands on it, or undefined when there is none. */
  toRedis(t: T): Uint8Array | undefined;
  /** How it reaches Redis, for the table. */
  redisHow: string;
  union(ts: T[]): T;
  byteLength(t: T): number;
  equals?(a: T, b: T): boolean;
  /** Published asymptotic relative RMSE of count(). */
  theory?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of contenders of different structure types.
type AnyContender = Contender<any>;

const sketchRedis = (h: HyperLogLog) => (h.precision === 14 ? h.toRedis() : undefined);

/** UltraLogLog and ExaLogLog: redstruct's own format, and Redis through the HyperLogLog they reduce to. */
function loglog<S extends UltraLogLog | ExaLogLog>(
  name: string,
  make: () => S,
  kind: { fromBytes(bytes: Uint8Array): S; union(sketches: S[]): S },
  theory: number,
): Contender<S> {
  return {
    name,
    exact: false,
    make,
    add: "t.add(k[i]);",
    addHash: "t.addHash(k[2 * i], k[2 * i + 1]);",
    count: (t) => t.count(),
    uncounted: (t) => kind.fromBytes(t.toBytes()),
    serialize: (t) => t.toBytes(),
    format: "toBytes()",
    toRedis: (t) => sketchRedis(t.toHyperLogLog()),
    redisHow: "toHyperLogLog(), SET, then PFCOUNT (p = 14 only)",
    union: (ts) => kind.union(ts),
    byteLength: (t) => t.byteLength,
    equals: (a, b) => (a as { equals(other: S): boolean }).equals(b),
    theory,
  };
}

const CONTENDERS: AnyContender[] = [
  {
    name: "Bitmap",
    exact: true,
    make: () => new Bitmap(),
    add: "t.setBit(k[i], 1);",
    count: (t: Bitmap) => t.count(),
    uncounted: (t: Bitmap) => Bitmap.fromRedis(t.toRedis()),
    serialize: (t: Bitmap) => t.toRedis(),
    format: "toRedis()",
    toRedis: (t: Bitmap) => t.toRedis(),
    redisHow: "SET, then BITCOUNT",
    union: (ts: Bitmap[]) => Bitmap.op("or", ts),
    byteLength: (t: Bitmap) => t.byteLength,
  } satisfies Contender<Bitmap>,
  {
    name: "RoaringBitmap",
    exact: true,
    make: () => new RoaringBitmap(),
    add: "t.add(k[i]);",
    count: (t: RoaringBitmap) => t.size,
    uncounted: (t: RoaringBitmap) => RoaringBitmap.fromPortable(t.toPortable()),
    serialize: (t: RoaringBitmap) => t.toPortable(),
    format: "toPortable()",
    toRedis: (t: RoaringBitmap) => t.toBitmap().toRedis(),
    redisHow: "toBitmap(), SET, then BITCOUNT",
    union: (ts: RoaringBitmap[]) => RoaringBitmap.union(ts),
    byteLength: (t: RoaringBitmap) => t.byteLength,
  } satisfies Contender<RoaringBitmap>,
  {
    name: BASELINE,
    exact: false,
    make: () => new HyperLogLog(),
    add: "t.add(k[i]);",
    addHash: "t.addHash(k[2 * i], k[2 * i + 1]);",
    count: (t: HyperLogLog) => t.count(),
    uncounted: (t: HyperLogLog) => HyperLogLog.fromBytes(t.toBytes()),
    serialize: (t: HyperLogLog) => t.toRedis(),
    format: "toRedis()",
    toRedis: sketchRedis,
    redisHow: "SET, then PFCOUNT",
    union: (ts: HyperLogLog[]) => HyperLogLog.union(ts),
    byteLength: (t: HyperLogLog) => t.byteLength,
    equals: (a: HyperLogLog, b: HyperLogLog) => a.equals(b),
    theory: 1.04 / 128,
  } satisfies Contender<HyperLogLog>,
  ...[12, 14].map((p) =>
    loglog(`UltraLogLog p${p}`, () => new UltraLogLog({ precision: p }), UltraLogLog, 0.782 / Math.sqrt(2 ** p)),
  ),
  // √(3.80 / 32) / √m: maximum likelihood at t = 2, d = 24 (docs/hll.md).
  loglog("ExaLogLog p12", () => new ExaLogLog(), ExaLogLog, Math.sqrt(3.8 / 32) / 64),
];
const SKETCHES = CONTENDERS.filter((c) => !c.exact);

/**
 * Fills `out[0, n)` with n distinct IDs drawn uniformly from [0, UNIVERSE), in drawing order, with
 * `seen` (UNIVERSE bits, all zero) marking the IDs drawn; `seen` is all zero again on return.
 */
function distinctIds(out: Uint32Array, n: number, seed: number, seen: Uint8Array): Uint32Array {
  const next = mulberry32(seed);
  for (let k = 0; k < n; ) {
    const x = next();
    if (x >= DRAW_LIMIT) continue;
    const id = x % UNIVERSE;
    const mask = 1 << (id & 7);
    if ((seen[id >>> 3]! & mask) !== 0) continue;
    seen[id >>> 3] = seen[id >>> 3]! | mask;
    out[k++] = id;
  }
  for (let k = 0; k < n; k++) seen[out[k]! >>> 3] = 0;
  return out;
}

/** The 64-bit hash `add` computes for each ID, as [lo, hi] pairs in `out`. */
function hashIds(ids: Uint32Array, n: number, out: Uint32Array): Uint32Array {
  const h = new Uint32Array(2);
  for (let i = 0; i < n; i++) {
    murmur64aInto(ids[i]!, h, 0, HLL_SEED);
    out[2 * i] = h[0]!;
    out[2 * i + 1] = h[1]!;
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

interface Row {
  n: number;
  name: string;
  /** byteLength; for RoaringBitmap after runOptimize (before it in byteLengthAdded). */
  byteLength: number;
  byteLengthAdded?: number;
  /** ArrayBuffer bytes kept alive (NaN without --expose-gc); RoaringBitmap: after runOptimize. */
  held: number;
  heldAdded?: number;
  serialized: number;
  redis: number | undefined;
  seeds: number;
  bias: number;
  rmse: number;
  theory?: number;
  addNs: number;
  runOptimizeMs?: number;
  countUs: number;
}

interface UnionRow {
  daily: number;
  union: number;
  name: string;
  byteLength: number;
  serialized: number;
  error: number;
  opsPerSec: number;
  rme: number;
  ratio: number;
}

/** Builds (timed) a contender from the first n IDs by its user-level loop. */
function timedBuild(c: AnyContender, loop: ReturnType<typeof ownLoop>, ids: Uint32Array, n: number) {
  const t = c.make();
  const t0 = performance.now();
  loop(t, ids as unknown as number[], 0, n);
  return { t, ms: performance.now() - t0 };
}

function measure(ctx: BenchContext, n: number, seeds: number, bufs: Buffers): Row[] {
  const ids = distinctIds(bufs.ids, n, 1, bufs.seen);
  const rows: Row[] = [];
  const seed0 = new Map<string, unknown>();
  for (const c of CONTENDERS) {
    const loop = bufs.loops.get(c.name)!;
    // Memory, from the first build.
    keep.value = undefined;
    const before = arrayBytes();
    const first = timedBuild(c, loop, ids, n);
    keep.value = first.t;
    const heldAdded = arrayBytes() - before;
    const byteLengthAdded = c.byteLength(first.t);
    const times = [first.ms];
    for (let b = 1; b < timedBuilds(n); b++) {
      heapUsed(); // the previous build's garbage collected now, not during this one
      times.push(timedBuild(c, loop, ids, n).ms);
    }
    const t = first.t;
    let runOptimizeMs: number | undefined;
    if (t instanceof RoaringBitmap) {
      const t0 = performance.now();
      t.runOptimize();
      runOptimizeMs = performance.now() - t0;
    }
    const held = arrayBytes() - before;
    const counted = c.count(t);
    if (c.exact && counted !== n) throw new Error(`unique-visitors: ${c.name} counted ${counted} of ${n}`);
    const copies = Array.from({ length: COUNT_COPIES }, () => c.uncounted(t));
    const countTimes = copies.map((copy) => {
      const t0 = performance.now();
      const v = c.count(copy);
      const us = (performance.now() - t0) * 1000;
      if (v !== counted) throw new Error(`unique-visitors: ${c.name}'s copy counts ${v}, not ${counted}`);
      return us;
    });
    seed0.set(c.name, t);
    const byteLength = c.byteLength(t);
    const roaring = t instanceof RoaringBitmap;
    rows.push({
      n,
      name: c.name,
      byteLength,
      ...(roaring ? { byteLengthAdded, heldAdded } : {}),
      held,
      serialized: c.serialize(t).length,
      redis: c.toRedis(t)?.length,
      seeds: c.exact ? 1 : seeds,
      bias: 0,
      rmse: 0,
      ...(c.theory === undefined ? {} : { theory: c.theory }),
      addNs: (median(times) * 1e6) / n,
      ...(runOptimizeMs === undefined ? {} : { runOptimizeMs }),
      countUs: median(countTimes),
    });
    keep.value = undefined;
  }
  // The sketches' error over the seeds: seed 0 is the sketch built by add(id) above.
  const errors = new Map<string, number[]>(
    SKETCHES.map((c) => [c.name, [c.count(seed0.get(c.name)) / n - 1]] as [string, number[]]),
  );
  const started = Date.now();
  for (let s = 0; s < seeds; s++) {
    const seedIds = s === 0 ? ids : distinctIds(bufs.ids, n, 1 + s, bufs.seen);
    if (s === 0 && n > 1e5) continue;
    const hashes = hashIds(seedIds, n, bufs.hashes);
    for (const c of SKETCHES) {
      const t = c.make();
      bufs.hashLoops.get(c.name)!(t, hashes as unknown as number[], 0, n);
      if (s === 0) {
        // add(id) and addHash(hash of id) must build the same sketch.
        if (!c.equals!(t, seed0.get(c.name))) throw new Error(`unique-visitors: ${c.name}: addHash ≠ add`);
      } else errors.get(c.name)!.push(c.count(t) / n - 1);
    }
    if (s % 10 === 9 && Date.now() - started > 5000) ctx.log(`    n=${n}: ${s + 1}/${seeds} seeds`);
  }
  for (const row of rows) {
    const e = errors.get(row.name);
    if (!e) continue;
    row.bias = e.reduce((a, x) => a + x, 0) / e.length;
    row.rmse = Math.sqrt(e.reduce((a, x) => a + x * x, 0) / e.length);
  }
  const base = rows.find((r) => r.name === BASELINE)!;
  ctx.log(
    `    n=${n}: ${rows.map((r) => `${r.name} ${fmtBytes(r.byteLength)}, ${r.addNs.toFixed(0)} ns/add`).join("; ")} (HLL RMSE ${pct(base.rmse)})`,
  );
  return rows;
}

interface Buffers {
  ids: Uint32Array;
  hashes: Uint32Array;
  seen: Uint8Array;
  loops: Map<string, ReturnType<typeof ownLoop>>;
  hashLoops: Map<string, ReturnType<typeof ownLoop>>;
}

async function unions(ctx: BenchContext, daily: number, bufs: Buffers): Promise<UnionRow[]> {
  const union = new Uint8Array(UNIVERSE / 8);
  const days = Array.from({ length: DAYS }, (_, d) => {
    const ids = distinctIds(new Uint32Array(daily), daily, 0xd0 + d, bufs.seen);
    for (const id of ids) union[id >>> 3] = union[id >>> 3]! | (1 << (id & 7));
    return ids;
  });
  let truth = 0;
  for (const byte of union) truth += POP8[byte]!;
  // Built the quickest way (the exact ones from sorted IDs, the sketches from each ID's hash computed once).
  const built = new Map<string, unknown[]>(CONTENDERS.map((c) => [c.name, []]));
  for (const ids of days) {
    const sorted = ids.slice().sort() as unknown as number[];
    const hashes = hashIds(ids, daily, bufs.hashes) as unknown as number[];
    for (const c of CONTENDERS) {
      const t = c.make();
      if (c.addHash) bufs.hashLoops.get(c.name)!(t, hashes, 0, daily);
      else bufs.loops.get(c.name)!(t, sorted, 0, daily);
      built.get(c.name)!.push(t);
    }
  }
  let sink = 0;
  const timed = await compare(
    ctx,
    `union of ${DAYS} days of ${daily} IDs`,
    Object.fromEntries(
      CONTENDERS.map((c) => {
        const inputs = built.get(c.name)!;
        return [c.name, () => (sink += c.byteLength(c.union(inputs)))];
      }),
    ),
    { baseline: BASELINE, time: 1000 },
  );
  if (sink === 0) throw new Error("unique-visitors: empty unions");
  return CONTENDERS.map((c) => {
    const u = c.union(built.get(c.name)!);
    const counted = c.count(u);
    if (c.exact && counted !== truth)
      throw new Error(`unique-visitors: ${c.name} union counted ${counted}, not ${truth}`);
    const row = timed.find((r) => r.name === c.name)!;
    return {
      daily,
      union: truth,
      name: c.name,
      byteLength: c.byteLength(u),
      serialized: c.serialize(u).length,
      error: counted / truth - 1,
      opsPerSec: row.opsPerSec,
      rme: row.rme,
      ratio: row.ratio,
    };
  });
}

/** Set bits per byte value. */
const POP8 = Uint8Array.from({ length: 256 }, (_, b) => {
  let c = 0;
  for (let x = b; x !== 0; x &= x - 1) c++;
  return c;
});

/** Builds every contender once on a few thousand IDs, so the first timed n is not the JIT's first run. */
function warmUp(bufs: Buffers) {
  const n = 20_000;
  const ids = distinctIds(new Uint32Array(n), n, 0x3a7, bufs.seen);
  const hashes = hashIds(ids, n, new Uint32Array(2 * n));
  for (const c of CONTENDERS) {
    for (let r = 0; r < 3; r++) {
      const t = c.make();
      bufs.loops.get(c.name)!(t, ids as unknown as number[], 0, n);
      if (c.addHash) bufs.hashLoops.get(c.name)!(c.make(), hashes as unknown as number[], 0, n);
      if (t instanceof RoaringBitmap) t.runOptimize();
      c.count(c.uncounted(t));
      c.union([t, c.uncounted(t)]);
    }
  }
}

const pct = (x: number, digits = 2) => `${(100 * x).toFixed(digits)} %`;

function fmtBytes(b: number): string {
  if (Number.isNaN(b)) return "—";
  if (b >= 1e6) return `${(b / 1e6).toFixed(2)} MB`;
  if (b >= 1e4) return `${(b / 1e3).toFixed(1)} kB`;
  return `${b.toLocaleString("en-US")} B`;
}

const fmtTime = (us: number) =>
  us >= 1000 ? `${Number((us / 1000).toPrecision(3))} ms` : `${Number(us.toPrecision(2))} µs`;
const fmtNs = (ns: number) => (ns >= 1000 ? `${Number((ns / 1000).toPrecision(3))} µs` : `${Math.round(ns)} ns`);
const exp10 = (n: number) => `10^${Math.round(Math.log10(n))}`;

/** `a`'s bytes ÷ `b`'s at each n, as "10^3: 0.95×, 10^4: …". */
function bytesRatios(rows: Row[], a: string, b: string, bytes: (r: Row) => number): string {
  const at = (n: number, name: string) => bytes(rows.find((r) => r.n === n && r.name === name)!);
  return SIZES.map((n) => `${exp10(n)}: ${Number((at(n, a) / at(n, b)).toPrecision(2))}×`).join(", ");
}

const suite: Suite = {
  name: "unique-visitors",
  description:
    "Unique visitors among IDs in [0, 10^8), n = 10^3 … 10^7: memory, serialized size, count error, add and count time of Bitmap, RoaringBitmap, HyperLogLog, UltraLogLog and ExaLogLog; the union of 7 daily sets.",
  async run(ctx) {
    const seedsPer = ctx.full ? SEEDS_FULL : SEEDS_QUICK;
    const unionSizes = ctx.full ? SIZES : UNION_SIZES_QUICK;
    const maxN = SIZES[SIZES.length - 1]!;
    const bufs: Buffers = {
      ids: new Uint32Array(maxN),
      hashes: new Uint32Array(2 * maxN),
      seen: new Uint8Array(UNIVERSE / 8),
      loops: new Map(CONTENDERS.map((c) => [c.name, ownLoop(c.add)])),
      hashLoops: new Map(SKETCHES.map((c) => [c.name, ownLoop(c.addHash!)])),
    };
    warmUp(bufs);
    const rows: Row[] = [];
    for (let i = 0; i < SIZES.length; i++) {
      const n = SIZES[i]!;
      ctx.log(`  n = ${n}: building each structure, then ${seedsPer[i]} seeds of the sketches`);
      rows.push(...measure(ctx, n, seedsPer[i]!, bufs));
    }
    const unionRows: UnionRow[] = [];
    for (const daily of unionSizes) {
      ctx.log(`  union of ${DAYS} days of ${daily} IDs`);
      unionRows.push(...(await unions(ctx, daily, bufs)));
    }
    const get = (n: number, name: string) => rows.find((r) => r.n === n && r.name === name)!;
    const byteRows = rows.map((r) => {
      const roaring = r.byteLengthAdded !== undefined;
      return [
        exp10(r.n),
        r.name,
        roaring ? `${fmtBytes(r.byteLength)} (${fmtBytes(r.byteLengthAdded!)} before)` : fmtBytes(r.byteLength),
        roaring ? `${fmtBytes(r.held)} (${fmtBytes(r.heldAdded!)} before)` : fmtBytes(r.held),
        `${fmtBytes(r.serialized)}`,
        r.redis === undefined ? "—" : fmtBytes(r.redis),
        r.theory === undefined ? "0 (exact)" : `${pct(r.bias, 3)} / ${pct(r.rmse, 3)}`,
        r.theory === undefined ? "" : `${pct(r.theory)} (${r.seeds} seeds)`,
      ];
    });
    const timeRows = rows.map((r) => {
      const base = get(r.n, BASELINE);
      return [
        exp10(r.n),
        r.name,
        fmtNs(r.addNs),
        `${(base.addNs / r.addNs).toFixed(2)}×`,
        fmtTime(r.countUs),
        `${(base.countUs / r.countUs).toFixed(2)}×`,
      ];
    });
    const formats = CONTENDERS.map((c) => `${c.name}: \`${c.format}\``).join("; ");
    const redisHow = CONTENDERS.map((c) => `${c.name}: ${c.redisHow}`).join("; ");
    const ratios = [
      `RoaringBitmap ÷ Bitmap, byteLength: ${bytesRatios(rows, "RoaringBitmap", "Bitmap", (r) => r.byteLength)}`,
      `RoaringBitmap ÷ HyperLogLog p14, byteLength: ${bytesRatios(rows, "RoaringBitmap", BASELINE, (r) => r.byteLength)}`,
      `RoaringBitmap ÷ HyperLogLog p14, serialized (toPortable ÷ toRedis): ${bytesRatios(rows, "RoaringBitmap", BASELINE, (r) => r.serialized)}`,
      `RoaringBitmap ÷ UltraLogLog p12, byteLength: ${bytesRatios(rows, "RoaringBitmap", "UltraLogLog p12", (r) => r.byteLength)}`,
    ];
    const roaringOptimize = rows
      .filter((r) => r.runOptimizeMs !== undefined)
      .map((r) => `${exp10(r.n)}: ${fmtTime(r.runOptimizeMs! * 1000)}`)
      .join(", ");
    const markdown = [
      `n distinct IDs drawn uniformly from [0, 10^8) (seeded), added in drawing order: \`setBit(id, 1)\` (Bitmap), \`add(id)\` (the others); RoaringBitmap then \`runOptimize()\`. ${ctx.full ? "Full" : "Quick"} mode${ctx.full ? "" : " (`--full` runs more seeds and unions at every n)"}.`,
      "",
      `**Memory, size and count error.** "byteLength" and "held" (ArrayBuffer bytes kept alive, measured after GC; a Bitmap's includes its growth slack) — RoaringBitmap after \`runOptimize()\`, before it in brackets. "serialized": ${formats}. "SET in Redis": the bytes that reach Redis's own commands (${redisHow}); UltraLogLog and ExaLogLog at p = 12 have no Redis form (Redis's HyperLogLog is p = 14). Error: mean / RMSE of \`count()\` ÷ n − 1 over the seeds (the exact structures are checked to count n); "theory": the published asymptotic RMSE, which small n (below about m) beat by far. An RMSE over T seeds is uncertain by ±1.96/√(2T) of itself (95 %).`,
      "",
      markdownTable(
        ["n", "structure", "byteLength", "held", "serialized", "SET in Redis", "bias / RMSE", "theory"],
        byteRows,
      ),
      "",
      `Bytes relative to each other, at each n (below 1× the first is smaller): ${ratios.join("; ")}.`,
      "",
      `**Time.** Adding all n IDs (ns per ID: the median of ${SIZES.map((n) => `${timedBuilds(n)}`).join(", ")} fresh builds at n = 10^3 … 10^7) and the first \`count()\` of a copy read back from its serialization (median of ${COUNT_COPIES}: a popcount for Bitmap — one built by \`setBit\` keeps its count, O(1) — O(1) for RoaringBitmap, the estimator for the sketches). "vs HLL": HyperLogLog p14's time ÷ this one's, same n, same run (higher is faster). RoaringBitmap's \`runOptimize()\` took ${roaringOptimize}.`,
      "",
      markdownTable(["n", "structure", "add, per ID", "add vs HLL", "first count()", "count vs HLL"], timeRows),
      "",
      `**A week's unique visitors: the union of ${DAYS} daily sets** of n distinct IDs each, drawn independently. One union builds a new structure from the ${DAYS} (\`Bitmap.op("or")\`, \`RoaringBitmap.union\`, \`HyperLogLog.union\` = PFMERGE, \`UltraLogLog.union\`, \`ExaLogLog.union\`); timed with tinybench, "vs HLL" is its throughput ÷ HyperLogLog.union's. Error: the union's count ÷ the true union − 1 (one set of days).`,
      "",
      markdownTable(
        [
          "daily n",
          "true union",
          "structure",
          "byteLength",
          "serialized",
          "count error",
          "time per union",
          "± %",
          "vs HLL",
        ],
        unionRows.map((u) => [
          exp10(u.daily),
          u.union.toLocaleString("en-US"),
          u.name,
          fmtBytes(u.byteLength),
          fmtBytes(u.serialized),
          u.name === "Bitmap" || u.name === "RoaringBitmap" ? "0 (exact)" : pct(u.error, 3),
          fmtTime(1e6 / u.opsPerSec),
          u.rme.toFixed(1),
          `${u.ratio.toFixed(2)}×`,
        ]),
      ),
      "",
    ].join("\n");
    const charts: Chart[] = [
      {
        name: "bytes",
        spec: lineChart({
          title: "Memory vs unique visitors among IDs in [0, 10^8)",
          caption: "byteLength, log-log; lower is better; RoaringBitmap after runOptimize()",
          data: rows.map((r) => ({ x: r.n, y: r.byteLength, series: r.name })),
          xTitle: "distinct IDs n",
          yTitle: "bytes",
          xLog: true,
          yLog: true,
        }),
      },
      {
        name: "error",
        spec: lineChart({
          title: "Count error of the sketches vs unique visitors",
          caption: `relative RMSE of count() over the seeds (${seedsPer.join(", ")} seeds per n); lower is better; Bitmap and RoaringBitmap: 0`,
          data: rows.filter((r) => r.theory !== undefined).map((r) => ({ x: r.n, y: 100 * r.rmse, series: r.name })),
          xTitle: "distinct IDs n",
          yTitle: "relative RMSE (%)",
          xLog: true,
        }),
      },
    ];
    const unionAt = (daily: number, name: string) => unionRows.find((u) => u.daily === daily && u.name === name);
    const headlines: Headline[] = [
      ...[1e5, 1e7].map((n) => ({
        structure: "RoaringBitmap",
        operation: `memory, ${exp10(n)} IDs in [0, 10^8) (Bitmap's byteLength ÷ RoaringBitmap's)`,
        versus: "Bitmap",
        ratio: get(n, "Bitmap").byteLength / get(n, "RoaringBitmap").byteLength,
      })),
      {
        structure: BASELINE,
        operation: "memory, 10^5 IDs (RoaringBitmap's byteLength ÷ HyperLogLog's)",
        versus: "RoaringBitmap",
        ratio: get(1e5, "RoaringBitmap").byteLength / get(1e5, BASELINE).byteLength,
      },
      ...["Bitmap", "RoaringBitmap"].map((name) => ({
        structure: name,
        operation: "add, 10^6 IDs (speed)",
        versus: BASELINE,
        ratio: get(1e6, BASELINE).addNs / get(1e6, name).addNs,
      })),
    ];
    for (const daily of unionSizes) {
      const roaring = unionAt(daily, "RoaringBitmap")!;
      const bitmap = unionAt(daily, "Bitmap")!;
      headlines.push({
        structure: "RoaringBitmap",
        operation: `union of ${DAYS} × ${exp10(daily)} IDs (speed)`,
        versus: 'Bitmap.op("or")',
        ratio: roaring.opsPerSec / bitmap.opsPerSec,
      });
    }
    return { markdown, data: { universe: UNIVERSE, seeds: seedsPer, rows, unions: unionRows }, charts, headlines };
  },
};

export default suite;
