// ExaLogLog and UltraLogLog against a real redis-server: their toHyperLogLog() at precision 14 is the
// key PFADD builds for the same elements (dense bytes equal, PFCOUNT equal), Redis accepts it with
// SET, and PFMERGE of it with a key Redis built equals PFADD of the union.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../../src/hll/index.js";
import { makeElements, pfaddAll } from "../support/hll-redis.js";
import { ok, type Redis, type Reply, startRedis } from "../support/redis.js";

const bytesOf = (r: Reply) => ok(r) as Uint8Array;

/** The sketches that reduce to Redis's HyperLogLog at precision 14, by name. */
const reducers: [string, (items: ReturnType<typeof makeElements>) => HyperLogLog][] = [
  ["ExaLogLog", (items) => ExaLogLog.from(items, { precision: 14 }).toHyperLogLog()],
  ["ExaLogLog t=1 d=9", (items) => ExaLogLog.from(items, { precision: 14, t: 1, d: 9 }).toHyperLogLog()],
  ["ExaLogLog t=0 d=0", (items) => ExaLogLog.from(items, { precision: 14, t: 0, d: 0 }).toHyperLogLog()],
  [
    "ExaLogLog p=16 downsized",
    (items) => ExaLogLog.from(items, { precision: 16 }).downsize({ precision: 14, d: 20 }).toHyperLogLog(),
  ],
  ["UltraLogLog", (items) => UltraLogLog.from(items, { precision: 14 }).toHyperLogLog()],
];

describe("toHyperLogLog() vs redis-server", () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const cases: [name: string, kind: string, n: number][] = [
    ["empty", "ascii", 0],
    ["ascii-10", "ascii", 10],
    ["utf8-1500", "utf8", 1500],
    ["binary-4000", "binary", 4000],
    ["mixed-30000", "mixed", 30_000],
    ["mixed-150000", "mixed", 150_000],
  ];

  it("is the key PFADD builds: PFCOUNT equal, registers equal, dense bytes equal; Redis takes it with SET", async () => {
    let seed = 500;
    let dense = 0;
    for (const [name, kind, n] of cases) {
      const elements = makeElements(kind, n, seed++);
      await pfaddAll(redis, `pf:${name}`, elements);
      const [count, get] = await redis.pipeline([
        ["PFCOUNT", `pf:${name}`],
        ["GET", `pf:${name}`],
      ]);
      const theirs = HyperLogLog.fromRedis(bytesOf(get!));
      for (const [sketch, reduce] of reducers) {
        const label = `${sketch} ${name}`;
        const hll = reduce(elements);
        hll.checkInvariants();
        expect(hll.equals(theirs), label).toBe(true);
        expect(hll.count(), label).toBe(count);
        if (bytesOf(get!)[4] === 0) {
          dense++;
          expect(hll.toRedis({ encoding: "dense" }), label).toEqual(bytesOf(get!));
        }
        const key = `set:${sketch}:${name}`;
        ok(await redis.call("SET", key, hll.toRedis()));
        expect(await redis.call("PFCOUNT", key), label).toBe(count);
      }
    }
    expect(dense).toBeGreaterThanOrEqual(2 * reducers.length);
  });

  it("PFMERGE of a reduced sketch with a Redis-built key equals PFADD of the union", async () => {
    const pairs: [number, number][] = [
      [200, 50],
      [3000, 20_000],
      [60_000, 5000],
    ];
    let seed = 600;
    for (const [na, nb] of pairs) {
      const a = makeElements("mixed", na, seed++);
      const b = makeElements("mixed", nb, seed++);
      await pfaddAll(redis, `a:${na}`, a);
      await pfaddAll(redis, `union:${na}:${nb}`, [...a, ...b]);
      for (const [sketch, reduce] of reducers) {
        const label = `${sketch} ${na}+${nb}`;
        const ours = reduce(b);
        const keyB = `b:${sketch}:${nb}`;
        const dest = `merged:${sketch}:${na}:${nb}`;
        ok(await redis.call("SET", keyB, ours.toRedis()));
        const [merged, count, union, get] = await redis.pipeline([
          ["PFMERGE", dest, `a:${na}`, keyB],
          ["PFCOUNT", dest],
          ["PFCOUNT", `union:${na}:${nb}`],
          ["GET", dest],
        ]);
        ok(merged!);
        expect(count, label).toBe(union);
        const registers = HyperLogLog.fromRedis(bytesOf(get!));
        expect(registers.equals(HyperLogLog.from([...a, ...b])), label).toBe(true);
        // And the other way: Redis's key merged into ours locally.
        const local = ours.clone().merge(HyperLogLog.fromRedis(bytesOf((await redis.call("GET", `a:${na}`)) as Reply)));
        expect(local.count(), label).toBe(union);
      }
    }
  });
});
