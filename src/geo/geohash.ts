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
 * 64-bit values are carried as two 32-bit words (hi, lo): no BigInt.
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

/** Gathers the even bits of a 32-bit word (given as any number; its low 32 bits count) into 16 bits. */
function gather(x: number): number {
  x &= 0x55555555;
  x = (x | (x >>> 1)) & 0x33333333;
  x = (x | (x >>> 2)) & 0x0f0f0f0f;
  x = (x | (x >>> 4)) & 0x00ff00ff;
  return (x | (x >>> 8)) & 0x0000ffff;
}

/** Bits 32..63 of interleave(lat, lon) (lat, lon < 2^32), as an int32 bit pattern. */
function interleaveHi(lat: number, lon: number): number {
  return spread(lat >>> 16) | (spread(lon >>> 16) << 1);
}

/** Bits 0..31 of interleave(lat, lon), as an int32 bit pattern. */
function interleaveLo(lat: number, lon: number): number {
  return spread(lat & 0xffff) | (spread(lon & 0xffff) << 1);
}

/** An int32 bit pattern read as unsigned (without `>>> 0`, whose results above 2^31 deoptimize). */
function unsigned(x: number): number {
  return x < 0 ? x + TWO32 : x;
}

/**
 * The interleaved integer `hi · 2^32 + lo (+ 1)` rounded once to a double, scaled by 2^shift (exact):
 * Redis's `(double)(bits << shift)`, and with `plusOne` the exclusive end of the cell's score range.
 */
export function alignedScore(lat: number, lon: number, shift: number, plusOne: boolean): number {
  let hi = unsigned(interleaveHi(lat, lon));
  let lo = unsigned(interleaveLo(lat, lon));
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
function cellIndex(x: number, min: number, max: number, step: number): number {
  return Math.trunc(((x - min) / (max - min)) * 2 ** step);
}

/** Latitude cell index at `step` in Redis's WGS84 ranges. */
export function latIndex(latitude: number, step: number): number {
  return cellIndex(latitude, LAT_MIN, LAT_MAX, step);
}

/** Longitude cell index at `step` in Redis's WGS84 ranges. */
export function lonIndex(longitude: number, step: number): number {
  return cellIndex(longitude, LON_MIN, LON_MAX, step);
}

// The hot paths below write 2^26 (67108864) and Redis's ranges as literals: `2 ** step` with a
// variable step is a call to pow, and a bundler may turn module constants into variables.

/** GEOADD's score: the 26-step interleaved geohash of a checked position, as a double. */
export function encodeScore(longitude: number, latitude: number): number {
  const lat = Math.trunc(((latitude - -85.05112878) / (85.05112878 - -85.05112878)) * 67108864);
  const lon = Math.trunc(((longitude - -180) / (180 - -180)) * 67108864);
  return unsigned(interleaveHi(lat, lon)) * 4294967296 + unsigned(interleaveLo(lat, lon));
}

/**
 * Bounds of a cell in Redis's WGS84 ranges, written into `out` as
 * [lonMin, lonMax, latMin, latMax] (geohashDecode).
 */
export function cellBounds(lat: number, lon: number, step: number, out: Float64Array): void {
  const cells = 2 ** step;
  out[0] = LON_MIN + (lon / cells) * LON_SCALE;
  out[1] = LON_MIN + (((lon + 1) % TWO32) / cells) * LON_SCALE;
  out[2] = LAT_MIN + (lat / cells) * LAT_SCALE;
  out[3] = LAT_MIN + (((lat + 1) % TWO32) / cells) * LAT_SCALE;
}

/**
 * Decodes a score into the centre of its 26-step cell: `out[0]` = longitude, `out[1]` = latitude
 * (GEOPOS, and every candidate of a search). The score is read as Redis's `(uint64_t)score` reads
 * it on x86-64 (sorted-set scores are never NaN). O(1), no allocation.
 */
export function decodeScore(score: number, out: Float64Array): void {
  let hi: number;
  let lo: number;
  if (score >= 0 && score < TWO64) {
    const t = Math.trunc(score);
    hi = Math.floor(t / TWO32);
    lo = t - hi * TWO32;
  } else if (score >= TWO64) {
    hi = 0;
    lo = 0;
  } else if (score > -TWO63) {
    const t = Math.trunc(score);
    const h = Math.floor(t / TWO32);
    lo = t - h * TWO32;
    hi = h + TWO32;
  } else {
    hi = 2147483648;
    lo = 0;
  }
  const lat = gather(lo) + gather(hi) * 65536;
  const lon = gather(lo / 2) + gather(hi / 2) * 65536;
  const latNext = lat === 4294967295 ? 0 : lat + 1;
  const lonNext = lon === 4294967295 ? 0 : lon + 1;
  let x = (-180 + (lon / 67108864) * 360 + (-180 + (lonNext / 67108864) * 360)) / 2;
  if (x > 180) x = 180;
  if (x < -180) x = -180;
  let y =
    (-85.05112878 +
      (lat / 67108864) * (85.05112878 - -85.05112878) +
      (-85.05112878 + (latNext / 67108864) * (85.05112878 - -85.05112878))) /
    2;
  if (y > 85.05112878) y = 85.05112878;
  if (y < -85.05112878) y = -85.05112878;
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
  const bits = (interleaveHi(lat, lon) & 0xfffff) * TWO32 + unsigned(interleaveLo(lat, lon));
  let s = "";
  for (let i = 1; i <= 10; i++) s += ALPHABET[Math.floor(bits / 2 ** (52 - 5 * i)) % 32];
  return `${s}0`;
}
