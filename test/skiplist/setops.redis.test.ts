import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Aggregate, SortedSet, type SortedSetEntry } from "../../src/skiplist/index.js";
import { type Arg, type Redis, RedisReplyError, type Reply, startRedis, text } from "../support/redis.js";

// The Redis 6.2+ sorted-set commands against a real redis-server: ZUNIONSTORE / ZINTERSTORE /
// ZDIFFSTORE / ZINTERCARD on random inputs with random weights and aggregates (every score compared
// bit for bit, −0 included), ZADD CH / INCR replayed op by op, ZMSCORE, and ZRANDMEMBER's count
// semantics.

/** A double as Redis parses it back exactly (strtod): shortest round trip, ±inf, −0. */
const arg = (x: number): string =>
  x === Number.POSITIVE_INFINITY
    ? "+inf"
    : x === Number.NEGATIVE_INFINITY
      ? "-inf"
      : Object.is(x, -0)
        ? "-0"
        : String(x);

function parseScore(r: Uint8Array): number {
  const s = text(r)!;
  if (s === "inf" || s === "+inf") return Number.POSITIVE_INFINITY;
  if (s === "-inf") return Number.NEGATIVE_INFINITY;
  return Number(s);
}

function entries(reply: Reply): SortedSetEntry[] {
  const flat = reply as Uint8Array[];
  const out: SortedSetEntry[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([text(flat[i]!)!, parseScore(flat[i + 1]!)]);
  return out;
}

/**
 * Same members, and scores bit for bit — except the sign of a zero: Redis 7.0.15 keeps −0 in a
 * skiplist-encoded set, stores 0 in a listpack-encoded one, and even replies "-0" to ZSCORE and "0"
 * to ZMSCORE for the same member, so a zero is compared by value.
 */
function sameScore(a: number | undefined, b: number | undefined): boolean {
  return Object.is(a, b) || (a === 0 && b === 0);
}

function expectSame(ours: SortedSetEntry[], theirs: SortedSetEntry[], what: string): void {
  expect(
    ours.map((e) => e[0]),
    what,
  ).toEqual(theirs.map((e) => e[0]));
  ours.forEach((e, i) => {
    expect(sameScore(e[1], theirs[i]![1]), `${what}: ${e[0]} scored ${e[1]}, Redis ${theirs[i]![1]}`).toBe(true);
  });
}

const MEMBERS = ["a", "b", "c", "d", "e", "f", "ab", "😀", "\u{E000}", "中", ""];
const member = fc.constantFrom(...MEMBERS);
const score = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -5, max: 5 }) },
  fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0.1, 0.7, 1e308, -1e308, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const weight = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, -2.5, 0.1, 3, 1e308, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
);
const aggregate = fc.constantFrom<Aggregate>("sum", "min", "max");
// 2–4 sets; sizes vary so Redis's smallest-first order matters, ties included.
const setList = fc.array(fc.array(fc.tuple(member, score), { maxLength: 9 }), { minLength: 2, maxLength: 4 });

describe("SortedSet set operations against redis-server", () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("ZUNIONSTORE / ZINTERSTORE / ZDIFFSTORE / ZINTERCARD: same members, every score bit for bit", async () => {
    await fc.assert(
      fc.asyncProperty(
        setList,
        fc.array(weight, { minLength: 4, maxLength: 4 }),
        aggregate,
        fc.boolean(),
        fc.nat({ max: 4 }),
        async (raw, w, agg, dup, limit) => {
          const sets = raw.map((e, i) => SortedSet.from(e, { seed: i }));
          const keys = sets.map((_, i) => `s${i}`);
          if (dup) {
            sets[sets.length - 1] = sets[0]!; // the same input twice
            keys[keys.length - 1] = keys[0]!;
          }
          const weights = w.slice(0, sets.length);
          const n = keys.length;
          const wargs = ["WEIGHTS", ...weights.map(arg), "AGGREGATE", agg.toUpperCase()];
          const cmds: Arg[][] = [["DEL", "s0", "s1", "s2", "s3", "u", "i", "d"]];
          sets.forEach((s, i) => {
            if (dup && i === n - 1) return;
            for (const [m, sc] of s) cmds.push(["ZADD", keys[i]!, arg(sc), m]);
          });
          cmds.push(
            ["ZUNIONSTORE", "u", n, ...keys, ...wargs],
            ["ZRANGE", "u", 0, -1, "WITHSCORES"],
            ["ZINTERSTORE", "i", n, ...keys, ...wargs],
            ["ZRANGE", "i", 0, -1, "WITHSCORES"],
            ["ZDIFFSTORE", "d", n, ...keys],
            ["ZRANGE", "d", 0, -1, "WITHSCORES"],
            ["ZINTERCARD", n, ...keys, "LIMIT", limit],
          );
          const replies = await redis.pipeline(cmds);
          const r = replies.slice(-7);
          for (const x of replies) if (x instanceof RedisReplyError) throw x;
          const u = SortedSet.union(sets, { weights, aggregate: agg });
          const i = SortedSet.intersect(sets, { weights, aggregate: agg });
          const d = SortedSet.diff(sets);
          for (const z of [u, i, d]) z.checkInvariants();
          const what = `${keys.join(" ")} WEIGHTS ${weights.map(arg).join(" ")} ${agg}`;
          expect(u.size).toBe(r[0]);
          expectSame([...u], entries(r[1]!), `ZUNIONSTORE ${what}`);
          expect(i.size).toBe(r[2]);
          expectSame([...i], entries(r[3]!), `ZINTERSTORE ${what}`);
          expect(d.size).toBe(r[4]);
          expectSame([...d], entries(r[5]!), `ZDIFFSTORE ${what}`);
          expect(SortedSet.intersectCard(sets, limit)).toBe(r[6]);
        },
      ),
      { seed: 0x2e7, numRuns: 400 },
    );
  });

  it("ZADD [NX|XX] [GT|LT] [CH] [INCR] replayed op by op, then ZMSCORE", async () => {
    const flagSets = fc.subarray(["NX", "XX", "GT", "LT", "CH"]);
    const op = fc.tuple(member, score, flagSets, fc.boolean());
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 80 }), fc.array(member), async (ops, asked) => {
        const cmds: Arg[][] = [["DEL", "z"]];
        for (const [m, s, f, incr] of ops) {
          const flags = incr ? f.filter((x) => x !== "CH") : f;
          cmds.push(["ZADD", "z", ...flags, ...(incr ? ["INCR"] : []), arg(s), m]);
        }
        cmds.push(["ZRANGE", "z", 0, -1, "WITHSCORES"]);
        if (asked.length > 0) cmds.push(["ZMSCORE", "z", ...asked]);
        const replies = await redis.pipeline(cmds);
        const zs = new SortedSet({ seed: 5 });
        ops.forEach(([m, s, f, incr], k) => {
          const o = { nx: f.includes("NX"), xx: f.includes("XX"), gt: f.includes("GT"), lt: f.includes("LT") };
          const reply = replies[k + 1]!;
          let ours: unknown;
          try {
            ours = incr ? (zs.incrBy(m, s, o) ?? null) : Number(zs.add(m, s, { ...o, ch: f.includes("CH") }));
          } catch (e) {
            if (!(e instanceof RangeError)) throw e;
            ours = "error";
          }
          const theirs =
            reply instanceof RedisReplyError
              ? "error"
              : incr
                ? reply === null
                  ? null
                  : parseScore(reply as Uint8Array)
                : reply;
          expect(ours, `${k}: ZADD ${f.join(" ")} ${incr ? "INCR " : ""}${arg(s)} ${m}`).toEqual(theirs);
          zs.checkInvariants();
        });
        expectSame([...zs], entries(replies[ops.length + 1]!), "final ZRANGE");
        if (asked.length > 0) {
          const theirs = (replies[ops.length + 2] as (Uint8Array | null)[]).map((x) =>
            x === null ? undefined : parseScore(x),
          );
          const ours = zs.scores(asked);
          ours.forEach((o, k) => {
            expect(sameScore(o, theirs[k]), `ZMSCORE ${asked[k]}`).toBe(true);
          });
        }
      }),
      { seed: 0x1ac, numRuns: 300 },
    );
  });

  it("ZRANDMEMBER count semantics: lengths, distinctness, membership and scores", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(member, score), { maxLength: 10 }),
        fc.integer({ min: -15, max: 15 }),
        async (e, count) => {
          const zs = SortedSet.from(e, { seed: 11 });
          const cmds: Arg[][] = [["DEL", "r"]];
          for (const [m, s] of zs) cmds.push(["ZADD", "r", arg(s), m]);
          cmds.push(["ZRANDMEMBER", "r", count], ["ZRANDMEMBER", "r", count, "WITHSCORES"]);
          const replies = await redis.pipeline(cmds);
          const theirs = (replies.at(-2) as Uint8Array[]).map((x) => text(x)!);
          const theirsWith = entries(replies.at(-1)!);
          const ours = zs.randomMembers(count);
          const oursWith = zs.randomMembers(count, { withScores: true });
          expect(ours.length).toBe(theirs.length);
          expect(oursWith.length).toBe(theirsWith.length);
          if (count > 0) {
            expect(new Set(ours).size).toBe(ours.length);
            expect(new Set(theirs).size).toBe(theirs.length);
          }
          for (const m of [...ours, ...theirs]) expect(zs.has(m)).toBe(true);
          for (const [m, s] of [...oursWith, ...theirsWith]) expect(sameScore(zs.score(m), s)).toBe(true);
          if (count >= zs.size && count > 0) expect(new Set(ours)).toEqual(new Set(theirs));
        },
      ),
      { seed: 0x4a4d, numRuns: 200 },
    );
  });
});
