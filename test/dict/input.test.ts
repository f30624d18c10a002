/**
 * Careless and hostile arguments to Dict: options with typos, nulls or wrong types, entries that are
 * not a synchronous iterable of pairs, keys of unsupported types, a detached Uint8Array key, and
 * JSON.stringify — each a named error, before anything changes.
 */
import { describe, expect, it } from "vitest";
import { Dict, type DictKey } from "../../src/dict/index.js";

const KEY = new Uint32Array([0x01234567, 0x89abcdef, 0xdeadbeef, 0x0badf00d]);

const asyncIterable = {
  async *[Symbol.asyncIterator]() {
    yield ["a", 1] as const;
  },
};

/** `view` after its buffer was transferred away (as postMessage with a transfer list does). */
function detachedView<T extends ArrayBufferView>(view: T): T {
  structuredClone(view.buffer, { transfer: [view.buffer as ArrayBuffer] });
  return view;
}

describe("Dict: options and arguments", () => {
  /** [what, call, error type, message pattern] — every message names the parameter. */
  const bad: [string, () => unknown, ErrorConstructor, RegExp][] = [
    ["unknown option", () => new Dict(null, { seeed: 1 } as never), TypeError, /unknown option "seeed"/],
    ["option in the wrong case", () => new Dict(null, { Key: KEY } as never), TypeError, /did you mean "key"/],
    ["null options", () => new Dict(null, null as never), TypeError, /options must be an object/],
    ["options not an object", () => new Dict(null, 5 as never), TypeError, /options must be an object/],
    ["options an array", () => new Dict(null, [] as never), TypeError, /options must be an object/],
    ["from with a typo", () => Dict.from([], { chunkbits: 5 } as never), TypeError, /did you mean "chunkBits"/],
    ["null key", () => new Dict(null, { key: null as never }), TypeError, /options\.key must be/],
    ["key of another type", () => new Dict(null, { key: new Uint16Array(8) as never }), TypeError, /options\.key/],
    ["3-word key", () => new Dict(null, { key: new Uint32Array(3) }), RangeError, /options\.key\.length must be 4/],
    ["15-byte key", () => new Dict(null, { key: new Uint8Array(15) }), RangeError, /options\.key\.length must be 16/],
    [
      "detached 16-byte key",
      () => new Dict(null, { key: detachedView(new Uint8Array(16)) }),
      TypeError,
      /options\.key is a Uint8Array whose buffer was detached/,
    ],
    [
      "detached 4-word key",
      () => new Dict(null, { key: detachedView(new Uint32Array(4)) }),
      TypeError,
      /options\.key is a Uint32Array whose buffer was detached/,
    ],
    ["null seed", () => new Dict(null, { seed: null as never }), TypeError, /options\.seed/],
    ["string seed", () => new Dict(null, { seed: "1" as never }), TypeError, /options\.seed/],
    ["negative seed", () => new Dict(null, { seed: -1 }), RangeError, /options\.seed/],
    ["fractional seed", () => new Dict(null, { seed: 1.5 }), RangeError, /options\.seed/],
    ["NaN seed", () => new Dict(null, { seed: Number.NaN }), RangeError, /options\.seed/],
    ["seed past 32 bits", () => new Dict(null, { seed: 2 ** 32 }), RangeError, /options\.seed/],
    ["null chunkBits", () => new Dict(null, { chunkBits: null as never }), TypeError, /options\.chunkBits/],
    ["chunkBits too small", () => new Dict(null, { chunkBits: 3 }), RangeError, /options\.chunkBits/],
    ["chunkBits too large", () => new Dict(null, { chunkBits: 21 }), RangeError, /options\.chunkBits/],
    ["huge chunkBits", () => new Dict(null, { chunkBits: 1e9 }), RangeError, /options\.chunkBits/],
    ["infinite chunkBits", () => new Dict(null, { chunkBits: Number.POSITIVE_INFINITY }), RangeError, /chunkBits/],
    ["async iterable", () => new Dict(asyncIterable as never), TypeError, /entries must be a synchronous iterable/],
    [
      "a lone string",
      () => new Dict("ab" as never),
      TypeError,
      /entries must be an iterable of elements, got the string/,
    ],
    ["a number", () => new Dict(5 as never), TypeError, /entries must be a synchronous iterable/],
    ["a plain object", () => new Dict({} as never), TypeError, /entries must be a synchronous iterable/],
    ["from(async)", () => Dict.from(asyncIterable as never), TypeError, /entries must be a synchronous iterable/],
    ["from(null)", () => Dict.from(null as never), TypeError, /entries must be a synchronous iterable/],
    ["from(undefined)", () => Dict.from(undefined as never), TypeError, /entries must be a synchronous iterable/],
    ["an entry that is no pair", () => new Dict([1] as never), TypeError, /entries\[0\] must be a \[key, value\] pair/],
    ["a null entry", () => new Dict([["a", 1], null] as never), TypeError, /entries\[1\] must be/],
    ["an entry with a bad key", () => new Dict([[{}, 1]] as never), TypeError, /entries\[0\]\[0\] must be a string/],
    ["an entry with no key", () => new Dict([[]] as never), TypeError, /entries\[0\]\[0\]/],
    ["set with a bad key", () => new Dict().set(null as never, 1), TypeError, /key must be a string/],
    ["forEach without a callback", () => new Dict().forEach(null as never), TypeError, /callback must be a function/],
    ["scan: negative cursor", () => new Dict().scan(-1), RangeError, /cursor/],
    ["scan: NaN cursor", () => new Dict().scan(Number.NaN), RangeError, /cursor/],
    ["scan: string cursor", () => new Dict().scan("0" as never), TypeError, /cursor/],
    ["scan: zero count", () => new Dict().scan(0, 0), RangeError, /count/],
    ["scan: null count", () => new Dict().scan(0, null as never), TypeError, /count/],
    ["rehashFor: negative", () => new Dict().rehashFor(-1), RangeError, /ms/],
    ["rehashFor: NaN", () => new Dict().rehashFor(Number.NaN), RangeError, /ms/],
    ["rehashFor: null", () => new Dict().rehashFor(null as never), TypeError, /ms/],
  ];

  it.each(bad)("%s: a named error", (_what, call, type, pattern) => {
    let error: unknown;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(type);
    const message = (error as Error).message;
    expect(message).toMatch(/^redstruct\/Dict: /);
    expect(message).toMatch(pattern);
  });

  it("accepts every valid form of each option, and null or undefined entries as Map does", () => {
    const viaBytes = new Dict<string, number>(null, { key: Uint8Array.from({ length: 16 }, (_, i) => i) });
    const backing = new Uint8Array(20);
    backing.set(
      Uint8Array.from({ length: 16 }, (_, i) => i),
      2,
    );
    const viaView = new Dict<string, number>(null, { key: backing.subarray(2, 18) });
    const viaWords = new Dict<string, number>(null, {
      key: new Uint32Array([0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c]),
    });
    for (const d of [viaBytes, viaView, viaWords]) for (let i = 0; i < 100; i++) d.set(`k${i}`, i);
    expect(viaView.scan(0, 1000)).toEqual(viaBytes.scan(0, 1000));
    expect(viaWords.scan(0, 1000)).toEqual(viaBytes.scan(0, 1000));
    // the key is copied: changing the caller's array afterwards changes nothing
    const key = new Uint32Array([1, 2, 3, 4]);
    const a = new Dict<string, number>(null, { key });
    key.fill(0);
    const b = new Dict<string, number>(null, { key: new Uint32Array([1, 2, 3, 4]) });
    for (let i = 0; i < 100; i++) {
      a.set(`k${i}`, i);
      b.set(`k${i}`, i);
    }
    expect(a.scan(0, 1000)).toEqual(b.scan(0, 1000));
    expect(new Dict(undefined, {}).size).toBe(0);
    expect(new Dict(null, { key: undefined, seed: undefined, chunkBits: undefined }).size).toBe(0);
    expect(new Dict(new Set([["a", 1] as const])).get("a")).toBe(1);
    function* pairs(): Generator<[string, number]> {
      yield ["x", 1];
      yield ["y", 2];
    }
    expect(Dict.from(pairs()).size).toBe(2);
  });
});

describe("Dict: JSON and detached keys", () => {
  it("JSON.stringify throws and says to send toBytes()", () => {
    expect(() => JSON.stringify({ d: new Dict([["a", 1]]) })).toThrow(
      /send toBytes\(\) and rebuild it with Dict\.fromBytes\(\)/,
    );
  });
  it("a detached Uint8Array key is a TypeError before anything changes", () => {
    const d = new Dict<DictKey, number>([[new Uint8Array(0), 1]]);
    const k = Uint8Array.of(1, 2, 3);
    structuredClone(k.buffer, { transfer: [k.buffer] });
    for (const call of [
      () => d.set(k, 2),
      () => d.get(k),
      () => d.has(k),
      () => d.delete(k),
      () => d.getOrInsert(k, 3),
    ]) {
      expect(call).toThrow(/key is a Uint8Array whose buffer was detached/);
    }
    expect(d.size).toBe(1);
    expect(d.get(new Uint8Array(0))).toBe(1);
    d.checkInvariants();
  });
});
