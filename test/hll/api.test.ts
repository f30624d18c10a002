// The 0.2.0 surface of redstruct/hll (downsize, union of one iterable, toJSON, items checked first)
// and the input classes of the third hostile-input pass: detached views, byte inputs that change after
// the call, bytes of the wrong format, objects with the prototype but no state, re-entrant iterables.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HyperLogLog, UltraLogLog } from "../../src/hll/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { mulberry32 } from "../../src/internal/random.js";

const distinct = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}:${i}`);

/** A Uint8Array whose buffer has been transferred away (as by postMessage to a worker). */
function detached(length = 8): Uint8Array {
  const v = new Uint8Array(length).fill(7);
  structuredClone(v.buffer, { transfer: [v.buffer] });
  return v;
}

type Sketch = HyperLogLog | UltraLogLog;
const classes = [
  { name: "HyperLogLog", article: "a", make: (p: number) => new HyperLogLog({ precision: p }), type: HyperLogLog },
  { name: "UltraLogLog", article: "an", make: (p: number) => new UltraLogLog({ precision: p }), type: UltraLogLog },
] as const;
/** `s.merge(...args)` on either class (their merge signatures do not unite). */
const merge = (s: Sketch, ...args: unknown[]): Sketch => (s.merge as (...a: unknown[]) => Sketch).apply(s, args);
const fromBytesOf = (s: Sketch) => (s instanceof HyperLogLog ? HyperLogLog.fromBytes : UltraLogLog.fromBytes);

describe("redstruct/hll 0.2.0 names", () => {
  it("HyperLogLog lowers precision with downsize (fold is gone), returning a new sketch", () => {
    const h = HyperLogLog.from(distinct(3000, "d"), { precision: 14 });
    const before = h.toBytes();
    const down = h.downsize(10);
    expect(down).not.toBe(h);
    expect(down.precision).toBe(10);
    expect(h.toBytes()).toEqual(before);
    expect(down.equals(HyperLogLog.from(distinct(3000, "d"), { precision: 10 }))).toBe(true);
    expect("fold" in HyperLogLog.prototype).toBe(false);
    expect(() => h.downsize(15)).toThrow(/redstruct\/HyperLogLog: precision must be an integer in \[4, 14\], got 15/);
  });

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

    it(`${c.name}: an item's bytes are read when added; changing them afterwards changes nothing`, () => {
      fc.assert(
        fc.property(fc.array(fc.uint8Array({ minLength: 1, maxLength: 24 }), { maxLength: 30 }), (items) => {
          const s = c.make(8);
          const copies = items.map((b) => b.slice());
          s.addAll(items);
          for (const b of items) b.fill(0xee);
          const expected = c.make(8);
          expected.addAll(copies);
          expect(s.equals(expected as never)).toBe(true);
        }),
        { seed: 2410, numRuns: 100 },
      );
    });
  }
});

describe("byte inputs: read once, never kept, never of the wrong kind", () => {
  /** `bytes` inside a larger buffer of junk, as a subarray view at a random offset. */
  const embed = (bytes: Uint8Array, before: number, after: number) => {
    const big = new Uint8Array(before + bytes.length + after).fill(0xa5);
    big.set(bytes, before);
    return { view: big.subarray(before, before + bytes.length), big };
  };

  const sketches = fc
    .record({
      p: fc.integer({ min: 4, max: 14 }),
      n: fc.oneof(fc.nat(50), fc.nat(5000)),
      seed: fc.nat(),
      ull: fc.boolean(),
      merged: fc.boolean(),
    })
    .map(({ p, n, seed, ull, merged }): Sketch => {
      const s = ull ? new UltraLogLog({ precision: p }) : new HyperLogLog({ precision: p });
      const next = mulberry32(seed);
      for (let i = 0; i < n; i++) s.addHash(next(), next());
      if (merged) merge(s, s.clone());
      return s;
    });

  it("fromBytes reads a subarray view, then owes nothing to its buffer (both classes)", () => {
    fc.assert(
      fc.property(sketches, fc.nat(64), fc.nat(64), (s, before, after) => {
        const bytes = s.toBytes();
        const { view, big } = embed(bytes, before, after);
        const back = fromBytesOf(s)(view);
        big.fill(0xff);
        back.checkInvariants();
        expect(back.equals(s as never)).toBe(true);
        expect(back.toBytes()).toEqual(bytes);
      }),
      { seed: 2411, numRuns: 150 },
    );
  });

  it("fromRedis reads a subarray view, then owes nothing to its buffer", () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(100), fc.nat(20_000)), fc.nat(), fc.nat(64), fc.nat(64), (n, seed, before, after) => {
        const h = new HyperLogLog();
        const next = mulberry32(seed);
        for (let i = 0; i < n; i++) h.addHash(next(), next());
        const blob = h.toRedis();
        const { view, big } = embed(blob, before, after);
        const back = HyperLogLog.fromRedis(view);
        big.fill(0xff);
        back.checkInvariants();
        expect(back.equals(h)).toBe(true);
      }),
      { seed: 2412, numRuns: 60 },
    );
  });

  it("fromRedis(null) — what GET answers for a missing key — is a TypeError that says so", () => {
    const cases: [unknown, RegExp][] = [
      [
        null,
        /^redstruct\/HyperLogLog: value must be a Uint8Array holding a HYLL string, got null \(GET answers null for a key that does not exist\)$/,
      ],
      [undefined, /value must be a Uint8Array holding a HYLL string, got undefined$/],
      ["HYLL\u0001\u0000", /got a string: read the key as bytes, not as text/],
      [42, /value must be a Uint8Array \(a Buffer is one\), got 42/],
      [[0x48, 0x59, 0x4c, 0x4c], /value must be a Uint8Array \(a Buffer is one\), got Array\(4\)/],
      [new ArrayBuffer(16), /value must be a Uint8Array \(a Buffer is one\), got .*ArrayBuffer/],
      [new Uint16Array(8), /value must be a Uint8Array/],
      [detached(), /value is a Uint8Array whose buffer was detached/],
    ];
    for (const [value, message] of cases) {
      expect(() => HyperLogLog.fromRedis(value as never)).toThrow(TypeError);
      expect(() => HyperLogLog.fromRedis(value as never)).toThrow(message);
    }
  });

  it("fromBytes of a non-Uint8Array or a detached view is a TypeError naming bytes", () => {
    for (const read of [HyperLogLog.fromBytes, UltraLogLog.fromBytes]) {
      for (const value of [null, undefined, "RHLL", [1, 2], new ArrayBuffer(4), detached()]) {
        expect(() => read(value as never)).toThrow(TypeError);
        expect(() => read(value as never)).toThrow(
          /: bytes (must be a Uint8Array|is a Uint8Array whose buffer was detached)/,
        );
      }
    }
  });

  it("bytes of another format are named, with the method that reads them", () => {
    const h = HyperLogLog.from(["a", "b"]);
    const u = UltraLogLog.from(["a", "b"], { precision: 8 });
    const cases: [() => unknown, RegExp][] = [
      [
        () => HyperLogLog.fromBytes(h.toRedis()),
        /^redstruct\/HyperLogLog: these bytes are a Redis HYLL string: read it with HyperLogLog\.fromRedis\(\); HyperLogLog\.fromBytes\(\) reads bytes that open with "RHLL"$/,
      ],
      [
        () => UltraLogLog.fromBytes(h.toRedis()),
        /these bytes are a Redis HYLL string: read it with HyperLogLog\.fromRedis\(\)/,
      ],
      [
        () => HyperLogLog.fromRedis(h.toBytes()),
        /^redstruct\/HyperLogLog: these bytes are a HyperLogLog's toBytes\(\): read them with HyperLogLog\.fromBytes\(\); HyperLogLog\.fromRedis\(\) reads Redis's HYLL string/,
      ],
      [
        () => HyperLogLog.fromRedis(u.toBytes()),
        /these bytes are an UltraLogLog's toBytes\(\): read them with UltraLogLog\.fromBytes\(\)/,
      ],
      [
        () => HyperLogLog.fromBytes(u.toBytes()),
        /these bytes are an UltraLogLog's toBytes\(\): read them with UltraLogLog\.fromBytes\(\)/,
      ],
      [
        () => UltraLogLog.fromBytes(h.toBytes()),
        /these bytes are a HyperLogLog's toBytes\(\): read them with HyperLogLog\.fromBytes\(\)/,
      ],
      [() => HyperLogLog.fromRedis(new Uint8Array([1, 2, 3, 4, 5])), /these bytes open with .*: not a HYLL string/],
      [() => HyperLogLog.fromRedis(new Uint8Array(0)), /these bytes are empty: not a HYLL string/],
    ];
    for (const [call, message] of cases) {
      expect(call).toThrow(RedstructFormatError);
      expect(call).toThrow(message);
    }
  });
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
