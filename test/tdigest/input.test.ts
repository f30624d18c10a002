/**
 * Careless and hostile arguments to TDigest: the compression option (range, unknown keys, null), NaN
 * and ±Infinity refused by add and addAll before anything is added, queries that check their
 * arguments before merging anything, bytes that are not bytes, JSON.stringify; what addAll and
 * TDigest.from take in: each value read once, checked, and then the checked value used (a Proxy, an
 * index getter or an iterator that answers differently on a second read cannot slip a value past the
 * check), nothing added when any value is refused or the input throws midway; and a typed array or
 * DataView whose buffer was transferred away refused as detached, not taken as empty.
 */
import { describe, expect, it } from "vitest";
import { TDIGEST_MAX_COMPRESSION, TDigest } from "../../src/tdigest/index.js";
import { detached } from "../support/redisbloom.js";

/** A digest with merged centroids and a buffer, to show that a refused call changes neither. */
function busy(): TDigest {
  const d = new TDigest({ compression: 5 });
  for (let i = 0; i < 100; i++) d.add((i * 37) % 101);
  return d;
}

/** Ways to detach a buffer: transfer it (as to a worker), and ArrayBuffer.prototype.transfer where the engine has it. */
const detachers: [string, (buffer: ArrayBuffer) => void][] = [
  ["structuredClone", (buffer) => structuredClone(buffer, { transfer: [buffer] })],
];

if (typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === "function") {
  detachers.push([
    "ArrayBuffer.prototype.transfer",
    (buffer) => (buffer as unknown as { transfer(): void }).transfer(),
  ]);
}

/** Runs `f` on a busy digest, expecting it to throw `error`, and the digest unchanged, bytes for bytes. */
function expectRefusedUnchanged(f: (d: TDigest) => unknown, error: RegExp, type: ErrorConstructor): void {
  const d = busy();
  const before = d.toBytes();
  expect(() => f(d)).toThrow(type);
  expect(() => f(d)).toThrow(error);
  expect(d.toBytes()).toEqual(before);
}

describe("TDigest argument checks", () => {
  it("compression: an integer in [1, 357913939]; unknown options and null are type errors", () => {
    expect(new TDigest().compression).toBe(100);
    expect(new TDigest({ compression: 1 }).info().capacity).toBe(16);
    for (const c of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, TDIGEST_MAX_COMPRESSION + 1, 2 ** 63]) {
      expect(() => new TDigest({ compression: c })).toThrow(RangeError);
      expect(() => new TDigest({ compression: c })).toThrow(/compression must be an integer in \[1, 357913939\]/);
    }
    expect(() => new TDigest({ compression: "100" as never })).toThrow(TypeError);
    expect(() => new TDigest({ compresion: 100 } as never)).toThrow(/unknown option "compresion".*compression/);
    expect(() => new TDigest(null as never)).toThrow(TypeError);
    expect(() => TDigest.union([new TDigest()], { compression: 0 })).toThrow(RangeError);
    expect(() => TDigest.union([new TDigest()], { override: true } as never)).toThrow(/unknown option "override"/);
  });
  it("NaN and ±Infinity are refused by add and addAll, naming the value, before anything is added", () => {
    const d = TDigest.from([1, 2, 3]);
    const before = d.toBytes();
    expect(() => d.add(4, Number.NaN)).toThrow(/values\[1\] must be a finite number.*got NaN/);
    expect(() => d.add(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => d.add(Number.POSITIVE_INFINITY)).toThrow(/got Infinity/);
    expect(() => d.addAll([5, 6, Number.NEGATIVE_INFINITY])).toThrow(/got -Infinity/);
    expect(() => d.addAll(new Set([7, Number.NaN]))).toThrow(RangeError);
    expect(() => d.add("5" as never)).toThrow(TypeError);
    expect(() => d.add(5n as never)).toThrow(TypeError);
    expect(() => d.addAll("123" as never)).toThrow(/iterable of elements, got the string/);
    expect(() => d.addAll(null as never)).toThrow(TypeError);
    expect(() => d.addAll(5 as never)).toThrow(TypeError);
    expect(d.toBytes()).toEqual(before);
    d.addAll(new Float32Array([1.5, 2.5]));
    d.addAll(
      (function* () {
        yield 9;
      })(),
    );
    expect(d.size).toBe(6);
  });
  it("queries check their arguments before merging anything", () => {
    const d = TDigest.from([1, 2, 3, 4]);
    const before = d.toBytes();
    expect(() => d.quantile(1.0000000000000002)).toThrow(/q must be a number in \[0, 1\]/);
    expect(() => d.quantile(-0.1)).toThrow(RangeError);
    expect(() => d.quantile(Number.NaN)).toThrow(RangeError);
    expect(() => d.quantiles([0.5, 2])).toThrow(/qs\[1\] must be a number in \[0, 1\]/);
    expect(() => d.quantiles("0.5" as never)).toThrow(TypeError);
    expect(() => d.cdf(Number.NaN)).toThrow(/value must be a number, not NaN/);
    expect(() => d.cdfs([1, Number.NaN])).toThrow(/values\[1\]/);
    expect(() => d.rank(Number.NaN)).toThrow(RangeError);
    expect(() => d.revRank("1" as never)).toThrow(TypeError);
    expect(() => d.byRank(-1)).toThrow(/rank must be an integer ≥ 0/);
    expect(() => d.byRank(1.5)).toThrow(RangeError);
    expect(() => d.byRevRank(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => d.trimmedMean(0.5, 0.5)).toThrow(/low must be lower than high/);
    expect(() => d.trimmedMean(-0.1, 0.5)).toThrow(RangeError);
    expect(() => d.trimmedMean(0.1, 1.1)).toThrow(RangeError);
    expect(() => d.merge(5 as never)).toThrow(/merge argument 0 must be a TDigest, got 5/);
    expect(() => d.merge(null as never)).toThrow(/merge argument 0 must be a TDigest, got null/);
    expect(() => d.merge("ab" as never)).toThrow(TypeError);
    expect(() => d.merge(new (class TDigest {})() as never)).toThrow(/from another copy of redstruct/);
    expect(() => d.merge([d, {}] as never)).toThrow(/merge argument 1 must be a TDigest/);
    expect(() => TDigest.union([])).toThrow(/at least one TDigest/);
    expect(() => TDigest.union(d as never)).toThrow(TypeError);
    expect(d.toBytes()).toEqual(before);
    expect(d.cdf(Number.POSITIVE_INFINITY)).toBe(1);
    expect(d.rank(Number.NEGATIVE_INFINITY)).toBe(-1);
    expect(d.byRank(2 ** 63)).toBe(Number.POSITIVE_INFINITY);
  });
  it("is not JSON: JSON.stringify says to send toBytes()", () => {
    expect(() => JSON.stringify({ d: new TDigest() })).toThrow(TypeError);
    expect(() => JSON.stringify(new TDigest())).toThrow(/toBytes\(\).*TDigest\.fromBytes\(\)/);
  });
  it("refuses what is not bytes with a TypeError naming the parameter", () => {
    expect(() => TDigest.fromRedis("07814c" as never)).toThrow(TypeError);
    expect(() => TDigest.fromRedis(null as never)).toThrow(/bytes must be a Uint8Array/);
    expect(() => TDigest.fromRedis(detached(TDigest.from([1, 2]).toRedis()))).toThrow(/detached/);
    expect(() => TDigest.fromBytes([1, 2, 3] as never)).toThrow(TypeError);
  });
});

describe("addAll reads each value once and uses what it checked", () => {
  it("a Proxy of an array that answers 20, then Infinity, adds 20", () => {
    let reads = 0;
    const proxy = new Proxy([1, 2, 3], {
      get(target, key, receiver) {
        if (key === "1") return reads++ === 0 ? 20 : Number.POSITIVE_INFINITY;
        return Reflect.get(target, key, receiver);
      },
    });
    const d = new TDigest().addAll(proxy);
    expect(reads).toBe(1);
    expect(d.max()).toBe(20);
    expect(d.size).toBe(3);
    d.checkInvariants();
    // Read again, the same Proxy answers Infinity, which is refused.
    expect(() => TDigest.from(proxy)).toThrow(/values\[1\] must be a finite number .*got Infinity/);
    expect(reads).toBe(2);
  });

  it("an array whose index getter changes between reads: each index read once", () => {
    const reads = [0, 0, 0];
    const arr: number[] = [];
    for (let i = 0; i < 3; i++) {
      Object.defineProperty(arr, i, {
        get: () => (reads[i]!++ === 0 ? i + 10 : Number.NaN),
        enumerable: true,
      });
    }
    const d = new TDigest().addAll(arr);
    expect(reads).toEqual([1, 1, 1]);
    expect([d.min(), d.max(), d.size]).toEqual([10, 12, 3]);
  });

  it("an iterable whose values come from getters that change between reads", () => {
    let reads = 0;
    const cell = {
      get value() {
        return reads++ < 4 ? 7 : Number.NaN;
      },
    };
    const iterable = {
      *[Symbol.iterator]() {
        for (let i = 0; i < 4; i++) yield cell.value;
      },
    };
    const d = TDigest.from(iterable);
    expect(reads).toBe(4);
    expect([d.min(), d.max(), d.size]).toEqual([7, 7, 4]);
  });

  it("a generator that throws midway adds nothing, and is not read past the throw", () => {
    let yielded = 0;
    function* failing() {
      yield 1;
      yielded++;
      yield 2;
      yielded++;
      throw new Error("source failed");
    }
    expectRefusedUnchanged((d) => d.addAll(failing()), /source failed/, Error);
    expect(yielded).toBe(4);
  });

  it("a refused value anywhere adds nothing, and its position is named", () => {
    const many = Array.from({ length: 5000 }, (_, i) => i);
    expectRefusedUnchanged(
      (d) => d.addAll([...many, Number.NaN]),
      /values\[5000\] must be a finite number/,
      RangeError,
    );
    expectRefusedUnchanged(
      (d) => d.addAll([...many, "7" as never]),
      /values\[5000\] must be a finite number, got "7"/,
      TypeError,
    );
    expectRefusedUnchanged((d) => d.addAll(new Set([1, 2, Number.POSITIVE_INFINITY])), /values\[2\]/, RangeError);
    expectRefusedUnchanged((d) => d.addAll(new Float32Array([1, Number.NaN])), /values\[1\]/, RangeError);
    expectRefusedUnchanged(
      (d) => d.addAll(new BigInt64Array([1n]) as never),
      /values\[0\] must be a finite number, got 1n/,
      TypeError,
    );
    expectRefusedUnchanged((d) => d.add(1, 2, -Number.POSITIVE_INFINITY), /values\[2\]/, RangeError);
    // A sparse array that claims 2^32 − 1 slots: refused at its first hole, without a 32 GiB copy.
    const sparse: number[] = [1];
    sparse.length = 2 ** 32 - 1;
    expectRefusedUnchanged((d) => d.addAll(sparse), /values\[1\] must be a finite number, got undefined/, TypeError);
  });

  it("a typed array over a SharedArrayBuffer, where the engine offers one, is copied once and checked", () => {
    if (typeof SharedArrayBuffer !== "function") {
      // A page that is not cross-origin isolated has no shared memory: no other thread can write its arrays.
      expect((globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated).not.toBe(true);
      return;
    }
    const shared = new Float64Array(new SharedArrayBuffer(8 * 3));
    shared.set([3, 1, 2]);
    const d = TDigest.from(shared);
    expect([d.min(), d.max(), d.size]).toEqual([1, 3, 3]);
    shared[1] = Number.NaN;
    expectRefusedUnchanged((x) => x.addAll(shared), /values\[1\]/, RangeError);
  });

  it("every kind of input adds the same digest as the array of its values", () => {
    const vs = [5, -0, 0, 2.5, 1e-300, -7, 5];
    const expected = TDigest.from(vs).toBytes();
    const inputs: Iterable<number>[] = [
      vs,
      Float64Array.from(vs),
      new Set(vs).size === vs.length ? new Set(vs) : vs,
      (function* () {
        yield* vs;
      })(),
      { [Symbol.iterator]: () => vs[Symbol.iterator]() },
      new Proxy(vs, {}),
    ];
    for (const input of inputs) expect(TDigest.from(input).toBytes()).toEqual(expected);
  });
});

describe("detached buffers are refused, not taken as empty", () => {
  const kinds: [string, () => ArrayBufferView][] = [
    ["Float64Array", () => new Float64Array([1, 2, 3])],
    ["Float32Array", () => new Float32Array([1, 2, 3])],
    ["Int32Array", () => new Int32Array([1, 2, 3])],
    ["Uint8Array", () => new Uint8Array([1, 2, 3])],
    ["Float64Array", () => new Float64Array(0)],
    ["Float64Array", () => new Float64Array(new ArrayBuffer(64), 8, 2)],
    ["DataView", () => new DataView(new ArrayBuffer(16))],
  ];
  for (const [name, make] of kinds) {
    for (const [how, detach] of detachers) {
      const empty = make().byteLength === 0 ? " (empty)" : "";
      it(`${name}${empty} detached by ${how}: addAll and TDigest.from throw a TypeError naming values`, () => {
        const message = new RegExp(`values is an? ${name} whose buffer was detached`);
        const detached = () => {
          const view = make();
          detach(view.buffer as ArrayBuffer);
          return view as never;
        };
        expectRefusedUnchanged((d) => d.addAll(detached()), message, TypeError);
        expect(() => TDigest.from(detached())).toThrow(message);
      });
    }
  }

  it("a live DataView is not iterable: a TypeError naming values", () => {
    expectRefusedUnchanged(
      (d) => d.addAll(new DataView(new ArrayBuffer(8)) as never),
      /values must be a synchronous iterable/,
      TypeError,
    );
  });
});
