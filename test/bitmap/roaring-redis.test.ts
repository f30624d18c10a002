/**
 * The bridge between RoaringBitmap and Redis string bitmaps against a real redis-server 7.0: the
 * members SETBIT into a key give the string GET answers, byte for byte, and a string SET into a key
 * reads back as the members whose BITCOUNT and BITPOS (first set bit) Redis reports.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bitmap } from "../../src/bitmap/bitmap.js";
import { RoaringBitmap } from "../../src/bitmap/roaring.js";
import { roaringFromRedisString, roaringToRedisString } from "../../src/bitmap/roaring-redis.js";
import { type Arg, ok, type Redis, startRedis } from "../support/redis.js";

let redis: Redis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

/** Members in [0, 2^21): strings of at most 256 KiB, with arrays, bitmaps and runs in them. */
function bitmapOf(seed: number): RoaringBitmap {
  let s = seed;
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s;
  };
  const r = new RoaringBitmap();
  const shape = seed % 4;
  const count = [40, 2000, 5000, 300][shape]!;
  // Shape 2 fills one container past 4096 members (a bitmap container).
  for (let i = 0; i < count; i++) r.add(shape === 2 ? 65536 + (next() % 65536) : next() % (1 << 21));
  if (shape === 3) {
    const from = next() % (1 << 20);
    r.addRange(from, from + (next() % 10000));
    r.runOptimize();
  }
  if (seed % 7 === 0) r.add(8 * 65536 - 1); // the last bit of a container: the last byte's low bit
  return r;
}

/** Sends SETBIT for every member (pipelined in chunks). */
async function setBits(key: string, r: RoaringBitmap): Promise<void> {
  let batch: Arg[][] = [];
  for (const x of r) {
    batch.push(["SETBIT", key, x, 1]);
    if (batch.length === 5000) {
      for (const reply of await redis.pipeline(batch)) ok(reply);
      batch = [];
    }
  }
  for (const reply of await redis.pipeline(batch)) ok(reply);
}

describe("RoaringBitmap ↔ Redis string bitmaps (redis-server)", () => {
  it("SETBIT of each member builds the string roaringToRedisString writes; it reads back as the same set", async () => {
    for (let seed = 1; seed <= 8; seed++) {
      const r = bitmapOf(seed);
      const key = `roaring:${seed}`;
      await setBits(key, r);
      const got = ok(await redis.call("GET", key)) as Uint8Array;
      const ours = roaringToRedisString(r);
      expect(ours.length, `seed ${seed}`).toBe(got.length);
      expect(ours, `seed ${seed}`).toEqual(got);
      const back = roaringFromRedisString(got);
      back.checkInvariants();
      expect(back.size).toBe(r.size);
      expect([...back]).toEqual([...r]);
    }
  });

  it("toBitmap() is the Bitmap SETBIT builds, and fromBitmap() reads it back", async () => {
    for (let seed = 11; seed <= 14; seed++) {
      const r = bitmapOf(seed);
      const bm = r.toBitmap();
      expect(bm).toBeInstanceOf(Bitmap);
      bm.checkInvariants();
      expect(bm.size).toBe(r.size);
      expect([...bm]).toEqual([...r]);
      const key = `roaring:bm:${seed}`;
      await setBits(key, r);
      expect(bm.toRedis()).toEqual(ok(await redis.call("GET", key)));
      const back = RoaringBitmap.fromBitmap(Bitmap.fromRedis(bm.toRedis()));
      back.checkInvariants();
      expect(back.toPortable()).toEqual(RoaringBitmap.from([...r]).toPortable());
    }
    expect(new RoaringBitmap().toBitmap().byteLength).toBe(0);
    expect(() => RoaringBitmap.fromBitmap(new Uint8Array(1) as never)).toThrow(/bitmap must be a Bitmap/);
  });

  it("the empty set is the empty string (GET of a key SETBIT never touched answers nil; STRLEN 0)", async () => {
    expect(roaringToRedisString(new RoaringBitmap())).toEqual(new Uint8Array(0));
    expect(roaringFromRedisString(new Uint8Array(0)).size).toBe(0);
    ok(await redis.call("SET", "roaring:empty", new Uint8Array(0)));
    expect(await redis.call("BITCOUNT", "roaring:empty")).toBe(0);
    expect(await redis.call("BITPOS", "roaring:empty", 1)).toBe(-1);
  });

  it("a string SET into a key reads back with BITCOUNT members, the first at BITPOS 1", async () => {
    const strings = fc.sample(
      fc.oneof(
        fc.uint8Array({ maxLength: 64 }),
        fc.uint8Array({ minLength: 8000, maxLength: 30000 }),
        fc.tuple(fc.nat(20000), fc.uint8Array({ maxLength: 16 })).map(([zeros, tail]) => {
          const b = new Uint8Array(zeros + tail.length);
          b.set(tail, zeros);
          return b;
        }),
      ),
      { seed: 20261129, numRuns: 40 },
    );
    strings.push(new Uint8Array(8192).fill(0xff), new Uint8Array(3 * 8192).fill(0x81));
    for (const [i, s] of strings.entries()) {
      const key = `roaring:set:${i}`;
      const [set, count, pos, get] = await redis.pipeline([
        ["SET", key, s],
        ["BITCOUNT", key],
        ["BITPOS", key, 1],
        ["GET", key],
      ]);
      ok(set!);
      const r = roaringFromRedisString(s);
      r.checkInvariants();
      expect(r.size).toBe(count);
      expect(r.min() ?? -1).toBe(pos);
      // Written back, the string ends at its last set bit's byte: Redis's value without trailing zeros.
      const bytes = get as Uint8Array;
      let end = bytes.length;
      while (end > 0 && bytes[end - 1] === 0) end--;
      expect(roaringToRedisString(r)).toEqual(bytes.subarray(0, end));
    }
  });

  it("bit x is byte x >> 3 under mask 0x80 >> (x & 7)", () => {
    expect(roaringToRedisString(RoaringBitmap.from([0]))).toEqual(Uint8Array.of(0x80));
    expect(roaringToRedisString(RoaringBitmap.from([7, 9]))).toEqual(Uint8Array.of(0x01, 0x40));
    const r = new RoaringBitmap();
    r.addRange(13, 30);
    expect(roaringToRedisString(r)).toEqual(Uint8Array.of(0x00, 0x07, 0xff, 0xfc));
    expect(() => roaringFromRedisString("abc" as never)).toThrow(TypeError);
  });
});
