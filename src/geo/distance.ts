/**
 * Redis's great-circle distance (src/geohash_helper.c of Redis 7.0): the haversine formula on a
 * sphere of radius 6372797.560856 m, with Redis's order of operations and its shortcut for equal
 * longitudes, so that given the same sin/cos/asin results every distance is Redis's double.
 *
 * The trigonometric functions are passed in (`Trig`): the library uses the engine's `Math`
 * functions, which may differ from glibc's by one unit in the last place; the tests replay a search
 * with glibc's own results to show that such differences are the only ones.
 */

/** The three functions Redis's distance and search-area code call from libm. */
export interface Trig {
  sin(x: number): number;
  cos(x: number): number;
  asin(x: number): number;
}

/** The engine's own functions: what the library computes with. */
export const NATIVE_TRIG: Trig = { sin: Math.sin, cos: Math.cos, asin: Math.asin };

/** Earth's quadratic mean radius for WGS-84, in metres (Redis's EARTH_RADIUS_IN_METERS). */
export const EARTH_RADIUS = 6372797.560856;

/** Degrees to radians: Redis multiplies by M_PI / 180.0 and divides by it for the inverse. */
export const D_R = Math.PI / 180;

/** The four units Redis knows, as metres per unit. */
export const UNITS: Readonly<Record<GeoUnit, number>> = { m: 1, km: 1000, mi: 1609.34, ft: 0.3048 };

/** A unit of distance: metres, kilometres, miles or feet. */
export type GeoUnit = "m" | "km" | "mi" | "ft";

/** Distance along a meridian: Redis's geohashGetLatDistance. */
export function latDistance(lat1: number, lat2: number): number {
  return EARTH_RADIUS * Math.abs(lat2 * D_R - lat1 * D_R);
}

/** Redis's geohashGetDistance between (lon1, lat1) and (lon2, lat2), degrees in, metres out. */
export function haversine(t: Trig, lon1: number, lat1: number, lon2: number, lat2: number): number {
  const v = t.sin((lon2 * D_R - lon1 * D_R) / 2);
  if (v === 0) return latDistance(lat1, lat2);
  const lat1r = lat1 * D_R;
  const lat2r = lat2 * D_R;
  const u = t.sin((lat2r - lat1r) / 2);
  const a = u * u + t.cos(lat1r) * t.cos(lat2r) * v * v;
  return 2 * EARTH_RADIUS * t.asin(Math.sqrt(a));
}
