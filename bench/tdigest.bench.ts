/**
 * t-digest: redstruct's TDigest (RedisBloom's TDIGEST.* to the double) against `tdigest` 0.1.3 (the
 * npm t-digest, 19M downloads a month) and `@datadog/sketches-js` 2.1 (DDSketch, a log-bucket
 * histogram with a relative-value guarantee — a different algorithm, shown beside, no goal).
 *
 * - add: each task call adds the next 1000 of 10^6 doubles (uniform in [0, 1000)) to one digest per
 *   implementation, starting a fresh one when the 10^6 are used up, so the figure is the throughput
 *   of filling a digest with 10^6 values. Compression 100 (tdigest's delta 0.01, its default);
 *   DDSketch at its default 1 % relative accuracy.
 * - quantile: 1000 quantiles q = (j + 0.5)/1000 per task call on a digest of the same 10^6 values.
 * - accuracy: n values (2·10^5; 10^6 with --full) of each distribution — uniform(0, 1), normal(0, 1),
 *   lognormal(0, 1), Pareto(α = 1.2, x_m = 1) — added to one digest per implementation; at q = 0.5,
 *   0.9, 0.99, 0.999 the estimate e is compared with the sorted data: rank error |F(e) − q| (F the
 *   data's mid-rank CDF, in units of q) and relative value error |e − x_q| / |x_q| (x_q the
 *   nearest-rank quantile).
 * - memory: 20 digests per implementation, each of N values (2·10^4; 10^5 with --full), each queried
 *   once; heapUsed + arrayBuffers delta after forced GC, per digest.
 * - by compression: redstruct's digest of the lognormal data at compressions 20 to 1000: rank error,
 *   centroids, bytes — what choosing a compression trades.
 * - ties: at compression 10^5 (capacity 600,010), a digest is filled with capacity − 1 values and the
 *   next `add`, the one that merges the whole buffer, is timed alone with performance.now(); the worst
 *   of several fills, for all-equal values, values from {0, 1}, integers 0..20 and distinct doubles.
 *   The goal: the worst call on all-equal data within 10× the distinct-data one.
 */
import { DDSketch } from "@datadog/sketches-js";
// @ts-expect-error tdigest ships no type declarations (the part used here is declared below)
import tdigestPackage from "tdigest";
import { TDigest } from "../src/tdigest/index.js";
import {
  type BenchContext,
  type Chart,
  compare,
  fillingTask,
  type Headline,
  heapUsed,
  markdownTable,
  ownLoop,
  prng,
  type Row,
  type Suite,
  throughputChart,
  throughputTable,
} from "./lib.js";

const { TDigest: NpmTDigest } = tdigestPackage as unknown as {
  TDigest: new (
    delta?: number,
  ) => { push(x: number): void; percentile(p: number): number; compress(): void; size(): number };
};

const BATCH = 1000;
const N = 1_000_000;

const ratioOf = (rows: Row[], a: string, b: string) =>
  rows.find((r) => r.name === a)!.opsPerSec / rows.find((r) => r.name === b)!.opsPerSec;

const OURS_ADD = "redstruct TDigest.add";
const NPM_ADD = "tdigest 0.1.3 push";
const DD_ADD = "DDSketch accept";
const OURS_Q = "redstruct TDigest.quantile";
const NPM_Q = "tdigest 0.1.3 percentile";
const DD_Q = "DDSketch getValueAtQuantile";

/** A growing digest of any implementation, as the timing loops see it. */
interface Sink {
  add?(x: number): unknown;
  push?(x: number): unknown;
  accept?(x: number): unknown;
}

// ——— throughput ——————————————————————————————————————————————————————————————————————

async function throughput(ctx: BenchContext) {
  const rand = prng(0x7d1);
  const values: number[] = Array.from({ length: N }, () => rand() * 1000);
  const ours = () => new TDigest({ compression: 100 });
  const npm = () => new NpmTDigest(0.01);
  const dd = () => new DDSketch();
  const addTask = (make: () => Sink, body: string) => fillingTask(make, body, values, BATCH);
  const addRows = await compare(
    ctx,
    "add, 10^6 doubles (compression 100)",
    {
      [OURS_ADD]: addTask(ours, "t.add(k[i]);"),
      [NPM_ADD]: addTask(npm, "t.push(k[i]);"),
      [DD_ADD]: addTask(dd, "t.accept(k[i]);"),
    },
    { baseline: NPM_ADD, batch: BATCH },
  );

  ctx.log("  building one digest of 10^6 values per implementation");
  const ourFull = ours();
  for (const v of values) ourFull.add(v);
  const npmFull = npm();
  for (const v of values) npmFull.push(v);
  npmFull.compress();
  const ddFull = dd();
  for (const v of values) ddFull.accept(v);
  const qs: number[] = Array.from({ length: BATCH }, (_, j) => (j + 0.5) / BATCH);
  const queryTask = <T>(t: T, body: string) => {
    const loop = ownLoop<T, number>(body);
    return () => loop(t, qs, 0, BATCH);
  };
  const quantileRows = await compare(
    ctx,
    "quantile, digest of 10^6 values",
    {
      [OURS_Q]: queryTask(ourFull, "s += t.quantile(k[i]);"),
      [NPM_Q]: queryTask(npmFull, "s += t.percentile(k[i]);"),
      [DD_Q]: queryTask(ddFull, "s += t.getValueAtQuantile(k[i]);"),
    },
    { baseline: NPM_Q, batch: BATCH },
  );
  return { addRows, quantileRows };
}

// ——— accuracy ————————————————————————————————————————————————————————————————————————

const QS = [0.5, 0.9, 0.99, 0.999];

/** The distributions: a sampler from uniform draws. */
function distributions(): { name: string; draw: (u: () => number) => number }[] {
  const normal = (u: () => number) => {
    // Box–Muller; 1 − u avoids log(0).
    const r = Math.sqrt(-2 * Math.log(1 - u()));
    return r * Math.cos(2 * Math.PI * u());
  };
  return [
    { name: "uniform(0, 1)", draw: (u) => u() },
    { name: "normal(0, 1)", draw: normal },
    { name: "lognormal(0, 1)", draw: (u) => Math.exp(normal(u)) },
    { name: "Pareto(α = 1.2)", draw: (u) => (1 - u()) ** (-1 / 1.2) },
  ];
}

/** How many of `sorted` are below `e` (or, with `orEqual`, at most `e`). */
function countBelow(sorted: Float64Array, e: number, orEqual: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < e || (orEqual && sorted[mid] === e)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** F(e), the data's mid-rank CDF: the fraction below e plus half the fraction equal to it. */
function midRank(sorted: Float64Array, e: number): number {
  return (countBelow(sorted, e, false) + countBelow(sorted, e, true)) / 2 / sorted.length;
}

interface Accuracy {
  distribution: string;
  q: number;
  exact: number;
  /** Per implementation: the estimate, its rank error and its relative value error. */
  estimates: Record<string, { estimate: number; rankError: number; valueError: number }>;
}

function accuracy(ctx: BenchContext, n: number): Accuracy[] {
  const out: Accuracy[] = [];
  for (const dist of distributions()) {
    ctx.log(`  accuracy, ${dist.name}, n = ${n}`);
    const u = prng(0x7d2 + out.length);
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = dist.draw(u);
    const ours = new TDigest({ compression: 100 });
    const npm = new NpmTDigest(0.01);
    const dd = new DDSketch();
    for (let i = 0; i < n; i++) {
      const x = data[i]!;
      ours.add(x);
      npm.push(x);
      dd.accept(x);
    }
    npm.compress();
    const sorted = data.slice().sort();
    const cdf = (e: number) => midRank(sorted, e);
    for (const q of QS) {
      const exact = sorted[Math.max(0, Math.ceil(q * n) - 1)]!;
      const estimates: Accuracy["estimates"] = {};
      const est: [string, number][] = [
        ["redstruct TDigest", ours.quantile(q)],
        ["tdigest 0.1.3", npm.percentile(q)],
        ["DDSketch (1 %)", dd.getValueAtQuantile(q)],
      ];
      for (const [name, e] of est) {
        estimates[name] = {
          estimate: e,
          rankError: Math.abs(cdf(e) - q),
          valueError: Math.abs(e - exact) / Math.abs(exact),
        };
      }
      out.push({ distribution: dist.name, q, exact, estimates });
    }
  }
  return out;
}

// ——— choosing a compression ———————————————————————————————————————————————————————————

const COMPRESSIONS = [20, 50, 100, 200, 500, 1000];

/** redstruct's TDigest at several compressions on lognormal data: rank error, centroids, bytes. */
function compressions(ctx: BenchContext, n: number) {
  ctx.log(`  compressions ${COMPRESSIONS.join(", ")}, lognormal, n = ${n}`);
  const u = prng(0x7d4);
  const lognormal = distributions()[2]!;
  const data = new Float64Array(n);
  for (let i = 0; i < n; i++) data[i] = lognormal.draw(u);
  const sorted = data.slice().sort();
  return COMPRESSIONS.map((c) => {
    const d = new TDigest({ compression: c });
    d.addAll(data);
    const errors = QS.map((q) => Math.abs(midRank(sorted, d.quantile(q)) - q));
    return {
      compression: c,
      errors,
      centroids: d.info().mergedNodes,
      byteLength: d.byteLength,
      redis: d.info().byteLength,
    };
  });
}

// ——— ties ——————————————————————————————————————————————————————————————————————————————

const TIE_COMPRESSION = 100_000;
const EQUAL = "all equal";
const DISTINCT = "distinct doubles";

/** The worst single `add` (the one that merges a full buffer) at compression 10^5, per kind of data. */
function ties(ctx: BenchContext) {
  const cap = 6 * TIE_COMPRESSION + 10;
  const trials = ctx.full ? 7 : 3;
  const rand = prng(0x7d5);
  const kinds: [string, () => number][] = [
    [EQUAL, () => 42.5],
    ["two values {0, 1}", () => (rand() < 0.5 ? 0 : 1)],
    ["integers 0..20", () => Math.floor(rand() * 21)],
    [DISTINCT, () => rand()],
  ];
  const rows: { kind: string; worstMs: number; medianMs: number }[] = [];
  for (const [kind, draw] of kinds) {
    ctx.log(`  ties, ${kind}: ${trials} fills of ${cap - 1} values, compression ${TIE_COMPRESSION}`);
    const values = new Float64Array(cap);
    for (let i = 0; i < cap; i++) values[i] = draw();
    const times: number[] = [];
    for (let t = 0; t < trials; t++) {
      const d = new TDigest({ compression: TIE_COMPRESSION });
      d.addAll(values.subarray(0, cap - 1));
      const t0 = performance.now();
      d.add(values[cap - 1]!);
      times.push(performance.now() - t0);
      if (d.info().totalCompressions !== 1) throw new Error("the timed add did not merge the buffer");
    }
    times.sort((a, b) => a - b);
    rows.push({ kind, worstMs: times[times.length - 1]!, medianMs: times[times.length >> 1]! });
  }
  const worst = (kind: string) => rows.find((r) => r.kind === kind)!.worstMs;
  return {
    compression: TIE_COMPRESSION,
    capacity: cap,
    trials,
    rows,
    equalOverDistinct: worst(EQUAL) / worst(DISTINCT),
  };
}

// ——— memory ——————————————————————————————————————————————————————————————————————————

const keep: { value: unknown } = { value: undefined };

function memory(ctx: BenchContext, perDigest: number) {
  const count = 20;
  const used = () => heapUsed() + process.memoryUsage().arrayBuffers;
  const rand = prng(0x7d3);
  const values = Array.from({ length: perDigest }, () => rand() * 1000);
  const measure = (build: () => unknown) => {
    const before = used();
    const all: unknown[] = [];
    for (let i = 0; i < count; i++) all.push(build());
    keep.value = all;
    const after = used();
    keep.value = undefined;
    return (after - before) / count;
  };
  ctx.log(`  memory, ${count} digests of ${perDigest} values`);
  let byteLength = 0;
  let redisMemory = 0;
  const rows = [
    {
      name: "redstruct TDigest (compression 100)",
      bytes: measure(() => {
        const d = new TDigest({ compression: 100 });
        for (const v of values) d.add(v);
        d.quantile(0.5);
        byteLength = d.byteLength;
        redisMemory = d.info().byteLength;
        return d;
      }),
    },
    {
      name: "tdigest 0.1.3 (delta 0.01)",
      bytes: measure(() => {
        const d = new NpmTDigest(0.01);
        for (const v of values) d.push(v);
        d.compress();
        d.percentile(0.5);
        return d;
      }),
    },
    {
      name: "DDSketch (1 %)",
      bytes: measure(() => {
        const d = new DDSketch();
        for (const v of values) d.accept(v);
        d.getValueAtQuantile(0.5);
        return d;
      }),
    },
  ];
  return { perDigest, count, rows, byteLength, redisMemory };
}

// ——— the suite ———————————————————————————————————————————————————————————————————————

const pct = (x: number) => (x === 0 ? "0" : x < 1e-4 ? `${(x * 100).toExponential(1)} %` : `${(x * 100).toFixed(3)} %`);

const suite: Suite = {
  name: "tdigest",
  description: "TDigest add / quantile vs tdigest 0.1.3 and DDSketch; accuracy and memory per digest",
  async run(ctx) {
    const tp = await throughput(ctx);
    const acc = accuracy(ctx, ctx.full ? 1_000_000 : 200_000);
    const mem = memory(ctx, ctx.full ? 100_000 : 20_000);
    const byCompression = compressions(ctx, ctx.full ? 1_000_000 : 200_000);
    const tie = ties(ctx);
    const names = ["redstruct TDigest", "tdigest 0.1.3", "DDSketch (1 %)"];
    const accTable = markdownTable(
      ["distribution", "q", ...names.map((n) => `${n}: rank error`), ...names.map((n) => `${n}: value error`)],
      acc.map((a) => [
        a.distribution,
        a.q,
        ...names.map((n) => pct(a.estimates[n]!.rankError)),
        ...names.map((n) => pct(a.estimates[n]!.valueError)),
      ]),
    );
    const memTable = markdownTable(
      ["implementation", "bytes per digest"],
      mem.rows.map((r) => [r.name, Math.round(r.bytes)]),
    );
    const addVsNpm = ratioOf(tp.addRows, OURS_ADD, NPM_ADD);
    const qVsNpm = ratioOf(tp.quantileRows, OURS_Q, NPM_Q);
    const markdown = [
      throughputTable("add, 10^6 doubles, compression 100 (batches of 1000)", tp.addRows),
      throughputTable("quantile, digest of 10^6 values (batches of 1000 quantiles)", tp.quantileRows),
      `**Accuracy**, n = ${ctx.full ? "10^6" : "2·10^5"} per distribution, compression 100 / delta 0.01 / ` +
        "1 % relative accuracy. Rank error |F(estimate) − q|, value error |estimate − x_q| / |x_q|.\n",
      accTable,
      "",
      `**Memory per digest** (${mem.count} digests of ${mem.perDigest} values each, queried once; heapUsed + ` +
        `arrayBuffers deltas after forced GC). redstruct's typed arrays: ${mem.byteLength} B (\`byteLength\`); ` +
        `the same digest in RedisBloom: ${mem.redisMemory} B (TDIGEST.INFO "Memory usage").\n`,
      memTable,
      "",
      `**redstruct TDigest by compression** (lognormal(0, 1), n = ${ctx.full ? "10^6" : "2·10^5"}; rank error as above; ` +
        "centroids after the last merge; bytes held here and in RedisBloom)\n",
      markdownTable(
        ["compression", ...QS.map((q) => `rank error, q = ${q}`), "centroids", "byteLength", "RedisBloom memory"],
        byCompression.map((r) => [r.compression, ...r.errors.map(pct), r.centroids, r.byteLength, r.redis]),
      ),
      "",
      `**Tied values**: the worst single \`add\` at compression ${tie.compression} (the one that merges a full ` +
        `buffer of ${tie.capacity - 1} values), over ${tie.trials} fills. All equal / distinct: ` +
        `${tie.equalOverDistinct.toFixed(2)}× (goal ≤ 10×).\n`,
      markdownTable(
        ["data", "worst add (ms)", "median (ms)"],
        tie.rows.map((r) => [r.kind, r.worstMs.toFixed(1), r.medianMs.toFixed(1)]),
      ),
      "",
    ].join("\n");
    const charts: Chart[] = [
      { name: "add", spec: throughputChart("t-digest add, 10^6 doubles", tp.addRows) },
      { name: "quantile", spec: throughputChart("t-digest quantile, 10^6 values", tp.quantileRows) },
    ];
    const headlines: Headline[] = [
      { structure: "TDigest", operation: "add, 10^6 doubles", versus: "tdigest 0.1.3", ratio: addVsNpm, goal: 2 },
      {
        structure: "TDigest",
        operation: "add, 10^6 doubles",
        versus: "DDSketch 2.1.1",
        ratio: ratioOf(tp.addRows, OURS_ADD, DD_ADD),
      },
      {
        structure: "TDigest",
        operation: "quantile, 10^6 values",
        versus: "tdigest 0.1.3",
        ratio: qVsNpm,
        goal: 5,
      },
    ];
    headlines.push({
      structure: "TDigest",
      operation: "worst add, all-equal values (compression 10^5)",
      versus: "distinct values",
      ratio: 1 / tie.equalOverDistinct,
      goal: 0.1,
    });
    return { markdown, data: { ...tp, accuracy: acc, memory: mem, byCompression, ties: tie }, charts, headlines };
  },
};

export default suite;
