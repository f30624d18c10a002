/**
 * A small TDIGEST.* front end over the TDigest API, for replaying test/vectors/redisbloom/tdigest.json:
 * it parses arguments as Redis and RedisBloom do (string2d / string2ll, keywords, arity, key lookups)
 * and turns each command into API calls, so that every reply the vectors record is computed by the API.
 * Range checks are the API's: a value the parser accepts but RedisBloom refuses (±inf for ADD, a
 * quantile outside [0, 1], a negative rank, a compression out of range) is handed to the API, and its
 * RangeError becomes RedisBloom's error text.
 *
 * Replies: `{ dbl }` for a double bulk reply, number/bigint for integers, `{ simple }`, `{ error }`,
 * `{ bulk }` (bytes), `{ text }` (a string bulk), null, arrays. {@link sameReply} compares one with the
 * vectors' encoding: doubles exactly (−0 apart from 0, NaN equal to NaN), integers as 64-bit values.
 */
import { TDigest } from "../../src/tdigest/index.js";
import { fromHex, toHex } from "./redisbloom.js";

export type Reply =
  | null
  | number
  | bigint
  | { dbl: number }
  | { simple: string }
  | { error: string }
  | { bulk: Uint8Array }
  | { text: string }
  | Reply[];

export type Arg = { utf8: string } | { hex: string };

const ERR = "ERR T-Digest: ";
const WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

/** Redis's string2d: strtod over the whole argument; NaN, overflow, underflow to 0, spaces refused. */
function string2d(s: string): number | null {
  if (s.length === 0 || /^\s/.test(s)) return null;
  const m =
    /^([+-]?)(?:(inf|infinity)|(nan(?:\([0-9a-z_]*\))?)|0x((?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+))(?:p([+-]?[0-9]+))?|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?))$/i.exec(
      s,
    );
  if (!m) return null;
  const sign = m[1] === "-" ? -1 : 1;
  if (m[2]) return sign * Number.POSITIVE_INFINITY;
  if (m[3]) return null;
  let v: number;
  let digits: string;
  if (m[4] !== undefined) {
    const [int = "", frac = ""] = m[4].split(".");
    digits = int + frac;
    const mant = digits === "" ? 0n : BigInt(`0x${digits}`);
    v = Number(mant) * 2 ** (Number(m[5] ?? "0") - 4 * frac.length);
  } else {
    digits = m[6]!.split(/e/i)[0]!;
    v = Number(m[6]);
  }
  if (!Number.isFinite(v)) return null;
  if (v === 0 && /[1-9a-f]/i.test(digits)) return null;
  return sign * v;
}

/** Redis's string2ll: no '+', no leading zeros, no "-0", within the signed 64-bit range. */
function string2ll(s: string): bigint | null {
  if (!/^(0|-?[1-9][0-9]*)$/.test(s)) return null;
  const v = BigInt(s);
  if (v < -(1n << 63n) || v >= 1n << 63n) return null;
  return v;
}

const arity = (cmd: string): Reply => ({ error: `ERR wrong number of arguments for '${cmd.toLowerCase()}' command` });
const err = (text: string): Reply => ({ error: ERR + text });

/** Which API forms the front end picks, alternating so that every form meets the vectors. */
let turn = 0;

/** A keyspace of digests (and strings, for WRONGTYPE) that runs TDIGEST.* commands through the API. */
export class TDigestKeyspace {
  readonly keys = new Map<string, TDigest | string>();
  /** Called after every command with each digest it touched (invariant checks, round trips). */
  constructor(readonly touched: (key: string, d: TDigest) => TDigest = (_k, d) => d) {}

  run(cmd: string, raw: Arg[]): Reply {
    const args = raw.map((a) => ("utf8" in a ? a.utf8 : latin1(fromHex(a.hex))));
    const name = cmd.toUpperCase();
    const reply = this.#run(name, cmd, args, raw);
    const key = args[0];
    if (key !== undefined && name.startsWith("TDIGEST.")) {
      const d = this.keys.get(key);
      if (d instanceof TDigest) this.keys.set(key, this.touched(key, d));
    }
    return reply;
  }

  #digest(key: string): TDigest | Reply {
    const d = this.keys.get(key);
    if (d === undefined) return err("key does not exist");
    if (typeof d === "string") return { error: WRONGTYPE };
    return d;
  }

  #run(name: string, cmd: string, args: string[], raw: Arg[]): Reply {
    switch (name) {
      case "SET":
        this.keys.set(args[0]!, args[1]!);
        return { simple: "OK" };
      case "GET": {
        const v = this.keys.get(args[0]!);
        if (v === undefined) return null;
        return typeof v === "string" ? { text: v } : { error: WRONGTYPE };
      }
      case "TYPE": {
        const v = this.keys.get(args[0]!);
        return { simple: v === undefined ? "none" : typeof v === "string" ? "string" : "TDIS-TYPE" };
      }
      case "EXISTS":
        return args.filter((k) => this.keys.has(k)).length;
      case "DEL": {
        let n = 0;
        for (const k of args) if (this.keys.delete(k)) n++;
        return n;
      }
      case "DUMP": {
        const v = this.keys.get(args[0]!);
        if (v === undefined) return null;
        if (typeof v === "string") throw new Error("DUMP of a string key is not modelled");
        return { bulk: v.toRedis() };
      }
      case "RESTORE": {
        if (this.keys.has(args[0]!)) return { error: "BUSYKEY Target key name already exists." };
        const payload = raw[2]!;
        const bytes = "hex" in payload ? fromHex(payload.hex) : new TextEncoder().encode(payload.utf8);
        this.keys.set(args[0]!, TDigest.fromRedis(bytes));
        return { simple: "OK" };
      }
    }
    if (!name.startsWith("TDIGEST.")) throw new Error(`command ${cmd} is not modelled`);
    const op = name.slice("TDIGEST.".length);
    const n = args.length;
    const exactly = { MIN: 1, MAX: 1, INFO: 1, RESET: 1, TRIMMED_MEAN: 3 } as Record<string, number>;
    const atLeast = { ADD: 2, MERGE: 3, QUANTILE: 2, CDF: 2, RANK: 2, REVRANK: 2, BYRANK: 2, BYREVRANK: 2 } as Record<
      string,
      number
    >;
    if (op === "CREATE") {
      if (n !== 1 && n !== 3) return arity(cmd);
    } else if (op in exactly) {
      if (n !== exactly[op]) return arity(cmd);
    } else if (op in atLeast) {
      if (n < atLeast[op]!) return arity(cmd);
    } else throw new Error(`command ${cmd} is not modelled`);
    if (op === "CREATE") return this.#create(args);
    if (op === "MERGE") return this.#merge(cmd, args);
    const found = this.#digest(args[0]!);
    if (!(found instanceof TDigest)) return found;
    const d = found;
    const rest = args.slice(1);
    turn++;
    switch (op) {
      case "ADD":
        return this.#add(d, rest);
      case "RESET":
        d.clear();
        return { simple: "OK" };
      case "MIN":
        return { dbl: d.min() };
      case "MAX":
        return { dbl: d.max() };
      case "INFO": {
        const i = d.info();
        const exact = exactWeights(d);
        if (
          i.mergedWeight !== Number(exact.mergedWeight) ||
          i.unmergedWeight !== Number(exact.unmergedWeight) ||
          i.size !== Number(exact.size) ||
          d.size !== i.size
        ) {
          throw new Error("info() and the exact weights disagree");
        }
        return [
          { simple: "Compression" },
          i.compression,
          { simple: "Capacity" },
          i.capacity,
          { simple: "Merged nodes" },
          i.mergedNodes,
          { simple: "Unmerged nodes" },
          i.unmergedNodes,
          { simple: "Merged weight" },
          exact.mergedWeight,
          { simple: "Unmerged weight" },
          exact.unmergedWeight,
          { simple: "Observations" },
          exact.size,
          { simple: "Total compressions" },
          i.totalCompressions,
          { simple: "Memory usage" },
          i.byteLength,
        ];
      }
      case "QUANTILE": {
        const qs: number[] = [];
        for (const a of rest) {
          const q = string2d(a);
          if (q === null) return err("error parsing quantile");
          if (refused(() => PROBE.quantile(q))) return err("quantile should be in [0,1]");
          qs.push(q);
        }
        if (qs.length === 1 && turn % 2 === 0) return [{ dbl: d.quantile(qs[0]!) }];
        return d.quantiles(qs).map((dbl) => ({ dbl }));
      }
      case "CDF": {
        const vs: number[] = [];
        for (const a of rest) {
          const v = string2d(a);
          if (v === null) return err("error parsing cdf");
          vs.push(v);
        }
        if (vs.length === 1 && turn % 2 === 0) return [{ dbl: d.cdf(vs[0]!) }];
        return d.cdfs(vs).map((dbl) => ({ dbl }));
      }
      case "RANK":
      case "REVRANK": {
        const vs: number[] = [];
        for (const a of rest) {
          const v = string2d(a);
          if (v === null) return err("error parsing value");
          vs.push(v);
        }
        return vs.map((v) => (op === "RANK" ? d.rank(v) : d.revRank(v)));
      }
      case "BYRANK":
      case "BYREVRANK": {
        const rs: number[] = [];
        for (const a of rest) {
          const r = string2ll(a);
          if (r === null) return err("error parsing rank");
          if (refused(() => PROBE.byRank(Number(r)))) return err("rank needs to be non negative");
          rs.push(Number(r));
        }
        return rs.map((r) => ({ dbl: op === "BYRANK" ? d.byRank(r) : d.byRevRank(r) }));
      }
      case "TRIMMED_MEAN": {
        const lo = string2d(rest[0]!);
        if (lo === null) return err("error parsing low_cut_percentile");
        const hi = string2d(rest[1]!);
        if (hi === null) return err("error parsing high_cut_percentile");
        try {
          return { dbl: d.trimmedMean(lo, hi) };
        } catch (e) {
          if (!(e instanceof RangeError)) throw e;
          return lo >= 0 && lo <= 1 && hi >= 0 && hi <= 1
            ? err("low_cut_percentile should be lower than high_cut_percentile")
            : err("low_cut_percentile and high_cut_percentile should be in [0,1]");
        }
      }
    }
    throw new Error(`command ${cmd} is not modelled`);
  }

  #create(args: string[]): Reply {
    const key = args[0]!;
    const existing = this.keys.get(key);
    if (typeof existing === "string") return { error: WRONGTYPE };
    if (existing !== undefined) return err("key already exists");
    let options: { compression?: number } | undefined;
    if (args.length === 3) {
      if (args[1]!.toUpperCase() !== "COMPRESSION" && args[2]!.toUpperCase() !== "COMPRESSION") {
        return err("wrong keyword");
      }
      const c = string2ll(args[2]!);
      if (c === null) return err("error parsing compression parameter");
      options = { compression: Number(c) };
    }
    try {
      this.keys.set(key, turn++ % 3 === 0 && options === undefined ? new TDigest() : new TDigest(options));
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      return (options?.compression ?? 0) <= 0
        ? err("compression parameter needs to be a positive integer")
        : err("allocation failed");
    }
    return { simple: "OK" };
  }

  #add(d: TDigest, rest: string[]): Reply {
    const values: number[] = [];
    for (const a of rest) {
      const v = string2d(a);
      if (v === null) {
        // The values before it are still checked, left to right, by the API (on a copy: nothing is added).
        return refused(() => d.clone().add(...values))
          ? err("val parameter needs to be a finite number")
          : err("error parsing val parameter");
      }
      values.push(v);
    }
    try {
      if (values.length > 1 && turn % 2 === 0) d.addAll(values);
      else if (values.length > 1 && turn % 4 === 1) d.addAll(new Float64Array(values));
      else d.add(...values);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      return e.message.includes("overflow")
        ? err("overflow detected")
        : err("val parameter needs to be a finite number");
    }
    return { simple: "OK" };
  }

  #merge(cmd: string, args: string[]): Reply {
    const [dest, numArg] = args as [string, string];
    const existing = this.keys.get(dest);
    if (typeof existing === "string") return { error: WRONGTYPE };
    const numkeys = string2ll(numArg);
    if (numkeys === null) return err("error parsing numkeys");
    if (numkeys <= 0n) return err("numkeys needs to be a positive integer");
    if (numkeys > BigInt(args.length - 2)) return arity(cmd);
    const k = Number(numkeys);
    const sourceKeys = args.slice(2, 2 + k);
    const extra = args.slice(2 + k);
    let compression: number | undefined;
    let override = false;
    const at = extra.findIndex((a) => a.toUpperCase() === "COMPRESSION");
    if (at >= 0) {
      if (at + 1 >= extra.length) return arity(cmd);
      const c = string2ll(extra[at + 1]!);
      if (c === null) return err("error parsing compression parameter");
      if (c <= 0n) return err("compression parameter needs to be a positive integer");
      compression = Number(c);
    }
    if (extra.some((a) => a.toUpperCase() === "OVERRIDE")) override = true;
    if (extra.length > 0 && at < 0 && !override) return err("wrong keyword");
    const sources: TDigest[] = [];
    for (const key of sourceKeys) {
      const s = this.#digest(key);
      if (!(s instanceof TDigest)) return s;
      sources.push(s);
    }
    try {
      if (existing !== undefined && !override && compression === undefined) {
        if (turn++ % 2 === 0) existing.merge(...sources);
        else existing.merge(new Set(sources).size === sources.length ? new Set(sources) : sources);
      } else {
        const list = existing !== undefined && !override ? [existing, ...sources] : sources;
        this.keys.set(dest, TDigest.union(list, compression === undefined ? undefined : { compression }));
      }
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      return e.message.includes("overflow") ? err("overflow detected") : err("allocation of destination digest failed");
    }
    const d = this.keys.get(dest) as TDigest;
    this.keys.set(dest, this.touched(dest, d));
    for (const key of sourceKeys) this.keys.set(key, this.touched(key, this.keys.get(key) as TDigest));
    return { simple: "OK" };
  }
}

/**
 * TDIGEST.INFO's exact 64-bit weights, read from toBytes() (which holds them; info() gives the nearest
 * doubles past 2^53): merged weight at bytes 41–48, unmerged weight at 49–56, little-endian.
 */
export function exactWeights(d: TDigest): { mergedWeight: bigint; unmergedWeight: bigint; size: bigint } {
  const bytes = d.toBytes();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const mergedWeight = view.getBigInt64(41, true);
  const unmergedWeight = view.getBigInt64(49, true);
  return { mergedWeight, unmergedWeight, size: BigInt.asIntN(64, mergedWeight + unmergedWeight) };
}

/** An empty digest: argument checks do not depend on the state, and it has none to disturb. */
const PROBE = new TDigest();

function refused(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch (e) {
    if (e instanceof RangeError) return true;
    throw e;
  }
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/** The double a recorded `%.17g` reply stands for ("nan", "-nan", "inf", "-inf" included). */
function recordedDouble(s: string): number {
  if (s === "nan" || s === "-nan") return Number.NaN;
  if (s === "inf") return Number.POSITIVE_INFINITY;
  if (s === "-inf") return Number.NEGATIVE_INFINITY;
  const v = Number(s);
  if (Number.isNaN(v)) throw new Error(`not a recorded double: ${s}`);
  return v;
}

/** Whether our reply equals the recorded one (exactly: doubles bit for bit bar NaN's sign). */
export function sameReply(ours: Reply, recorded: unknown): boolean {
  if (recorded === null) return ours === null;
  if (Array.isArray(recorded)) {
    return Array.isArray(ours) && ours.length === recorded.length && recorded.every((r, i) => sameReply(ours[i]!, r));
  }
  if (typeof recorded === "number") {
    return (typeof ours === "number" || typeof ours === "bigint") && BigInt(ours) === BigInt(recorded);
  }
  const r = recorded as Record<string, string>;
  if (typeof r.int === "string")
    return (typeof ours === "number" || typeof ours === "bigint") && BigInt(ours) === BigInt(r.int);
  if (ours === null || typeof ours !== "object" || Array.isArray(ours)) return false;
  if (typeof r.simple === "string") return "simple" in ours && ours.simple === r.simple;
  if (typeof r.error === "string") return "error" in ours && ours.error === r.error;
  if (typeof r.hex === "string") return "bulk" in ours && toHex(ours.bulk) === r.hex;
  if (typeof r.utf8 === "string") {
    if ("dbl" in ours) return Object.is(ours.dbl, recordedDouble(r.utf8));
    if ("text" in ours) return ours.text === r.utf8;
    return false;
  }
  return false;
}

/** A reply for failure messages. */
export function show(reply: Reply): string {
  return JSON.stringify(reply, (_k, v) =>
    typeof v === "bigint"
      ? `${v}n`
      : v instanceof Uint8Array
        ? toHex(v)
        : typeof v === "number" && !Number.isFinite(v)
          ? String(v)
          : Object.is(v, -0)
            ? "-0"
            : v,
  );
}
