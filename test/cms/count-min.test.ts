import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CMS_SATURATED, CountMinSketch, cmsDimensions, RedstructFormatError } from "../../src/cms/index.js";
import { expectOnlyFormatErrors } from "../support/fuzz.js";
import { BYTE_FORMS, detached, inForm, itemOf, textOf } from "../support/redisbloom.js";
import vectors from "../vectors/redisbloom/cms.json" with { type: "json" };

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

/** CMS.INFO's exact "count": the signed 64-bit total, read from bytes 13–20 of toBytes(). */
function exactSize(s: CountMinSketch): bigint {
  const bytes = s.toBytes();
  return new DataView(bytes.buffer, bytes.byteOffset).getBigInt64(13, true);
}

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
      keys.set(key, new CountMinSketch({ width: asNumber(num(rest[0])), depth: asNumber(num(rest[1])) }));
      return { simple: "OK" };
    case "CMS.INITBYPROB":
      keys.set(key, new CountMinSketch({ error: Number(textOf(rest[0])), probability: Number(textOf(rest[1])) }));
      return { simple: "OK" };
    case "CMS.INFO": {
      const s = sketch();
      const info = s.info();
      const total = exactSize(s);
      expect(info.size).toBe(Number(total));
      expect(s.size).toBe(Number(total));
      const count = Number.isSafeInteger(Number(total)) ? Number(total) : { int: String(total) };
      return [{ simple: "width" }, info.width, { simple: "depth" }, info.depth, { simple: "count" }, count];
    }
    case "CMS.INCRBY": {
      const s = sketch();
      const pairs: [string | Uint8Array, number | bigint][] = [];
      for (let i = 0; i < rest.length; i += 2) pairs.push([itemOf(rest[i]), num(rest[i + 1])]);
      // RedisBloom parses every pair before applying any: check them all on a scratch sketch first.
      const probe = new CountMinSketch({ width: 1, depth: 1 });
      for (const [, n] of pairs) probe.incrBy("", n);
      return pairs.map(([item, n]) => {
        const v = s.incrBy(item, n);
        return v === CMS_SATURATED ? { error: "CMS: INCRBY overflow" } : v;
      });
    }
    case "CMS.QUERY": {
      const s = sketch();
      return rest.map((e) => s.count(itemOf(e)));
    }
    case "CMS.MERGE": {
      const numKeys = Number(textOf(rest[0]));
      const names = rest.slice(1, 1 + numKeys).map(textOf);
      const tail = rest.slice(1 + numKeys);
      let weights: number[] | undefined;
      if (tail.length > 0 && textOf(tail[0]).toUpperCase() === "WEIGHTS") {
        weights = tail.slice(1).map((e) => asNumber(num(e)));
      }
      const dest = sketch();
      const sources = names.map((n) => keys.get(n)!);
      // CMS.MERGE replaces dest with Σ weight·source: a union. dest joins with weight 0, which checks
      // its dimensions against the sources' (as RedisBloom does) and adds nothing.
      const merged =
        sources.length === 0
          ? CountMinSketch.union(sources) // no source: refused, as "Number of keys must be positive"
          : CountMinSketch.union([dest, ...sources], { weights: [0, ...(weights ?? sources.map(() => 1))] });
      if (names[0] === key && weights === undefined) {
        // CMS.MERGE d n d s… is merge(s…): the others added into d in place.
        expect(dest.clone().merge(sources.slice(1)).toBytes()).toEqual(merged.toBytes());
      }
      keys.set(key, merged);
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
    const s = new CountMinSketch({ width: 10, depth: 2 });
    expect(s.incrBy("a", 4294967294)).toBe(4294967294);
    expect(s.incrBy("a", 1)).toBe(CMS_SATURATED);
    expect(s.incrBy("a", 7)).toBe(CMS_SATURATED);
    expect(s.incrBy("b", 2 ** 40)).toBe(CMS_SATURATED);
    expect(s.incrBy("d", (1n << 63n) - 1n)).toBe(CMS_SATURATED);
    const exact = BigInt.asIntN(64, 4294967302n + (1n << 40n) + (1n << 63n) - 1n);
    expect(exactSize(s)).toBe(exact);
    expect(s.size).toBe(Number(exact)); // past 2^53: the nearest double
    expect(s.info().size).toBe(Number(exact));
    expect(() => s.incrBy("e", 1n << 63n)).toThrow(RangeError);
  });

  it("takes one options object: { width, depth } or { error, probability }, never a mix", () => {
    expect(new CountMinSketch({ width: 7, depth: 3 }).info()).toEqual({ width: 7, depth: 3, size: 0 });
    expect(new CountMinSketch({ error: 0.001, probability: 0.01 }).info()).toEqual({ width: 2000, depth: 7, size: 0 });
    const bad: [unknown, RegExp][] = [
      [{ width: 0, depth: 1 }, /width must be/],
      [{ width: 1, depth: 0 }, /depth must be/],
      [{ width: 1.5, depth: 1 }, /width must be an integer/],
      [{ width: 2 ** 20, depth: 2 ** 9 }, /width·depth/],
      [{ error: 0, probability: 0.5 }, /error must be/],
      [{ error: 0.1, probability: 1 }, /probability must be/],
      [{ error: Number.NaN, probability: 0.5 }, /error must be/],
      [{ error: 1e-12, probability: 0.5 }, /error must be large enough/],
    ];
    for (const [options, message] of bad) {
      expect(() => new CountMinSketch(options as never)).toThrow(RangeError);
      expect(() => new CountMinSketch(options as never)).toThrow(message);
    }
    const wrongType: [unknown, RegExp][] = [
      [{ width: "5", depth: 1 }, /width must be an integer/],
      [{ width: 10, error: 0.1 }, /these mix the two forms: an object \{ width: 10, error: 0.1 \}/],
      [{ width: 10, depth: 2, probability: 0.1 }, /mix the two forms/],
      [{ width: 10 }, /options.depth is missing: \{ width, depth \} takes both, got an object \{ width: 10 \}/],
      [{ probability: 0.5 }, /options.error is missing/],
      [{}, /these name neither: an empty object \{\}/],
      [{ width: undefined, depth: undefined }, /name neither: an object \{ width: undefined, depth: undefined \}/],
      [{ width: { n: 5 }, error: 0.1 }, /\{ width: \{…\}, error: 0.1 \}/],
      [{ widht: 10, depth: 2 }, /unknown option "widht" in options \(did you mean "width"\?\)/],
      [
        undefined,
        /options must be \{ width, depth \} \(CMS.INITBYDIM\) or \{ error, probability \} \(CMS.INITBYPROB\), got undefined/,
      ],
      [null, /got null/],
      [2000, /got 2000; pass one object: new CountMinSketch\(\{ width: 2000, depth: 7 \}\)/],
      [[2000, 7], /got Array\(2\)/],
    ];
    for (const [options, message] of wrongType) {
      expect(() => new CountMinSketch(options as never)).toThrow(TypeError);
      expect(() => new CountMinSketch(options as never)).toThrow(message);
      expect(() => new CountMinSketch(options as never)).not.toThrow(/object Object/);
    }
  });

  it("validates items and increments, naming the structure, before anything changes", () => {
    const s = new CountMinSketch({ width: 4, depth: 2 });
    s.incrBy("kept", 2);
    const before = s.toBytes();
    expect(() => s.incrBy("a", -1)).toThrow(/n must be/);
    expect(() => s.incrBy("a", 1.5)).toThrow(RangeError);
    expect(() => s.incrBy("a", null as unknown as number)).toThrow(TypeError);
    for (const bad of [null, undefined, {}, true, detached(new Uint8Array([1]))]) {
      expect(() => s.incrBy(bad as never, 1)).toThrow(TypeError);
      expect(() => s.incrBy(bad as never, 1)).toThrow(
        /^redstruct\/CountMinSketch: item (must be|is a Uint8Array whose buffer was detached)/,
      );
      expect(() => s.count(bad as never)).toThrow(/^redstruct\/CountMinSketch: item /);
    }
    expect(() => CountMinSketch.from(["a", null as never], { width: 4, depth: 2 })).toThrow(/items\[1\] must be/);
    expect(() => CountMinSketch.from("ab" as never, { width: 4, depth: 2 })).toThrow(/items must be an iterable/);
    expect(s.toBytes()).toEqual(before);
    expect(() => JSON.stringify(s)).toThrow(/not JSON.*toBytes\(\)/);
  });

  it("merge and union refuse what is not a sketch of the same dimensions, naming the argument and index", () => {
    const a = new CountMinSketch({ width: 8, depth: 3 });
    a.incrBy("x", 5);
    const before = a.toBytes();
    const fake = Object.create(CountMinSketch.prototype) as CountMinSketch;
    // Sparse arrays, as [a, , a] writes them.
    const holes = new Array<CountMinSketch>(3);
    holes[0] = holes[2] = a;
    const weightHoles = new Array<number>(3);
    weightHoles[0] = weightHoles[2] = 1;
    const cases: [() => unknown, RegExp][] = [
      [() => a.merge(holes), /others\[1\] must be a CountMinSketch, got undefined/],
      [() => a.merge(a, null as never), /others\[1\] must be a CountMinSketch, got null/],
      [() => a.merge(fake), /others\[0\] has CountMinSketch's prototype but no sketch in it/],
      [() => a.merge([a, fake]), /others\[1\] has CountMinSketch's prototype/],
      [() => a.merge({} as never), /others\[0\] must be a CountMinSketch, got /],
      [() => a.merge("x" as never), /others\[0\] must be a CountMinSketch/],
      [() => CountMinSketch.union(holes), /sketches\[1\] must be a CountMinSketch, got undefined/],
      [() => CountMinSketch.union([fake]), /sketches\[0\] has CountMinSketch's prototype/],
      [
        () => CountMinSketch.union(a as never),
        /sketches must be an iterable of CountMinSketch, got a CountMinSketch; pass them as one array: CountMinSketch.union\(\[a, b\]\)/,
      ],
      [() => CountMinSketch.union([a], a as never), /union takes the sketches as one iterable/],
      [
        () => CountMinSketch.union([a, a, a], { weights: weightHoles }),
        /weights\[1\] must be a safe integer, got undefined/,
      ],
      [() => CountMinSketch.union([a], { weights: ["1"] as never }), /weights\[0\] must be a safe integer, got "1"/],
      [() => CountMinSketch.union([a], { Weights: [1] } as never), /unknown option "Weights".*did you mean "weights"/],
      [() => CountMinSketch.union([a], { weights: 1 } as never), /weights must be/],
    ];
    for (const [call, message] of cases) {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(message);
    }
    const ranges: [() => unknown, RegExp][] = [
      [
        () => a.merge(new CountMinSketch({ width: 5, depth: 3 })),
        /others\[0\] must be 8×3 like the first \(CMS.MERGE: "width\/depth is not equal"\), got "a 5×3 sketch"/,
      ],
      [() => CountMinSketch.union([a, new CountMinSketch({ width: 8, depth: 2 })]), /sketches\[1\] must be 8×3/],
      [() => CountMinSketch.union([]), /sketches must be at least one CountMinSketch/],
      [() => CountMinSketch.union([a], { weights: [1, 2] }), /weights must be one weight per sketch \(1\)/],
      [() => CountMinSketch.union([a], { weights: [0.5] }), /weights\[0\] must be a safe integer, got 0.5/],
      [() => CountMinSketch.union([a], { weights: [-1] }), /merge overflow/],
      [() => CountMinSketch.union([a], { weights: [2 ** 31] }), /merge overflow/],
    ];
    for (const [call, message] of ranges) {
      expect(call).toThrow(RangeError);
      expect(call).toThrow(message);
    }
    expect(a.toBytes()).toEqual(before);
    // A saturated counter cannot be added to: merge refuses and leaves the sketch as it was.
    const full = new CountMinSketch({ width: 8, depth: 3 });
    full.incrBy("x", 2 ** 32 - 2);
    const fullBefore = full.toBytes();
    expect(() => full.merge(a)).toThrow(/merge overflow.*no sketch changed/);
    expect(full.toBytes()).toEqual(fullBefore);
    expect(a.merge()).toBe(a);
    expect(a.merge([])).toBe(a);
    expect(a.toBytes()).toEqual(before);
  });

  it("merge adds in place (HyperLogLog's calling style); the issue's example gives 15", () => {
    const a = new CountMinSketch({ width: 100, depth: 4 });
    const b = new CountMinSketch({ width: 100, depth: 4 });
    a.incrBy("x", 10);
    b.incrBy("x", 5);
    expect(a.merge(b)).toBe(a);
    expect(a.count("x")).toBe(15);
    expect(a.size).toBe(15);
    const c = new CountMinSketch({ width: 100, depth: 4 });
    c.incrBy("y", 1);
    const viaArgs = a.clone().merge(b, c);
    const viaIterable = a.clone().merge(new Set([b, c]));
    expect(viaArgs.toBytes()).toEqual(viaIterable.toBytes());
    expect(viaArgs.count("x")).toBe(20);
    expect(viaArgs.count("y")).toBe(1);
    expect(a.clone().merge(a).count("x")).toBe(30); // itself: counted twice, as CMS.MERGE a 2 a a
  });

  it("iterators that re-enter the sketches work: merge and union read the state after the iteration", () => {
    const a = new CountMinSketch({ width: 16, depth: 3 });
    const b = new CountMinSketch({ width: 16, depth: 3 });
    function* others(): Generator<CountMinSketch> {
      a.incrBy("x", 2); // changes this sketch before the sums are taken
      yield b;
      b.incrBy("y", 5); // changes a source already yielded
      a.count("x");
    }
    a.merge(others());
    expect(a.count("x")).toBe(2);
    expect(a.count("y")).toBe(5);
    expect(a.size).toBe(7);
    function* sources(): Generator<CountMinSketch> {
      yield a;
      a.incrBy("z", 1);
      yield b;
    }
    const u = CountMinSketch.union(sources());
    expect([u.count("x"), u.count("y"), u.count("z"), u.size]).toEqual([2, 10, 1, 13]);
    const items = function* (): Generator<string> {
      yield "p";
      a.incrBy("p", 1);
      yield "p";
    };
    expect(CountMinSketch.from(items(), { width: 16, depth: 3 }).count("p")).toBe(2);
    a.checkInvariants();
  });

  const stream = fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.integer({ min: 0, max: 1000 })), {
    maxLength: 200,
  });
  const dims = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 6 }));
  const sketchOf = (w: number, d: number, pairs: [string, number][]) => {
    const s = new CountMinSketch({ width: w, depth: d });
    for (const [item, n] of pairs) s.incrBy(item, n);
    return s;
  };

  it("never under-counts; size is the multiset's size (seeded)", () => {
    fc.assert(
      fc.property(dims, stream, ([w, d], pairs) => {
        const s = new CountMinSketch({ width: w, depth: d });
        const truth = new Map<string, number>();
        let total = 0;
        for (const [item, n] of pairs) {
          const t = (truth.get(item) ?? 0) + n;
          truth.set(item, t);
          total += n;
          expect(s.incrBy(item, n)).toBeGreaterThanOrEqual(t);
          s.checkInvariants();
        }
        for (const [item, t] of truth) {
          expect(s.count(item)).toBeGreaterThanOrEqual(t);
          expect(s.count(item)).toBeLessThanOrEqual(total);
        }
        expect(s.size).toBe(total);
        expect(s.info().size).toBe(total);
      }),
      { seed: 0xc35, numRuns: 300 },
    );
  });

  it("union is the sketch of the weighted combined stream; merge adds in place (seeded)", () => {
    fc.assert(
      fc.property(
        dims,
        stream,
        stream,
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 5 }),
        ([w, d], s1, s2, w1, w2) => {
          const a = sketchOf(w, d, s1);
          const b = sketchOf(w, d, s2);
          const combined = new CountMinSketch({ width: w, depth: d });
          for (const [item, n] of s1) combined.incrBy(item, n * w1);
          for (const [item, n] of s2) combined.incrBy(item, n * w2);
          const aBytes = a.toBytes();
          const union = CountMinSketch.union([a, b], { weights: [w1, w2] });
          union.checkInvariants();
          expect(union.toBytes()).toEqual(combined.toBytes());
          expect(a.toBytes()).toEqual(aBytes); // the inputs are not changed
          expect(CountMinSketch.union([a, b]).toBytes()).toEqual(sketchOf(w, d, [...s1, ...s2]).toBytes());
          // merge(b) adds b into a: the sketch of both streams, counted in a.
          expect(a.merge(b)).toBe(a);
          a.checkInvariants();
          expect(a.toBytes()).toEqual(sketchOf(w, d, [...s1, ...s2]).toBytes());
          expect(a.toBytes()).toEqual(CountMinSketch.union([CountMinSketch.fromBytes(aBytes), b]).toBytes());
        },
      ),
      { seed: 0xc36, numRuns: 200 },
    );
  });

  it("round-trips through toBytes / fromBytes and clone; from counts each item once (seeded)", () => {
    fc.assert(
      fc.property(dims, stream, ([w, d], pairs) => {
        const s = sketchOf(w, d, pairs);
        const back = CountMinSketch.fromBytes(s.toBytes());
        back.checkInvariants();
        expect(back.toBytes()).toEqual(s.toBytes());
        expect(back.info()).toEqual(s.info());
        for (const [item] of pairs) expect(back.count(item)).toBe(s.count(item));
        const c = s.clone();
        expect(c.toBytes()).toEqual(s.toBytes());
        c.incrBy("clone-only", 3);
        expect(back.toBytes()).toEqual(s.toBytes());
        expect(s.byteLength).toBe(4 * w * d + 4 * d);
        const items = pairs.map(([item]) => item);
        expect(CountMinSketch.from(items, { width: w, depth: d }).toBytes()).toEqual(
          sketchOf(
            w,
            d,
            items.map((x) => [x, 1]),
          ).toBytes(),
        );
        s.clear();
        expect(s.size).toBe(0);
        expect(s.toBytes()).toEqual(new CountMinSketch({ width: w, depth: d }).toBytes());
      }),
      { seed: 0xc37, numRuns: 200 },
    );
  });

  it("byte inputs are read once: fromBytes of a view, a subclass or a Buffer changed afterwards (seeded)", () => {
    fc.assert(
      fc.property(
        dims,
        stream,
        fc.constantFrom(...BYTE_FORMS),
        fc.uint8Array({ maxLength: 8 }),
        ([w, d], pairs, form, item) => {
          const s = sketchOf(w, d, pairs);
          const expected = s.toBytes();
          const b = inForm(expected, form);
          const back = CountMinSketch.fromBytes(b.value);
          b.scramble();
          expect(back.toBytes()).toEqual(expected);
          const x = inForm(item, form);
          back.incrBy(x.value, 2);
          x.scramble();
          expect(back.count(item)).toBeGreaterThanOrEqual(2);
        },
      ),
      { seed: 0xc39, numRuns: 150 },
    );
  });

  it("fromBytes only throws RedstructFormatError on hostile input (10^4 seeded inputs)", () => {
    const s = new CountMinSketch({ width: 7, depth: 3 });
    for (let i = 0; i < 30; i++) s.incrBy(`k${i}`, i);
    expectOnlyFormatErrors(CountMinSketch.fromBytes, s.toBytes(), {
      seed: 0xc38,
      randomRuns: 8000,
      use: (x) => x.count("k1"),
    });
  });

  it("refuses a huge header before allocating", () => {
    const bytes = new CountMinSketch({ width: 2, depth: 2 }).toBytes();
    const view = new DataView(bytes.buffer);
    view.setUint32(5, 2 ** 14, true);
    view.setUint32(9, 2 ** 14, true);
    expect(() => CountMinSketch.fromBytes(bytes)).toThrow(RedstructFormatError);
    view.setUint32(5, 1000, true);
    view.setUint32(9, 1000, true);
    expect(() => CountMinSketch.fromBytes(bytes)).toThrow(/need 4000000 bytes/);
    expect(() => CountMinSketch.fromBytes("x" as unknown as Uint8Array)).toThrow(/bytes must be a Uint8Array/);
    expect(() => CountMinSketch.fromBytes(detached(bytes))).toThrow(/bytes is a Uint8Array whose buffer was detached/);
  });
});
