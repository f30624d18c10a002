/**
 * Error-rate report for the HyperLogLog family: relative error (bias and RMSE over independent
 * trials) against the true cardinality, at precisions 10, 12 and 14, for
 * - HyperLogLog with Ertl's estimator (PFCOUNT's), the classic one, and the martingale (HIP) one;
 * - UltraLogLog with FGRA, maximum likelihood and the martingale estimator;
 * - UltraLogLog at p − 1 (FGRA, by exact downsizing of the same sketch): about 2/3 of HyperLogLog's
 *   memory at p (2^(p−1) bytes against 6·2^p bits);
 * - ExaLogLog (t = 2, d = 24: 32-bit registers) with maximum likelihood and the martingale estimator;
 * with the published constants (1.04, 0.833, 0.782, 0.761, 0.658 over √m; for ExaLogLog the register
 * model's asymptotic 0.345 and 0.307, memory-variance products 3.80 and 3.01) drawn as bands of the
 * sampling uncertainty of an RMSE over this many trials, the memory-variance product (register
 * bits × RMSE², the error at equal memory), and the coverage of `bounds()` at 1, 2, 3 standard
 * deviations per cardinality (at p = 10).
 *
 * Simulation: each trial feeds both sketches the same uniformly random 64-bit hashes through
 * `addHash` instead of hashing distinct strings. For a good 64-bit hash, distinct elements hash to
 * independent uniform values, so this is statistically the same experiment (it is how Flajolet et
 * al. and Ertl evaluate these sketches) and far cheaper. The hashes come from xoshiro128**, seeded
 * per trial with splitmix32 from a fixed seed, so the report is reproducible.
 *
 * Quick mode (the default, under a minute): 100 trials up to 10^6, 4 cardinalities per decade; an
 * RMSE is then uncertain by ±14 % of itself (95 %), so goals are only indicative. Full mode
 * (`--full`, ≈ 10 minutes): 300 trials up to 10^7, 5 per decade (±8 %).
 */
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../src/hll/index.js";
import { type BenchContext, type ChartSpec, type Headline, lineChart, markdownTable, type Suite } from "./lib.js";

const PRECISIONS = [10, 12, 14];
const COVERAGE_PRECISION = 10;
const SERIES = [
  "HLL ertl",
  "HLL classic",
  "HLL martingale",
  "ULL fgra",
  "ULL ml",
  "ULL martingale",
  "ULL(p−1) fgra",
  "ELL ml",
  "ELL martingale",
] as const;
type Series = (typeof SERIES)[number];
/** Published asymptotic RMSE × √m (for ULL(p−1), relative to its own m = 2^(p−1)). */
const CONSTANT: Record<Series, number> = {
  "HLL ertl": 1.04,
  "HLL classic": 1.04,
  "HLL martingale": 0.833,
  "ULL fgra": 0.782,
  "ULL ml": 0.761,
  "ULL martingale": 0.658,
  "ULL(p−1) fgra": 0.782 * Math.SQRT2,
  // √(MVP/32): the Fisher information of the register model (ML) and the martingale's asymptotic
  // variance, computed from the update-value distribution (docs/hll.md).
  "ELL ml": Math.sqrt(3.8 / 32),
  "ELL martingale": Math.sqrt(3.01 / 32),
};
/** Register storage in bits, per register of the sketch at p. */
const BITS = (s: Series, m: number) =>
  s.startsWith("HLL") ? 6 * m : s.startsWith("ULL(p−1)") ? 4 * m : s.startsWith("ELL") ? 32 * m : 8 * m;
const COVERED: readonly { name: string; sketch: "hll" | "ull" | "ell"; estimator: string }[] = [
  { name: "HLL ertl", sketch: "hll", estimator: "ertl" },
  { name: "HLL martingale", sketch: "hll", estimator: "martingale" },
  { name: "ULL fgra", sketch: "ull", estimator: "fgra" },
  { name: "ULL ml", sketch: "ull", estimator: "ml" },
  { name: "ULL martingale", sketch: "ull", estimator: "martingale" },
  { name: "ELL ml", sketch: "ell", estimator: "ml" },
  { name: "ELL martingale", sketch: "ell", estimator: "martingale" },
];
/** The memory-variance goals of ExaLogLog at p = 12, pooled over 10m ≤ n ≤ 10^6 (and below UltraLogLog's). */
const MVP_GOALS: readonly [Series, number, Series][] = [
  ["ELL ml", 3.9, "ULL ml"],
  ["ELL martingale", 3.0, "ULL martingale"],
];
const MVP_PRECISION = 12;
const MVP_MAX = 1_000_000;
const NOMINAL = [0.6827, 0.9545, 0.9973];

interface Point {
  n: number;
  bias: Record<Series, number>;
  rmse: Record<Series, number>;
  /** coverage[name][z − 1], at COVERAGE_PRECISION only. */
  coverage?: Record<string, number[]>;
}

function checkpoints(m: number, max: number, perDecade: number): number[] {
  const set = new Set<number>([1, 2, 3, 5]);
  for (let k = perDecade; 10 ** (k / perDecade) <= max * 1.0001; k++) set.add(Math.round(10 ** (k / perDecade)));
  for (const f of [0.5, 1, 2.5, 5]) if (f * m <= max) set.add(Math.round(f * m));
  return [...set].sort((a, b) => a - b);
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

function simulate(ctx: BenchContext, p: number, trials: number, points: number[], seed: number): Point[] {
  const k = points.length;
  const sum = SERIES.map(() => new Float64Array(k));
  const sum2 = SERIES.map(() => new Float64Array(k));
  const withCoverage = p === COVERAGE_PRECISION;
  const hits = COVERED.map(() => Array.from({ length: k }, () => [0, 0, 0]));
  const seeder = splitmix32(seed);
  const started = Date.now();
  for (let t = 0; t < trials; t++) {
    const h = new HyperLogLog({ precision: p });
    const u = new UltraLogLog({ precision: p });
    const e = new ExaLogLog({ precision: p });
    let s0 = seeder() | 1;
    let s1 = seeder();
    let s2 = seeder();
    let s3 = seeder();
    let n = 0;
    for (let j = 0; j < k; j++) {
      const target = points[j]!;
      for (; n < target; n++) {
        // xoshiro128**, two outputs per hash (low and high halves), inlined for speed.
        let r = Math.imul(s1, 5);
        const lo = Math.imul((r << 7) | (r >>> 25), 9) >>> 0;
        let x = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= x;
        s3 = (s3 << 11) | (s3 >>> 21);
        r = Math.imul(s1, 5);
        const hi = Math.imul((r << 7) | (r >>> 25), 9) >>> 0;
        x = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= x;
        s3 = (s3 << 11) | (s3 >>> 21);
        h.addHash(lo, hi);
        u.addHash(lo, hi);
        e.addHash(lo, hi);
      }
      const estimates = [
        h.estimate("ertl"),
        h.estimate("classic"),
        h.estimate("martingale"),
        u.estimate("fgra"),
        u.estimate("ml"),
        u.estimate("martingale"),
        u.downsize(p - 1).estimate("fgra"),
        e.estimate({ estimator: "ml" }),
        e.estimate({ estimator: "martingale" }),
      ];
      for (let s = 0; s < SERIES.length; s++) {
        const e = estimates[s]! / target - 1;
        sum[s]![j]! += e;
        sum2[s]![j]! += e * e;
      }
      if (withCoverage) {
        COVERED.forEach((c, i) => {
          for (let z = 1; z <= 3; z++) {
            const b =
              c.sketch === "hll"
                ? h.bounds(z, c.estimator as "ertl" | "martingale")
                : c.sketch === "ull"
                  ? u.bounds(z, c.estimator as "fgra" | "ml" | "martingale")
                  : e.bounds(z, { estimator: c.estimator as "ml" | "martingale" });
            if (b.lower <= target && target <= b.upper) hits[i]![j]![z - 1]!++;
          }
        });
      }
    }
    if (t % 20 === 19)
      ctx.log(`    p=${p}: ${t + 1}/${trials} trials (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  return points.map((n, j) => {
    const bias = {} as Record<Series, number>;
    const rmse = {} as Record<Series, number>;
    SERIES.forEach((s, i) => {
      bias[s] = sum[i]![j]! / trials;
      rmse[s] = Math.sqrt(sum2[i]![j]! / trials);
    });
    const point: Point = { n, bias, rmse };
    if (withCoverage) {
      point.coverage = Object.fromEntries(COVERED.map((c, i) => [c.name, hits[i]![j]!.map((x) => x / trials)]));
    }
    return point;
  });
}

const pct = (x: number, digits = 2) => `${(100 * x).toFixed(digits)} %`;

/** Horizontal bands: each published constant ± the sampling uncertainty of a measured RMSE. */
function bands(m: number, slack: number, which: Series[]): ChartSpec[] {
  return which.map((s) => {
    const c = (100 * CONSTANT[s]) / Math.sqrt(s.startsWith("ULL(p−1)") ? m / 2 : m);
    return {
      data: { values: [{ lo: c * (1 - slack), hi: c * (1 + slack), label: `${s} ${CONSTANT[s].toFixed(3)}/√m` }] },
      mark: { type: "rect", opacity: 0.1, color: "#555" },
      encoding: { y: { field: "lo", type: "quantitative" }, y2: { field: "hi" } },
    };
  });
}

function charts(p: number, points: Point[], slack: number): { name: string; spec: ChartSpec }[] {
  const m = 2 ** p;
  const shown: Series[] = [
    "HLL ertl",
    "HLL martingale",
    "ULL fgra",
    "ULL ml",
    "ULL martingale",
    "ELL ml",
    "ELL martingale",
  ];
  const out = [
    {
      name: `rmse-p${p}`,
      spec: lineChart({
        title: `Relative RMSE vs n, p = ${p} (m = ${m})`,
        caption: "lower is better; grey bands: published constants/√m ± this run's sampling uncertainty",
        data: points.flatMap((pt) => shown.map((s) => ({ x: pt.n, y: 100 * pt.rmse[s], series: s }))),
        xTitle: "true cardinality",
        yTitle: "relative RMSE (%)",
        xLog: true,
        layers: bands(m, slack, shown),
      }),
    },
    {
      name: `bias-p${p}`,
      spec: lineChart({
        title: `Relative bias vs n, p = ${p}`,
        caption: "closer to 0 is better",
        data: points.flatMap((pt) => shown.map((s) => ({ x: pt.n, y: 100 * pt.bias[s], series: s }))),
        xTitle: "true cardinality",
        yTitle: "mean relative error (%)",
        xLog: true,
      }),
    },
    {
      name: `memory-p${p}`,
      spec: lineChart({
        title: `Error at equal memory, p = ${p}: memory-variance product (register bits × RMSE²)`,
        caption: `lower is better; HLL 6 bits/register, ULL 8, ELL 32; ULL(p−1) uses 2/3 of HLL's memory at p`,
        data: points.flatMap((pt) =>
          [...shown, "ULL(p−1) fgra" as const].map((s) => ({ x: pt.n, y: BITS(s, m) * pt.rmse[s] ** 2, series: s })),
        ),
        xTitle: "true cardinality",
        yTitle: "bits × RMSE²",
        xLog: true,
      }),
    },
  ];
  if (points[0]?.coverage) {
    out.push({
      name: `coverage-p${p}`,
      spec: lineChart({
        title: `bounds() coverage vs n, p = ${p}, at 1, 2, 3 standard deviations`,
        caption: "closer to the dashed nominal levels (68.3 / 95.4 / 99.7 %) is better",
        data: points.flatMap((pt) =>
          COVERED.flatMap((c) =>
            [0, 1, 2].map((z) => ({ x: pt.n, y: 100 * pt.coverage![c.name]![z]!, series: `${c.name} ${z + 1} sd` })),
          ),
        ),
        xTitle: "true cardinality",
        yTitle: "coverage (%)",
        xLog: true,
        layers: NOMINAL.map((v) => ({
          mark: { type: "rule", strokeDash: [6, 4], color: "#d62728" },
          encoding: { y: { datum: 100 * v } },
        })),
      }),
    });
  }
  return out;
}

const suite: Suite = {
  name: "hll-error",
  description:
    "HyperLogLog (ertl, classic, martingale), UltraLogLog (fgra, ml, martingale) and ExaLogLog (ml, martingale) relative error vs cardinality at p = 10, 12, 14, error at equal memory, and bounds() coverage, from simulated uniform 64-bit hashes.",
  async run(ctx) {
    const trials = ctx.full ? 300 : 100;
    const max = ctx.full ? 10_000_000 : 1_000_000;
    const perDecade = ctx.full ? 5 : 4;
    // A sample RMSE over T trials is itself uncertain by about ±1.96/√(2T) of itself (95 %).
    const slack = 1.96 / Math.sqrt(2 * trials);
    const results: Record<string, Point[]> = {};
    const allCharts: { name: string; spec: ChartSpec }[] = [];
    const summary: (string | number)[][] = [];
    const detail: string[] = [];
    const headlines: Headline[] = [];
    const goals: Partial<Record<Series, number>> = { "HLL martingale": 0.85, "ULL fgra": 0.8, "ULL martingale": 0.67 };
    let coverageLines: string[] = [];
    let mvpLines: string[] = [];
    for (const p of PRECISIONS) {
      const m = 2 ** p;
      const points = checkpoints(m, max, perDecade);
      ctx.log(`  p=${p}: ${trials} trials, ${points.length} cardinalities up to ${max}`);
      const pts = simulate(ctx, p, trials, points, 0x5eed0000 + p);
      results[`p${p}`] = pts;
      allCharts.push(...charts(p, pts, slack));
      const large = pts.filter((pt) => pt.n >= 100);
      for (const s of SERIES) {
        const mm = s.startsWith("ULL(p−1)") ? m / 2 : m;
        const worst = large.reduce((a, b) => (b.rmse[s] > a.rmse[s] ? b : a));
        const far = pts.filter((pt) => pt.n >= 50 * m);
        const asym = far.length ? Math.sqrt(far.reduce((a, pt) => a + pt.rmse[s] ** 2, 0) / far.length) : Number.NaN;
        const worstBias = large.reduce((a, b) => (Math.abs(b.bias[s]) > Math.abs(a.bias[s]) ? b : a));
        const goal = goals[s];
        const worstC = worst.rmse[s] * Math.sqrt(mm);
        // Cardinalities where the RMSE is above the goal by more than its own sampling uncertainty.
        const beyond =
          goal === undefined
            ? ""
            : `${large.filter((pt) => pt.rmse[s] * Math.sqrt(mm) * (1 - slack) > goal).length}/${large.length}`;
        summary.push([
          p,
          s,
          `${CONSTANT[s].toFixed(3)}`,
          `${worstC.toFixed(3)} at n=${worst.n}`,
          Number.isNaN(asym) ? "—" : (asym * Math.sqrt(mm)).toFixed(3),
          `${pct(worstBias.bias[s], 3)} at n=${worstBias.n}`,
          `${(BITS(s, m) * (Number.isNaN(asym) ? worst.rmse[s] : asym) ** 2).toFixed(2)}`,
          goal === undefined ? "" : `≤ ${goal}: ${worstC <= goal ? "met" : "not met"}`,
          beyond,
        ]);
        if (goal !== undefined && p === 12) {
          // The RMSE pooled over n ≥ 10m, where it is largest (smaller sets are counted more
          // accurately): ≈ 10 n × T trials, precise to a few %. The table has the worst single
          // point and the points above the goal beyond their sampling error.
          const top = pts.filter((pt) => pt.n >= 10 * m);
          const pooled = Math.sqrt(top.reduce((a, pt) => a + pt.rmse[s] ** 2, 0) / top.length) * Math.sqrt(mm);
          headlines.push({
            structure: s.startsWith("HLL") ? "HyperLogLog" : "UltraLogLog",
            operation: `${s.split(" ")[1]} RMSE·√m pooled over n ≥ 10m, p = 12 (${trials} trials per n; ${beyond} n above goal beyond sampling error)`,
            versus: `goal ${goal}/√m`,
            ratio: goal / pooled,
            goal: 1,
          });
        }
      }
      if (pts[0]?.coverage) {
        let worstDev = 0;
        const rows = pts.map((pt) => {
          const cells: string[] = [];
          for (const c of COVERED) {
            const cov = pt.coverage![c.name]!;
            if (pt.n >= m) for (let z = 0; z < 3; z++) worstDev = Math.max(worstDev, Math.abs(cov[z]! - NOMINAL[z]!));
            cells.push(cov.map((x) => (100 * x).toFixed(1)).join(" / "));
          }
          return [pt.n, ...cells];
        });
        // Pooled over n ≥ 100 (where the count is no longer near-exact): ~25 cardinalities × T trials
        // measure a coverage to a few tenths of a point, which a ±2-point goal needs.
        const pooled = pts.filter((pt) => pt.n >= 100);
        let pooledDev = 0;
        const pooledRows = COVERED.map((c) => {
          const cov = [0, 1, 2].map((z) => pooled.reduce((a, pt) => a + pt.coverage![c.name]![z]!, 0) / pooled.length);
          cov.forEach((x, z) => {
            pooledDev = Math.max(pooledDev, Math.abs(x - NOMINAL[z]!));
          });
          return [
            c.name,
            ...cov.map(
              (x, z) =>
                `${(100 * x).toFixed(1)} (${x >= NOMINAL[z]! ? "+" : ""}${(100 * (x - NOMINAL[z]!)).toFixed(1)})`,
            ),
          ];
        });
        // The binomial noise of a coverage over T trials: ±1.96·√(c(1−c)/T).
        coverageLines = [
          `**bounds() coverage at p = ${p}, pooled over the ${pooled.length} cardinalities n ≥ 100** (% of ${pooled.length} × ${trials} intervals that hold the true n; in brackets, points from nominal). Largest deviation: **${(100 * pooledDev).toFixed(1)} points** (goal ±2).`,
          "",
          markdownTable(["estimator", "1 sd (68.3)", "2 sd (95.4)", "3 sd (99.7)"], pooledRows),
          "",
          `**bounds() coverage at p = ${p}, per cardinality** (% of ${trials} trials whose interval holds the true n, at 1 / 2 / 3 sd; nominal 68.3 / 95.4 / 99.7; each figure uncertain by up to ±${(196 * Math.sqrt(0.25 / trials)).toFixed(1)} points at 95 %). Below about m the sketch is exact or nearly so: the count's distribution is discrete and the interval covers more often than nominal, as any interval around an exact answer must. Largest deviation from nominal of a single cell for n ≥ m: ${(100 * worstDev).toFixed(1)} points (the largest of ${3 * COVERED.length * pts.filter((pt) => pt.n >= m).length} noisy cells).`,
          "",
          markdownTable(
            ["n", ...COVERED.map((c) => c.name)],
            rows.map((r) => r.map(String)),
          ),
          "",
        ];
        headlines.push({
          structure: "HyperLogLog family",
          operation: `bounds() coverage, worst deviation pooled over n ≥ 100, p = ${p} (${trials} trials per n)`,
          versus: "goal ±2 points",
          ratio: 0.02 / Math.max(pooledDev, 1e-9),
          goal: 1,
        });
      }
      if (p === MVP_PRECISION) {
        // The memory-variance product pooled over 10m ≤ n ≤ 10^6 (in either mode): register bits ×
        // the mean of RMSE² over those cardinalities, for every sketch of this run.
        const pooled = pts.filter((pt) => pt.n >= 10 * m && pt.n <= MVP_MAX);
        const mvp = (s: Series) => (BITS(s, m) * pooled.reduce((a, pt) => a + pt.rmse[s] ** 2, 0)) / pooled.length;
        const shown = SERIES.filter((s) => s !== "HLL classic");
        mvpLines = [
          `**Memory-variance product at p = ${p}, pooled over the ${pooled.length} cardinalities ${10 * m} ≤ n ≤ ${MVP_MAX}** (register bits × mean RMSE², lower is better; uncertain by about ±${pct(Math.sqrt(2 / trials), 0)} of itself at each n). Goals: ExaLogLog ML ≤ 3.9 and martingale ≤ 3.0, each below UltraLogLog's with the same estimator.`,
          "",
          markdownTable(
            ["sketch / estimator", "bits per register", "bits × RMSE²", "goal"],
            shown.map((s) => {
              const goal = MVP_GOALS.find(([g]) => g === s);
              return [
                s,
                BITS(s, m) / m,
                mvp(s).toFixed(2),
                goal === undefined
                  ? ""
                  : `≤ ${goal[1]} and < ${goal[2]}'s ${mvp(goal[2]).toFixed(2)}: ${mvp(s) <= goal[1] && mvp(s) < mvp(goal[2]) ? "met" : "not met"}`,
              ];
            }),
          ),
          "",
        ];
        for (const [s, goal, peer] of MVP_GOALS) {
          headlines.push({
            structure: "ExaLogLog",
            operation: `${s.split(" ")[1]} memory-variance product pooled over ${10 * m} ≤ n ≤ 10^6, p = ${p} (${mvp(s).toFixed(2)})`,
            versus: `goal ${goal}`,
            ratio: goal / mvp(s),
            goal: 1,
          });
          headlines.push({
            structure: "ExaLogLog",
            operation: `${s.split(" ")[1]} memory-variance product, same n and p`,
            versus: `UltraLogLog ${peer.split(" ")[1]} (${mvp(peer).toFixed(2)})`,
            ratio: mvp(peer) / mvp(s),
            goal: 1,
          });
        }
      }
      detail.push(
        `<details><summary>p = ${p}: RMSE·√m and bias at every cardinality</summary>\n\n${markdownTable(
          ["n", ...SERIES.map((s) => `${s} RMSE·√m`), ...SERIES.map((s) => `${s} bias`)],
          pts.map((pt) => [
            pt.n,
            ...SERIES.map((s) => (pt.rmse[s] * Math.sqrt(s.startsWith("ULL(p−1)") ? m / 2 : m)).toFixed(3)),
            ...SERIES.map((s) => pct(pt.bias[s], 3)),
          ]),
        )}\n\n</details>\n`,
      );
    }
    const markdown = [
      `${trials} independent trials per precision (${ctx.full ? "full" : "quick"} mode${ctx.full ? "" : "; `--full` runs 300 trials up to 10^7"}), cardinalities 1 … ${max.toExponential(0)}, simulated from uniform random 64-bit hashes through \`addHash\` (statistically the same as hashing distinct elements; see the suite's header). Errors are of the unrounded estimates (\`estimate()\`). RMSE·√m is the error in units of 1/√m, to compare with the published constants; with ${trials} trials a measured RMSE is uncertain by ±${pct(slack, 0)} of itself (95 %). "asymptotic" pools n ≥ 50m. The memory-variance product (register bits × RMSE², lower is better) is the error at equal memory.`,
      "",
      `Goals: HyperLogLog martingale ≤ 0.85/√m, UltraLogLog FGRA ≤ 0.80/√m, UltraLogLog martingale ≤ 0.67/√m at every n ≥ 100; ExaLogLog's memory-variance product (below); bounds() coverage within ±2 points of nominal. The worst of ~30 noisy points sits above the true RMSE by about the sampling uncertainty, so the last column counts the cardinalities where the measured RMSE exceeds the goal by more than ±${pct(slack, 0)}.`,
      "",
      markdownTable(
        [
          "p",
          "sketch / estimator",
          "published RMSE·√m",
          "worst RMSE·√m, n ≥ 100",
          "asymptotic RMSE·√m",
          "worst bias, n ≥ 100",
          "bits × RMSE²",
          "goal (worst point)",
          "n above goal beyond sampling error",
        ],
        summary,
      ),
      "",
      ...mvpLines,
      ...coverageLines,
      ...detail,
    ].join("\n");
    return { markdown, data: { trials, max, results }, charts: allCharts, headlines };
  },
};

export default suite;
