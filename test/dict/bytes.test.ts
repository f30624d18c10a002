/**
 * Dict's saved form and its byte keys: toBytes/fromBytes round trips over every key and value type
 * (strings with lone surrogates, NaN, -0, bigints, byte arrays), the encodeValue/decodeValue path,
 * specific corruptions named, bytes that are not bytes refused, and no memory shared with the
 * caller: byte keys mutated after they were handed in or out, input and output of the serializer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dict, type DictKey, RedstructFormatError } from "../../src/dict/index.js";
import { corruptionsOf } from "../support/fuzz.js";

const key: fc.Arbitrary<DictKey> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.constantFrom("", "a", "\uD800", "\uDC00\uD800", "😀"),
  fc.double(),
  fc.integer({ min: -5, max: 5 }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.uint8Array({ maxLength: 4 }),
);

const value = fc.oneof(
  fc.constantFrom(undefined, null, true, false, Number.NaN, -0, Number.POSITIVE_INFINITY),
  fc.double(),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.bigInt(),
  fc.uint8Array({ maxLength: 4 }),
);

/** A Map keyed the way a Dict keys (byte arrays by content, in a stable textual form). */
function model(entries: [DictKey, unknown][]): Map<unknown, [DictKey, unknown]> {
  const m = new Map<unknown, [DictKey, unknown]>();
  for (const [k, v] of entries) m.set(k instanceof Uint8Array ? `bytes:${k.join(",")}` : k, [k, v]);
  return m;
}

function sameEntries(d: Dict, entries: [DictKey, unknown][]): void {
  const m = model(entries);
  expect(d.size).toBe(m.size);
  for (const [k, v] of m.values()) {
    expect(d.has(k)).toBe(true);
    expect(d.get(k)).toEqual(v);
    if (typeof v === "number") expect(Object.is(d.get(k), v)).toBe(true);
  }
}

const KEY = new Uint32Array([0x01234567, 0x89abcdef, 0xdeadbeef, 0x0badf00d]);

describe("Dict toBytes / fromBytes", () => {
  it("round-trips every key and value type, and writes the same bytes back", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 40 }), (entries) => {
        const d = new Dict<DictKey, unknown>(entries, { chunkBits: 4 });
        const bytes = d.toBytes();
        const back = Dict.fromBytes(bytes, { chunkBits: 4 });
        back.checkInvariants();
        sameEntries(back, entries);
        // Iteration order may differ (a fresh secret key), so compare by re-reading.
        sameEntries(Dict.fromBytes(back.toBytes()), entries);
        expect(back.toBytes().length).toBe(bytes.length);
      }),
      { seed: 0xd1c7, numRuns: 400 },
    );
  });
  it("keeps lone surrogates, NaN and -0 keys exactly", () => {
    const d = new Dict<DictKey, number>([
      ["\uD800", 1],
      ["\uDBFF\uD800", 2],
      ["\uFFFD", 3],
      [Number.NaN, 4],
      [-0, 5],
      [1n, 6],
      ["1", 7],
      [1, 8],
    ]);
    const back = Dict.fromBytes<DictKey, number>(d.toBytes());
    expect(back.size).toBe(8);
    expect([back.get("\uD800"), back.get("\uDBFF\uD800"), back.get("\uFFFD")]).toEqual([1, 2, 3]);
    expect([back.get(Number.NaN), back.get(0), back.get(1n), back.get("1"), back.get(1)]).toEqual([4, 5, 6, 7, 8]);
  });
  it("stores other values through encodeValue / decodeValue, and says so when they are missing", () => {
    const d = new Dict<string, { n: number }>([
      ["a", { n: 1 }],
      ["b", { n: 2 }],
    ]);
    expect(() => d.toBytes()).toThrow(/value of key "a" is an object \{ n: 1 \}: pass toBytes\(\{ encodeValue \}\)/);
    const text = new TextEncoder();
    const bytes = d.toBytes({ encodeValue: (v: { n: number }) => text.encode(JSON.stringify(v)) });
    expect(() => Dict.fromBytes(bytes)).toThrow(/pass fromBytes\(bytes, \{ decodeValue \}\)/);
    const back = Dict.fromBytes<string, { n: number }>(bytes, {
      decodeValue: (b) => JSON.parse(new TextDecoder().decode(b)),
    });
    expect(back.get("b")).toEqual({ n: 2 });
    expect(() => Dict.fromBytes(new Dict([["x", 1]]).toBytes(), { decodeValue: (b) => b })).toThrow(
      /written without encodeValue/,
    );
    expect(() => d.toBytes({ encodeValue: () => "x" as unknown as Uint8Array })).toThrow(/must be a Uint8Array/);
    expect(() => d.toBytes({ encodeVal: () => new Uint8Array() } as never)).toThrow(/did you mean "encodeValue"/);
  });
  it("an encodeValue that changes the dict changes nothing written", () => {
    const d = new Dict<number, number>(Array.from({ length: 50 }, (_, i) => [i, i] as [number, number]));
    const text = new TextEncoder();
    const bytes = d.toBytes({
      encodeValue: (v: number) => {
        d.delete(v + 1);
        d.set(100 + v, v);
        return text.encode(String(v));
      },
    });
    const back = Dict.fromBytes<number, number>(bytes, { decodeValue: (b) => Number(new TextDecoder().decode(b)) });
    expect(back.size).toBe(50);
    for (let i = 0; i < 50; i++) expect(back.get(i)).toBe(i);
    d.checkInvariants();
  });
  it("takes each encodeValue result before the next call: a reused scratch buffer, a transferred one", () => {
    const values = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 40 }];
    const d = new Dict<number, { n: number }>(values.map((v, i) => [i, v]));
    const decodeValue = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) as { n: number };
    // One fixed scratch array, filled by encodeInto and handed back as a view each time.
    const scratch = new Uint8Array(64);
    const text = new TextEncoder();
    const reused = d.toBytes({
      encodeValue: (v: { n: number }) => scratch.subarray(0, text.encodeInto(JSON.stringify(v), scratch).written),
    });
    expect([...Dict.fromBytes(reused, { decodeValue }).values()]).toEqual(values);
    // An encoder that transfers the buffer it returned last time before writing the next value.
    let last: ArrayBuffer | undefined;
    const moved = d.toBytes({
      encodeValue: (v: { n: number }) => {
        if (last !== undefined) structuredClone(last, { transfer: [last] });
        const bytes = text.encode(JSON.stringify(v));
        last = bytes.buffer as ArrayBuffer;
        return bytes;
      },
    });
    expect([...Dict.fromBytes(moved, { decodeValue }).values()]).toEqual(values);
    // A result already detached when returned says so, naming the key.
    const gone = new Uint8Array(4);
    structuredClone(gone.buffer, { transfer: [gone.buffer] });
    expect(() => d.toBytes({ encodeValue: () => gone })).toThrow(
      /encodeValue\(value of key 0\) is a Uint8Array whose buffer was detached/,
    );
  });
  it("shares no memory with its input or output", () => {
    const d = new Dict<DictKey, unknown>([
      [Uint8Array.of(1, 2), Uint8Array.of(3, 4)],
      ["s", "t"],
    ]);
    const bytes = d.toBytes();
    const back = Dict.fromBytes<DictKey, unknown>(bytes);
    bytes.fill(0);
    expect(back.get(Uint8Array.of(1, 2))).toEqual(Uint8Array.of(3, 4));
    back.checkInvariants();
    const out = d.toBytes();
    out.fill(0xff);
    expect(d.get(Uint8Array.of(1, 2))).toEqual(Uint8Array.of(3, 4));
  });
  it("refuses specific corruptions with a message", () => {
    const good = new Dict<DictKey, unknown>([
      ["a", 1],
      [2, "b"],
    ]).toBytes();
    const { bad, patch } = corruptionsOf(Dict.fromBytes, good);
    bad(patch(0, 0x52, 0x53, 0x42, 0x46), /these bytes are a BloomFilter's toBytes\(\)/);
    bad(patch(4, 2), /format version 2/);
    bad(patch(5, 2), /unknown flags 2/);
    bad(patch(6, 0xff, 0xff, 0xff), /entry count .* cannot fit/);
    bad((b) => b.subarray(0, b.length - 1), /truncated/);
    bad((b) => Uint8Array.from([...b, 0]), /trailing/);
    bad(patch(14, 9), /unknown tag 9/);
    // "a" spelled twice: the second key's tag and bytes made a string "a".
    const twice = new Dict<string, number>([
      ["a", 1],
      ["b", 2],
    ]).toBytes();
    const i = twice.lastIndexOf(0x62); // the byte "b" of the second key, wherever iteration put it
    const edited = twice.slice();
    edited[i] = 0x61;
    const firstA = twice.indexOf(0x61);
    expect(firstA).toBeGreaterThan(0);
    expect(() => Dict.fromBytes(edited)).toThrow(/appears twice/);
    // A surrogate pair spelled as two 3-byte sequences is not WTF-8 (every string has one form).
    const pairAsTwo = Uint8Array.from([...good.subarray(0, 14), 0, 6, 0, 0, 0, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80, 0]);
    pairAsTwo.set([1, 0, 0, 0, 0, 0, 0, 0], 6);
    expect(() => Dict.fromBytes(pairAsTwo)).toThrow(/key 0 is not WTF-8/);
  });
  it("refuses what is not bytes with a TypeError naming it", () => {
    expect(() => Dict.fromBytes(null as never)).toThrow(/bytes must be a Uint8Array.*got null/);
    expect(() => Dict.fromBytes([1, 2] as never)).toThrow(TypeError);
    expect(() => Dict.fromBytes(new Uint8Array(3))).toThrow(RedstructFormatError);
  });
});

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
