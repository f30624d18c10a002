/**
 * TimestampCounterId: strictly increasing under clock stalls, backward steps and day rollovers,
 * against a model of the UTC day key and counter; the counter restarts at UTC midnight; decoding;
 * its types; and pluggable counters, synchronous or not, Redis INCR among them (a real redis-server).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { TimestampCounterId } from "../../src/idgen/index.js";
import { ok, type Redis, startRedis } from "../support/redis.js";

const EPOCH = 1640995200; // 2022-01-01T00:00:00Z
const DAY = 86_400;

/** The UTC day key, computed independently of the library (ISO string slicing). */
function dayKeyModel(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10).replaceAll("-", ":");
}

type Step = { kind: "calls"; n: number } | { kind: "move"; ms: number };

/** Clock moves: small steps, jumps across midnights, and steps backwards. */
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("calls" as const), n: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("move" as const), ms: fc.integer({ min: 0, max: 3000 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("move" as const), ms: fc.integer({ min: 1, max: 3 * DAY * 1000 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("move" as const), ms: fc.integer({ min: -DAY * 1000, max: -1 }) }),
  },
);

describe("TimestampCounterId: the in-process counter", () => {
  it("is strictly increasing under clock stalls, backward steps and day rollovers, and matches the model", () => {
    let rollovers = 0;
    fc.assert(
      fc.property(
        // Start within two seconds of some UTC midnight, so day changes happen often.
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: -2000, max: 2000 }),
        fc.array(stepArb, { minLength: 1, maxLength: 40 }),
        (day, offsetMs, steps) => {
          let now = (EPOCH + day * DAY) * 1000 + offsetMs;
          const tc = new TimestampCounterId({ clock: () => now });
          // Model: the second used is the largest seen; the counter counts IDs within its UTC day.
          let second = -1;
          let count = 0;
          let prev = -1n;
          for (const step of steps) {
            if (step.kind === "move") {
              now = Math.max(EPOCH * 1000, now + step.ms);
              continue;
            }
            for (let i = 0; i < step.n; i++) {
              const id = tc.next();
              const s = Math.max(second, Math.floor(now / 1000));
              if (second >= 0 && Math.floor(s / DAY) !== Math.floor(second / DAY)) {
                count = 0;
                rollovers++;
              }
              second = s;
              count++;
              expect(id).toBe((BigInt(s - EPOCH) << 32n) | BigInt(count));
              expect(id > prev).toBe(true);
              prev = id;
              const parts = tc.decode(id);
              expect(parts).toEqual({
                timestamp: s * 1000,
                date: new Date(s * 1000),
                seconds: s - EPOCH,
                counter: count,
                dayKey: dayKeyModel(s),
              });
              expect(tc.dayKey).toBe(parts.dayKey);
            }
            tc.checkInvariants();
          }
        },
      ),
      { seed: 17, numRuns: 300 },
    );
    expect(rollovers).toBeGreaterThan(50);
  });
  it("restarts the counter at UTC midnight, not at a new second", () => {
    let now = Date.UTC(2026, 10, 22, 23, 59, 59, 998);
    const tc = new TimestampCounterId({ clock: () => now });
    const a = tc.decode(tc.next());
    now += 1;
    const b = tc.decode(tc.next());
    now += 1; // 2026-11-23T00:00:00.000Z
    const c = tc.decode(tc.next());
    const d = tc.decode(tc.next());
    expect([a.counter, b.counter, c.counter, d.counter]).toEqual([1, 2, 1, 2]);
    expect([a.dayKey, c.dayKey]).toEqual(["2026:11:22", "2026:11:23"]);
    now -= 5000; // back into yesterday: held at the last second, still today's counter
    const e = tc.decode(tc.next());
    expect(e).toMatchObject({ dayKey: "2026:11:23", counter: 3, timestamp: Date.UTC(2026, 10, 23) });
  });
  it("decodes with the default or a custom epoch; rejects bad IDs", () => {
    let now = Date.UTC(2030, 0, 2, 3, 4, 5);
    const custom = new TimestampCounterId({ epochSeconds: 1_000_000_000, clock: () => now });
    const id = custom.next();
    expect(TimestampCounterId.decode(id, { epochSeconds: 1_000_000_000 })).toMatchObject({
      timestamp: now,
      counter: 1,
      dayKey: "2030:01:02",
    });
    expect(TimestampCounterId.decode(String(id), { epochSeconds: 1_000_000_000 }).seconds).toBe(
      now / 1000 - 1_000_000_000,
    );
    const dflt = new TimestampCounterId({ clock: () => now });
    expect(TimestampCounterId.decode(dflt.next())).toEqual(dflt.decode(dflt.next() - 1n));
    expect(() => dflt.decode(2n ** 63n)).toThrow(RangeError);
    expect(() => dflt.decode(-1n)).toThrow(RangeError);
    expect(() => dflt.decode("0012")).toThrow(RangeError);
    expect(() => dflt.decode(12 as unknown as bigint)).toThrow(TypeError);
    expect(dflt.decode(2n ** 63n - 1n)).toMatchObject({ seconds: 2 ** 31 - 1, counter: 2 ** 32 - 1 });
    now = (EPOCH - 1) * 1000;
    expect(() => new TimestampCounterId({ clock: () => now }).next()).toThrow(/at or after the epoch/);
    now = (EPOCH + 2 ** 31) * 1000;
    expect(() => new TimestampCounterId({ clock: () => now }).next()).toThrow(/31-bit seconds run out/);
    now = (EPOCH + 2 ** 31) * 1000 - 1;
    const last = new TimestampCounterId({ clock: () => now });
    expect(last.next()).toBe(((2n ** 31n - 1n) << 32n) | 1n);
  });
  it("has precise types: bigint with a synchronous counter, Promise<bigint> with an async one", () => {
    const now = () => Date.UTC(2026, 0, 1);
    expectTypeOf(new TimestampCounterId({ clock: now }).next()).toEqualTypeOf<bigint>();
    expectTypeOf(new TimestampCounterId({ counter: () => 1n, clock: now }).next()).toEqualTypeOf<bigint>();
    expectTypeOf(new TimestampCounterId({ counter: async () => 1, clock: now }).next()).toEqualTypeOf<
      Promise<bigint>
    >();
    expect(typeof new TimestampCounterId({ clock: now }).next()).toBe("bigint");
    expect(new TimestampCounterId({ counter: async () => 1, clock: now }).next()).toBeInstanceOf(Promise);
  });
});

describe("TimestampCounterId: pluggable counters", () => {
  it("uses a user counter (sync or async) with the day key, and never spills past 32 bits", async () => {
    let now = Date.UTC(2026, 5, 30, 23, 59, 59, 500);
    const store = new Map<string, number>();
    const incr = (key: string) => {
      const v = (store.get(key) ?? 0) + 1;
      store.set(key, v);
      return v;
    };
    const sync = new TimestampCounterId({ counter: incr, clock: () => now });
    const async = new TimestampCounterId({ counter: async (key) => BigInt(incr(key)), clock: () => now });
    const ids = [sync.next(), await async.next(), sync.next()];
    now += 500; // midnight: a new key
    ids.push(await async.next(), sync.next());
    expect(ids.map((id) => sync.decode(id).counter)).toEqual([1, 2, 3, 1, 2]);
    expect([...store.keys()]).toEqual(["2026:06:30", "2026:07:01"]);
    expect(new Set(ids).size).toBe(ids.length);

    const counterOf = (value: unknown) =>
      new TimestampCounterId({ counter: () => value as number, clock: () => now }).next();
    expect(counterOf(2 ** 32 - 1) & 0xffffffffn).toBe(0xffffffffn);
    expect(counterOf(0n) & 0xffffffffn).toBe(0n);
    expect(() => counterOf(2 ** 32)).toThrow(RangeError);
    expect(() => counterOf(2 ** 32)).toThrow(/counter\("2026:07:01"\) must be an integer in \[0, 4294967295\]/);
    expect(() => counterOf(2n ** 32n)).toThrow(RangeError);
    expect(() => counterOf(-1)).toThrow(RangeError);
    expect(() => counterOf(1.5)).toThrow(RangeError);
    expect(() => counterOf("1")).toThrow(TypeError);
    const overflowAsync = new TimestampCounterId({ counter: async () => 2 ** 32, clock: () => now });
    await expect(overflowAsync.next()).rejects.toThrow(RangeError);
  });

  describe("with Redis INCR as the shared counter", () => {
    let redis: Redis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis.stop();
    });

    it("two generators sharing one INCR key per day mint unique IDs", async () => {
      let now = Date.UTC(2026, 10, 22, 23, 59, 58);
      const counter = async (dayKey: string) => ok(await redis.call("INCR", `order:${dayKey}`)) as number;
      const a = new TimestampCounterId({ counter, clock: () => now });
      const b = new TimestampCounterId({ counter, clock: () => now });
      const ids: bigint[] = [];
      for (let round = 0; round < 4; round++) {
        ids.push(...(await Promise.all([a.next(), b.next(), a.next(), b.next()])));
        now += 1000; // crosses midnight after the second round
      }
      expect(new Set(ids).size).toBe(ids.length);
      const counters = ids.map((id) => a.decode(id));
      expect(
        counters
          .filter((p) => p.dayKey === "2026:11:22")
          .map((p) => p.counter)
          .sort(),
      ).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(
        counters
          .filter((p) => p.dayKey === "2026:11:23")
          .map((p) => p.counter)
          .sort(),
      ).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(ok(await redis.call("GET", "order:2026:11:23"))).toEqual(new TextEncoder().encode("8"));
    });
  });
});
