/**
 * Careless and hostile calls into redstruct/hll: options objects (unknown keys with a hint, null,
 * wrong types), bulk arguments (sync iterables of items only), hash halves, estimator names,
 * register indexes and precisions, items checked first in the structure's name, detached views,
 * merge and union of any number of sketches (and union's one-iterable form), sketches from another
 * copy of redstruct or with a prototype but no state, re-entrant iterables, and JSON.stringify. Every
 * refusal is a TypeError or RangeError naming the parameter, and a refused call changes nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../../src/hll/index.js";
import { classes, detached, distinct, fromBytesOf, merge, type Sketch } from "../support/hll.js";

/** Anything that is not an integer in [0, 2^32). */
const notHalf = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.5, 2 ** 32, -1, 0.1),
  fc.double().filter((x) => !(Number.isInteger(x) && x >= 0 && x < 2 ** 32)),
  fc.integer({ min: -(2 ** 31), max: -1 }),
  fc.integer({ min: 2 ** 32, max: Number.MAX_SAFE_INTEGER }),
  fc.string(),
  fc.constantFrom(null, undefined, {}, [], true, 5n, "5", "0"),
);

const snapshot = (h: HyperLogLog) => Array.from(h.toBytes());

describe("HyperLogLog: option objects (every options parameter in redstruct/hll)", () => {
  // [call, what] for each entry point that takes options.
  const entries: [string, (o: unknown) => unknown][] = [
    ["new HyperLogLog", (o) => new HyperLogLog(o as never)],
    ["HyperLogLog.from", (o) => HyperLogLog.from(["a"], o as never)],
    ["toRedis", (o) => new HyperLogLog().toRedis(o as never)],
    ["fromRedis", (o) => HyperLogLog.fromRedis(new HyperLogLog().toRedis(), o as never)],
  ];
  const bad: [string, unknown, RegExp][] = [
    [
      "a misspelt key",
      { precison: 12 },
      /redstruct\/HyperLogLog: unknown option "precison" in options( \(did you mean "precision"\?\))?; known keys: /,
    ],
    ["a key in the wrong case", { Estimator: "ertl" }, /unknown option "Estimator"/],
    ["an unknown key", { seed: 1 }, /unknown option "seed"/],
    ["null", null, /redstruct\/HyperLogLog: options must be an object/],
    ["a string", "precision=12", /options must be an object/],
    ["a number", 12, /options must be an object/],
    ["an array", [12], /options must be an object/],
  ];
  for (const [name, call] of entries) {
    for (const [what, options, message] of bad) {
      it(`${name} refuses ${what}`, () => {
        expect(() => call(options)).toThrow(TypeError);
        expect(() => call(options)).toThrow(message);
      });
    }
    it(`${name} takes undefined and {} as the defaults`, () => {
      expect(() => call(undefined)).not.toThrow();
      expect(() => call({})).not.toThrow();
    });
  }

  it("refuses null, wrong types and unknown names for each option's value", () => {
    const cases: [() => unknown, ErrorConstructor, RegExp][] = [
      [
        () => new HyperLogLog({ precision: null as never }),
        TypeError,
        /precision must be an integer in \[4, 18\], got null/,
      ],
      [() => new HyperLogLog({ precision: "12" as never }), TypeError, /precision/],
      [() => new HyperLogLog({ precision: 12.5 }), RangeError, /precision/],
      [() => new HyperLogLog({ estimator: null as never }), TypeError, /estimator must be .*got null/],
      [() => new HyperLogLog({ estimator: "ERTL" as never }), TypeError, /estimator must be/],
      [() => new HyperLogLog({ estimator: "hip" as never }), TypeError, /estimator must be/],
      [() => new HyperLogLog().toRedis({ encoding: null as never }), TypeError, /encoding must be/],
      [() => new HyperLogLog().toRedis({ encoding: "sparse" as never }), TypeError, /encoding must be/],
      [() => HyperLogLog.fromRedis(new HyperLogLog().toRedis(), { estimator: 1 as never }), TypeError, /estimator/],
    ];
    for (const [call, type, message] of cases) {
      expect(call).toThrow(type);
      expect(call).toThrow(message);
    }
  });
});

describe("HyperLogLog: bulk arguments take sync iterables of elements only", () => {
  async function* asyncGen() {
    yield "a";
  }
  const notIterables: [string, unknown, RegExp][] = [
    ["a lone string", "user:1842", /items must be an iterable of elements, got the string "user:1842"/],
    ["an empty string", "", /got the string ""/],
    ["an async iterable", asyncGen(), /synchronous iterable, got an async iterable/],
    ["an object with only Symbol.asyncIterator", { [Symbol.asyncIterator]: asyncGen }, /async iterable/],
    ["a number", 9, /items must be a synchronous iterable.*got 9/],
    ["null", null, /got null/],
    ["undefined", undefined, /got undefined/],
    ["a plain object", { 0: "a", length: 1 }, /items must be a synchronous iterable/],
  ];
  for (const [what, values, message] of notIterables) {
    it(`addAll and from refuse ${what}, leaving the sketch unchanged`, () => {
      const h = HyperLogLog.from(["x", "y"]);
      const before = snapshot(h);
      expect(() => h.addAll(values as never)).toThrow(TypeError);
      expect(() => h.addAll(values as never)).toThrow(message);
      expect(snapshot(h)).toEqual(before);
      expect(() => HyperLogLog.from(values as never)).toThrow(TypeError);
      expect(() => HyperLogLog.from(values as never)).toThrow(message);
    });
  }

  it("any sync iterable counts its elements whole (arrays, Sets, generators, Map keys)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 10 }), { maxLength: 40 }), (xs) => {
        function* gen() {
          yield* xs;
        }
        const expected = HyperLogLog.from(xs);
        for (const iterable of [xs, new Set(xs), gen(), new Map(xs.map((x) => [x, 1])).keys()]) {
          const h = new HyperLogLog();
          h.addAll(iterable);
          expect(h.equals(expected)).toBe(true);
        }
        // A string is one element: addAll([s]) and add(s) agree and count 1 for one string.
        if (xs.length > 0) expect(HyperLogLog.from([xs[0]!]).count()).toBe(1);
      }),
      { seed: 120, numRuns: 50 },
    );
  });
});

describe("HyperLogLog: construction arguments", () => {
  it("rejects bad precisions, estimators and elements with redstruct messages", () => {
    expect(() => new HyperLogLog({ precision: 3 })).toThrow(RangeError);
    expect(() => new HyperLogLog({ precision: 19 })).toThrow(/precision must be an integer in \[4, 18\], got 19/);
    expect(() => new HyperLogLog({ precision: 14.5 })).toThrow(RangeError);
    expect(() => new HyperLogLog({ precision: "14" as never })).toThrow(TypeError);
    expect(() => new HyperLogLog({ estimator: "loglog" as never })).toThrow(/redstruct\/HyperLogLog: estimator/);
    const h = new HyperLogLog();
    expect(() => h.add({} as never)).toThrow(TypeError);
    expect(() => h.count("nope" as never)).toThrow(TypeError);
    expect(() => h.register(16384)).toThrow(RangeError);
    expect(() => h.merge({} as never)).toThrow(TypeError);
    expect(() => HyperLogLog.union([])).toThrow(RangeError);
    expect(() => new HyperLogLog({ precision: 12 }).toRedis()).toThrow(/build it at 14/);
    expect(() => new HyperLogLog({ precision: 16 }).toRedis()).toThrow(/downsize\(14\) first/);
  });
});

describe("HyperLogLog: every public argument is validated", () => {
  it("addHash refuses any half that is not an integer in [0, 2^32) and writes nothing", () => {
    const h = HyperLogLog.from(distinct(20, "ah"), { precision: 10 });
    const before = snapshot(h);
    fc.assert(
      fc.property(notHalf, fc.nat({ max: 2 ** 32 - 1 }), fc.boolean(), (bad, good, badIsLow) => {
        const call = () => (badIsLow ? h.addHash(bad as number, good) : h.addHash(good, bad as number));
        const param = badIsLow ? "low" : "high";
        expect(call).toThrow(new RegExp(`redstruct/HyperLogLog: ${param} must be an integer in \\[0, 2\\^32\\)`));
        try {
          call();
        } catch (e) {
          expect(e).toBeInstanceOf(typeof bad === "number" ? RangeError : TypeError);
        }
        expect(snapshot(h)).toEqual(before);
      }),
      { seed: 122, numRuns: 400 },
    );
    // The edges of the valid range are taken.
    expect(() => h.addHash(0, 0)).not.toThrow();
    expect(() => h.addHash(2 ** 32 - 1, 2 ** 32 - 1)).not.toThrow();
  });

  it("estimator names, register indexes, downsize precisions and items are refused when wrong", () => {
    const h = HyperLogLog.from(distinct(50, "args"), { precision: 12 });
    const before = snapshot(h);
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom(null, 0, {}, "Ertl", "CLASSIC", " ertl")),
        fc.oneof(notHalf, fc.constantFrom(4096, 5000, 2 ** 31)),
        fc.oneof(notHalf, fc.constantFrom(3, 13, 18, 0)),
        fc.oneof(fc.constantFrom(null, undefined, {}, [], true, Symbol("s")), fc.func(fc.anything())),
        (estimator, index, precision, element) => {
          if (estimator !== "ertl" && estimator !== "classic" && estimator !== "martingale") {
            expect(() => h.count(estimator as never)).toThrow(/redstruct\/HyperLogLog: estimator must be/);
            expect(() => h.estimate(estimator as never)).toThrow(TypeError);
          }
          expect(() => h.register(index as number)).toThrow(/redstruct\/HyperLogLog: index must be/);
          if (precision !== undefined) {
            expect(() => h.downsize(precision as number)).toThrow(/redstruct\/HyperLogLog: precision must be/);
          }
          expect(() => h.add(element as never)).toThrow(TypeError);
          expect(snapshot(h)).toEqual(before);
        },
      ),
      { seed: 123, numRuns: 200 },
    );
  });
});

describe("HyperLogLog: merge and union take any number of sketches", () => {
  it("union and merge accept an iterable of 200,000 sketches", () => {
    const many = Array.from({ length: 200_000 }, (_, i) => {
      const h = new HyperLogLog({ precision: 4 });
      h.addHash(i & 15, 1 << (i % 28));
      return h;
    });
    const u = HyperLogLog.union(many);
    u.checkInvariants();
    const expected = new HyperLogLog({ precision: 4 });
    for (let i = 0; i < 200_000; i++) expected.addHash(i & 15, 1 << (i % 28));
    expect(u.equals(expected)).toBe(true);
    function* gen() {
      yield* many;
    }
    expect(new HyperLogLog({ precision: 4 }).merge(gen()).equals(expected)).toBe(true);
  });

  it("variadic merge works at any count the engine can pass; union takes the same sketches as one array", () => {
    for (const n of [0, 1, 2, 1000, 30_000]) {
      const sketches = Array.from({ length: n }, (_, i) => HyperLogLog.from([i], { precision: 6 }));
      const one = HyperLogLog.from(
        Array.from({ length: n }, (_, i) => i),
        { precision: 6 },
      );
      expect(new HyperLogLog({ precision: 6 }).merge(...sketches).equals(one)).toBe(true);
      if (n > 0) expect(HyperLogLog.union(sketches).equals(one)).toBe(true);
      else {
        expect(() => HyperLogLog.union([])).toThrow(RangeError);
        expect(() => HyperLogLog.union([])).toThrow(
          /redstruct\/HyperLogLog: sketches must hold at least one HyperLogLog, got an empty iterable/,
        );
        expect(() => (HyperLogLog.union as () => unknown)()).toThrow(/sketches must be a synchronous iterable/);
      }
    }
  });

  it("a non-sketch among the arguments is named by position, and nothing is merged", () => {
    const wrong: unknown[] = [null, undefined, 5, "sketch", {}, [new HyperLogLog(), 3], new Map()];
    for (const w of wrong) {
      const h = HyperLogLog.from(["a"]);
      const before = snapshot(h);
      const other = HyperLogLog.from(["b"]);
      expect(() => h.merge(other, w as never)).toThrow(
        /redstruct\/HyperLogLog: merge argument 1 must be a HyperLogLog/,
      );
      expect(() => HyperLogLog.union([other, w] as never)).toThrow(/sketches\[1\] must be a HyperLogLog/);
      expect(snapshot(h)).toEqual(before);
    }
    expect(() => HyperLogLog.union([new HyperLogLog(), 7] as never)).toThrow(
      /redstruct\/HyperLogLog: sketches\[1\] must be a HyperLogLog, got 7/,
    );
    expect(() => HyperLogLog.union("ab" as never)).toThrow(/sketches must be an iterable.*got the string "ab"/);
    // merge's lone string is not an iterable of sketches either.
    expect(() => new HyperLogLog().merge("ab" as never)).toThrow(/merge argument 0 must be a HyperLogLog, got "ab"/);
  });
});

describe("HyperLogLog: sketches from another copy of redstruct", () => {
  // What `instanceof` sees when the ESM and the CommonJS builds are both loaded: an object of a class
  // with the same name that is not this module's class.
  class OtherCopyHyperLogLog {}
  Object.defineProperty(OtherCopyHyperLogLog, "name", { value: "HyperLogLog" });

  it("merge and union explain what happened instead of 'got [object Object]'", () => {
    const foreign = new OtherCopyHyperLogLog();
    const h = new HyperLogLog();
    for (const call of [
      () => h.merge(foreign as never),
      () => h.merge([foreign] as never),
      () => HyperLogLog.union([h, foreign] as never),
      () => HyperLogLog.union([foreign] as never),
    ]) {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(/is a HyperLogLog from another copy of redstruct.*toBytes\(\)\/fromBytes\(\)/);
    }
    // The way across copies the message recommends works.
    const moved = HyperLogLog.fromBytes(HyperLogLog.from(["a", "b"]).toBytes());
    expect(h.merge(moved).count()).toBe(2);
  });
});

describe("UltraLogLog: options, arguments, bulk input, other copies", () => {
  it("options are checked like HyperLogLog's", () => {
    const cases: [unknown, ErrorConstructor, RegExp][] = [
      [{ precison: 12 }, TypeError, /redstruct\/UltraLogLog: unknown option "precison"/],
      [{ Precision: 12 }, TypeError, /did you mean "precision"/],
      [null, TypeError, /options must be an object/],
      [7, TypeError, /options must be an object/],
      [{ precision: null }, TypeError, /precision must be an integer in \[3, 26\], got null/],
      [{ precision: 2 }, RangeError, /precision must be an integer in \[3, 26\], got 2/],
      [{ precision: 27 }, RangeError, /got 27/],
      [{ precision: 10.5 }, RangeError, /got 10.5/],
    ];
    for (const [options, type, message] of cases) {
      expect(() => new UltraLogLog(options as never)).toThrow(type);
      expect(() => new UltraLogLog(options as never)).toThrow(message);
      expect(() => UltraLogLog.from([], options as never)).toThrow(message);
    }
  });

  it("every argument is validated and a refused call changes nothing", () => {
    const u = UltraLogLog.from(distinct(50, "u"), { precision: 10 });
    const before = Array.from(u.toBytes());
    fc.assert(
      fc.property(notHalf, fc.nat({ max: 2 ** 32 - 1 }), fc.boolean(), (bad, good, badIsLow) => {
        const call = () => (badIsLow ? u.addHash(bad as number, good) : u.addHash(good, bad as number));
        expect(call).toThrow(new RegExp(`redstruct/UltraLogLog: ${badIsLow ? "low" : "high"} must be an integer`));
        expect(() => u.register(bad as number)).toThrow(/index must be/);
        expect(() => u.downsize(bad as number)).toThrow(/precision must be/);
      }),
      { seed: 124, numRuns: 200 },
    );
    for (const bad of ["FGRA", "ertl", null, 0, {}]) {
      expect(() => u.count(bad as never)).toThrow(
        /redstruct\/UltraLogLog: estimator must be "fgra", "ml" or "martingale"/,
      );
      expect(() => u.bounds(2, bad as never)).toThrow(TypeError);
    }
    for (const bad of [0, -2, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => u.bounds(bad)).toThrow(RangeError);
    expect(() => u.bounds("2" as never)).toThrow(TypeError);
    expect(() => u.downsize(11)).toThrow(/precision must be an integer in \[3, 10\], got 11/);
    expect(() => u.add(null as never)).toThrow(TypeError);
    expect(Array.from(u.toBytes())).toEqual(before);
  });

  it("addAll / from take sync iterables only; merge / union take any number of sketches", () => {
    async function* gen() {
      yield "a";
    }
    const u = new UltraLogLog({ precision: 6 });
    for (const bad of ["user:1842", gen(), 9, null, { length: 1 }]) {
      expect(() => u.addAll(bad as never)).toThrow(/redstruct\/UltraLogLog: items must be/);
      expect(() => UltraLogLog.from(bad as never)).toThrow(TypeError);
    }
    expect(u.count()).toBe(0);
    const many = Array.from({ length: 100_000 }, (_, i) => {
      const s = new UltraLogLog({ precision: 3 });
      s.addHash(i & 7, 1 << (i % 30));
      return s;
    });
    const expected = new UltraLogLog({ precision: 3 });
    for (let i = 0; i < 100_000; i++) expected.addHash(i & 7, 1 << (i % 30));
    expect(UltraLogLog.union(many).equals(expected)).toBe(true);
    expect(new UltraLogLog({ precision: 3 }).merge(many).equals(expected)).toBe(true);
    expect(() => u.merge(u, 5 as never)).toThrow(/merge argument 1 must be a UltraLogLog, got 5/);
    expect(() => UltraLogLog.union([])).toThrow(RangeError);
    expect(() => u.merge(new HyperLogLog() as never)).toThrow(/merge argument 0 must be a UltraLogLog/);
  });

  it("a sketch from another copy of redstruct is explained", () => {
    class OtherCopy {}
    Object.defineProperty(OtherCopy, "name", { value: "UltraLogLog" });
    const u = new UltraLogLog({ precision: 6 });
    expect(() => u.merge(new OtherCopy() as never)).toThrow(/is a UltraLogLog from another copy of redstruct/);
    expect(() => UltraLogLog.union([new OtherCopy()] as never)).toThrow(/another copy/);
  });
});

describe("ExaLogLog: arguments", () => {
  it("checks options, estimators, items, hashes and register indexes", () => {
    expect(() => new ExaLogLog({ precision: 3 })).toThrow(/precision must be an integer in \[4, 26\], got 3/);
    expect(() => new ExaLogLog({ t: 3 })).toThrow(/t must be an integer in \[0, 2\], got 3/);
    expect(() => new ExaLogLog({ d: -1 })).toThrow(/d must be an integer in \[0, 24\], got -1/);
    expect(() => new ExaLogLog({ D: 4 } as never)).toThrow(/unknown option "D"/);
    expect(() => new ExaLogLog(null as never)).toThrow(TypeError);
    const e = ExaLogLog.from(["a"]);
    expect(() => e.count("ml" as never)).toThrow(/options must be an object such as \{ estimator: "ml" \}/);
    expect(() => e.count({ estimator: "fgra" as never })).toThrow(/estimator must be "ml" or "martingale", got "fgra"/);
    expect(() => e.bounds(0)).toThrow(RangeError);
    expect(() => e.add(null as never)).toThrow(/item must be a string, number, bigint or Uint8Array, got null/);
    expect(() => e.addAll("abc" as never)).toThrow(/items must be an iterable of elements, got the string/);
    expect(() => e.addHash(-1, 0)).toThrow(/low must be an integer in \[0, 2\^32\)/);
    expect(() => e.addHash(0, 2 ** 32)).toThrow(/high must be an integer in \[0, 2\^32\)/);
    expect(() => e.register(4096)).toThrow(RangeError);
    expect(() => JSON.stringify(e)).toThrow(/toBytes\(\)/);
    expect(() => e.merge(new UltraLogLog() as never)).toThrow(
      /merge argument 0 must be an? ExaLogLog, got an? UltraLogLog/,
    );
    expect(() => e.merge(Object.create(ExaLogLog.prototype))).toThrow(
      /has the ExaLogLog prototype but no ExaLogLog state/,
    );
    expect(e.equals(new UltraLogLog() as never)).toBe(false);
    expect(e.register(Array.from(e.registers()).findIndex((r) => r !== 0))).toBeGreaterThanOrEqual(2 ** 24);
  });
});

describe("ExaLogLog: merge and downsize arguments", () => {
  it("refuses another t, and lower precisions or d on merge; downsize checks its options", () => {
    const a = ExaLogLog.from(distinct(100, "x"), { precision: 8 });
    expect(() => a.clone().merge(new ExaLogLog({ precision: 8, t: 1 }))).toThrow(
      /redstruct\/ExaLogLog: merge argument t must be 2, this sketch's/,
    );
    expect(() => ExaLogLog.union([a, new ExaLogLog({ precision: 8, t: 0 })])).toThrow(/sketches\[1\] t must be 2/);
    expect(() => a.clone().merge(new ExaLogLog({ precision: 7 }))).toThrow(RangeError);
    expect(() => a.clone().merge(new ExaLogLog({ precision: 8, d: 10 }))).toThrow(
      /merge argument d must be ≥ this sketch's d 24/,
    );
    expect(() => a.downsize({ precision: 9 })).toThrow(/precision must be an integer in \[4, 8\], got 9/);
    expect(() => a.downsize({ d: 25 })).toThrow(/d must be an integer in \[0, 24\], got 25/);
    expect(() => a.downsize({ precison: 4 } as never)).toThrow(/unknown option "precison".*did you mean "precision"/);
    expect(() => a.downsize(6 as never)).toThrow(TypeError);
    const same = a.downsize();
    expect(same).not.toBe(a);
    expect(same.equals(a)).toBe(true);
    expect(same.count({ estimator: "martingale" })).toBe(a.count({ estimator: "martingale" }));
    const u = ExaLogLog.union([a, ExaLogLog.from(["y"], { precision: 6, d: 12 })]);
    expect([u.precision, u.d, u.t]).toEqual([6, 12, 2]);
  });
});

describe("union takes one iterable; a sketch is not JSON", () => {
  for (const c of classes) {
    it(`${c.name}.union takes one iterable; separate sketches are a TypeError that shows the array form`, () => {
      const a = c.make(8);
      const b = c.make(8);
      a.add("a");
      b.add("b");
      const union = c.type.union as (...args: unknown[]) => Sketch;
      expect(union.call(c.type, [a, b]).count()).toBe(2);
      expect(union.call(c.type, new Set([a, b])).count()).toBe(2);
      const arrayForm = new RegExp(
        `redstruct/${c.name}: sketches must be one iterable of sketches, as in ${c.name}\\.union\\(\\[a, b\\]\\) \\(not ${c.name}\\.union\\(a, b\\)\\)`,
      );
      for (const args of [[a, b], [a], [[a], b], [a, b, a]]) {
        expect(() => union.call(c.type, ...args)).toThrow(TypeError);
        expect(() => union.call(c.type, ...args)).toThrow(arrayForm);
      }
      expect(() => union.call(c.type, a, b)).toThrow(
        new RegExp(`got 2 arguments: ${c.article} ${c.name}, ${c.article} ${c.name}$`),
      );
      expect(() => union.call(c.type, a)).toThrow(new RegExp(`got ${c.article} ${c.name}$`));
      // merge keeps both forms, and neither changes the arguments.
      const bBytes = b.toBytes();
      expect(merge(a.clone(), b).equals(merge(a.clone(), [b]) as never)).toBe(true);
      expect(b.toBytes()).toEqual(bBytes);
    });
    it(`${c.name} is not JSON: JSON.stringify says to send toBytes()`, () => {
      const s = c.make(6);
      s.add("x");
      expect(() => JSON.stringify(s)).toThrow(TypeError);
      expect(() => JSON.stringify({ sketch: s })).toThrow(
        new RegExp(
          `redstruct/${c.name}: a ${c.name} is not JSON .*send toBytes\\(\\) and rebuild it with ${c.name}\\.fromBytes\\(\\)`,
        ),
      );
    });
  }
});

describe("items are checked first, in the structure's name", () => {
  const wrong: [unknown, RegExp][] = [
    [null, /got null/],
    [undefined, /got undefined/],
    [{}, /got .+/],
    [[1, 2], /got Array\(2\)/],
    [true, /got true/],
    [Symbol("s"), /got/],
    [() => 1, /got a function/],
  ];
  for (const c of classes) {
    it(`${c.name}.add / addAll / from name the item and change nothing`, () => {
      const s = c.make(10);
      s.addAll(distinct(50, "i"));
      const before = s.toBytes();
      for (const [value, got] of wrong) {
        const message = new RegExp(
          `^redstruct/${c.name}: item must be a string, number, bigint or Uint8Array, ${got.source}`,
        );
        expect(() => s.add(value as never)).toThrow(TypeError);
        expect(() => s.add(value as never)).toThrow(message);
        expect(() => s.addAll([value] as never)).toThrow(message);
        expect(() => c.type.from([value] as never)).toThrow(message);
        expect(s.toBytes()).toEqual(before);
      }
    });
    it(`${c.name}: a detached Uint8Array is a TypeError before anything changes (every state)`, () => {
      for (const n of [0, 5, 3000]) {
        const s = c.make(10);
        s.addAll(distinct(n, "det"));
        const before = s.toBytes();
        const message = new RegExp(`redstruct/${c.name}: item is a Uint8Array whose buffer was detached`);
        expect(() => s.add(detached())).toThrow(TypeError);
        expect(() => s.add(detached(0))).toThrow(message);
        expect(() => s.addAll([detached()])).toThrow(message);
        expect(() => c.type.from([detached()])).toThrow(message);
        expect(s.toBytes()).toEqual(before);
        // addAll adds in order: "fine" goes in before the detached item is met, nothing after it.
        expect(() => s.addAll(["fine", detached(), "never"])).toThrow(message);
        const expected = c.make(10);
        expected.addAll([...distinct(n, "det"), "fine"]);
        expect(s.equals(expected as never)).toBe(true);
        s.checkInvariants();
      }
      // An empty view that is not detached is the empty item, as before.
      const s = c.make(10);
      expect(s.add(new Uint8Array(0))).toBe(true);
      expect(s.add("")).toBe(false);
    });
  }
});

describe("objects with a sketch's prototype but no state", () => {
  for (const c of classes) {
    it(`${c.name}: merge, union and equals refuse them with a clear TypeError, changing nothing`, () => {
      const real = c.make(8);
      real.addAll(distinct(40, "real"));
      const before = real.toBytes();
      const fakes: [string, unknown][] = [
        ["Object.create", Object.create(c.type.prototype)],
        ["a structuredClone given the prototype back", Object.setPrototypeOf(structuredClone({}), c.type.prototype)],
      ];
      const message = new RegExp(`redstruct/${c.name}: .* has the ${c.name} prototype but no ${c.name} state`);
      const union = c.type.union as (sketches: Iterable<unknown>) => Sketch;
      for (const [what, fake] of fakes) {
        const calls: [string, () => unknown][] = [
          ["merge(fake)", () => merge(real, fake)],
          ["merge(real, fake)", () => merge(real, real, fake)],
          ["merge([fake])", () => merge(real, [fake])],
          ["union([fake])", () => union.call(c.type, [fake])],
          ["union([real, fake])", () => union.call(c.type, [real, fake])],
          ["equals(fake)", () => real.equals(fake as never)],
        ];
        for (const [name, call] of calls) {
          expect(call, `${what} ${name}`).toThrow(TypeError);
          expect(call, `${what} ${name}`).toThrow(message);
        }
        expect(() => merge(real, real, fake)).toThrow(/merge argument 1 has the/);
        expect(() => union.call(c.type, [real, fake])).toThrow(/sketches\[1\] has the/);
      }
      expect(real.toBytes()).toEqual(before);
      // Anything that is not a sketch at all is still just not equal.
      expect(real.equals(5 as never)).toBe(false);
      expect(real.equals(null as never)).toBe(false);
    });
  }
});

describe("re-entrant iterables: an iterator that calls back into the same sketch", () => {
  for (const c of classes) {
    it(`${c.name}.addAll and merge over a generator that reads and writes the sketch mid-iteration`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("count", "bounds", "bytes", "add", "merge")), {
            maxLength: 40,
          }),
          (script) => {
            const s = c.make(8);
            const expected = c.make(8);
            const other = c.make(8);
            other.addAll(distinct(30, "other"));
            let k = 0;
            function* items(): Generator<string> {
              for (const step of script) {
                if (step === "count") s.count();
                else if (step === "bounds") s.bounds();
                else if (step === "bytes") fromBytesOf(s)(s.toBytes()).checkInvariants();
                else if (step === "add") {
                  s.add(`inner:${k}`);
                  expected.add(`inner:${k++}`);
                } else if (step === "merge") {
                  merge(s, other);
                  merge(expected, other);
                } else {
                  expected.add(step);
                  yield step;
                }
              }
            }
            s.addAll(items());
            s.checkInvariants();
            expect(s.equals(expected as never)).toBe(true);
            // merge collects its iterable before it merges anything: sketches yielded after a
            // re-entrant add still merge in, and the add stays.
            function* sketches(): Generator<Sketch> {
              s.add("during merge");
              expected.add("during merge");
              yield other;
              s.count();
              yield s;
            }
            merge(s, sketches());
            merge(expected, other);
            s.checkInvariants();
            expect(s.equals(expected as never)).toBe(true);
          },
        ),
        { seed: 2413, numRuns: 120 },
      );
    });
  }
});
