/**
 * Checks shared by the DUMP/RESTORE tests of the sorted set, the GEO set and the dict against a real
 * redis-server (through ./redis.ts, so in Node and in Chromium alike): what a key holds, read with
 * ordinary commands, and the round trips between its DUMP and `toRedis()`.
 */
import { expect } from "vitest";
import { SortedSet, type SortedSetEntry } from "../../src/skiplist/index.js";
import { hex } from "./rdb.js";
import { type Redis, RedisReplyError, type Reply } from "./redis.js";

/** A score as a ZADD argument: Redis reads "+inf", "-inf" and "-0" as those doubles. */
export function scoreArg(x: number): string {
  if (x === Number.POSITIVE_INFINITY) return "+inf";
  if (x === Number.NEGATIVE_INFINITY) return "-inf";
  if (Object.is(x, -0)) return "-0";
  return String(x);
}

const strict = new TextDecoder("utf-8", { fatal: true });

/** A bulk reply as UTF-8 text (refusing bytes that are not). */
export function utf8Reply(r: Reply): string {
  if (!(r instanceof Uint8Array)) throw new Error(`expected a bulk string, got ${String(r)}`);
  return strict.decode(r);
}

/** A score reply ("inf", "-inf", "-0", %.17g) as the double it spells. */
export function scoreReply(r: Reply): number {
  const t = utf8Reply(r);
  if (t === "inf") return Number.POSITIVE_INFINITY;
  if (t === "-inf") return Number.NEGATIVE_INFINITY;
  return Number(t);
}

/** Throws the reply when it is an error (with the command that got it). */
export function must<T extends Reply>(r: T, what: string): Exclude<T, RedisReplyError> {
  if (r instanceof RedisReplyError) throw new Error(`${what}: ${r.message}`);
  return r as Exclude<T, RedisReplyError>;
}

/** A sorted-set key's entries, read with ZRANGE … WITHSCORES. */
export async function zsetEntries(redis: Redis, key: string): Promise<SortedSetEntry[]> {
  const flat = must(await redis.call("ZRANGE", key, 0, -1, "WITHSCORES"), `ZRANGE ${key}`) as Reply[];
  const out: SortedSetEntry[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([utf8Reply(flat[i]!), scoreReply(flat[i + 1]!)]);
  return out;
}

/** Entries with −0 spelled out, so that `toEqual` tells −0 from 0. */
export function spelled(entries: Iterable<SortedSetEntry>): [string, number | string][] {
  return [...entries].map(([m, s]) => [m, Object.is(s, -0) ? "-0" : s]);
}

/** Entries as a listpack keeps them: an integer score −0 is 0 there. */
export function asListpack(entries: Iterable<SortedSetEntry>): [string, number | string][] {
  return spelled([...entries].map(([m, s]): SortedSetEntry => [m, s === 0 ? 0 : s]));
}

/** What {@link compareZset} found. */
export interface ZsetComparison {
  /** Redis's OBJECT ENCODING of the key built by commands. */
  redisEncoding: string;
  /** The encoding `toRedis()` chose. */
  ours: string;
  /** Whether the DUMP bytes were compared (equal encodings) and found equal. */
  bytesCompared: boolean;
}

/**
 * The checks for a sorted-set key `key` that Redis built and the set `zs` built by the same commands:
 * - `fromRedis(DUMP key)` holds the key's entries (as Redis reads them back with ZRANGE), and `zs`'s;
 * - when Redis holds the key in the encoding `toRedis()` chose, the DUMP bytes are `toRedis()`'s
 *   (in a skiplist, when its scores are ours to the sign: a −0 Redis received while the key was a
 *   listpack became 0 there);
 * - `RESTORE` of `toRedis()` is accepted, holds `zs`'s entries, has the encoding chosen, and DUMPs
 *   back exactly `toRedis()`;
 * - `fromRedis(toRedis())` is `zs` again and passes its invariant check.
 * An empty `zs`: the key must not exist, and `toRedis()` is a RangeError.
 */
export async function compareZset(redis: Redis, key: string, zs: SortedSet): Promise<ZsetComparison> {
  const [dump, encoding] = await redis.pipeline([
    ["DUMP", key],
    ["OBJECT", "ENCODING", key],
  ]);
  if (zs.size === 0) {
    expect(dump).toBe(null);
    expect(() => zs.toRedis()).toThrow(RangeError);
    return { redisEncoding: "none", ours: "none", bytesCompared: false };
  }
  const redisEncoding = utf8Reply(must(encoding!, "OBJECT ENCODING"));
  const mine = zs.toRedis();
  const ours = mine[0] === 17 ? "listpack" : "skiplist";
  expect(mine[0] === 17 || mine[0] === 5).toBe(true);
  const fromDump = SortedSet.fromRedis(must(dump!, "DUMP") as Uint8Array);
  fromDump.checkInvariants();
  // ZRANGE replies 0 for −0 (an integer-valued score): compare with −0 as 0 there.
  const inRedis = await zsetEntries(redis, key);
  expect(asListpack(fromDump)).toEqual(asListpack(inRedis));
  // −0: a listpack keeps 0, and so does a Redis skiplist that the key reached as a listpack first,
  // while a SortedSet keeps every −0 it was given.
  expect(asListpack(fromDump)).toEqual(asListpack(zs));
  const sameScores = JSON.stringify(spelled(fromDump)) === JSON.stringify(spelled(zs));
  const bytesCompared = redisEncoding === ours && (ours === "listpack" || sameScores);
  if (bytesCompared) expect(hex(must(dump!, "DUMP") as Uint8Array)).toBe(hex(mine));
  const copy = `${key}:restored`;
  const [restored, copyEncoding, copyDump] = await redis.pipeline([
    ["RESTORE", copy, 0, mine, "REPLACE"],
    ["OBJECT", "ENCODING", copy],
    ["DUMP", copy],
  ]);
  expect(utf8Reply(must(restored!, "RESTORE"))).toBe("OK");
  expect(utf8Reply(must(copyEncoding!, "OBJECT ENCODING"))).toBe(ours);
  expect(hex(must(copyDump!, "DUMP") as Uint8Array)).toBe(hex(mine));
  const restoredEntries = await zsetEntries(redis, copy);
  expect(asListpack(restoredEntries)).toEqual(asListpack(zs));
  const back = SortedSet.fromRedis(mine);
  back.checkInvariants();
  expect(ours === "listpack" ? asListpack(back) : spelled(back)).toEqual(
    ours === "listpack" ? asListpack(zs) : spelled(zs),
  );
  return { redisEncoding, ours, bytesCompared };
}
