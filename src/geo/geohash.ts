/**
 * Redis's geohash (src/geohash.c of Redis 7.0): a place's longitude and latitude become two integer
 * cell indexes, interleaved bit by bit into one integer — latitude in the even bits, longitude in
 * the odd — whose 52 bits (26 steps) are the sorted-set score.
 *
 * Arithmetic follows Redis operation for operation, so every double comes out bit for bit:
 * - an index is `trunc((x − min) / (max − min) · 2^step)`; a coordinate equal to its range's
 *   maximum gives 2^step, one bit above the cell bits (longitude 180 makes a score ≥ 2^53, whose
 *   lowest bit the double then rounds away, as Redis's own string → double conversion does);
 * - a score is read back as Redis's `(uint64_t)score` on x86-64 reads it (truncation, modulo 2^64
 *   for negatives, 2^63 for scores at or below −2^63, 0 at or above 2^64), so a score written
 *   straight into the sorted set decodes as Redis decodes it;
 * - a cell decodes to `min + (i / 2^step) · (max − min)` and `min + ((i + 1) / 2^step) · (max − min)`,
 *   `i + 1` wrapping in 32 bits; a position is the centre of its cell, clamped to the limits.
 *
 * 64-bit values are carried as two uint32 words (hi, lo): no BigInt.
 */

/** Longitude limits (EPSG:900913). */
export const LON_MIN = -180;
export const LON_MAX = 180;
/** Latitude limits (EPSG:900913): a square Mercator map. */
export const LAT_MIN = -85.05112878;
export const LAT_MAX = 85.05112878;
/** Steps of a stored score: 26 per coordinate, 52 bits. */
export const STEP_MAX = 26;

const LAT_SCALE = LAT_MAX - LAT_MIN;
const LON_SCALE = LON_MAX - LON_MIN;
const TWO32 = 4294967296;
const TWO63 = 2 ** 63;
const TWO64 = 2 ** 64;

/** Spreads the low 16 bits of x to the even bit positions of a 32-bit word. */
function spread(x: number): number {
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  return (x | (x << 1)) & 0x55555555;
}

/** Gathers the even bits of a 32-bit word into 16 bits. */
function gather(x: number): number {
  x &= 0x55555555;
  x = (x | (x >>> 1)) & 0x33333333;
  x = (x | (x >>> 2)) & 0x0f0f0f0f;
  x = (x | (x >>> 4)) & 0x00ff00ff;
  return (x | (x >>> 8)) & 0x0000ffff;
}

/** High word of interleave(lat, lon): bits 32..63 (lat, lon < 2^32). */
export function interleaveHi(lat: number, lon: number): number {
  return (spread(lat >>> 16) | (spread(lon >>> 16) << 1)) >>> 0;
}

/** Low word of interleave(lat, lon): bits 0..31. */
export function interleaveLo(lat: number, lon: number): number {
  return (spread(lat & 0xffff) | (spread(lon & 0xffff) << 1)) >>> 0;
}

/**
 * The interleaved integer `hi · 2^32 + lo (+ 1)` rounded once to a double, scaled by 2^shift (exact):
 * Redis's `(double)(bits << shift)`, and with `plusOne` the exclusive end of the cell's score range.
 */
export function alignedScore(lat: number, lon: number, shift: number, plusOne: boolean): number {
  let hi = interleaveHi(lat, lon);
  let lo = interleaveLo(lat, lon);
  if (plusOne) {
    lo += 1;
    if (lo === TWO32) {
      lo = 0;
      hi += 1;
    }
  }
  return (hi * TWO32 + lo) * 2 ** shift;
}

/**
 * `trunc(offset · 2^step)` for x in [min, max]: the cell index Redis's geohashEncode stores
 * (2^step when x is the maximum).
 */
export function cellIndex(x: number, min: number, max: number, step: number): number {
  return (((x - min) / (max - min)) * 2 ** step) >>> 0;
}

/** Latitude cell index at `step` in Redis's WGS84 ranges. */
export function latIndex(latitude: number, step: number): number {
  return cellIndex(latitude, LAT_MIN, LAT_MAX, step);
}

/** Longitude cell index at `step` in Redis's WGS84 ranges. */
export function lonIndex(longitude: number, step: number): number {
  return cellIndex(longitude, LON_MIN, LON_MAX, step);
}

/** GEOADD's score: the 26-step interleaved geohash of a checked position, as a double. */
export function encodeScore(longitude: number, latitude: number): number {
  return alignedScore(latIndex(latitude, STEP_MAX), lonIndex(longitude, STEP_MAX), 0, false);
}

/**
 * Bounds of a cell in Redis's WGS84 ranges, written into `out` as
 * [lonMin, lonMax, latMin, latMax] (geohashDecode).
 */
export function cellBounds(lat: number, lon: number, step: number, out: Float64Array): void {
  const cells = 2 ** step;
  out[0] = LON_MIN + (lon / cells) * LON_SCALE;
  out[1] = LON_MIN + (((lon + 1) >>> 0) / cells) * LON_SCALE;
  out[2] = LAT_MIN + (lat / cells) * LAT_SCALE;
  out[3] = LAT_MIN + (((lat + 1) >>> 0) / cells) * LAT_SCALE;
}

/**
 * Splits `score` as Redis's `(uint64_t)score` does on x86-64 into `words` = [hi, lo] (uint32 each).
 * Sorted-set scores are never NaN.
 */
function scoreWords(score: number, words: Uint32Array): void {
  let t: number;
  if (score >= TWO64) {
    t = 0;
  } else if (score > -TWO63) {
    t = Math.trunc(score);
  } else {
    words[0] = 0x80000000;
    words[1] = 0;
    return;
  }
  const hi = Math.floor(t / TWO32);
  words[0] = hi >>> 0;
  words[1] = t - hi * TWO32;
}

const words = new Uint32Array(2);
const bounds = new Float64Array(4);

/**
 * Decodes a score into the centre of its 26-step cell: `out[0]` = longitude, `out[1]` = latitude
 * (GEOPOS, and every candidate of a search). O(1), no allocation.
 */
export function decodeScore(score: number, out: Float64Array): void {
  scoreWords(score, words);
  const hi = words[0]!;
  const lo = words[1]!;
  const lat = (gather(lo) | (gather(hi) << 16)) >>> 0;
  const lon = (gather(lo >>> 1) | (gather(hi >>> 1) << 16)) >>> 0;
  cellBounds(lat, lon, STEP_MAX, bounds);
  let x = (bounds[0]! + bounds[1]!) / 2;
  if (x > LON_MAX) x = LON_MAX;
  if (x < LON_MIN) x = LON_MIN;
  let y = (bounds[2]! + bounds[3]!) / 2;
  if (y > LAT_MAX) y = LAT_MAX;
  if (y < LAT_MIN) y = LAT_MIN;
  out[0] = x;
  out[1] = y;
}

const ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz";
const position = new Float64Array(2);

/**
 * GEOHASH: the 11-character standard geohash of a score's position. Redis re-encodes the decoded
 * centre with latitude range ±90 (as geohash.org does), keeps the 52 bits below any overflow bit,
 * and pads the eleventh character with "0".
 */
export function geohashString(score: number): string {
  decodeScore(score, position);
  const lat = cellIndex(position[1]!, -90, 90, STEP_MAX);
  const lon = cellIndex(position[0]!, LON_MIN, LON_MAX, STEP_MAX);
  const bits = (interleaveHi(lat, lon) & 0xfffff) * TWO32 + interleaveLo(lat, lon);
  let s = "";
  for (let i = 1; i <= 10; i++) s += ALPHABET[Math.floor(bits / 2 ** (52 - 5 * i)) % 32];
  return `${s}0`;
}
