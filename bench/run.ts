/**
 * `npm run bench [-- --full] [--record] [suite …]`: runs every bench/*.bench.ts suite (or the named
 * ones), prints progress while it runs and a summary table of the headline ratios at the end, and
 * writes <suite>.json, <suite>-<chart>.svg and a Markdown summary README.md (merged with the sections
 * of suites not run this time) into bench/results/latest/, which git ignores. With `--record` it
 * writes the results of record into bench/results/ instead, which docs/benchmarks.md quotes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as vega from "vega";
import { compile } from "vega-lite";
import { type BenchContext, type Headline, markdownTable, type Suite } from "./lib.js";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const known = new Set(["--full", "--record"]);
const unknown = args.filter((a) => a.startsWith("--") && !known.has(a));
if (unknown.length > 0) throw new Error(`unknown flag ${unknown.join(", ")}; known: ${[...known].join(", ")}`);
const full = args.includes("--full");
const record = args.includes("--record");
const wanted = args.filter((a) => !a.startsWith("--"));
const resultsDir = join(here, "results", ...(record ? [] : ["latest"]));

if (!(globalThis as { gc?: unknown }).gc) {
  console.log("(memory figures need --expose-gc; npm run bench passes it)");
}

const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .sort();
const suites: Suite[] = [];
for (const f of files) {
  const suite = (await import(pathToFileURL(join(here, f)).href)).default as Suite;
  if (wanted.length === 0 || wanted.includes(suite.name)) suites.push(suite);
}
if (suites.length === 0) throw new Error(`no suite matches ${wanted.join(", ")}; have ${files.join(", ")}`);

mkdirSync(resultsDir, { recursive: true });
const started = Date.now();
const ctx: BenchContext = {
  full,
  log: (m) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}`),
};

async function renderSvg(spec: Record<string, unknown>): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec as never).spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

// The summary keeps one section per suite between markers, so running one suite updates only it.
const summaryPath = join(resultsDir, "README.md");
const fresh = new Map<string, string>();
const headlines: Headline[] = [];

const environment = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: `${cpus()[0]?.model ?? "unknown"} × ${cpus().length}`,
  mode: full ? "full" : "quick",
};

/** The summary table's rows: structure, operation, versus, ratio, goal met or not. */
function headlineRows(list: readonly Headline[]): string[][] {
  return list.map((h) => [
    h.structure,
    h.operation,
    h.versus,
    `${h.ratio.toFixed(2)}×`,
    h.goal === undefined ? "" : `${h.ratio >= h.goal ? "met" : "not met"} (≥ ${h.goal}×)`,
  ]);
}

for (const suite of suites) {
  ctx.log(`suite ${suite.name}: ${suite.description}`);
  const t0 = Date.now();
  const report = await suite.run(ctx);
  const seconds = (Date.now() - t0) / 1000;
  headlines.push(...(report.headlines ?? []));
  writeFileSync(
    join(resultsDir, `${suite.name}.json`),
    `${JSON.stringify({ suite: suite.name, environment, seconds, data: report.data }, null, 1)}\n`,
  );
  let charts = "";
  for (const chart of report.charts ?? []) {
    const file = `${suite.name}-${chart.name}.svg`;
    writeFileSync(join(resultsDir, file), await renderSvg(chart.spec));
    charts += `\n![${chart.name}](${file})\n`;
  }
  const stamp = `_${environment.date.slice(0, 10)}, Node ${environment.node}, ${environment.cpu}, ${environment.mode} mode, ${seconds.toFixed(0)} s_`;
  const summary = report.headlines?.length
    ? `**Headline ratios** (higher is better)\n\n${markdownTable(["structure", "operation", "versus", "ratio", "goal"], headlineRows(report.headlines))}\n\n`
    : "";
  fresh.set(
    suite.name,
    `## ${suite.name}\n\n${suite.description}\n\n${stamp}\n\n${summary}${report.markdown}\n${charts}\n`,
  );
  ctx.log(`suite ${suite.name} done in ${seconds.toFixed(0)} s`);
}

// Read the other suites' sections only now, so a suite run meanwhile in another process keeps its own.
const sections = new Map<string, string>();
if (existsSync(summaryPath)) {
  for (const m of readFileSync(summaryPath, "utf8").matchAll(/<!-- suite:(\S+) -->\n([\s\S]*?)<!-- \/suite -->/g)) {
    sections.set(m[1]!, m[2]!);
  }
}
for (const [name, text] of fresh) sections.set(name, text);
const body = [...sections.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, text]) => `<!-- suite:${name} -->\n${text}<!-- /suite -->`)
  .join("\n\n");
writeFileSync(
  summaryPath,
  `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.ts). Ratios are measured within one run on the machine named in each section; absolute numbers are not comparable across machines.\n\n${body}\n`,
);
ctx.log(`wrote ${summaryPath}`);

// What the user ran it for: each structure against its baseline and best peer, from this run.
const rows = headlineRows(headlines);
console.log(
  `\nSummary (${environment.mode} mode, ${environment.node}, ${environment.cpu}, ${((Date.now() - started) / 1000).toFixed(0)} s): ` +
    "throughput of each structure divided by that of the baseline or peer, measured in this run; higher is better.\n",
);
console.log(
  markdownTable(
    ["structure", "operation", "versus", "ratio", "goal"],
    rows.length > 0 ? rows : [["—", "", "", "", ""]],
  ),
);
console.log(`\nDetails, tables and charts: ${summaryPath}`);
