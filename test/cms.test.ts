import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CMS_SATURATED, CountMinSketch, cmsDimensions, RedstructFormatError } from "../src/cms/index.js";
import { expectOnlyFormatErrors } from "./support/fuzz.js";
import { itemOf, textOf } from "./support/redisbloom.js";
import vectors from "./vectors/redisbloom/cms.json" with { type: "json" };

type Step = { cmd: string; args: unknown[]; reply: unknown; note?: string };

/** A numeric argument as the API takes it: a number, a bigint beyond 2^53, or NaN for non-integers. */
function num(e: unknown): number | bigint {
  const t = textOf(e);
  if (/^-?\d+$/.test(t)) {
    const b = BigInt(t);
    return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
  }
  return t === "" ? Number.NaN : Number(t);
}

const asNumber = (x: number | bigint) => (typeof x === "bigint" ? Number.NaN : x);

// Replies that come from Redis's keyspace or command arity, which a library object has no analogue for.
const keyspaceOrArity =
  /key does not exist|key already exists|WRONGTYPE|wrong number of arguments|wrong number of keys$|invalid numkeys/;

/**
 * Runs one recorded command against the sketches in `keys` and returns the reply in the vectors'
 * encoding; throws what the library throws.
 */
function run(keys: Map<string, CountMinSketch>, step: Step): unknown {
  const [keyArg, ...rest] = step.args;
  const key = textOf(keyArg);
  const sketch = () => {
    const s = keys.get(key);
    if (!s) throw new Error(`no sketch ${key}`);
    return s;
  };
  switch (step.cmd) {
    case "CMS.INITBYDIM":
      keys.set(key, CountMinSketch.byDimensions(asNumber(num(rest[0])), asNumber(num(rest[1]))));
      return { simple: "OK" };
    case "CMS.INITBYPROB":
      keys.set(key, CountMinSketch.byError(Number(textOf(rest[0])), Number(textOf(rest[1]))));
      return { simple: "OK" };
    case "CMS.INFO": {
      const s = sketch();
      const info = s.info();
      const total = s.totalCount();
      expect(info.count).toBe(Number(total));
      const count = Number.isSafeInteger(Number(total)) ? Number(total) : { int: String(total) };
      return [{ simple: "width" }, info.width, { simple: "depth" }, info.depth, { simple: "count" }, count];
    }
    case "CMS.INCRBY": {
      const s = sketch();
      const pairs: [string | Uint8Array, number | bigint][] = [];
      for (let i = 0; i < rest.length; i += 2) pairs.push([itemOf(rest[i]), num(rest[i + 1])]);
      // RedisBloom parses every pair before applying any: check them all on a scratch sketch first.
      const probe = new CountMinSketch(1, 1);
      for (const [, n] of pairs) probe.incrBy("", n);
      return pairs.map(([item, n]) => {
        const v = s.incrBy(item, n);
        return v === CMS_SATURATED ? { error: "CMS: INCRBY overflow" } : v;
      });
    }
    case "CMS.QUERY": {
      const s = sketch();
      return rest.map((e) => s.query(itemOf(e)));
    }
    case "CMS.MERGE": {
      const numKeys = Number(textOf(rest[0]));
      const names = rest.slice(1, 1 + numKeys).map(textOf);
      const tail = rest.slice(1 + numKeys);
      let weights: number[] | undefined;
      if (tail.length > 0 && textOf(tail[0]).toUpperCase() === "WEIGHTS") {
        weights = tail.slice(1).map((e) => asNumber(num(e)));
      }
      sketch().merge(
        names.map((n) => keys.get(n)!),
        weights,
      );
      return { simple: "OK" };
    }
    default:
      throw new Error(`unexpected command ${step.cmd}`);
  }
}

/** Replays steps, checking every reply; returns how many were compared. */
function replay(steps: Step[], keys = new Map<string, CountMinSketch>()): number {
  let compared = 0;
  for (const step of steps) {
    const reply = step.reply as { error?: string } | null;
    if (reply !== null && typeof reply === "object" && "error" in reply && typeof reply.error === "string") {
      if (keyspaceOrArity.test(reply.error)) continue;
      expect(() => run(keys, step), `${step.cmd} ${JSON.stringify(step.args).slice(0, 120)}`).toThrow(
        /redstruct\/CountMinSketch/,
      );
    } else {
      expect(run(keys, step), `${step.cmd} ${JSON.stringify(step.args).slice(0, 120)}`).toEqual(step.reply);
    }
    for (const s of keys.values()) s.checkInvariants();
    compared++;
  }
  return compared;
}

describe("CountMinSketch replays RedisBloom 2.4.23 (cms.json)", () => {
  for (const c of vectors.cases) {
    it(`case ${c.name}`, () => {
      const steps = c.steps as Step[];
      expect(replay(steps)).toBeGreaterThan(steps.length * 0.8);
    });
  }

  it("argument errors", () => {
    const keys = new Map<string, CountMinSketch>();
    expect(replay(vectors.errors as Step[], keys)).toBeGreaterThanOrEqual(12);
  });

  it("the 520-row INITBYPROB table", () => {
    expect(vectors.initbyprob_table.length).toBe(520);
    for (const row of vectors.initbyprob_table) {
      const dims = cmsDimensions(Number(row.error), Number(row.prob));
      expect(dims, `${row.error} ${row.prob}`).toEqual({ width: row.width, depth: row.depth });
    }
  });
});

describe("CountMinSketch behaviour", () => {
  it("saturates at 2^32 − 1 and keeps a 64-bit signed total", () => {
    const s = CountMinSketch.byDimensions(10, 2);
    expect(s.incrBy("a", 4294967294)).toBe(4294967294);
    expect(s.incrBy("a", 1)).toBe(CMS_SATURATED);
    expect(s.incrBy("a", 7)).toBe(CMS_SATURATED);
    expect(s.incrBy("b", 2 ** 40)).toBe(CMS_SATURATED);
    expect(s.incrBy("d", (1n << 63n) - 1n)).toBe(CMS_SATURATED);
    expect(s.totalCount()).toBe(BigInt.asIntN(64, 4294967302n + (1n << 40n) + (1n << 63n) - 1n));
    expect(() => s.incrBy("e", 1n << 63n)).toThrow(RangeError);
  });

  it("validates its arguments", () => {
    expect(() => CountMinSketch.byDimensions(0, 1)).toThrow(/width must be/);
    expect(() => CountMinSketch.byDimensions(1, 0)).toThrow(/depth must be/);
    expect(() => CountMinSketch.byDimensions(1.5, 1)).toThrow(RangeError);
    expect(() => CountMinSketch.byDimensions("5" as unknown as number, 1)).toThrow(TypeError);
    expect(() => CountMinSketch.byDimensions(2 ** 20, 2 ** 9)).toThrow(/width·depth/);
    expect(() => CountMinSketch.byError(0, 0.5)).toThrow(/error must be/);
    expect(() => CountMinSketch.byError(0.1, 1)).toThrow(/probability must be/);
    expect(() => CountMinSketch.byError(Number.NaN, 0.5)).toThrow(RangeError);
    expect(() => CountMinSketch.byError(1e-12, 0.5)).toThrow(RangeError);
    const s = CountMinSketch.byDimensions(4, 2);
    expect(() => s.incrBy("a", -1)).toThrow(/n must be/);
    expect(() => s.incrBy("a", 1.5)).toThrow(RangeError);
    expect(() => s.incrBy("a", null as unknown as number)).toThrow(TypeError);
    expect(() => s.incrBy({} as unknown as string, 1)).toThrow(TypeError);
    expect(s.info().count).toBe(0); // a refused call changes nothing
    expect(() => s.query(null as unknown as string)).toThrow(TypeError);
    expect(() => s.merge([])).toThrow(/sources must be/);
    expect(() => s.merge([s], [1, 2])).toThrow(/weights.length/);
    expect(() => s.merge([s], [0.5])).toThrow(/weights\[0\]/);
    expect(() => s.merge([{} as CountMinSketch])).toThrow(TypeError);
    expect(() => s.merge([CountMinSketch.byDimensions(5, 2)])).toThrow(/sources\[0\]/);
    expect(() => s.merge("x" as unknown as CountMinSketch[])).toThrow(TypeError);
  });

  it("leaves the destination unchanged when a merge overflows, including 64-bit intermediates", () => {
    const a = CountMinSketch.byDimensions(8, 3);
    a.incrBy("x", 5);
    const d = CountMinSketch.byDimensions(8, 3);
    d.incrBy("y", 3);
    const before = d.toBytes();
    expect(() => d.merge([a], [-1])).toThrow(/merge overflow/);
    expect(() => d.merge([a], [2 ** 31])).toThrow(/merge overflow/);
    expect(() => d.merge([a, a], [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER])).not.toThrow();
    expect(d.query("x")).toBe(0);
    const e = CountMinSketch.byDimensions(8, 3);
    e.incrBy("y", 3);
    expect(e.toBytes().subarray(0, 9)).toEqual(before.subarray(0, 9));
  });

  const stream = fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.integer({ min: 0, max: 1000 })), {
    maxLength: 200,
  });
  const dims = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 6 }));

  it("never under-counts (seeded)", () => {
    fc.assert(
      fc.property(dims, stream, ([w, d], pairs) => {
        const s = new CountMinSketch(w, d);
        const truth = new Map<string, number>();
        let total = 0;
        for (const [item, n] of pairs) {
          const t = (truth.get(item) ?? 0) + n;
          truth.set(item, t);
          total += n;
          expect(s.incrBy(item, n)).toBeGreaterThanOrEqual(t);
        }
        for (const [item, t] of truth) {
          expect(s.query(item)).toBeGreaterThanOrEqual(t);
          expect(s.query(item)).toBeLessThanOrEqual(total);
        }
        expect(s.info().count).toBe(total);
        s.checkInvariants();
      }),
      { seed: 0xc35, numRuns: 300 },
    );
  });

  it("merge equals the sketch of the combined (weighted) stream (seeded)", () => {
    fc.assert(
      fc.property(
        dims,
        stream,
        stream,
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 5 }),
        ([w, d], s1, s2, w1, w2) => {
          const a = new CountMinSketch(w, d);
          const b = new CountMinSketch(w, d);
          const combined = new CountMinSketch(w, d);
          for (const [item, n] of s1) {
            a.incrBy(item, n);
            combined.incrBy(item, n * w1);
          }
          for (const [item, n] of s2) {
            b.incrBy(item, n);
            combined.incrBy(item, n * w2);
          }
          const merged = new CountMinSketch(w, d).merge([a, b], [w1, w2]);
          merged.checkInvariants();
          expect(merged.toBytes()).toEqual(combined.toBytes());
          // dest among the sources, default weights
          a.merge([a, b]);
          const plain = new CountMinSketch(w, d).merge([b, CountMinSketch.fromBytes(a.toBytes())], [0, 1]);
          expect(plain.toBytes()).toEqual(a.toBytes());
        },
      ),
      { seed: 0xc36, numRuns: 200 },
    );
  });

  it("round-trips through toBytes / fromBytes and clone (seeded)", () => {
    fc.assert(
      fc.property(dims, stream, ([w, d], pairs) => {
        const s = new CountMinSketch(w, d);
        for (const [item, n] of pairs) s.incrBy(item, n);
        const back = CountMinSketch.fromBytes(s.toBytes());
        back.checkInvariants();
        expect(back.toBytes()).toEqual(s.toBytes());
        expect(back.info()).toEqual(s.info());
        for (const [item] of pairs) expect(back.query(item)).toBe(s.query(item));
        expect(s.clone().toBytes()).toEqual(s.toBytes());
        s.clear();
        expect(s.info().count).toBe(0);
        expect(s.toBytes()).toEqual(new CountMinSketch(w, d).toBytes());
      }),
      { seed: 0xc37, numRuns: 200 },
    );
  });

  it("fromBytes only throws RedstructFormatError on hostile input (10^4 seeded inputs)", () => {
    const s = CountMinSketch.byDimensions(7, 3);
    for (let i = 0; i < 30; i++) s.incrBy(`k${i}`, i);
    expectOnlyFormatErrors(CountMinSketch.fromBytes, s.toBytes(), {
      seed: 0xc38,
      randomRuns: 8000,
      use: (x) => x.query("k1"),
    });
  });

  it("refuses a huge header before allocating", () => {
    const bytes = CountMinSketch.byDimensions(2, 2).toBytes();
    const view = new DataView(bytes.buffer);
    view.setUint32(5, 2 ** 14, true);
    view.setUint32(9, 2 ** 14, true);
    expect(() => CountMinSketch.fromBytes(bytes)).toThrow(RedstructFormatError);
    view.setUint32(5, 1000, true);
    view.setUint32(9, 1000, true);
    expect(() => CountMinSketch.fromBytes(bytes)).toThrow(/need 4000000 bytes/);
    expect(() => CountMinSketch.fromBytes("x" as unknown as Uint8Array)).toThrow(/bytes must be a Uint8Array/);
  });
});
