/**
 * GeoSet.toRedis / fromRedis against a real redis-server 7.0: a GEO key is a sorted set, so the same
 * GEOADD (and ZREM) sequences built in Redis and here give the same DUMP bytes, RESTORE of
 * `toRedis()` answers GEOPOS and GEOSEARCH as the set does, and `fromRedis(DUMP)` holds the places.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GeoSet } from "../../src/geo/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { SortedSet } from "../../src/skiplist/index.js";
import { type Arg, type Redis, type Reply, startRedis } from "../support/redis.js";
import { compareZset, must, utf8Reply } from "../support/redis-dump.js";

let redis: Redis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const place = fc.tuple(
  fc.oneof(
    fc.integer({ min: 0, max: 300 }).map((i) => `p${i}`),
    fc.constantFrom("Palermo", "Catania", "東京", "123", "-5"),
  ),
  fc.double({ min: -180, max: 180, noNaN: true }),
  fc.double({ min: -85.05112878, max: 85.05112878, noNaN: true }),
);

describe("GeoSet.toRedis is redis-server's DUMP of the same GEOADDs", () => {
  it("random GEOADD / ZREM sequences around 128 places (seeded)", async () => {
    let run = 0;
    const encodings = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 1, 127, 128, 129, 600),
        fc.array(
          fc.oneof({ weight: 5, arbitrary: place }, { weight: 1, arbitrary: place.map(([m]) => [m] as const) }),
          {
            maxLength: 60,
          },
        ),
        async (n, ops) => {
          const key = `g${run++}`;
          const g = new GeoSet({ seed: run });
          const commands: Arg[][] = [["DEL", key]];
          for (let i = 0; i < n; i++) {
            const lon = -179 + ((i * 7.31) % 358);
            const lat = -80 + ((i * 3.77) % 160);
            commands.push(["GEOADD", key, String(lon), String(lat), `bulk${i}`]);
            g.add(`bulk${i}`, lon, lat);
          }
          for (const op of ops) {
            if (op.length === 3) {
              const [m, lon, lat] = op;
              commands.push(["GEOADD", key, String(lon), String(lat), m]);
              g.add(m, lon, lat);
            } else {
              commands.push(["ZREM", key, op[0]]);
              g.sortedSet.delete(op[0]);
            }
          }
          for (const r of await redis.pipeline(commands)) must(r, "GEOADD");
          const r = await compareZset(redis, key, g.sortedSet);
          encodings.add(r.ours);
          if (g.sortedSet.size === 0) {
            expect(() => g.toRedis()).toThrow(/redstruct\/GeoSet: an empty set has no DUMP payload/);
            return;
          }
          expect(r.bytesCompared).toBe(r.redisEncoding === r.ours);
          expect(g.toRedis()).toEqual(g.sortedSet.toRedis());
          const [dump] = await redis.pipeline([["DUMP", key]]);
          const back = GeoSet.fromRedis(dump as Uint8Array);
          back.checkInvariants();
          for (const [m] of g.sortedSet) expect(back.position(m)).toEqual(g.position(m));
          // Redis answers GEOPOS on the restored copy as the set does.
          const members = [...g.sortedSet.keys()].slice(0, 20);
          const pos = must(await redis.call("GEOPOS", `${key}:restored`, ...members), "GEOPOS") as Reply[];
          pos.forEach((p, i) => {
            const [lon, lat] = (p as Reply[]).map((x) => Number(utf8Reply(x)));
            const [elon, elat] = g.position(members[i]!)!;
            expect(Math.abs(lon! - elon)).toBeLessThan(1e-12);
            expect(Math.abs(lat! - elat)).toBeLessThan(1e-12);
          });
          await redis.call("DEL", key, `${key}:restored`);
        },
      ),
      { seed: 0x2d03, numRuns: 30 },
    );
    expect([...encodings].sort()).toEqual(["listpack", "none", "skiplist"]);
  });

  it("the README's places, byte for byte, and GEOSEARCH on the restored key", async () => {
    const g = GeoSet.from([
      ["Palermo", 13.361389, 38.115556],
      ["Catania", 15.087269, 37.502669],
    ]);
    must(
      await redis.call("GEOADD", "sicily", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"),
      "GEOADD",
    );
    const [dump] = await redis.pipeline([["DUMP", "sicily"]]);
    expect(g.toRedis()).toEqual(dump);
    must(await redis.call("RESTORE", "sicily2", 0, g.toRedis()), "RESTORE");
    const found = must(
      await redis.call("GEOSEARCH", "sicily2", "FROMLONLAT", 15, 37, "BYRADIUS", 200, "km", "ASC"),
      "GEOSEARCH",
    ) as Reply[];
    expect(found.map(utf8Reply)).toEqual(
      g.search({ longitude: 15, latitude: 37, radius: 200, unit: "km", order: "asc" }).map((h) => h.member),
    );
  });

  it("names itself in errors", () => {
    expect(() => new GeoSet().toRedis()).toThrow(RangeError);
    expect(() => new GeoSet().toRedis()).toThrow(/^redstruct\/GeoSet: /);
    expect(() => GeoSet.fromRedis(new Uint8Array(3))).toThrow(RedstructFormatError);
    expect(() => GeoSet.fromRedis(new Uint8Array(3))).toThrow(/^redstruct\/GeoSet: not a sorted set's DUMP payload/);
    expect(() => GeoSet.fromRedis("x" as never)).toThrow(TypeError);
    const g = new GeoSet({ sortedSet: SortedSet.from([["\uDC00", 1]]) });
    expect(() => g.toRedis()).toThrow(/^redstruct\/GeoSet: member "\\udc00" has no Redis form/);
  });
});
