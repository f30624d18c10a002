/**
 * The benchmark harness every suite under bench/ uses.
 *
 * A suite is a `bench/<name>.bench.ts` file whose default export is a {@link Suite}. It measures
 * with tinybench via {@link compare} (throughput of several implementations of the same job, in one
 * run, as ratios to a baseline) or by its own timing loop for latency and error-rate reports, and
 * returns a {@link SuiteReport}: Markdown for the summary, raw data for the JSON file, and Vega-Lite
 * chart specs that bench/run.ts renders to SVG (server-side, no browser).
 */
import { Bench } from "tinybench";
import { mulberry32 } from "../src/internal/random.js";

export interface BenchContext {
  /** `npm run bench -- --full`: larger sizes, more trials. */
  readonly full: boolean;
  /** Prints a progress line (suites run for minutes; say what is happening). */
  log(message: string): void;
}

/** A Vega-Lite specification (kept loose so suites need not import vega-lite's types). */
export type ChartSpec = Record<string, unknown>;

export interface Chart {
  /** File-name part: the SVG is written to bench/results/<suite>-<name>.svg. */
  name: string;
  spec: ChartSpec;
}

export interface SuiteReport {
  /** Markdown for bench/results/README.md (no top-level heading; run.ts adds one). */
  markdown: string;
  /** Everything measured, written to bench/results/<suite>.json. */
  data: unknown;
  charts?: Chart[];
  /** The few ratios `npm run bench` prints in its closing console summary: what a user ran it for. */
  headlines?: Headline[];
}

/** One line of the console summary: `structure operation` is `ratio`× `versus` (higher is better). */
export interface Headline {
  /** e.g. "RedisBloomFilter". */
  structure: string;
  /** e.g. "has, 10^6 keys". */
  operation: string;
  /** The baseline or peer the ratio is measured against, e.g. "bloomfilter 1.1.0". */
  versus: string;
  /** Throughput (or accuracy) of `structure` divided by that of `versus`, in one run. */
  ratio: number;
  /** The issue's goal for this ratio, when there is one (e.g. 1 for "≥ 1×"). */
  goal?: number;
}

export interface Suite {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<SuiteReport>;
}

export interface Row {
  name: string;
  /** Operations per second, each call of the task counting `batch` operations. */
  opsPerSec: number;
  /** Relative margin of error of the mean, in percent. */
  rme: number;
  samples: number;
  /** opsPerSec divided by the baseline's, measured in the same run. */
  ratio: number;
}

export interface CompareOptions {
  /** Name of the task the others are divided by. */
  baseline: string;
  /** Operations performed by one call of each task (e.g. a loop over 1000 keys). */
  batch?: number;
  /** Milliseconds to spend on each task (default 500; ×0.6 in quick mode, ×3 in --full). */
  time?: number;
  /** Runs before each task's measurement (outside the timed region). */
  beforeTask?: (name: string) => void | Promise<void>;
  /** Runs before every timed call of every task (outside the timed region), e.g. to reset a server. */
  beforeEach?: (name: string) => void | Promise<void>;
}

/**
 * Runs every task under the same conditions, one after another, and returns throughput rows with
 * ratios to the baseline. All tasks of one comparison run in the same process and run, so ratios
 * are meaningful even on a noisy shared machine; absolute numbers are not.
 *
 * In --full mode the tasks run in three interleaved rounds (A B C, A B C, A B C) of a third of the
 * time each, and each task's row is its median round: a burst of noise from another process on the
 * shared machine then spoils one round of one task instead of its whole figure (single-round --full
 * runs minutes apart had the same Bloom `has` at 1.14× and 1.90× of its baseline).
 */
export async function compare(
  ctx: BenchContext,
  title: string,
  tasks: Record<string, () => unknown>,
  options: CompareOptions,
): Promise<Row[]> {
  const batch = options.batch ?? 1;
  const rounds = ctx.full ? 3 : 1;
  // Quick mode keeps `npm run bench` within its few-minute budget; --full spends five times as long.
  const time = ((options.time ?? 500) * (ctx.full ? 3 : 0.6)) / rounds;
  ctx.log(`  ${title}: ${Object.keys(tasks).join(", ")}${rounds > 1 ? ` (${rounds} rounds)` : ""}`);
  const perTask = new Map<string, Row[]>();
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, iterations: 8, name: title });
    for (const [name, fn] of Object.entries(tasks)) {
      bench.add(name, fn, {
        ...(options.beforeTask ? { beforeAll: () => options.beforeTask!(name) } : {}),
        ...(options.beforeEach ? { beforeEach: () => options.beforeEach!(name) } : {}),
      });
    }
    await bench.run();
    for (const t of bench.tasks) {
      const r = t.result;
      if (r.state === "errored") throw new Error(`${title} / ${t.name}: ${r.error.message}`, { cause: r.error });
      if (r.state !== "completed") throw new Error(`${title} / ${t.name}: ${r.state}`);
      const row = {
        name: t.name,
        opsPerSec: r.throughput.mean * batch,
        rme: r.latency.rme,
        samples: r.latency.samplesCount,
        ratio: 0,
      };
      perTask.set(t.name, [...(perTask.get(t.name) ?? []), row]);
    }
  }
  const rows = [...perTask.values()].map(
    (runs) => [...runs].sort((a, b) => a.opsPerSec - b.opsPerSec)[runs.length >> 1]!,
  );
  const base = rows.find((r) => r.name === options.baseline);
  if (!base) throw new Error(`${title}: baseline ${options.baseline} is not a task`);
  for (const r of rows) r.ratio = r.opsPerSec / base.opsPerSec;
  return rows;
}

/**
 * A timing loop compiled on its own: `body` runs for each `i` in `[from, from + count)` with `t` the
 * structure under test and `k` the keys, adding to `s`, which is returned (a sink for results).
 *
 * Why not one closure shared by every task: closures made from one function literal share V8's
 * type feedback, so a shared loop's `t.get(k[i])` sees every contender and goes megamorphic, and
 * each contender then pays an order-dependent price (measured: the same Bloom `has` code path at
 * 1.04× and 1.49× of the baseline depending on its place in the task list). Compiling each task's
 * loop from source gives every contender its own monomorphic call site, as in user code that calls
 * one structure. Each call's source ends with a comment of its own: V8 caches `new Function` by its
 * source text, and functions compiled from the same text share one feedback vector, so two
 * contenders given the same body would again share one call site (measured: five classes through
 * one body text at 1.4 … 3.0 ns per call, through five texts at 1.4 ns each).
 */
export function ownLoop<T, K>(body: string): (t: T, k: readonly K[], from: number, count: number) => number {
  return new Function(
    "t",
    "k",
    "from",
    "count",
    `let s = 0; for (let i = from; i < from + count; i++) { ${body} } return s; // loop ${++loopsCompiled}`,
  ) as (t: T, k: readonly K[], from: number, count: number) => number;
}

/** Loops compiled so far by {@link ownLoop}: the number that makes each one's source unique. */
let loopsCompiled = 0;

/**
 * A task that feeds the next `batch` of `items` to a structure through its own compiled loop
 * (`body`, see {@link ownLoop}), and starts over on a fresh `make()` when the items run out, so an
 * insert benchmark always inserts into a structure of the sizes the items reach.
 */
export function fillingTask<T, K>(make: () => T, body: string, items: readonly K[], batch: number): () => void {
  const loop = ownLoop<T, K>(body);
  let target = make();
  let cursor = 0;
  return () => {
    if (cursor + batch > items.length) {
      target = make();
      cursor = 0;
    }
    loop(target, items, cursor, batch);
    cursor += batch;
  };
}

/** Formats a number of operations per second compactly (3 significant digits). */
export function formatOps(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toPrecision(3)}G`;
  if (n >= 1e6) return `${(n / 1e6).toPrecision(3)}M`;
  if (n >= 1e3) return `${(n / 1e3).toPrecision(3)}k`;
  return n.toPrecision(3);
}

/** A Markdown table. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The standard throughput table: ops/s, ±%, and the ratio to the baseline. */
export function throughputTable(title: string, rows: Row[]): string {
  return `**${title}**\n\n${markdownTable(
    ["implementation", "ops/s", "± %", "vs baseline"],
    rows.map((r) => [r.name, formatOps(r.opsPerSec), r.rme.toFixed(1), `${r.ratio.toFixed(2)}×`]),
  )}\n`;
}

/** A chart title with its caption: what is measured and which direction is better. */
function titled(title: string, caption: string): ChartSpec {
  return { text: title, subtitle: caption, subtitleColor: "#555", anchor: "start" };
}

/**
 * A chart of y against x, one colour per series; log scales optional. `points` draws each sample
 * alone (single-operation latencies, which a line would join into a trend that is not there);
 * otherwise consecutive x of one series are joined. `caption` says what the reader looks for
 * ("lower is better"); `goal` draws the target as a dashed rule.
 */
export function lineChart(options: {
  title: string;
  caption: string;
  data: { x: number; y: number; series: string }[];
  xTitle: string;
  yTitle: string;
  xLog?: boolean;
  yLog?: boolean;
  points?: boolean;
  goal?: { y: number; label: string };
  /** Extra layers (e.g. a theoretical band) in Vega-Lite form. */
  layers?: ChartSpec[];
}): ChartSpec {
  const marks: ChartSpec = {
    mark: options.points ? { type: "point", filled: true, size: 18, opacity: 0.7 } : { type: "line", point: true },
    encoding: {
      x: { field: "x", type: "quantitative", title: options.xTitle, scale: options.xLog ? { type: "log" } : {} },
      y: { field: "y", type: "quantitative", title: options.yTitle, scale: options.yLog ? { type: "log" } : {} },
      color: { field: "series", type: "nominal", title: null },
    },
  };
  const layers = [...(options.layers ?? []), marks];
  if (options.goal) layers.push(...goalRule("y", options.goal.y, options.goal.label));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: titled(options.title, options.caption),
    width: 640,
    height: 360,
    data: { values: options.data },
    layer: layers,
  };
}

/** A dashed rule with its label at `value` on axis `axis` (the goal of a chart). */
function goalRule(axis: "x" | "y", value: number, label: string): ChartSpec[] {
  const at = { [axis]: { datum: value } };
  // One-row data of their own: inheriting the chart's data would draw the rule and label once per row.
  const one = { values: [{}] };
  return [
    { data: one, mark: { type: "rule", strokeDash: [6, 4], color: "#d62728" }, encoding: at },
    {
      data: one,
      mark: { type: "text", color: "#d62728", align: "left", dx: 4, dy: -6 },
      encoding: { ...at, text: { value: label } },
    },
  ];
}

/** A horizontal bar chart of values by name (e.g. ops/s per implementation); `goal` as on {@link lineChart}. */
export function barChart(options: {
  title: string;
  caption: string;
  data: { name: string; value: number }[];
  valueTitle: string;
  goal?: { value: number; label: string };
}): ChartSpec {
  const bars: ChartSpec = {
    mark: "bar",
    encoding: {
      y: { field: "name", type: "nominal", sort: "-x", title: null },
      x: { field: "value", type: "quantitative", title: options.valueTitle },
    },
  };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: titled(options.title, options.caption),
    width: 560,
    height: { step: 24 },
    data: { values: options.data },
    layer: options.goal ? [bars, ...goalRule("x", options.goal.value, options.goal.label)] : [bars],
  };
}

/** Bar chart of a throughput comparison. */
export function throughputChart(title: string, rows: Row[]): ChartSpec {
  return barChart({
    title,
    caption: "operations per second, higher is better; all bars measured in one run",
    data: rows.map((r) => ({ name: r.name, value: r.opsPerSec })),
    valueTitle: "operations per second",
  });
}

/** Throughput of row `a` divided by that of row `b`, from one comparison's rows. */
export function ratioOf(rows: readonly Row[], a: string, b: string): number {
  return rows.find((r) => r.name === a)!.opsPerSec / rows.find((r) => r.name === b)!.opsPerSec;
}

/** Deterministic PRNG of floats in [0, 1) so every suite draws the same inputs on every run. */
export function prng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** `count` distinct ASCII strings such as "user:1f3a9c:42", deterministic for a seed. */
export function distinctStrings(count: number, seed = 1, prefix = "user:"): string[] {
  const rand = prng(seed);
  const salt = Math.floor(rand() * 0xffffff).toString(16);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = `${prefix}${salt}:${i.toString(36)}`;
  return out;
}

/** Heap used after a forced GC when node runs with --expose-gc (tsx passes it via run.ts), else NaN. */
export function heapUsed(): number {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) return Number.NaN;
  g();
  g();
  return process.memoryUsage().heapUsed;
}

/** The first index of the sorted array `a` whose value is ≥ x (a.length when none): a binary search. */
export function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
