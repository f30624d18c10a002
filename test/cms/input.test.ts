/**
 * Careless and hostile arguments to CountMinSketch: one options object, never a mix of shapes;
 * items and increments checked before anything changes; merge and union arguments checked as
 * sketches of the same dimensions, named by position; iterators that re-enter the sketches.
 */
import { describe, expect, it } from "vitest";
import { CountMinSketch } from "../../src/cms/index.js";
import { detached } from "../support/redisbloom.js";

describe("CountMinSketch arguments", () => {
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
});
