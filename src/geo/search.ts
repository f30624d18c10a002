/**
 * GEOSEARCH's engine (src/geo.c and src/geohash_helper.c of Redis 7.0), on a SortedSet's public
 * range queries.
 *
 * 1. The search area: a bounding box around the centre (its longitude span taken at the box's top
 *    or bottom latitude, whichever is farther from the equator), a step from the radius (the box's
 *    half-diagonal for BYBOX), one step coarser when a neighbouring cell does not reach the box's
 *    edge, then the centre cell and its 8 neighbours (indexes wrapping around the grid, north of the
 *    top row included) minus those the box proves useless. Each cell is a score range
 *    [prefix · 2^k, (prefix + 1) · 2^k).
 * 2. The scan: cells in Redis's order (centre, N, S, E, W, NE, NW, SE, SW; a cell equal to the one
 *    scanned just before is skipped), each range in score order; every candidate's cell centre is
 *    decoded and kept when its distance is not above the radius (BYBOX: its latitude distance not
 *    above half the height, its distance along its own parallel not above half the width). With
 *    ANY the scan stops at COUNT matches.
 * 3. The order: none, or by distance through glibc's merge sort, or through Redis's partial
 *    quicksort when COUNT is below the number of matches (./sort.ts).
 *
 * Cost: O(9 log n + c + m log m) for c candidates in the cells and m matches.
 */
import type { SortedSet } from "../skiplist/index.js";
import { D_R, EARTH_RADIUS, haversine, latDistance, type Trig } from "./distance.js";
import { alignedScore, cellBounds, decodeScore, latIndex, lonIndex, STEP_MAX } from "./geohash.js";
import { mergeSort, partialQuickSort } from "./sort.js";

/** A checked GEOSEARCH: centre, shape (in `unit`s), its metres per unit, order and COUNT. */
export interface SearchSpec {
  longitude: number;
  latitude: number;
  byBox: boolean;
  /** BYRADIUS radius, in units. */
  radius: number;
  /** BYBOX width and height, in units. */
  width: number;
  height: number;
  /** Metres per unit. */
  conversion: number;
  /** 0: scan order; 1: ascending distance; 2: descending. */
  sort: 0 | 1 | 2;
  /** COUNT, 0 for none. */
  count: number;
  any: boolean;
}

/** Matches in reply order; distances in metres. */
export interface SearchHits {
  members: string[];
  scores: number[];
  longitudes: number[];
  latitudes: number[];
  distances: number[];
}

/** Half of the circumference Redis's step estimate compares radii with (Mercator's maximum). */
const MERCATOR_MAX = 20037726.37;

/** Redis's geohashEstimateStepsByRadius: the finest step whose cells cover a radius. */
export function estimateSteps(meters: number, latitude: number): number {
  if (meters === 0) return STEP_MAX;
  let step = 1;
  while (meters < MERCATOR_MAX) {
    meters *= 2;
    step++;
  }
  step -= 2;
  if (latitude > 66 || latitude < -66) {
    step--;
    if (latitude > 80 || latitude < -80) step--;
  }
  return step < 1 ? 1 : step > STEP_MAX ? STEP_MAX : step;
}

// Neighbour offsets in Redis's scan order: centre, N, S, E, W, NE, NW, SE, SW.
const D_LAT = [0, 1, -1, 0, 0, 1, 1, -1, -1];
const D_LON = [0, 0, 0, 1, -1, 1, -1, 1, -1];
const cell = new Float64Array(4);

/** One neighbour's index along an axis: unchanged when d = 0, else ±1 modulo 2^step. */
function move(index: number, d: number, mask: number): number {
  return d === 0 ? index : (index + d) & mask;
}

/**
 * The score ranges GEOSEARCH scans, in scan order, as [min0, max0, min1, max1, …] (min inclusive,
 * max exclusive): Redis's geohashCalculateAreasByShapeWGS84 and membersOfAllNeighbors.
 */
export function searchRanges(spec: SearchSpec, trig: Trig): number[] {
  const { longitude, latitude, byBox, conversion } = spec;
  const height = conversion * (byBox ? spec.height / 2 : spec.radius);
  const width = conversion * (byBox ? spec.width / 2 : spec.radius);
  const latDelta = height / EARTH_RADIUS / D_R;
  const lonDeltaTop = width / EARTH_RADIUS / trig.cos((latitude + latDelta) * D_R) / D_R;
  const lonDeltaBottom = width / EARTH_RADIUS / trig.cos((latitude - latDelta) * D_R) / D_R;
  const lonDelta = latitude < 0 ? lonDeltaBottom : lonDeltaTop;
  const minLon = longitude - lonDelta;
  const maxLon = longitude + lonDelta;
  const minLat = latitude - latDelta;
  const maxLat = latitude + latDelta;
  const meters =
    (byBox ? Math.sqrt((spec.width / 2) * (spec.width / 2) + (spec.height / 2) * (spec.height / 2)) : spec.radius) *
    conversion;

  let step = estimateSteps(meters, latitude);
  let lat = latIndex(latitude, step);
  let lon = lonIndex(longitude, step);
  let mask = 2 ** step - 1;
  // Is the step fine enough at the edges? Each side's neighbour must reach the box's edge.
  cellBounds((lat + 1) & mask, lon, step, cell);
  let coarser = cell[3]! < maxLat;
  cellBounds((lat - 1) & mask, lon, step, cell);
  coarser ||= cell[2]! > minLat;
  cellBounds(lat, (lon + 1) & mask, step, cell);
  coarser ||= cell[1]! < maxLon;
  cellBounds(lat, (lon - 1) & mask, step, cell);
  coarser ||= cell[0]! > minLon;
  if (step > 1 && coarser) {
    step--;
    lat = latIndex(latitude, step);
    lon = lonIndex(longitude, step);
    mask = 2 ** step - 1;
  }

  // Neighbours the box does not reach are dropped (only from step 2: at step 1 every cell counts).
  let skipSouth = false;
  let skipNorth = false;
  let skipWest = false;
  let skipEast = false;
  if (step >= 2) {
    cellBounds(lat, lon, step, cell);
    skipWest = cell[0]! < minLon;
    skipEast = cell[1]! > maxLon;
    skipSouth = cell[2]! < minLat;
    skipNorth = cell[3]! > maxLat;
  }

  const shift = 52 - 2 * step;
  const ranges: number[] = [];
  let lastLat = -1;
  let lastLon = -1;
  for (let i = 0; i < 9; i++) {
    const dLat = D_LAT[i]!;
    const dLon = D_LON[i]!;
    if ((dLat < 0 && skipSouth) || (dLat > 0 && skipNorth) || (dLon < 0 && skipWest) || (dLon > 0 && skipEast)) {
      continue;
    }
    const cellLat = move(lat, dLat, mask);
    const cellLon = move(lon, dLon, mask);
    // Redis compares with the last cell scanned, and never with the centre (its index 0 is "none").
    if (i > 0 && cellLat === lastLat && cellLon === lastLon) continue;
    if (i > 0) {
      lastLat = cellLat;
      lastLon = cellLon;
    }
    ranges.push(alignedScore(cellLat, cellLon, shift, false), alignedScore(cellLat, cellLon, shift, true));
  }
  return ranges;
}

const RANGE = { maxExclusive: true } as const;
/** Entries read per range query when ANY may stop the scan early. */
const CHUNK = 64;
const xy = new Float64Array(2);

/** Collects the matches of one search in scan order (Redis's geoArray). */
class Collector {
  readonly hits: SearchHits = { members: [], scores: [], longitudes: [], latitudes: [], distances: [] };
  readonly #radius: number;
  readonly #halfWidth: number;
  readonly #halfHeight: number;

  constructor(
    readonly spec: SearchSpec,
    readonly trig: Trig,
  ) {
    this.#radius = spec.radius * spec.conversion;
    this.#halfWidth = (spec.width * spec.conversion) / 2;
    this.#halfHeight = (spec.height * spec.conversion) / 2;
  }

  /** Redis's geoWithinShape, then geoArrayAppend when the candidate is inside. */
  test(member: string, score: number): void {
    const { longitude, latitude } = this.spec;
    decodeScore(score, xy);
    const x = xy[0]!;
    const y = xy[1]!;
    let distance: number;
    if (this.spec.byBox) {
      if (latDistance(y, latitude) > this.#halfHeight) return;
      if (haversine(this.trig, x, y, longitude, y) > this.#halfWidth) return;
      distance = haversine(this.trig, longitude, latitude, x, y);
    } else {
      distance = haversine(this.trig, longitude, latitude, x, y);
      if (distance > this.#radius) return;
    }
    const h = this.hits;
    h.members.push(member);
    h.scores.push(score);
    h.longitudes.push(x);
    h.latitudes.push(y);
    h.distances.push(distance);
  }
}

/** Scans one score range; returns false once `limit` matches are in (ANY). */
function scan(set: SortedSet, min: number, max: number, c: Collector, limit: number): boolean {
  if (limit === 0) {
    for (const [member, score] of set.rangeByScore(min, max, RANGE)) c.test(member, score);
    return true;
  }
  const members = c.hits.members;
  for (let offset = 0; ; offset += CHUNK) {
    const chunk = set.rangeByScore(min, max, { maxExclusive: true, offset, count: CHUNK });
    for (const [member, score] of chunk) {
      c.test(member, score);
      if (members.length >= limit) return false;
    }
    if (chunk.length < CHUNK) return true;
  }
}

/** GEOSEARCH of a checked spec: the matches Redis replies with, in its order. */
export function search(set: SortedSet, spec: SearchSpec, trig: Trig): SearchHits {
  const collector = new Collector(spec, trig);
  const ranges = searchRanges(spec, trig);
  const limit = spec.any ? spec.count : 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (!scan(set, ranges[i]!, ranges[i + 1]!, collector, limit)) break;
  }
  const hits = collector.hits;
  const n = hits.members.length;
  const returned = spec.count === 0 || n < spec.count ? n : spec.count;
  // COUNT without ANY means the nearest COUNT: Redis sorts ascending when no order was asked for.
  const sort = spec.sort === 0 && spec.count !== 0 && !spec.any ? 1 : spec.sort;
  if (sort === 0 || n === 0) return hits;
  const dist = Float64Array.from(hits.distances);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (returned === n) mergeSort(order, n, dist, sort === 2);
  else partialQuickSort(order, 0, n, dist, sort === 2, 0, returned - 1);
  const out: SearchHits = { members: [], scores: [], longitudes: [], latitudes: [], distances: [] };
  for (let i = 0; i < returned; i++) {
    const j = order[i]!;
    out.members.push(hits.members[j]!);
    out.scores.push(hits.scores[j]!);
    out.longitudes.push(hits.longitudes[j]!);
    out.latitudes.push(hits.latitudes[j]!);
    out.distances.push(dist[j]!);
  }
  return out;
}
