/**
 * Moving a leaderboard between redstruct and Redis as a DUMP payload (`SortedSet#toRedis()` /
 * `SortedSet.fromRedis()`), against the ways a user would do it without one.
 *
 * - into Redis, end to end: 10^5 members (`player:…`, integer scores up to 10^6) from a SortedSet to a
 *   new key of a local redis-server through node-redis — one `RESTORE` of `toRedis()` (the payload
 *   built inside the timing) against 100 pipelined `ZADD` batches of 1,000 members (the entries read
 *   from the set inside the timing); and, to show Redis's own share, RESTORE of a payload built
 *   beforehand. The previous copy is deleted before each timed call, outside the timing. The suite starts its own redis-server on a random loopback port when
 *   one is installed, and says so and skips this part when not.
 * - `toRedis()` of the same 10^5 members against `JSON.stringify([...set])` (reading the entries is
 *   part of serializing a set), and against `JSON.stringify` of an array of entries built beforehand.
 * - `SortedSet.fromRedis` of a 10^6-member payload against `SortedSet.from` of the same entries.
 */
import { createClient } from "redis";
import { SortedSet } from "../src/skiplist/index.js";
import { startRedisServer } from "../test/support/resp.js";
import {
  type BenchContext,
  compare,
  distinctStrings,
  type Headline,
  markdownTable,
  prng,
  type Row,
  ratioOf,
  type Suite,
  throughputTable,
} from "./lib.js";

const RESTORE = "RESTORE of toRedis()";
const ZADD = "ZADD batches of 1,000, pipelined";
const RESTORE_ONLY = "RESTORE of a payload built beforehand";
const TO_REDIS = "toRedis()";
const JSON_ITER = "JSON.stringify([...set])";
const JSON_BUILT = "JSON.stringify(entries), entries built beforehand";
const FROM_REDIS = "SortedSet.fromRedis(payload)";
const FROM = "SortedSet.from(entries)";

/** A leaderboard of `n` distinct members with integer scores. */
function leaderboard(n: number, seed: number): { entries: [string, number][]; set: SortedSet } {
  const rand = prng(seed);
  const members = distinctStrings(n, seed, "player:");
  const entries = members.map((m): [string, number] => [m, Math.floor(rand() * 1_000_000)]);
  return { entries, set: SortedSet.from(entries) };
}

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

async function intoRedis(ctx: BenchContext, set: SortedSet): Promise<Row[] | string> {
  let server: Awaited<ReturnType<typeof startRedisServer>>;
  try {
    server = await startRedisServer();
  } catch (e) {
    return `skipped: no redis-server could be started (${(e as Error).message})`;
  }
  ctx.log(`  started redis-server on 127.0.0.1:${server.port}`);
  const client = createClient({ url: `redis://127.0.0.1:${server.port}` });
  await client.connect();
  try {
    // Every move goes to a new key: the previous copy is deleted before each timed call.
    const restore = async () => {
      await client.restore("board", 0, asBuffer(set.toRedis()));
    };
    const prebuilt = asBuffer(set.toRedis());
    const restoreOnly = async () => {
      await client.restore("board", 0, prebuilt);
    };
    const zadd = async () => {
      const sends: Promise<unknown>[] = [];
      let batch: { score: number; value: string }[] = [];
      for (const [value, score] of set) {
        batch.push({ score, value });
        if (batch.length === 1000) {
          sends.push(client.zAdd("board", batch));
          batch = [];
        }
      }
      if (batch.length > 0) sends.push(client.zAdd("board", batch));
      await Promise.all(sends);
    };
    const fresh = async () => {
      await client.del("board");
    };
    // Both ways leave the same key.
    await restore();
    const restored = await client.zRangeWithScores("board", 0, -1);
    await fresh();
    await zadd();
    const added = await client.zRangeWithScores("board", 0, -1);
    if (restored.length !== set.size || JSON.stringify(restored) !== JSON.stringify(added)) {
      throw new Error("RESTORE and ZADD left different keys");
    }
    // RESTORE of a payload built beforehand: Redis's own share of the move (not a goal).
    return await compare(
      ctx,
      "10^5 members into redis-server, end to end",
      { [RESTORE]: restore, [ZADD]: zadd, [RESTORE_ONLY]: restoreOnly },
      { baseline: ZADD, time: 3000, beforeEach: fresh },
    );
  } finally {
    await client.quit();
    await server.stop();
  }
}

const suite: Suite = {
  name: "redis-dump",
  description:
    "Sorted sets as Redis DUMP payloads: RESTORE of toRedis() vs pipelined ZADD into a local redis-server (node-redis), toRedis() vs JSON.stringify, fromRedis vs SortedSet.from",
  async run(ctx) {
    ctx.log("  building a leaderboard of 10^5 members");
    const { entries, set } = leaderboard(100_000, 0x2d1);
    const into = await intoRedis(ctx, set);
    if (typeof into === "string") ctx.log(`  ${into}`);

    const built = [...set];
    const serialize = await compare(
      ctx,
      "serialize 10^5 members",
      {
        [TO_REDIS]: () => set.toRedis(),
        [JSON_ITER]: () => JSON.stringify([...set]),
        [JSON_BUILT]: () => JSON.stringify(built),
      },
      { baseline: JSON_ITER, time: 1500 },
    );

    ctx.log("  building a leaderboard of 10^6 members and its payload");
    const big = leaderboard(1_000_000, 0x2d2);
    const payload = big.set.toRedis();
    const load = await compare(
      ctx,
      "load 10^6 members",
      {
        [FROM_REDIS]: () => SortedSet.fromRedis(payload),
        [FROM]: () => SortedSet.from(big.entries),
      },
      { baseline: FROM, time: 3000 },
    );

    const headlines: Headline[] = [];
    let markdown = "";
    if (typeof into === "string") {
      markdown += `**Into Redis**: ${into}.\n\n`;
    } else {
      headlines.push({
        structure: "SortedSet",
        operation: "10^5 members into redis-server (node-redis, end to end)",
        versus: ZADD,
        ratio: ratioOf(into, RESTORE, ZADD),
        goal: 3,
      });
      markdown += `${throughputTable("10^5 members into redis-server, end to end (operations: whole moves)", into)}\n\n`;
    }
    headlines.push(
      {
        structure: "SortedSet",
        operation: "toRedis() of 10^5 members",
        versus: JSON_ITER,
        ratio: ratioOf(serialize, TO_REDIS, JSON_ITER),
        goal: 2,
      },
      {
        structure: "SortedSet",
        operation: "toRedis() of 10^5 members",
        versus: JSON_BUILT,
        ratio: ratioOf(serialize, TO_REDIS, JSON_BUILT),
      },
      {
        structure: "SortedSet",
        operation: "fromRedis of a 10^6-member payload",
        versus: FROM,
        ratio: ratioOf(load, FROM_REDIS, FROM),
        goal: 1,
      },
    );
    markdown += `${throughputTable("Serialize 10^5 members (operations: whole sets)", serialize)}\n\n`;
    markdown += `${throughputTable("Load 10^6 members (operations: whole sets)", load)}\n\n`;
    markdown += markdownTable(
      ["payload", "bytes"],
      [
        ["10^5 members (skiplist encoding, RDB type 5)", set.toRedis().length],
        ["10^6 members", payload.length],
        ["JSON of the 10^5 entries", JSON.stringify(entries).length],
      ],
    );
    markdown += "\n";
    return {
      markdown,
      data: { into: typeof into === "string" ? into : into, serialize, load },
      headlines,
    };
  },
};

export default suite;
