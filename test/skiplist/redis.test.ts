import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SortedSet, type SortedSetEntry } from "../../src/skiplist/index.js";
import { type Arg, type Redis, RedisReplyError, type Reply, startRedis, text } from "../support/redis.js";

// Random command sequences go to a real redis-server and to SortedSet; every reply must match.

const MEMBERS = ["", "a", "ab", "b", "é", "z", "\u{E000}", "\u{FFFF}", "😀", "😀a", "𝄞", "中", "a b", "A"];
const member = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...MEMBERS) },
  fc.string({ maxLength: 3, unit: "grapheme" }),
);
const score = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -3, max: 3 }) },
  fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.5, -2.25, 1e300),
);
const lexBound = fc.oneof(
  fc.constantFrom("-", "+"),
  fc.tuple(fc.constantFrom("[", "("), member).map(([p, m]) => p + m),
);
const index = fc.integer({ min: -8, max: 8 });
const limit = fc.record({ offset: fc.integer({ min: -1, max: 5 }), count: fc.integer({ min: -1, max: 5 }) });
const flags = fc.constantFrom<string[]>(
  [],
  ["NX"],
  ["XX"],
  ["GT"],
  ["LT"],
  ["XX", "GT"],
  ["CH"],
  ["LT", "CH"],
  ["NX", "XX"],
  ["GT", "LT"],
);

type Cmd = {
  redis: Arg[];
  ours: (zs: SortedSet, lex: SortedSet) => unknown;
  kind: "int" | "score" | "entries" | "members" | "nullableInt";
};

const arg = (x: number): string =>
  x === Number.POSITIVE_INFINITY ? "+inf" : x === Number.NEGATIVE_INFINITY ? "-inf" : String(x);
const bound = (x: number, exclusive: boolean): string => (exclusive ? "(" : "") + arg(x);

const command: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(member, score, flags).map(([m, s, f]) => ({
      redis: ["ZADD", "z", ...f, arg(s), m],
      kind: "int" as const,
      ours: (zs: SortedSet) =>
        Number(
          zs.add(m, s, {
            nx: f.includes("NX"),
            xx: f.includes("XX"),
            gt: f.includes("GT"),
            lt: f.includes("LT"),
            ch: f.includes("CH"),
          }),
        ),
    })),
  },
  {
    weight: 4,
    arbitrary: member.map((m) => ({
      redis: ["ZADD", "lex", "0", m],
      kind: "int" as const,
      ours: (_: SortedSet, lex: SortedSet) => Number(lex.add(m, 0)),
    })),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(member, score).map(([m, d]) => ({
      redis: ["ZINCRBY", "z", arg(d), m],
      kind: "score" as const,
      ours: (zs: SortedSet) => zs.incrBy(m, d),
    })),
  },
  {
    weight: 2,
    arbitrary: member.map((m) => ({
      redis: ["ZREM", "z", m],
      kind: "int" as const,
      ours: (zs: SortedSet) => Number(zs.delete(m)),
    })),
  },
  member.map((m) => ({
    redis: ["ZREM", "lex", m],
    kind: "int" as const,
    ours: (_: SortedSet, lex: SortedSet) => Number(lex.delete(m)),
  })),
  member.map((m) => ({
    redis: ["ZSCORE", "z", m],
    kind: "score" as const,
    ours: (zs: SortedSet) => zs.score(m) ?? null,
  })),
  fc.tuple(member, fc.boolean(), fc.boolean()).map(([m, rev, withScore]) => ({
    // redis-server 7.0 has no ZRANK … WITHSCORE (7.2): its rank is compared with ZRANK's reply, its
    // score with score() (which ZSCORE checks).
    redis: [rev ? "ZREVRANK" : "ZRANK", "z", m],
    kind: "nullableInt" as const,
    ours: (zs: SortedSet) => {
      if (!withScore) return zs.rank(m, { reverse: rev }) ?? null;
      const r = zs.rank(m, { reverse: rev, withScore: true });
      expect(r === undefined ? undefined : r[1]).toBe(zs.score(m));
      return r === undefined ? null : r[0];
    },
  })),
  fc.tuple(index, index, fc.boolean()).map(([a, b, rev]) => ({
    redis: ["ZRANGE", "z", a, b, ...(rev ? ["REV"] : []), "WITHSCORES"],
    kind: "entries" as const,
    ours: (zs: SortedSet) => zs.range(a, b, { reverse: rev }),
  })),
  fc
    .tuple(score, score, fc.boolean(), fc.boolean(), fc.boolean(), fc.option(limit))
    .map(([min, max, minEx, maxEx, rev, lim]) => ({
      redis: [
        rev ? "ZREVRANGEBYSCORE" : "ZRANGEBYSCORE",
        "z",
        ...(rev ? [bound(max, maxEx), bound(min, minEx)] : [bound(min, minEx), bound(max, maxEx)]),
        "WITHSCORES",
        ...(lim ? ["LIMIT", lim.offset, lim.count] : []),
      ],
      kind: "entries" as const,
      ours: (zs: SortedSet) =>
        zs.rangeByScore(min, max, { minExclusive: minEx, maxExclusive: maxEx, reverse: rev, ...(lim ?? {}) }),
    })),
  fc.tuple(lexBound, lexBound, fc.boolean(), fc.option(limit)).map(([min, max, rev, lim]) => ({
    redis: [
      rev ? "ZREVRANGEBYLEX" : "ZRANGEBYLEX",
      "lex",
      ...(rev ? [max, min] : [min, max]),
      ...(lim ? ["LIMIT", lim.offset, lim.count] : []),
    ],
    kind: "members" as const,
    ours: (_: SortedSet, lex: SortedSet) => lex.rangeByLex(min, max, { reverse: rev, ...(lim ?? {}) }).map(([m]) => m),
  })),
  fc.tuple(score, score, fc.boolean(), fc.boolean()).map(([min, max, minEx, maxEx]) => ({
    redis: ["ZCOUNT", "z", bound(min, minEx), bound(max, maxEx)],
    kind: "int" as const,
    ours: (zs: SortedSet) => zs.countByScore(min, max, { minExclusive: minEx, maxExclusive: maxEx }),
  })),
  fc.tuple(lexBound, lexBound).map(([min, max]) => ({
    redis: ["ZLEXCOUNT", "lex", min, max],
    kind: "int" as const,
    ours: (_: SortedSet, lex: SortedSet) => lex.countByLex(min, max),
  })),
  fc.tuple(index, index).map(([a, b]) => ({
    redis: ["ZREMRANGEBYRANK", "z", a, b],
    kind: "int" as const,
    ours: (zs: SortedSet) => zs.deleteRangeByRank(a, b),
  })),
  fc.tuple(score, score, fc.boolean(), fc.boolean()).map(([min, max, minEx, maxEx]) => ({
    redis: ["ZREMRANGEBYSCORE", "z", bound(min, minEx), bound(max, maxEx)],
    kind: "int" as const,
    ours: (zs: SortedSet) => zs.deleteRangeByScore(min, max, { minExclusive: minEx, maxExclusive: maxEx }),
  })),
  fc.tuple(lexBound, lexBound).map(([min, max]) => ({
    redis: ["ZREMRANGEBYLEX", "lex", min, max],
    kind: "int" as const,
    ours: (_: SortedSet, lex: SortedSet) => lex.deleteRangeByLex(min, max),
  })),
  fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3 })).map(([max, n]) => ({
    redis: [max ? "ZPOPMAX" : "ZPOPMIN", "z", n],
    kind: "entries" as const,
    ours: (zs: SortedSet) => (max ? zs.popMax(n) : zs.popMin(n)),
  })),
);

function parseScore(r: Uint8Array): number {
  const s = text(r)!;
  if (s === "inf" || s === "+inf") return Number.POSITIVE_INFINITY;
  if (s === "-inf") return Number.NEGATIVE_INFINITY;
  return Number(s);
}

/** Redis's reply in our shape; errors become the string "error". */
function normalize(reply: Reply, kind: Cmd["kind"]): unknown {
  if (reply instanceof RedisReplyError) return "error";
  switch (kind) {
    case "int":
      return reply;
    case "nullableInt":
      return reply;
    case "score":
      return reply === null ? null : parseScore(reply as Uint8Array);
    case "members":
      return (reply as Uint8Array[]).map((r) => text(r));
    case "entries": {
      const flat = reply as Uint8Array[];
      const out: SortedSetEntry[] = [];
      for (let i = 0; i < flat.length; i += 2) out.push([text(flat[i]!)!, parseScore(flat[i + 1]!)]);
      return out;
    }
  }
}

describe("SortedSet against redis-server", () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("gives the same reply to every command of random sequences", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 50, maxLength: 400 }), fc.nat(), async (cmds, levelSeed) => {
        const replies = await redis.pipeline([
          ["DEL", "z", "lex"],
          ...cmds.map((c) => c.redis),
          ["ZRANGE", "z", 0, -1, "WITHSCORES"],
          ["ZRANGE", "lex", 0, -1],
        ]);
        const zs = new SortedSet({ seed: levelSeed });
        const lex = new SortedSet({ seed: levelSeed ^ 1 });
        cmds.forEach((c, i) => {
          let ours: unknown;
          try {
            ours = c.ours(zs, lex);
          } catch (e) {
            if (!(e instanceof RangeError)) throw e;
            ours = "error";
          }
          expect(ours, `${i}: ${c.redis.join(" ")}`).toEqual(normalize(replies[i + 1]!, c.kind));
        });
        zs.checkInvariants();
        lex.checkInvariants();
        expect([...zs]).toEqual(normalize(replies[cmds.length + 1]!, "entries"));
        expect([...lex.keys()]).toEqual(normalize(replies[cmds.length + 2]!, "members"));
      }),
      { seed: 0xc0ffee, numRuns: 300 },
    );
  });

  it("orders members by UTF-8 bytes where UTF-16 order differs", async () => {
    const members = ["\u{FFFF}", "😀", "\u{E000}", "𝄞", "\u{D7FF}", "a", "😀\u{E000}", "😀😀"];
    const replies = await redis.pipeline([
      ["DEL", "u"],
      ["ZADD", "u", ...members.flatMap((m) => ["0", m])],
      ["ZRANGE", "u", 0, -1],
      ["ZRANGEBYLEX", "u", "(\u{E000}", "[\u{FFFF}"],
    ]);
    const zs = SortedSet.from(
      members.map((m) => [m, 0] as [string, number]),
      { seed: 1 },
    );
    const order = normalize(replies[2]!, "members") as string[];
    expect([...zs.keys()]).toEqual(order);
    expect(order.indexOf("😀")).toBeGreaterThan(order.indexOf("\u{FFFF}")); // UTF-16 would put it first
    expect(zs.rangeByLex("(\u{E000}", "[\u{FFFF}").map(([m]) => m)).toEqual(normalize(replies[3]!, "members"));
  });
});
