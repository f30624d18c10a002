/**
 * RedisBloom's other families — CuckooFilter, CountMinSketch, TopK: throughput against bloom-filters'
 * CuckooFilter / CountMinSketch / TopK, redstruct's BloomFilter and a `Map` counting exactly, plus
 * accuracy reports (cuckoo false-positive rate against RedisBloom's bound per bucket size, Count-Min
 * overestimates against the (error, probability) guarantee, Top-K recall / precision on Zipf streams,
 * and Top-K recall by width for several k: the table docs/topk.md's "Choosing width and depth" quotes).
 *
 * - Throughput: each task call performs a batch of 1000 operations. Cuckoo adds fill a fresh filter
 *   sized for the pool whenever the pool is used up (every implementation alike); `has` queries are
 *   half members, half non-members; `delete` deletes the next 1000 members of a full filter (the peer's
 *   `remove`) and the untimed `beforeEach` hook swaps in a full filter when one is used up, so only
 *   deletes are timed. CMS and Top-K
 *   tasks count a Zipf stream (s = 1.07) of distinct strings.
 * - Cuckoo FPR: one sub-filter of capacity 2^15 per bucket size (expansion 0, 500 kicks) filled until
 *   an insert fails, then 2·10^5 (10^6 in --full) absent keys queried.
 *   RedisBloom documents the error rate of a filter as about 2·bucketSize / 255 (two buckets of
 *   bucketSize 8-bit fingerprints in 1..255); the expected rate at load α is 1 − (1 − 1/255)^(2·b·α).
 * - CMS: for each (error, probability), a Zipf stream of N units; an item's overestimate is
 *   count − true count; the guarantee is that it exceeds error·N with probability ≤ probability.
 * - Top-K: the top-k list after the stream against the true top k (ties at the k-th count counted
 *   as hits): recall = hits / k, precision = hits / list length.
 * - Top-K width: recall of the true top k for k in {10, 50, 100, 200} and widths 8 (RedisBloom's
 *   default) to 3200, depth 7 and decay 0.9 (the defaults), on Zipf streams of 10^5 items over 10^4
 *   keys with s = 1.07 and the flatter s = 0.8; depth 1 to 10 at two widths.
 */
import bloomFilters from "bloom-filters";
import { Bench } from "tinybench";
import { BloomFilter } from "../src/bloom/index.js";
import { CountMinSketch } from "../src/cms/index.js";
import { CuckooFilter } from "../src/cuckoo/index.js";
import { glibcRandom, TopK } from "../src/topk/index.js";
import {
  type BenchContext,
  type Chart,
  compare,
  distinctStrings,
  fillingTask,
  type Headline,
  lineChart,
  markdownTable,
  ownLoop,
  prng,
  type Row,
  type Suite,
  throughputChart,
  throughputTable,
} from "./lib.js";

const { CuckooFilter: BfCuckooFilter, CountMinSketch: BfCountMinSketch, TopK: BfTopK } = bloomFilters;

const BATCH = 1000;

/** `length` draws of a Zipf(s) law over `ranks` names (name i = pool[i − 1]), deterministic. */
function zipf(pool: readonly string[], length: number, s: number, seed: number): string[] {
  const ranks = pool.length;
  const cdf = new Float64Array(ranks);
  let acc = 0;
  for (let r = 1; r <= ranks; r++) cdf[r - 1] = acc += r ** -s;
  for (let r = 0; r < ranks; r++) cdf[r]! /= acc;
  const rand = prng(seed);
  const out = new Array<string>(length);
  for (let i = 0; i < length; i++) {
    const u = rand();
    let lo = 0;
    let hi = ranks - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    out[i] = pool[lo]!;
  }
  return out;
}

/**
 * {@link compare} with an untimed `beforeEach` hook per task (tinybench leaves it out of the
 * measured time): the delete benchmark swaps in a full filter there when one is used up.
 */
async function compareWithHooks(
  ctx: BenchContext,
  title: string,
  tasks: Record<string, { fn: () => unknown; beforeEach: () => void }>,
  baseline: string,
): Promise<Row[]> {
  ctx.log(`  ${title}: ${Object.keys(tasks).join(", ")}`);
  const bench = new Bench({ time: 500 * (ctx.full ? 3 : 1), iterations: 8, name: title });
  for (const [name, t] of Object.entries(tasks)) bench.add(name, t.fn, { beforeEach: t.beforeEach });
  await bench.run();
  const rows: Row[] = bench.tasks.map((t) => {
    const r = t.result;
    if (r.state !== "completed") throw new Error(`${title} / ${t.name}: ${r.state}`);
    return {
      name: t.name,
      opsPerSec: r.throughput.mean * BATCH,
      rme: r.latency.rme,
      samples: r.latency.samplesCount,
      ratio: 0,
    };
  });
  const base = rows.find((r) => r.name === baseline)!;
  for (const r of rows) r.ratio = r.opsPerSec / base.opsPerSec;
  return rows;
}

const ratioOf = (rows: Row[], a: string, b: string) =>
  rows.find((r) => r.name === a)!.opsPerSec / rows.find((r) => r.name === b)!.opsPerSec;

interface Add {
  add(k: string): unknown;
}

// ——— cuckoo throughput ————————————————————————————————————————————————————————————

async function cuckooThroughput(ctx: BenchContext, n: number) {
  const pool = distinctStrings(n, 21, "url:");
  const absent = distinctStrings(n, 22, "miss:");
  const queries: string[] = [];
  for (let i = 0; i < n; i++) queries.push(i % 2 === 0 ? pool[i]! : absent[i]!);
  const ours = () => new CuckooFilter({ capacity: n });
  // bloom-filters sizes by (size, error): 0.01 with bucket size 2 is its closest to RedisBloom's default.
  const theirs = () => BfCuckooFilter.create(n, 0.01, 2, 500);
  const bloom = () => new BloomFilter({ capacity: n, errorRate: 0.01 });
  const addTask = (make: () => Add) => fillingTask(make, "if (t.add(k[i])) s++;", pool, BATCH);
  const addRows = await compare(
    ctx,
    `add, ${n} keys`,
    {
      "redstruct CuckooFilter.add": addTask(ours),
      "bloom-filters CuckooFilter.add": addTask(theirs),
      "redstruct BloomFilter.add": addTask(bloom),
    },
    { baseline: "bloom-filters CuckooFilter.add", batch: BATCH },
  );
  const full = <T extends Add>(make: () => T): T => {
    const t = make();
    for (const k of pool) t.add(k);
    return t;
  };
  const hasTask = (t: { has(k: string): boolean }) => {
    const loop = ownLoop<{ has(k: string): boolean }, string>("if (t.has(k[i])) s++;");
    let cursor = 0;
    return () => {
      if (cursor + BATCH > n) cursor = 0;
      loop(t, queries, cursor, BATCH);
      cursor += BATCH;
    };
  };
  const ourFull = full(ours);
  const theirFull = full(theirs);
  const bloomFull = full(bloom);
  const hasRows = await compare(
    ctx,
    `has, ${n} keys (half members)`,
    {
      "redstruct CuckooFilter.has": hasTask(ourFull),
      "bloom-filters CuckooFilter.has": hasTask(theirFull),
      "redstruct BloomFilter.has": hasTask(bloomFull),
    },
    { baseline: "bloom-filters CuckooFilter.has", batch: BATCH },
  );
  // delete: the next 1000 members of a full filter; when a filter has been emptied the untimed
  // beforeEach hook swaps in a full one (redstruct: loaded from its bytes; bloom-filters: a pre-built
  // copy, rebuilt only if the copies run out, which its removal rate never reaches in one run).
  const removeTask = <T>(body: string, makeFull: () => T) => {
    const loop = ownLoop<T, string>(body);
    let t = makeFull();
    let cursor = 0;
    return {
      beforeEach: () => {
        if (cursor + BATCH > n) {
          t = makeFull();
          cursor = 0;
        }
      },
      fn: () => {
        loop(t, pool, cursor, BATCH);
        cursor += BATCH;
      },
    };
  };
  const ourBytes = ourFull.toBytes();
  const theirCopies = [full(theirs), full(theirs)];
  const removeRows = await compareWithHooks(
    ctx,
    `delete, ${n} keys`,
    {
      "redstruct CuckooFilter.delete": removeTask("if (t.delete(k[i])) s++;", () => CuckooFilter.fromBytes(ourBytes)),
      "bloom-filters CuckooFilter.remove": removeTask(
        "if (t.remove(k[i])) s++;",
        () => theirCopies.pop() ?? full(theirs),
      ),
    },
    "bloom-filters CuckooFilter.remove",
  );
  return { addRows, hasRows, removeRows };
}

// ——— CMS and Top-K throughput ——————————————————————————————————————————————————————

async function countingThroughput(ctx: BenchContext, length: number) {
  const names = distinctStrings(10_000, 31, "page:");
  const stream = zipf(names, length, 1.07, 32);
  const cycle = (body: string, make: () => unknown) => {
    const loop = ownLoop<unknown, string>(body);
    let t = make();
    let cursor = 0;
    return () => {
      if (cursor + BATCH > length) {
        t = make();
        cursor = 0;
      }
      loop(t, stream, cursor, BATCH);
      cursor += BATCH;
    };
  };
  const ourCms = () => new CountMinSketch({ error: 0.001, probability: 0.01 }); // 2000 × 7
  const theirCms = () => new BfCountMinSketch(2000, 7);
  const incrRows = await compare(
    ctx,
    `incrBy(key, 1), Zipf stream over 10^4 keys`,
    {
      "redstruct CountMinSketch.incrBy": cycle("s += t.incrBy(k[i], 1);", ourCms),
      "bloom-filters CountMinSketch.update": cycle("t.update(k[i], 1);", theirCms),
      "Map (exact count)": cycle("t.set(k[i], (t.get(k[i]) ?? 0) + 1);", () => new Map<string, number>()),
    },
    { baseline: "bloom-filters CountMinSketch.update", batch: BATCH },
  );
  const filled = <T>(t: T, add: (t: T, k: string) => void): T => {
    for (const k of stream) add(t, k);
    return t;
  };
  const queryTask = (body: string, t: unknown) => {
    const loop = ownLoop<unknown, string>(body);
    let cursor = 0;
    return () => {
      if (cursor + BATCH > length) cursor = 0;
      loop(t, stream, cursor, BATCH);
      cursor += BATCH;
    };
  };
  const queryRows = await compare(
    ctx,
    `count, Zipf stream over 10^4 keys`,
    {
      "redstruct CountMinSketch.count": queryTask(
        "s += t.count(k[i]);",
        filled(ourCms(), (t, k) => t.incrBy(k, 1)),
      ),
      "bloom-filters CountMinSketch.count": queryTask(
        "s += t.count(k[i]);",
        filled(theirCms(), (t, k) => t.update(k, 1)),
      ),
      "Map (exact count)": queryTask(
        "s += t.get(k[i]) ?? 0;",
        filled(new Map<string, number>(), (t, k) => t.set(k, (t.get(k) ?? 0) + 1)),
      ),
    },
    { baseline: "bloom-filters CountMinSketch.count", batch: BATCH },
  );
  const topkRows = await compare(
    ctx,
    `TopK add, k = 50, Zipf stream over 10^4 keys`,
    {
      "redstruct TopK.add": cycle(
        "if (t.add(k[i]) !== null) s++;",
        () => new TopK({ k: 50, width: 2000, depth: 7, decay: 0.925 }),
      ),
      "bloom-filters TopK.add": cycle("t.add(k[i]);", () => new BfTopK(50, 0.001, 0.99)),
      "Map (exact count)": cycle("t.set(k[i], (t.get(k[i]) ?? 0) + 1);", () => new Map<string, number>()),
    },
    { baseline: "bloom-filters TopK.add", batch: BATCH },
  );
  return { incrRows, queryRows, topkRows };
}

// ——— accuracy ——————————————————————————————————————————————————————————————————————

function cuckooAccuracy(ctx: BenchContext) {
  const queries = ctx.full ? 1_000_000 : 200_000;
  const absent = distinctStrings(queries, 41, "absent:");
  const rows = [];
  for (const bucketSize of [1, 2, 3, 4]) {
    // One sub-filter (expansion 0) filled until an insert fails after 500 kicks: the highest load
    // the filter reaches, where its false-positive rate is highest.
    const f = new CuckooFilter({ capacity: 2 ** 15, bucketSize, maxIterations: 500, expansion: 0 });
    const slots = f.info().buckets * bucketSize;
    const keys = distinctStrings(slots, 40 + bucketSize, "member:");
    for (const k of keys) {
      try {
        f.add(k);
      } catch {
        break;
      }
    }
    const load = f.size / slots;
    let fp = 0;
    for (const k of absent) if (f.has(k)) fp++;
    const measured = fp / queries;
    const bound = (2 * bucketSize) / 255;
    const expected = 1 - (1 - 1 / 255) ** (2 * bucketSize * load);
    rows.push({ bucketSize, items: f.size, load, measured, expected, bound });
  }
  return rows;
}

function cmsAccuracy(ctx: BenchContext) {
  const names = distinctStrings(20_000, 51, "item:");
  const n = ctx.full ? 1_000_000 : 200_000;
  const stream = zipf(names, n, 1.07, 52);
  const truth = new Map<string, number>();
  for (const k of stream) truth.set(k, (truth.get(k) ?? 0) + 1);
  const rows = [];
  for (const [error, probability] of [
    [0.01, 0.01],
    [0.001, 0.01],
    [0.005, 0.1],
    [0.0005, 0.001],
  ] as const) {
    const s = new CountMinSketch({ error, probability });
    for (const k of stream) s.incrBy(k, 1);
    let over = 0;
    let worst = 0;
    let sum = 0;
    for (const [k, t] of truth) {
      const e = s.count(k) - t;
      if (e < 0) throw new Error("CountMinSketch under-counted");
      if (e > error * n) over++;
      worst = Math.max(worst, e);
      sum += e;
    }
    const info = s.info();
    rows.push({
      error,
      probability,
      width: info.width,
      depth: info.depth,
      items: truth.size,
      meanOver: sum / truth.size,
      worstOver: worst,
      bound: error * n,
      exceedFraction: over / truth.size,
    });
  }
  return { n, rows };
}

function topkAccuracy(ctx: BenchContext) {
  const names = distinctStrings(ctx.full ? 100_000 : 10_000, 61, "t");
  const n = ctx.full ? 2_000_000 : 100_000;
  const stream = zipf(names, n, 1.07, 62);
  const truth = new Map<string, number>();
  for (const k of stream) truth.set(k, (truth.get(k) ?? 0) + 1);
  const sorted = [...truth.entries()].sort((a, b) => b[1] - a[1]);
  const rows = [];
  for (const [k, width, depth, decay] of [
    [10, 8, 7, 0.9],
    [10, 50, 5, 0.9],
    [50, 2000, 7, 0.925],
    [100, 2000, 7, 0.925],
    [5, 20, 3, 1],
    [3, 10, 2, 0.5],
  ] as const) {
    const t = new TopK({ k, width, depth, decay, random: glibcRandom(1) });
    for (const x of stream) t.add(x);
    const list = t.list();
    const kth = sorted[k - 1]![1];
    const hits = list.filter((x) => (truth.get(x) ?? 0) >= kth).length;
    rows.push({
      k,
      width,
      depth,
      decay,
      recall: Math.min(1, hits / k),
      precision: list.length ? hits / list.length : 1,
    });
  }
  return { n, distinct: truth.size, rows };
}

/** The widths and k of the Top-K width table, and the depths tried at two widths per k. */
const WIDTHS = [8, 25, 50, 100, 200, 400, 800, 1600, 3200];
const WIDTH_KS = [10, 50, 100, 200];
const DEPTHS = [1, 3, 5, 7, 10];

function topkWidth() {
  const names = distinctStrings(10_000, 61, "t");
  const n = 100_000;
  const recall = (stream: string[], truth: Map<string, number>, kth: number, t: TopK, k: number) => {
    for (const x of stream) t.add(x);
    return t.list().filter((x) => (truth.get(x) ?? 0) >= kth).length / k;
  };
  const streams = [];
  for (const s of [1.07, 0.8]) {
    const stream = zipf(names, n, s, 62);
    const truth = new Map<string, number>();
    for (const k of stream) truth.set(k, (truth.get(k) ?? 0) + 1);
    const counts = [...truth.values()].sort((a, b) => b - a);
    const byWidth = WIDTH_KS.map((k) => ({
      k,
      recall: WIDTHS.map((width) =>
        recall(stream, truth, counts[k - 1]!, new TopK({ k, width, random: glibcRandom(1) }), k),
      ),
    }));
    const byDepth = [
      [50, 100],
      [50, 400],
      [100, 200],
      [100, 800],
    ].map(([k, width]) => ({
      k: k!,
      width: width!,
      recall: DEPTHS.map((depth) =>
        recall(stream, truth, counts[k! - 1]!, new TopK({ k: k!, width, depth, random: glibcRandom(1) }), k!),
      ),
    }));
    streams.push({ s, distinct: truth.size, byWidth, byDepth });
  }
  return { n, streams };
}

// ——— the suite ——————————————————————————————————————————————————————————————————————

const pct = (x: number) => `${(100 * x).toFixed(3)} %`;

const suite: Suite = {
  name: "sketches",
  description:
    "CuckooFilter, CountMinSketch and TopK (RedisBloom-exact) vs bloom-filters and Map, with accuracy reports",
  async run(ctx) {
    const n = ctx.full ? 1_000_000 : 100_000;
    ctx.log(`cuckoo throughput (${n} keys)`);
    const cuckoo = await cuckooThroughput(ctx, n);
    ctx.log("CMS and Top-K throughput");
    const counting = await countingThroughput(ctx, ctx.full ? 1_000_000 : 200_000);
    ctx.log("accuracy");
    const fpr = cuckooAccuracy(ctx);
    const cms = cmsAccuracy(ctx);
    const topk = topkAccuracy(ctx);
    ctx.log("Top-K recall by width");
    const widths = topkWidth();

    const headlines: Headline[] = [
      {
        structure: "CuckooFilter",
        operation: `add, ${n} keys`,
        versus: "bloom-filters CuckooFilter",
        ratio: ratioOf(cuckoo.addRows, "redstruct CuckooFilter.add", "bloom-filters CuckooFilter.add"),
        goal: 10,
      },
      {
        structure: "CuckooFilter",
        operation: `has, ${n} keys`,
        versus: "bloom-filters CuckooFilter",
        ratio: ratioOf(cuckoo.hasRows, "redstruct CuckooFilter.has", "bloom-filters CuckooFilter.has"),
        goal: 10,
      },
      {
        structure: "CuckooFilter",
        operation: `delete, ${n} keys`,
        versus: "bloom-filters CuckooFilter",
        ratio: ratioOf(cuckoo.removeRows, "redstruct CuckooFilter.delete", "bloom-filters CuckooFilter.remove"),
        goal: 10,
      },
      {
        structure: "CuckooFilter",
        operation: `has, ${n} keys`,
        versus: "redstruct BloomFilter",
        ratio: ratioOf(cuckoo.hasRows, "redstruct CuckooFilter.has", "redstruct BloomFilter.has"),
        goal: 0.7,
      },
      {
        structure: "CountMinSketch",
        operation: "incrBy",
        versus: "bloom-filters CountMinSketch",
        ratio: ratioOf(counting.incrRows, "redstruct CountMinSketch.incrBy", "bloom-filters CountMinSketch.update"),
        goal: 10,
      },
      {
        structure: "CountMinSketch",
        operation: "count",
        versus: "bloom-filters CountMinSketch",
        ratio: ratioOf(counting.queryRows, "redstruct CountMinSketch.count", "bloom-filters CountMinSketch.count"),
        goal: 10,
      },
      {
        structure: "TopK",
        operation: "add",
        versus: "bloom-filters TopK",
        ratio: ratioOf(counting.topkRows, "redstruct TopK.add", "bloom-filters TopK.add"),
        goal: 10,
      },
    ];

    const charts: Chart[] = [
      { name: "cuckoo-add", spec: throughputChart(`Cuckoo add, ${n} keys`, cuckoo.addRows) },
      { name: "cuckoo-has", spec: throughputChart(`Cuckoo has, ${n} keys`, cuckoo.hasRows) },
      { name: "cuckoo-delete", spec: throughputChart(`Cuckoo delete, ${n} keys`, cuckoo.removeRows) },
      { name: "cms-incrby", spec: throughputChart("Count-Min incrBy", counting.incrRows) },
      { name: "cms-count", spec: throughputChart("Count-Min count", counting.queryRows) },
      { name: "topk-add", spec: throughputChart("Top-K add", counting.topkRows) },
      {
        name: "cuckoo-fpr",
        spec: lineChart({
          title: "Cuckoo filter false-positive rate by bucket size, filled until full",
          caption: "measured vs expected at that load vs RedisBloom's bound 2·b/255; lower is better",
          data: fpr.flatMap((r) => [
            { x: r.bucketSize, y: r.measured, series: "measured" },
            { x: r.bucketSize, y: r.expected, series: "expected at load" },
            { x: r.bucketSize, y: r.bound, series: "bound 2b/255" },
          ]),
          xTitle: "bucket size",
          yTitle: "false-positive rate",
        }),
      },
      {
        name: "topk-width",
        spec: lineChart({
          title: `Top-K recall by width (depth 7, decay 0.9), Zipf(1.07) stream of ${widths.n} items`,
          caption: "fraction of the true top k listed, higher is better; RedisBloom's default width is 8",
          data: widths.streams[0]!.byWidth.flatMap((row) =>
            row.recall.map((y, i) => ({ x: WIDTHS[i]!, y, series: `k = ${row.k}` })),
          ),
          xTitle: "width",
          yTitle: "recall",
          points: true,
        }),
      },
      {
        name: "topk-recall",
        spec: lineChart({
          title: `Top-K recall on a Zipf(1.07) stream of ${topk.n} items`,
          caption: "fraction of the true top k listed, higher is better",
          data: topk.rows.map((r, i) => ({
            x: i + 1,
            y: r.recall,
            series: `k=${r.k} ${r.width}×${r.depth} decay ${r.decay}`,
          })),
          xTitle: "configuration",
          yTitle: "recall",
          points: true,
        }),
      },
    ];

    const markdown = [
      "Cuckoo filter (RedisBloom CF defaults: bucket size 2, 20 kicks, expansion 1) against bloom-filters' CuckooFilter (size n, 1 % error, bucket 2) and redstruct's BloomFilter at 1 %.",
      "",
      throughputTable(`add, ${n} keys`, cuckoo.addRows),
      "",
      throughputTable(`has, ${n} keys, half members`, cuckoo.hasRows),
      "",
      throughputTable(`delete, ${n} keys (refills untimed)`, cuckoo.removeRows),
      "",
      "Count-Min (2000 × 7) and Top-K (k 50, 2000 × 7, decay 0.925) against bloom-filters and a Map counting exactly, on a Zipf(1.07) stream over 10^4 keys.",
      "",
      throughputTable("CountMinSketch incrBy", counting.incrRows),
      "",
      throughputTable("CountMinSketch count", counting.queryRows),
      "",
      throughputTable("TopK add", counting.topkRows),
      "",
      "Cuckoo false-positive rate (one sub-filter of capacity 2^15 filled until an insert fails after 500 kicks; bound = RedisBloom's 2·b/255):",
      "",
      markdownTable(
        ["bucket size", "items", "load when full", "measured FPR", "expected at load", "bound 2b/255"],
        fpr.map((r) => [r.bucketSize, r.items, pct(r.load), pct(r.measured), pct(r.expected), pct(r.bound)]),
      ),
      "",
      `Count-Min overestimates on a Zipf(1.07) stream of N = ${cms.n} units (guarantee: overestimate > error·N with probability ≤ probability):`,
      "",
      markdownTable(
        [
          "error",
          "probability",
          "width × depth",
          "distinct items",
          "mean overestimate",
          "worst",
          "error·N",
          "share above error·N",
        ],
        cms.rows.map((r) => [
          r.error,
          r.probability,
          `${r.width} × ${r.depth}`,
          r.items,
          r.meanOver.toFixed(2),
          r.worstOver,
          r.bound,
          pct(r.exceedFraction),
        ]),
      ),
      "",
      `Top-K on a Zipf(1.07) stream of ${topk.n} items over ${topk.distinct} distinct (decay draws from glibcRandom(1), as RedisBloom after srand(1)):`,
      "",
      markdownTable(
        ["k", "width", "depth", "decay", "recall", "precision"],
        topk.rows.map((r) => [r.k, r.width, r.depth, r.decay, pct(r.recall), pct(r.precision)]),
      ),
      "",
      ...widths.streams.flatMap((st) => [
        `Top-K recall of the true top k by width (depth 7, decay 0.9, decay draws from glibcRandom(1)), Zipf(${st.s}) stream of ${widths.n} items over ${st.distinct} distinct:`,
        "",
        markdownTable(
          ["k", ...WIDTHS.map((w) => `width ${w}`)],
          st.byWidth.map((r) => [r.k, ...r.recall.map((x) => `${Math.round(100 * x)} %`)]),
        ),
        "",
        `By depth at two widths per k, same stream (s = ${st.s}):`,
        "",
        markdownTable(
          ["k", "width", ...DEPTHS.map((d) => `depth ${d}`)],
          st.byDepth.map((r) => [r.k, r.width, ...r.recall.map((x) => `${Math.round(100 * x)} %`)]),
        ),
        "",
      ]),
    ].join("\n");

    return { markdown, data: { cuckoo, counting, fpr, cms, topk, widths }, charts, headlines };
  },
};

export default suite;
