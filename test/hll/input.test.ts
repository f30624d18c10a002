// Careless and hostile calls into redstruct/hll: every class of wrong argument is refused with a
// TypeError / RangeError naming the parameter, and a refused call leaves the sketch unchanged.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HyperLogLog, UltraLogLog } from "../../src/hll/index.js";

const distinct = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}:${i}`);

/** A sketch in one of its states: fresh, sparse with entries, dense, cleared, read back. */
const states = (p: number): [string, () => HyperLogLog][] => [
  ["fresh", () => new HyperLogLog({ precision: p })],
  ["a few adds", () => HyperLogLog.from(distinct(5, "few"), { precision: p })],
  ["dense", () => HyperLogLog.from(distinct(40 << Math.max(0, p - 6), "dense"), { precision: p })],
  [
    "cleared",
    () => {
      const h = HyperLogLog.from(distinct(3000, "clr"), { precision: p });
      h.clear();
      return h;
    },
  ],
  ["fromBytes of empty", () => HyperLogLog.fromBytes(new HyperLogLog({ precision: p }).toBytes())],
  ["clone of empty", () => new HyperLogLog({ precision: p }).clone()],
  ["downsize of empty", () => new HyperLogLog({ precision: 18 }).downsize(p)],
  [
    "union of empties",
    () => HyperLogLog.union([new HyperLogLog({ precision: p }), new HyperLogLog({ precision: 18 })]),
  ],
];

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

describe("HyperLogLog hardening: option objects (every options parameter in redstruct/hll)", () => {
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

describe("HyperLogLog hardening: bulk arguments take sync iterables of elements only", () => {
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

describe("HyperLogLog hardening: checkInvariants has no false alarm on any valid sketch", () => {
  it("holds for every precision 4..18 and every state, empty or not, sparse or dense", () => {
    for (let p = 4; p <= 18; p++) {
      for (const [state, make] of states(p)) {
        const h = make();
        expect(() => h.checkInvariants(), `p=${p} ${state} (${h.encoding})`).not.toThrow();
        h.count();
        expect(() => h.checkInvariants(), `p=${p} ${state} after count`).not.toThrow();
      }
    }
  });

  it("holds after any sequence of adds, clears, merges and round trips", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 16 }),
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant("add" as const), n: fc.integer({ min: 0, max: 600 }) }),
            fc.record({ op: fc.constant("clear" as const) }),
            fc.record({ op: fc.constant("merge" as const), n: fc.integer({ min: 0, max: 300 }) }),
            fc.record({ op: fc.constant("bytes" as const) }),
          ),
          { maxLength: 8 },
        ),
        (p, ops) => {
          let h = new HyperLogLog({ precision: p });
          let k = 0;
          for (const o of ops) {
            if (o.op === "add") for (let i = 0; i < o.n; i++) h.add(`i:${k++}`);
            else if (o.op === "clear") h.clear();
            else if (o.op === "merge") h.merge(HyperLogLog.from(distinct(o.n, `m${k++}`), { precision: p }));
            else h = HyperLogLog.fromBytes(h.toBytes());
            h.checkInvariants();
          }
        },
      ),
      { seed: 121, numRuns: 60 },
    );
  });
});

describe("HyperLogLog hardening: every public argument is validated", () => {
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

describe("HyperLogLog hardening: merge and union take any number of sketches", () => {
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

describe("HyperLogLog hardening: sketches from another copy of redstruct", () => {
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

describe("UltraLogLog hardening: options, arguments, bulk input, other copies", () => {
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
