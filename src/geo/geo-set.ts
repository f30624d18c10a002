/**
 * `GeoSet`: Redis's GEO commands (GEOADD, GEOPOS, GEODIST, GEOHASH, GEOSEARCH, GEOSEARCHSTORE) on a
 * {@link SortedSet}, exact with Redis 7.0 (src/geo.c, src/geohash.c, src/geohash_helper.c).
 *
 * Algorithm: as in Redis, a place is a sorted-set member whose score is its 52-bit geohash — the
 * longitude and latitude cell indexes of a 2^26 × 2^26 grid over longitude ±180 and latitude
 * ±85.05112878 (a square Mercator map), interleaved bit by bit (./geohash.ts). Cells that share a
 * prefix are one score range, so a search reads the few score ranges that cover its area and
 * filters their members by Redis's haversine distance (./search.ts, ./distance.ts); replies are
 * ordered by Redis's own sorts (./sort.ts). A position read back is the centre of its cell,
 * within half a cell of what was added (0.30 m of longitude and 0.14 m of latitude at the equator).
 *
 * Memory layout: the sorted set, nothing else — members and their scores, as Redis keeps a geo key.
 * `sortedSet` is that set itself, not a copy: ZRANGE, ZRANK, ZREM and the rest work on it, and
 * scores written there directly are read back as Redis reads any score of a geo key.
 *
 * Invariants: those of the sorted set (a GeoSet holds no state of its own). Every score that GEOADD
 * wrote is an integer in [0, 2^54).
 *
 * Costs: add O(log n); position, distance, geohash O(1); search O(9 log n + c + m log m) for c
 * candidates in the cells scanned and m matches; searchStore the same plus O(m log m) to build.
 *
 * The engine's `Math.sin`/`cos`/`asin` may differ from glibc's by one unit in the last place: a
 * distance may then differ from Redis's in its last bit (docs/geo.md measures how often, and what
 * it changes in replies).
 */
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import {
  checkInteger,
  checkString,
  formatError,
  notJson,
  RedstructFormatError,
  rangeError,
  typeError,
} from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkFlag, checkInstance, checkIterable, checkOptions, checkZaddFlags } from "../internal/options.js";
import { SortedSet, type SortedSetOptions } from "../skiplist/index.js";
import { type GeoUnit, haversine, NATIVE_TRIG, UNITS } from "./distance.js";
import { decodeScore, encodeScore, geohashString, LAT_MAX, LAT_MIN, LON_MAX, LON_MIN } from "./geohash.js";
import { type SearchHits, type SearchSpec, search } from "./search.js";

const WHERE = "GeoSet";

export type { GeoUnit };

/** Options of {@link GeoSet}'s constructor and {@link GeoSet.from}. */
export interface GeoSetOptions extends SortedSetOptions {
  /**
   * An existing sorted set to work on, shared and not copied (as GEO commands work on any sorted-set
   * key in Redis). Not with `seed` or `capacity`, which only shape a new set.
   * @defaultValue a new, empty SortedSet
   */
  sortedSet?: SortedSet;
}

/** GEOADD's flags. */
export interface GeoAddOptions {
  /** Only add new members, never move existing ones (GEOADD NX). */
  nx?: boolean;
  /** Only move existing members, never add (GEOADD XX). */
  xx?: boolean;
  /** Count members whose position changed as well as those added (GEOADD CH). */
  ch?: boolean;
}

/** A place to add: member, longitude, latitude — GEOADD's argument order. */
export type GeoEntry = readonly [member: string, longitude: number, latitude: number];

/**
 * GEOSEARCH's arguments. The centre is `member` (FROMMEMBER) or `longitude` and `latitude`
 * (FROMLONLAT); the shape is `radius` (BYRADIUS) or `width` and `height` (BYBOX), in `unit`.
 */
export interface GeoSearchOptions {
  /** Search around this member's position (FROMMEMBER). */
  member?: string;
  /** Search around this longitude (FROMLONLAT), with `latitude`. */
  longitude?: number;
  /** Search around this latitude (FROMLONLAT), with `longitude`. */
  latitude?: number;
  /** Radius of a circular search (BYRADIUS), ≥ 0; `Infinity` allowed. */
  radius?: number;
  /** Width of a box search (BYBOX), east to west, ≥ 0; `Infinity` allowed. */
  width?: number;
  /** Height of a box search (BYBOX), north to south, ≥ 0; `Infinity` allowed. */
  height?: number;
  /** Unit of `radius`, `width`, `height` and of the distances returned. @defaultValue "m" */
  unit?: GeoUnit;
  /** Nearest first (ASC) or farthest first (DESC). @defaultValue scan order, or "asc" with `count` and no `any` */
  order?: "asc" | "desc";
  /** At most this many results, ≥ 1 (COUNT): the nearest ones unless `any`. */
  count?: number;
  /** With `count`: stop at the first `count` matches found, nearest or not (COUNT … ANY). */
  any?: boolean;
}

/** GEOSEARCHSTORE's arguments: GEOSEARCH's, and STOREDIST. */
export interface GeoSearchStoreOptions extends GeoSearchOptions {
  /** Store distances (in `unit`) as the scores of a plain SortedSet instead of the places (STOREDIST). */
  storeDist?: boolean;
}

/** One GEOSEARCH result, with everything WITHDIST, WITHHASH and WITHCOORD add. */
export interface GeoSearchResult {
  /** The place's member. */
  member: string;
  /** Distance from the centre in the search's unit, unrounded (Redis prints 4 decimals). */
  distance: number;
  /** The member's score as an integer (WITHHASH): its 52-bit geohash. */
  hash: number;
  /** Longitude of the centre of the member's cell (WITHCOORD). */
  longitude: number;
  /** Latitude of the centre of the member's cell (WITHCOORD). */
  latitude: number;
}

const ADD_KEYS = ["nx", "xx", "ch"] as const;
const SEARCH_KEYS = [
  "member",
  "longitude",
  "latitude",
  "radius",
  "width",
  "height",
  "unit",
  "order",
  "count",
  "any",
] as const;
const STORE_KEYS = [...SEARCH_KEYS, "storeDist"] as const;
const UNIT_NAMES = '"m", "km", "mi" or "ft"';

/** Magic and version of {@link GeoSet.toBytes}. */
const MAGIC = "RSGE";
const VERSION = 1;

/** An error of the underlying SortedSet, told as this GeoSet's (same class, "redstruct/GeoSet: …"). */
function renamed(e: unknown): unknown {
  if (!(e instanceof Error) || !e.message.startsWith("redstruct/SortedSet: ")) return e;
  const message = `redstruct/${WHERE}: ${e.message.slice("redstruct/SortedSet: ".length)}`;
  if (e instanceof RedstructFormatError) return new RedstructFormatError(message);
  if (e instanceof TypeError) return new TypeError(message);
  if (e instanceof RangeError) return new RangeError(message);
  return e;
}

function checkMember(value: unknown, param: string): string {
  return checkString(WHERE, param, value);
}

/**
 * A longitude or latitude GEOADD accepts (Redis: "ERR invalid longitude,latitude pair"); `entry`
 * ≥ 0 names it as a field of `entries[entry]`. The message is built only for a refusal: this runs
 * on every add.
 */
function checkCoordinate(
  param: "longitude" | "latitude",
  value: unknown,
  min: number,
  max: number,
  entry = -1,
): number {
  if (typeof value === "number" && value >= min && value <= max) return value;
  const name = entry < 0 ? param : `entries[${entry}][${param === "longitude" ? 1 : 2}] (${param})`;
  const allowed = `a number in [${min}, ${max}]`;
  if (typeof value !== "number") throw typeError(WHERE, name, value, allowed);
  throw rangeError(WHERE, name, value, allowed);
}

/** A radius, width or height: ≥ 0, Infinity allowed, NaN refused. */
function checkLength(param: string, value: unknown): number {
  const allowed = "a number ≥ 0 (Infinity allowed)";
  if (typeof value !== "number") throw typeError(WHERE, param, value, allowed);
  if (!(value >= 0)) throw rangeError(WHERE, param, value, allowed);
  return value;
}

function checkUnit(value: unknown): number {
  if (value === undefined) return 1;
  if (typeof value !== "string") throw typeError(WHERE, "unit", value, UNIT_NAMES);
  if (!Object.hasOwn(UNITS, value)) throw rangeError(WHERE, "unit", value, UNIT_NAMES);
  return UNITS[value as GeoUnit];
}

/**
 * Redis's GEO commands over a sorted set whose scores are 52-bit geohashes: GEOADD, GEOPOS,
 * GEODIST, GEOHASH, GEOSEARCH and GEOSEARCHSTORE, with Redis 7.0's answers.
 */
export class GeoSet {
  readonly #set: SortedSet;
  /** Scratch for decoded positions. */
  readonly #xy = new Float64Array(2);

  /**
   * Creates an empty GeoSet on a new SortedSet, or a GeoSet over `options.sortedSet` (shared: its
   * members are the GeoSet's places, whatever added them). O(1).
   * @throws TypeError for an unknown option, `sortedSet` that is not a SortedSet, or `sortedSet`
   *   with `seed` or `capacity`; RangeError for a seed or capacity the SortedSet refuses.
   */
  constructor(options?: GeoSetOptions) {
    const o = checkOptions(WHERE, options, ["seed", "capacity", "sortedSet"]);
    if (o.sortedSet === undefined) {
      this.#set = new SortedSet({
        ...(o.seed === undefined ? {} : { seed: o.seed }),
        ...(o.capacity === undefined ? {} : { capacity: o.capacity }),
      });
    } else {
      if (o.seed !== undefined || o.capacity !== undefined) {
        throw new TypeError(`redstruct/${WHERE}: sortedSet is an existing set: seed and capacity do not apply to it`);
      }
      this.#set = checkInstance(WHERE, "sortedSet", o.sortedSet, SortedSet);
    }
  }

  /**
   * A GeoSet holding `entries`, `[member, longitude, latitude]` each (GEOADD of them all; a later
   * entry for a member moves it). O(n log n).
   * @throws as {@link addAll} (nothing is built when an entry is invalid), or as the constructor.
   */
  static from(entries: Iterable<GeoEntry>, options?: GeoSetOptions): GeoSet {
    checkIterable(WHERE, "entries", entries);
    const g = new GeoSet(options);
    g.addAll(entries);
    return g;
  }

  /** The sorted set the places are stored in — shared, not a copy (ZRANGE, ZREM, … on a geo key). */
  get sortedSet(): SortedSet {
    return this.#set;
  }

  /** Number of places (ZCARD). O(1). */
  get size(): number {
    return this.#set.size;
  }

  /** Bytes held by the sorted set's typed arrays: a GeoSet holds nothing else. */
  get byteLength(): number {
    return this.#set.byteLength;
  }

  // ---------------------------------------------------------------- GEOADD

  /**
   * Adds `member` at (longitude, latitude), or moves it there (GEOADD of one place). Returns true
   * when the member was added — with `ch`, also when it moved to another cell. The score is Redis's
   * 52-bit geohash of the position. O(log n).
   * @throws RangeError for a longitude outside [−180, 180] or a latitude outside
   *   [−85.05112878, 85.05112878] (NaN included: Redis's "invalid longitude,latitude pair"), or for
   *   `nx` with `xx`; TypeError for a non-string member, an unknown option or a non-boolean flag.
   */
  add(member: string, longitude: number, latitude: number, options?: GeoAddOptions): boolean {
    checkMember(member, "member");
    checkCoordinate("longitude", longitude, LON_MIN, LON_MAX);
    checkCoordinate("latitude", latitude, LAT_MIN, LAT_MAX);
    const score = encodeScore(longitude, latitude);
    if (options === undefined) return this.#set.add(member, score);
    return this.#set.add(member, score, GeoSet.#addFlags(options));
  }

  /**
   * Adds or moves every place of `entries` in order, as one GEOADD: returns GEOADD's reply, the
   * number of members added (with `ch`, added or moved). All or nothing: every entry is checked
   * before any is added, so one invalid position adds none, as in Redis. O(k log n) for k entries.
   * @throws TypeError when `entries` is not a synchronous iterable of `[member, longitude, latitude]`
   *   arrays; RangeError for a position out of range (naming the entry) or `nx` with `xx`.
   */
  addAll(entries: Iterable<GeoEntry>, options?: GeoAddOptions): number {
    checkIterable(WHERE, "entries", entries);
    const flags = options === undefined ? undefined : GeoSet.#addFlags(options);
    const members: string[] = [];
    const scores: number[] = [];
    for (const entry of entries) {
      const i = members.length;
      if (!Array.isArray(entry))
        throw typeError(WHERE, `entries[${i}]`, entry, "a [member, longitude, latitude] array");
      // Each field read once: what was checked is what is added (a getter may answer differently).
      members.push(checkMember(entry[0], `entries[${i}][0]`));
      const longitude = checkCoordinate("longitude", entry[1], LON_MIN, LON_MAX, i);
      const latitude = checkCoordinate("latitude", entry[2], LAT_MIN, LAT_MAX, i);
      scores.push(encodeScore(longitude, latitude));
    }
    let changed = 0;
    for (let i = 0; i < members.length; i++) {
      if (
        flags === undefined ? this.#set.add(members[i]!, scores[i]!) : this.#set.add(members[i]!, scores[i]!, flags)
      ) {
        changed++;
      }
    }
    return changed;
  }

  /** Checked GEOADD flags, as ZADD options. */
  static #addFlags(options: GeoAddOptions): GeoAddOptions {
    const o = checkOptions(WHERE, options, ADD_KEYS);
    const nx = checkFlag(WHERE, "nx", o.nx, false);
    const xx = checkFlag(WHERE, "xx", o.xx, false);
    const ch = checkFlag(WHERE, "ch", o.ch, false);
    checkZaddFlags(WHERE, nx, xx);
    return { nx, xx, ch };
  }

  // ---------------------------------------------------------------- reading places

  /** True when `member` is a place of the set. O(1). */
  has(member: string): boolean {
    return this.#set.has(checkMember(member, "member"));
  }

  /** Removes `member` (ZREM on the geo key). Returns true when it was there. O(log n). */
  delete(member: string): boolean {
    return this.#set.delete(checkMember(member, "member"));
  }

  /**
   * The member's position as Redis answers GEOPOS: `[longitude, latitude]` of the centre of its
   * cell (Redis prints each with `%.17Lf`, trailing zeros cut), or undefined when absent. O(1).
   */
  position(member: string): [longitude: number, latitude: number] | undefined {
    const score = this.#set.score(checkMember(member, "member"));
    if (score === undefined) return undefined;
    decodeScore(score, this.#xy);
    return [this.#xy[0]!, this.#xy[1]!];
  }

  /**
   * The distance between two members in `unit` (GEODIST), unrounded — Redis replies with it rounded
   * to 4 decimals (docs/geo.md shows how) — or undefined when either is absent. Haversine on a
   * sphere of radius 6372797.560856 m, between the centres of the two cells. O(1).
   * @throws RangeError for a unit other than "m", "km", "mi", "ft".
   */
  distance(a: string, b: string, unit?: GeoUnit): number | undefined {
    checkMember(a, "a");
    checkMember(b, "b");
    const perUnit = checkUnit(unit);
    const sa = this.#set.score(a);
    const sb = this.#set.score(b);
    if (sa === undefined || sb === undefined) return undefined;
    const xy = this.#xy;
    decodeScore(sa, xy);
    const lon1 = xy[0]!;
    const lat1 = xy[1]!;
    decodeScore(sb, xy);
    return haversine(NATIVE_TRIG, lon1, lat1, xy[0]!, xy[1]!) / perUnit;
  }

  /** The member's 11-character geohash as GEOHASH answers it, or undefined when absent. O(1). */
  geohash(member: string): string | undefined {
    const score = this.#set.score(checkMember(member, "member"));
    return score === undefined ? undefined : geohashString(score);
  }

  // ---------------------------------------------------------------- GEOSEARCH

  /**
   * The places within a radius or a box around a member or a position (GEOSEARCH … WITHCOORD
   * WITHDIST WITHHASH): Redis's members, in Redis's order — by distance with `order`, scan order
   * without; with `count` the nearest `count` (sorted ascending unless `order` says otherwise), or
   * with `any` the first `count` found. Distances are in `unit`. Around a member of an empty set the
   * answer is empty, as for a missing key. O(9 log n + c + m log m) for c candidates and m matches.
   * @throws RangeError for a member absent from a non-empty set (Redis: "could not decode requested
   *   zset member"), a position out of range, a negative or NaN radius, width or height, an unknown
   *   unit or order, a count below 1, or `any` without `count`; TypeError for both or neither centre,
   *   both or neither shape, an unknown option or a value of the wrong type.
   */
  search(options: GeoSearchOptions): GeoSearchResult[] {
    const spec = this.#spec(options, SEARCH_KEYS);
    if (spec === undefined) return [];
    const hits = search(this.#set, spec, NATIVE_TRIG);
    const out: GeoSearchResult[] = new Array(hits.members.length);
    for (let i = 0; i < out.length; i++) {
      out[i] = {
        member: hits.members[i]!,
        distance: hits.distances[i]! / spec.conversion,
        hash: Math.trunc(hits.scores[i]!),
        longitude: hits.longitudes[i]!,
        latitude: hits.latitudes[i]!,
      };
    }
    return out;
  }

  /**
   * GEOSEARCHSTORE: the places {@link search} finds, as a new GeoSet (same members and scores), or
   * with `storeDist` (STOREDIST) a new SortedSet scoring each member by its distance in `unit`.
   * This set is not changed. O(search + m log m).
   * @throws as {@link search}; TypeError for a non-boolean `storeDist`.
   */
  searchStore(options: GeoSearchOptions & { storeDist?: false }): GeoSet;
  searchStore(options: GeoSearchOptions & { storeDist: true }): SortedSet;
  searchStore(options: GeoSearchStoreOptions): GeoSet | SortedSet;
  searchStore(options: GeoSearchStoreOptions): GeoSet | SortedSet {
    const spec = this.#spec(options, STORE_KEYS);
    const storeDist = checkFlag(WHERE, "storeDist", options.storeDist, false);
    const hits: SearchHits =
      spec === undefined
        ? { members: [], scores: [], longitudes: [], latitudes: [], distances: [] }
        : search(this.#set, spec, NATIVE_TRIG);
    const n = hits.members.length;
    const set = new SortedSet({ capacity: n });
    for (let i = 0; i < n; i++) {
      set.add(hits.members[i]!, storeDist ? hits.distances[i]! / spec!.conversion : hits.scores[i]!);
    }
    return storeDist ? set : new GeoSet({ sortedSet: set });
  }

  /**
   * Checks GEOSEARCH's options and returns the search, or undefined when the answer is empty
   * without one (FROMMEMBER on an empty set, Redis's missing key).
   */
  #spec(options: GeoSearchStoreOptions, known: readonly (keyof GeoSearchStoreOptions)[]): SearchSpec | undefined {
    if (options === undefined) throw typeError(WHERE, "options", options, "an object with a centre and a shape");
    const o = checkOptions(WHERE, options, known);
    const fromMember = o.member !== undefined;
    const fromLonLat = o.longitude !== undefined || o.latitude !== undefined;
    if (fromMember === fromLonLat) {
      throw new TypeError(
        `redstruct/${WHERE}: options must give exactly one centre: member (FROMMEMBER) or longitude and latitude (FROMLONLAT)`,
      );
    }
    const byRadius = o.radius !== undefined;
    const byBox = o.width !== undefined || o.height !== undefined;
    if (byRadius === byBox) {
      throw new TypeError(
        `redstruct/${WHERE}: options must give exactly one shape: radius (BYRADIUS) or width and height (BYBOX)`,
      );
    }
    const radius = byRadius ? checkLength("radius", o.radius) : 0;
    const width = byBox ? checkLength("width", o.width) : 0;
    const height = byBox ? checkLength("height", o.height) : 0;
    const conversion = checkUnit(o.unit);
    let sort: 0 | 1 | 2 = 0;
    if (o.order !== undefined) {
      if (o.order !== "asc" && o.order !== "desc") throw rangeError(WHERE, "order", o.order, '"asc" or "desc"');
      sort = o.order === "asc" ? 1 : 2;
    }
    const count = o.count === undefined ? 0 : checkInteger(WHERE, "count", o.count, 1, Number.MAX_SAFE_INTEGER);
    const any = checkFlag(WHERE, "any", o.any, false);
    if (any && count === 0) throw rangeError(WHERE, "any", true, "used with count (ANY needs COUNT)");
    let longitude: number;
    let latitude: number;
    if (fromMember) {
      const member = checkMember(o.member, "member");
      const score = this.#set.score(member);
      if (score === undefined) {
        if (this.#set.size === 0) return undefined;
        throw rangeError(
          WHERE,
          "member",
          member,
          'a member of the set (Redis: "could not decode requested zset member")',
        );
      }
      decodeScore(score, this.#xy);
      longitude = this.#xy[0]!;
      latitude = this.#xy[1]!;
    } else {
      longitude = checkCoordinate("longitude", o.longitude, LON_MIN, LON_MAX);
      latitude = checkCoordinate("latitude", o.latitude, LAT_MIN, LAT_MAX);
    }
    return { longitude, latitude, byBox, radius, width, height, conversion, sort, count, any };
  }

  // ---------------------------------------------------------------- whole set

  /** Removes every place (DEL). O(size). */
  clear(): void {
    this.#set.clear();
  }

  /** An independent GeoSet with the same places (a clone of the sorted set). O(n). */
  clone(): GeoSet {
    return new GeoSet({ sortedSet: this.#set.clone() });
  }

  /**
   * redstruct's format: "RSGE", a version byte, then the sorted set's own bytes
   * ({@link SortedSet.toBytes}: its members and scores, which are the places). O(n + bytes).
   */
  toBytes(): Uint8Array {
    const set = this.#set.toBytes();
    return new ByteWriter(5 + set.length).magic(MAGIC).u8(VERSION).raw(set).finish();
  }

  /**
   * Rebuilds a GeoSet from {@link toBytes}. O(n + bytes).
   * @throws RedstructFormatError for bytes that are not a GeoSet's, or whose sorted set is
   *   truncated or corrupt (as {@link SortedSet.fromBytes} finds it); TypeError when `bytes` is not
   *   a Uint8Array.
   */
  static fromBytes(bytes: Uint8Array): GeoSet {
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    let set: SortedSet;
    try {
      set = SortedSet.fromBytes(bytes.subarray(r.offset));
    } catch (e) {
      if (e instanceof RedstructFormatError) throw formatError(WHERE, `its sorted set: ${e.message}`);
      throw e;
    }
    return new GeoSet({ sortedSet: set });
  }

  /**
   * The GEO key's `DUMP` payload, for `RESTORE key 0 <payload>` in Redis 7.0 or later: a GEO key is a
   * sorted set, so this is {@link SortedSet.toRedis} of the places' members and geohash scores, byte
   * for byte what redis-server 7.0 DUMPs after the same GEOADDs. O(n + bytes).
   * @throws RangeError for an empty GeoSet (Redis holds no empty key); TypeError naming a member with
   *   a lone surrogate (no UTF-8, hence no Redis, form).
   */
  toRedis(): Uint8Array {
    try {
      return this.#set.toRedis();
    } catch (e) {
      throw renamed(e);
    }
  }

  /**
   * A GeoSet over the sorted set a key's `DUMP` payload holds (GEOADD keys and any other sorted set,
   * as GEO commands work on any sorted-set key), read by {@link SortedSet.fromRedis}. O(n + bytes)
   * for Redis's order.
   * @throws TypeError when `payload` is not a Uint8Array; RedstructFormatError as
   *   {@link SortedSet.fromRedis} finds it.
   */
  static fromRedis(payload: Uint8Array): GeoSet {
    try {
      return new GeoSet({ sortedSet: SortedSet.fromRedis(payload) });
    } catch (e) {
      throw renamed(e);
    }
  }

  /** A GeoSet is not JSON: send {@link toBytes} and rebuild with {@link GeoSet.fromBytes}. */
  toJSON(): never {
    throw notJson(WHERE);
  }

  /**
   * Checks the sorted set's invariants (order, spans, index). O(n · levels); for tests.
   * @throws Error naming the first broken invariant.
   */
  checkInvariants(): void {
    this.#set.checkInvariants();
  }

  static {
    defineInspect(GeoSet, (g) => ({
      size: g.size,
      entries: (limit) => (limit === 0 ? [] : g.sortedSet.range(0, limit - 1).map(([m]) => [m, g.position(m)])),
    }));
  }
}
