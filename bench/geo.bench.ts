/**
 * GEO benchmark, one run:
 * 1. GEOADD of 10^6 places into an empty GeoSet against SortedSet.add of the same members with the
 *    same scores (their geohashes, computed beforehand): what GEO costs on top of the sorted set,
 *    the geohash and the coordinate checks. The two builds run interleaved in chunks (median of 3
 *    builds, 5 with --full); goal: GeoSet within 1.3× the time, i.e. ≥ 0.77× the throughput.
 * 2. GEOSEARCH BYRADIUS around random places, the radius (127 km) chosen so that ~100 of 10^6
 *    places spread evenly over the sphere come back, against what a user writes without GEO: a
 *    linear scan of two coordinate arrays with a haversine function. Goal: ≥ 5×.
 *
 * Places are spread evenly over the sphere's area (latitudes within Redis's ±85.05112878), so
 * every query sees about the same density.
 */
import { NATIVE_TRIG } from "../src/geo/distance.js";
import { encodeScore } from "../src/geo/geohash.js";
import { GeoSet } from "../src/geo/index.js";
import { searchRanges } from "../src/geo/search.js";
import { SortedSet } from "../src/skiplist/index.js";
import {
  type BenchContext,
  compare,
  distinctStrings,
  formatOps,
  type Headline,
  markdownTable,
  prng,
  type Row,
  type Suite,
  throughputChart,
  throughputTable,
} from "./lib.js";

const N = 1_000_000;
/** Radius whose cap holds 10^-4 of the sphere's area: ~100 of 10^6 evenly spread places. */
const RADIUS = 127_000;
const QUERIES = 512;
const ADD_GOAL = 1 / 1.3;
const SEARCH_GOAL = 5;
const LAT_LIMIT = 85.05112878;

let sink = 0;

interface Places {
  members: string[];
  lons: Float64Array;
  lats: Float64Array;
  /** GEOADD's score of each place, for the SortedSet baseline. */
  scores: Float64Array;
  /** Query centres. */
  qLons: Float64Array;
  qLats: Float64Array;
}

function places(n: number): Places {
  const rand = prng(0x6e0 + n);
  const members = distinctStrings(n, 23, "place:");
  const lons = new Float64Array(n);
  const lats = new Float64Array(n);
  const scores = new Float64Array(n);
  const evenLat = () => {
    for (;;) {
      const lat = (Math.asin(2 * rand() - 1) * 180) / Math.PI;
      if (Math.abs(lat) <= LAT_LIMIT) return lat;
    }
  };
  for (let i = 0; i < n; i++) {
    lons[i] = rand() * 360 - 180;
    lats[i] = evenLat();
    scores[i] = encodeScore(lons[i]!, lats[i]!);
  }
  const qLons = new Float64Array(QUERIES);
  const qLats = new Float64Array(QUERIES);
  for (let i = 0; i < QUERIES; i++) {
    qLons[i] = rand() * 360 - 180;
    qLats[i] = evenLat();
  }
  return { members, lons, lats, scores, qLons, qLats };
}

/** The haversine a user writes (degrees in, metres out). */
function haversineMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6372797.560856 * Math.asin(Math.sqrt(a));
}

/** The linear scan: every place's distance, the members within the radius. */
function scan(p: Places, lon: number, lat: number, radius: number): string[] {
  const out: string[] = [];
  const { lons, lats, members } = p;
  for (let i = 0; i < lons.length; i++) {
    if (haversineMeters(lat, lon, lats[i]!, lons[i]!) <= radius) out.push(members[i]!);
  }
  return out;
}

const CHUNK = 10_000;

// Each contender's loop is a function of its own, so that neither shares a call site or an
// inlining budget with the other (see ownLoop in ./lib.ts).
function zaddRange(zs: SortedSet, p: Places, from: number, to: number): void {
  const { members, scores } = p;
  for (let i = from; i < to; i++) zs.add(members[i]!, scores[i]!);
}

function geoaddRange(g: GeoSet, p: Places, from: number, to: number): void {
  const { members, lons, lats } = p;
  for (let i = from; i < to; i++) g.add(members[i]!, lons[i]!, lats[i]!);
}

/**
 * Builds both structures `trials` times. Each build interleaves the two in chunks of 10^4 adds
 * (which one goes first alternating), so both grow in step and a burst of load from another process
 * on the shared machine lands on both; returns each one's median total time.
 */
function builds(ctx: BenchContext, p: Places, trials: number): { rows: Row[]; geo: GeoSet } {
  const times: Record<"GEOADD" | "ZADD", number[]> = { GEOADD: [], ZADD: [] };
  let geo: GeoSet | undefined;
  const n = p.members.length;
  for (let t = 0; t < trials; t++) {
    ctx.log(`  GEOADD / ZADD of ${n} places, interleaved (${t + 1}/${trials})`);
    geo = undefined;
    const zs = new SortedSet({ seed: 1 });
    const g = new GeoSet({ seed: 1 });
    let zadd = 0;
    let geoadd = 0;
    for (let from = 0, c = 0; from < n; from += CHUNK, c++) {
      const to = Math.min(n, from + CHUNK);
      for (let k = 0; k < 2; k++) {
        const start = performance.now();
        if ((c + k) % 2 === 0) {
          zaddRange(zs, p, from, to);
          zadd += performance.now() - start;
        } else {
          geoaddRange(g, p, from, to);
          geoadd += performance.now() - start;
        }
      }
    }
    if (zs.size !== g.size) throw new Error("the two builds differ");
    times.ZADD.push(zadd);
    times.GEOADD.push(geoadd);
    geo = g;
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  const zadd = (n / median(times.ZADD)) * 1000;
  const geoadd = (n / median(times.GEOADD)) * 1000;
  const rows: Row[] = [
    { name: "SortedSet.add(member, geohash score)", opsPerSec: zadd, rme: 0, samples: trials, ratio: 1 },
    {
      name: "GeoSet.add(member, longitude, latitude)",
      opsPerSec: geoadd,
      rme: 0,
      samples: trials,
      ratio: geoadd / zadd,
    },
  ];
  return { rows, geo: geo! };
}

const SCAN = "linear scan with haversine over two arrays";
const OURS = "GeoSet.search BYRADIUS";

const suite: Suite = {
  name: "geo",
  description:
    "GeoSet: GEOADD of 10^6 places vs SortedSet.add; GEOSEARCH BYRADIUS (~100 of 10^6) vs a linear haversine scan",
  async run(ctx) {
    ctx.log(`generating ${N} places`);
    const p = places(N);
    const { rows: adds, geo } = builds(ctx, p, ctx.full ? 5 : 3);

    // What a search reads: the cells (score ranges) Redis's area covers and the members in them.
    let found = 0;
    let cells = 0;
    let candidates = 0;
    for (let i = 0; i < QUERIES; i++) {
      const spec = { longitude: p.qLons[i]!, latitude: p.qLats[i]!, radius: RADIUS };
      found += geo.search(spec).length;
      const ranges = searchRanges(
        { ...spec, byBox: false, width: 0, height: 0, conversion: 1, sort: 0, count: 0, any: false },
        NATIVE_TRIG,
      );
      cells += ranges.length / 2;
      for (let r = 0; r < ranges.length; r += 2) {
        candidates += geo.sortedSet.countByScore(ranges[r]!, ranges[r + 1]!, { maxExclusive: true });
      }
    }
    const perQuery = found / QUERIES;
    ctx.log(`  ${perQuery.toFixed(1)} places found per query, from ${(candidates / QUERIES).toFixed(0)} candidates`);
    let q = 0;
    const next = () => {
      q = (q + 1) % QUERIES;
      return q;
    };
    const searches = await compare(
      ctx,
      `GEOSEARCH BYRADIUS ${RADIUS / 1000} km, ~100 of 10^6`,
      {
        [SCAN]: () => {
          const i = next();
          sink += scan(p, p.qLons[i]!, p.qLats[i]!, RADIUS).length;
        },
        [OURS]: () => {
          const i = next();
          sink += geo.search({ longitude: p.qLons[i]!, latitude: p.qLats[i]!, radius: RADIUS }).length;
        },
        [`${OURS} … ASC`]: () => {
          const i = next();
          sink += geo.search({ longitude: p.qLons[i]!, latitude: p.qLats[i]!, radius: RADIUS, order: "asc" }).length;
        },
      },
      { baseline: SCAN, time: 800 },
    );
    const addRatio = adds[1]!.ratio;
    const searchRatio = searches.find((r) => r.name === OURS)!.ratio;
    const headlines: Headline[] = [
      {
        structure: "GeoSet",
        operation: "GEOADD of 10^6 places (goal: ≤ 1.3× the time)",
        versus: "SortedSet.add of the same members and scores",
        ratio: addRatio,
        goal: Number(ADD_GOAL.toFixed(2)),
      },
      {
        structure: "GeoSet",
        operation: `GEOSEARCH BYRADIUS, ${perQuery.toFixed(0)} of 10^6 places`,
        versus: SCAN,
        ratio: searchRatio,
        goal: SEARCH_GOAL,
      },
    ];
    let markdown = `**GEOADD of ${N.toLocaleString("en-US")} places into an empty set** (median of ${ctx.full ? 5 : 3} builds, the two interleaved in chunks of 10^4)\n\n`;
    markdown += `${markdownTable(
      ["implementation", "adds/s", "time vs SortedSet.add"],
      adds.map((r) => [r.name, formatOps(r.opsPerSec), `${(1 / r.ratio).toFixed(2)}×`]),
    )}\n\n`;
    markdown += `GeoSet.add runs at ${addRatio.toFixed(2)}× SortedSet.add's throughput (goal ≥ ${ADD_GOAL.toFixed(2)}×, i.e. at most 1.3× the time).\n\n`;
    markdown += throughputTable(
      `GEOSEARCH BYRADIUS ${RADIUS / 1000} km around random places, ${perQuery.toFixed(1)} of 10^6 found on average (queries/s)`,
      searches,
    );
    markdown += `\nA search reads ${(cells / QUERIES).toFixed(1)} score ranges (cells) holding ${(candidates / QUERIES).toFixed(0)} candidates on average, and keeps ${perQuery.toFixed(1)}; the scan computes ${N.toLocaleString("en-US")} distances.\n\n`;
    markdown += `Reproduce: \`npm run bench -- geo${ctx.full ? " --full" : ""}\` (checksum ${sink % 997}).\n`;
    return {
      markdown,
      data: {
        n: N,
        radius: RADIUS,
        perQuery,
        cells: cells / QUERIES,
        candidates: candidates / QUERIES,
        adds,
        searches,
      },
      charts: [{ name: "search", spec: throughputChart(`GEOSEARCH BYRADIUS, ~100 of 10^6 (queries/s)`, searches) }],
      headlines,
    };
  },
};

export default suite;
