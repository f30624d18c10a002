/**
 * `redstruct/geo` — Redis's GEO commands (GEOADD, GEOPOS, GEODIST, GEOHASH, GEOSEARCH,
 * GEOSEARCHSTORE) on the sorted set, with Redis 7.0's answers. See ./geo-set.ts for the algorithm.
 * @module
 */
export { RedstructFormatError } from "../internal/errors.js";
export type {
  GeoAddOptions,
  GeoEntry,
  GeoSearchOptions,
  GeoSearchResult,
  GeoSearchStoreOptions,
  GeoSetOptions,
  GeoUnit,
} from "./geo-set.js";
export { GeoSet } from "./geo-set.js";
