/**
 * The Dict under hostile or careless input: keys chosen to collide without the secret key, byte
 * keys mutated after they were handed in or out, options with typos or nulls, entries that are not
 * a synchronous iterable of pairs — and the types `new Dict(entries)` infers.
 */
import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import { Dict, type DictKey } from "../../src/dict/index.js";
import { siphash13 } from "../../src/hash/index.js";
import { wtf8 } from "../../src/internal/wtf8.js";

const KEY = new Uint32Array([0x01234567, 0x89abcdef, 0xdeadbeef, 0x0badf00d]);

// ---------------------------------------------------------------------------------------------
// Flooding: distinct strings hash from what makes them distinct
// ---------------------------------------------------------------------------------------------

/** An independent WTF-8 decoder (the model): 1–4 byte sequences, 3-byte ones may be surrogates. */
function decodeWtf8(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    let cp: number;
    let n: number;
    if (b < 0x80) [cp, n] = [b, 1];
    else if (b >> 5 === 0b110) [cp, n] = [b & 0x1f, 2];
    else if (b >> 4 === 0b1110) [cp, n] = [b & 0x0f, 3];
    else if (b >> 3 === 0b11110) [cp, n] = [b & 0x07, 4];
    else throw new Error(`bad lead byte ${b} at ${i}`);
    for (let j = 1; j < n; j++) {
      const c = bytes[i + j];
      if (c === undefined || c >> 6 !== 0b10) throw new Error(`bad continuation at ${i + j}`);
      cp = (cp << 6) | (c & 0x3f);
    }
    const min = [0, 0, 0x80, 0x800, 0x10000][n]!;
    if (cp < min) throw new Error(`overlong sequence at ${i}`);
    out += String.fromCodePoint(cp);
    i += n;
  }
  return out;
}

/** Strings rich in lone and paired surrogates, U+FFFD and ASCII. */
const surrogateString: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.constantFrom(0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd, 0x61, 0x3a),
      fc.integer({ min: 0, max: 0xffff }),
    ),
    { maxLength: 12 },
  )
  .map((units) => String.fromCharCode(...units));

const anyString = fc.oneof(surrogateString, fc.string({ unit: "binary", maxLength: 24 }));

/** A lone surrogate: code unit 0xd800 + x for x in [0, 2048) (leads below 1024, trails above). */
const lone = (x: number) => String.fromCharCode(0xd800 + x);

/** Families of 20,000 strings that UTF-8 maps to a handful of byte strings (lone surrogates → U+FFFD). */
const FAMILIES: [name: string, make: (i: number) => string][] = [
  ["two lone leads", (i) => lone(i >> 10) + lone(i & 1023)],
  ["two lone trails", (i) => lone(1024 + (i >> 10)) + lone(1024 + (i & 1023))],
  ["a trail then a lead (a reversed pair)", (i) => lone(1024 + (i & 1023)) + lone(i >> 10)],
  ["ASCII around lone surrogates", (i) => `key:${lone(i & 2047)}a${lone(i >> 11)}`],
  ["U+FFFD next to lone surrogates", (i) => (i & 1 ? "\uFFFD" : "") + lone((i >> 1) % 2048) + "\uFFFD".repeat(i >> 12)],
];

describe("Dict: distinct string keys never share a hash by construction", () => {
  it("the dict hashes strings as WTF-8, which is injective: decoding gives the string back", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(anyString, (s) => {
        const bytes = wtf8(s);
        expect(decodeWtf8(bytes)).toBe(s);
        // a well-formed string's WTF-8 is its UTF-8 (so ASCII and ordinary text hash as before)
        if (encoder.encode(s).length === bytes.length && new TextDecoder().decode(bytes) === s) {
          expect(bytes).toEqual(encoder.encode(s));
        }
      }),
      { seed: 31, numRuns: 5000 },
    );
    fc.assert(
      fc.property(anyString, anyString, (a, b) => {
        fc.pre(a !== b);
        expect(wtf8(a)).not.toEqual(wtf8(b));
      }),
      { seed: 32, numRuns: 5000 },
    );
  });

  it.each(FAMILIES)("20,000 keys of one UTF-8 form (%s) spread over the table", (_name, make) => {
    const keys = Array.from({ length: 20_000 }, (_, i) => make(i));
    expect(new Set(keys).size).toBe(keys.length);
    // Control: hashed as UTF-8 (the shared hash), the family collapses onto a few values — one chain.
    const utf8Hashes = new Set(keys.map((k) => siphash13(k, KEY)));
    expect(utf8Hashes.size).toBeLessThanOrEqual(8);
    for (const key of [KEY, undefined]) {
      const d = new Dict<string, number>(null, { key, seed: 1 });
      for (let i = 0; i < keys.length; i++) d.set(keys[i]!, i);
      while (d.rehashFor(100));
      const stats = d.info();
      expect(stats.size).toBe(keys.length);
      // 20,000 keys in 32,768 buckets: a random function's longest chain is ~6–7.
      expect(stats.maxChain).toBeLessThanOrEqual(12);
      expect(stats.nonEmptyBuckets).toBeGreaterThan(12_000);
      for (let i = 0; i < keys.length; i += 97) expect(d.get(keys[i]!)).toBe(i);
      d.checkInvariants();
    }
  });

  it("any family of keys that differ only in their lone surrogates gets short chains", () => {
    // A template of ASCII literals and slots; key i fills the slots with lone surrogates from the
    // base-1024 digits of i. Under UTF-8 every key of a family is the same byte string.
    const family = fc.record({
      parts: fc.array(fc.option(fc.string({ maxLength: 3 }), { nil: null }), { minLength: 1, maxLength: 5 }),
      trails: fc.boolean(),
      n: fc.integer({ min: 200, max: 3000 }),
    });
    fc.assert(
      fc.property(family, ({ parts, trails, n }) => {
        const template = parts.includes(null) ? parts : [...parts, null];
        const slots = template.filter((p) => p === null).length;
        const count = Math.min(n, 1024 ** slots);
        const keys: string[] = [];
        for (let i = 0; i < count; i++) {
          let digits = i;
          keys.push(
            template
              .map((p) => {
                if (p !== null) return p;
                const unit = (trails ? 0xdc00 : 0xd800) + (digits % 1024);
                digits = Math.floor(digits / 1024);
                return String.fromCharCode(unit);
              })
              .join(""),
          );
        }
        expect(new Set(keys).size).toBe(count);
        expect(new Set(keys.map((k) => new TextDecoder().decode(new TextEncoder().encode(k)))).size).toBe(1);
        const d = new Dict<string, number>(null, { key: KEY, seed: 4 });
        keys.forEach((k, i) => {
          d.set(k, i);
        });
        while (d.rehashFor(100));
        expect(d.info().maxChain).toBeLessThanOrEqual(10);
        d.checkInvariants();
      }),
      { seed: 34, numRuns: 30 },
    );
  });

  it("any set of distinct strings, surrogates included, gets short chains", () => {
    fc.assert(
      fc.property(fc.uniqueArray(anyString, { minLength: 1, maxLength: 3000 }), (keys) => {
        const d = new Dict<string, number>(null, { key: KEY, seed: 2 });
        keys.forEach((k, i) => {
          d.set(k, i);
        });
        while (d.rehashFor(100));
        expect(d.size).toBe(keys.length);
        expect(d.info().maxChain).toBeLessThanOrEqual(10);
        keys.forEach((k, i) => {
          expect(d.get(k)).toBe(i);
        });
        d.checkInvariants();
      }),
      { seed: 33, numRuns: 40 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Byte keys: copied on the way in and on the way out
// ---------------------------------------------------------------------------------------------

class Bytes extends Uint8Array {}

/** The forms a byte key may come in: plain, a view into a larger buffer, a subclass, a Node Buffer. */
type Form = "plain" | "view" | "subclass" | "buffer";
const FORMS: Form[] = ["plain", "view", "subclass", ...(typeof Buffer === "function" ? (["buffer"] as const) : [])];

function inForm(content: number[], form: Form): Uint8Array {
  switch (form) {
    case "plain":
      return Uint8Array.from(content);
    case "view": {
      const backing = new Uint8Array(content.length + 6).fill(0xee);
      backing.set(content, 3);
      return backing.subarray(3, 3 + content.length);
    }
    case "subclass":
      return Bytes.from(content);
    case "buffer":
      // Buffer#slice is a view of the pooled buffer, not a copy: the case that lost entries.
      return Buffer.from([0xee, ...content, 0xee]).slice(1, 1 + content.length);
  }
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** Checks a key handed out: a plain Uint8Array over a buffer of its own. */
function expectOwnPlain(k: DictKey): Uint8Array {
  expect(k).toBeInstanceOf(Uint8Array);
  const b = k as Uint8Array;
  expect(b.constructor).toBe(Uint8Array);
  expect(b.byteOffset).toBe(0);
  expect(b.buffer.byteLength).toBe(b.length);
  return b;
}

describe("Dict: byte keys never share memory with the caller", () => {
  it("mutating any key handed in (any view or subclass) or handed out never changes the dict", () => {
    const op = fc.record({
      content: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 }),
      form: fc.constantFrom(...FORMS),
      action: fc.constantFrom("set", "set", "delete", "get"),
      scramble: fc.integer({ min: 0, max: 255 }),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), fc.boolean(), (ops, viaConstructor) => {
        const model = new Map<string, number>();
        let d = new Dict<Uint8Array, number>(null, { key: KEY, seed: 3, chunkBits: 4 });
        ops.forEach(({ content, form, action, scramble }, i) => {
          const key = inForm(content, form);
          const tag = hex(Uint8Array.from(content));
          if (action === "set") {
            if (viaConstructor && i === 0) d = new Dict([[key, i]], { key: KEY, seed: 3, chunkBits: 4 });
            else d.set(key, i);
            model.set(tag, i);
          } else if (action === "delete") {
            expect(d.delete(key)).toBe(model.delete(tag));
          } else {
            expect(d.get(key)).toBe(model.get(tag));
          }
          key.fill(scramble); // the caller reuses its buffer
          expect(d.size).toBe(model.size);
        });
        // Every way a key comes out: each must be a fresh plain copy; scribble over all of them.
        const out: DictKey[] = [...d.keys(), ...[...d.entries()].map(([k]) => k), ...[...d].map(([k]) => k)];
        d.forEach((_v, k) => {
          out.push(k);
        });
        let cursor = 0;
        do {
          const [next, keys] = d.scan(cursor, 3);
          out.push(...keys);
          cursor = next;
        } while (cursor !== 0);
        if (d.size > 0) for (let i = 0; i < 10; i++) out.push(d.randomKey()!);
        const seen = new Set<ArrayBufferLike>();
        for (const k of out) {
          const b = expectOwnPlain(k);
          expect(seen.has(b.buffer)).toBe(false); // no two handed-out keys share memory either
          seen.add(b.buffer);
        }
        for (const k of out) (k as Uint8Array).fill(0x5a);
        expect(d.size).toBe(model.size);
        for (const [tag, value] of model) {
          const content = (tag.match(/../g) ?? []).map((h) => Number.parseInt(h, 16));
          for (const form of FORMS) expect(d.get(inForm(content, form))).toBe(value);
        }
        expect(new Set([...d.keys()].map((k) => hex(k as Uint8Array)))).toEqual(new Set(model.keys()));
        d.checkInvariants();
      }),
      { seed: 41, numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Options and arguments: every wrong one is named
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Types: inferred like Map's (this block fails `tsc` if they are not)
// ---------------------------------------------------------------------------------------------

describe("Dict: types", () => {
  it("new Dict(entries) and Dict.from(entries) infer widened types, as new Map(entries) does", () => {
    const d = new Dict([["a", 1]]);
    d.set("c", 3);
    expectTypeOf(d).toEqualTypeOf<Dict<string, number>>();
    const f = Dict.from([
      ["a", 1],
      ["b", 2],
    ]);
    f.set("z", 26);
    expectTypeOf(f).toEqualTypeOf<Dict<string, number>>();
    const mixed = new Dict([
      [1, "one"],
      [2n, "two"],
    ]);
    mixed.set(3, "three");
    expectTypeOf(mixed).toEqualTypeOf<Dict<number | bigint, string>>();
    const m: Map<string, number> = d;
    expect(m.get("c")).toBe(3);
    const explicit = new Dict<"x" | "y", number>();
    // @ts-expect-error — explicit type arguments are kept as given
    explicit.set("z", 1);
    const empty = new Dict();
    expectTypeOf(empty).toEqualTypeOf<Dict<DictKey, unknown>>();
    for (const [k, v] of d) {
      expectTypeOf(k).toEqualTypeOf<string>();
      expectTypeOf(v).toEqualTypeOf<number>();
    }
    expect(d instanceof Dict).toBe(true);
    class Named extends Dict<string, number> {
      label = "named";
    }
    const n = new Named([["a", 1]]);
    expect(n.get("a")).toBe(1);
    expect(n).toBeInstanceOf(Dict);
    expect(d.size).toBe(2);
  });
});
