/**
 * How Redis 7.0 prints GEO numbers, reproduced exactly so that a test can compare our doubles with
 * Redis's reply strings, and glibc's sin/cos/asin fetched from the redis-server itself (its Lua
 * `math` library calls the same libm functions as its GEO code) to replay a computation with them;
 * and seeded random places, the coordinate limits and clusters of near places among them.
 */
import type { Trig } from "../../src/geo/distance.js";
import { LAT_MAX, LAT_MIN } from "../../src/geo/geohash.js";
import { mulberry32 } from "../../src/internal/random.js";
import { ok, type Redis, text } from "./redis.js";

/** A finite double as an exact fraction: |x| = mantissa · 2^exponent. */
function exact(x: number): [mantissa: bigint, exponent: number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = hi >>> 20;
  const fraction = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return biased === 0 ? [fraction, -1074] : [fraction | (1n << 52n), biased - 1075];
}

/** round(|x| · 10^digits) to nearest, ties to even, as glibc's printf rounds. */
function scaledDecimal(x: number, digits: number): bigint {
  const [m, e] = exact(x);
  const p = 10n ** BigInt(digits);
  if (e >= 0) return (m << BigInt(e)) * p;
  const shift = BigInt(-e);
  const num = m * p;
  let q = num >> shift;
  const rem = num - (q << shift);
  const half = 1n << (shift - 1n);
  if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
  return q;
}

/**
 * A coordinate as GEOPOS and WITHCOORD print it: `%.17Lf` of the double (exact in a long double),
 * trailing zeros and a bare "." cut, "-0" printed "0" (Redis's ld2string, LD_STR_HUMAN).
 */
export function redisCoordinate(x: number): string {
  if (x === Number.POSITIVE_INFINITY) return "inf";
  if (x === Number.NEGATIVE_INFINITY) return "-inf";
  const digits = scaledDecimal(x, 17).toString().padStart(18, "0");
  let s = `${digits.slice(0, -17)}.${digits.slice(-17)}`.replace(/0+$/, "").replace(/\.$/, "");
  if (x < 0 || Object.is(x, -0)) s = `-${s}`;
  return s === "-0" ? "0" : s;
}

/**
 * A distance as GEODIST and WITHDIST print it: `llrint(d · 10000)` (the product rounded as a
 * double, then to an integer ties-to-even) written with 4 decimals (Redis's fixedpoint_d2string).
 */
export function redisDistance(d: number): string {
  if (d === 0) return "0.0000";
  const p = d * 10000;
  if (Number.isNaN(p)) return "-922337203685477.5808"; // llrint(NaN) is LLONG_MIN on x86-64
  const f = Math.floor(p);
  const frac = p - f;
  const n = frac > 0.5 ? f + 1 : frac < 0.5 ? f : f % 2 === 0 ? f : f + 1;
  const digits = BigInt(Math.abs(n)).toString().padStart(5, "0");
  return `${n < 0 ? "-" : ""}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

/** A number as an argument Redis parses back to the same double (strtod of the shortest repr). */
export function arg(x: number): string {
  if (x === Number.POSITIVE_INFINITY) return "inf";
  if (x === Number.NEGATIVE_INFINITY) return "-inf";
  return Object.is(x, -0) ? "-0" : String(x);
}

const LUA_TRIG = `
local out = {}
for i = 1, #ARGV do
  local a = ARGV[i]
  local f = string.sub(a, 1, 1)
  local x = tonumber(string.sub(a, 2))
  local y
  if f == 's' then y = math.sin(x) elseif f == 'c' then y = math.cos(x) else y = math.asin(x) end
  out[i] = string.format('%.17g', y)
end
return out`;

function parseC(s: string): number {
  if (/nan/i.test(s)) return Number.NaN;
  if (s === "inf") return Number.POSITIVE_INFINITY;
  if (s === "-inf") return Number.NEGATIVE_INFINITY;
  return Number(s);
}

/**
 * glibc's sin, cos and asin, as the redis-server under test computes them. Synchronous lookups of
 * values fetched beforehand: an input not fetched yet is recorded in `missing` and answered with
 * the engine's value for now; {@link fetch} then asks Redis for every missing one. Replaying a
 * computation until nothing is missing gives its result with glibc's functions.
 */
export class GlibcTrig implements Trig {
  readonly values = new Map<string, number>();
  readonly missing = new Set<string>();

  #get(f: "s" | "c" | "a", x: number, native: (x: number) => number): number {
    const key = f + arg(x);
    const v = this.values.get(key);
    if (v !== undefined) return v;
    this.missing.add(key);
    return native(x);
  }

  sin(x: number): number {
    return this.#get("s", x, Math.sin);
  }

  cos(x: number): number {
    return this.#get("c", x, Math.cos);
  }

  asin(x: number): number {
    return this.#get("a", x, Math.asin);
  }

  /** Fetches every missing value from Redis (EVAL, in batches small enough to parse in one piece). */
  async fetch(redis: Redis): Promise<void> {
    const keys = [...this.missing];
    this.missing.clear();
    const batches: string[][] = [];
    for (let i = 0; i < keys.length; i += 500) batches.push(keys.slice(i, i + 500));
    const replies = await redis.pipeline(batches.map((b) => ["EVAL", LUA_TRIG, 0, ...b]));
    batches.forEach((batch, i) => {
      const reply = ok(replies[i]!) as Uint8Array[];
      for (let j = 0; j < batch.length; j++) this.values.set(batch[j]!, parseC(text(reply[j]!)!));
    });
  }

  /** Runs `compute` with glibc's values, fetching until it needs no value it does not have. */
  async replay<T>(redis: Redis, compute: () => T): Promise<T> {
    for (;;) {
      const result = compute();
      if (this.missing.size === 0) return result;
      await this.fetch(redis);
    }
  }
}

/** Distance in units in the last place between two doubles of the same sign (0 when equal). */
export function ulps(a: number, b: number): number {
  if (Object.is(a, b) || a === b) return 0;
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.POSITIVE_INFINITY;
  const view = new DataView(new ArrayBuffer(16));
  view.setFloat64(0, a);
  view.setFloat64(8, b);
  const ia = view.getBigInt64(0);
  const ib = view.getBigInt64(8);
  const d = ia > ib ? ia - ib : ib - ia;
  return Number(d);
}

/** n places: uniform over the map, and a fifth of them on its edges and in clusters. */
export function places(n: number, seed: number): [string, number, number][] {
  const next = mulberry32(seed);
  const u = () => next() / 2 ** 32;
  const out: [string, number, number][] = [];
  for (let i = 0; i < n; i++) {
    const r = u();
    const x = r < 0.05 ? [-180, 180, 0][i % 3]! : r < 0.15 ? 2 + u() * 1e-3 : -180 + 360 * u();
    const y =
      r < 0.1 && r >= 0.05
        ? [LAT_MIN, LAT_MAX, 0][i % 3]!
        : r < 0.15
          ? 48 + u() * 1e-3
          : LAT_MIN + (LAT_MAX - LAT_MIN) * u();
    out.push([`p${i}`, x, y]);
  }
  return out;
}
