/**
 * The Dict's key hashing (src/dict/hash.ts) and what it guarantees against flooding: strings hash by
 * SipHash-1-3 of their WTF-8 bytes and 32-bit integers by simple tabulation, both bit-identical to
 * independent models; keys chosen to collide under one key spread out under another; WTF-8 is
 * injective, so families of distinct strings that UTF-8 would merge (lone surrogates) get short
 * chains, without the secret key.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeyHasher } from "../../src/dict/hash.js";
import { Dict } from "../../src/dict/index.js";
import { siphash13 } from "../../src/hash/index.js";
import { wtf8 } from "../../src/internal/wtf8.js";

describe("Dict: keyed hashing and flooding", () => {
  /**
   * The dict's 32-bit integer hash under `key`, from the public SipHash alone (BigInt, no dict code):
   * simple tabulation over the four bytes of x, tables from SipHash-1-3 of `redstruct/dict tab i`.
   */
  function intHashModel(key: Uint32Array): (x: number) => number {
    const words: number[] = [];
    for (let i = 0; i < 512; i++) {
      const h = siphash13(`redstruct/dict tab ${i}`, key);
      words.push(Number(h & 0xffffffffn) | 0, Number(h >> 32n) | 0);
    }
    return (x) => {
      const u = x >>> 0;
      return (
        words[u & 0xff]! ^
        words[256 + ((u >>> 8) & 0xff)]! ^
        words[512 + ((u >>> 16) & 0xff)]! ^
        words[768 + (u >>> 24)]!
      );
    };
  }

  it("strings hash by SipHash-1-3 of their WTF-8 bytes, bit-identically to redstruct/hash", () => {
    const key = new Uint32Array([0x01234567, 0x89abcdef, 0xdeadbeef, 0x0badf00d]);
    const hasher = new KeyHasher(key);
    // The model: the public SipHash of the WTF-8 bytes, which are the UTF-8 bytes of a well-formed string.
    const low = (s: string) => Number(siphash13(wtf8(s), key) & 0xffffffffn) | 0;
    const utf8Low = (s: string) => Number(siphash13(s, key) & 0xffffffffn) | 0;
    for (let len = 0; len <= 40; len++) {
      let ascii = "";
      for (let i = 0; i < len; i++) ascii += String.fromCharCode(32 + ((i * 37 + len) % 95));
      // every length mod 8 (the partial last block), then non-ASCII at the start, middle and end
      for (const s of [
        ascii,
        `é${ascii}`,
        `${ascii.slice(0, len >> 1)}\u{1F600}${ascii.slice(len >> 1)}`,
        `${ascii}\u00ff`,
      ]) {
        expect(hasher.stringHash(s)).toBe(utf8Low(s));
        expect(hasher.hash(s)).toBe(utf8Low(s));
      }
    }
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 64 }), (s) => {
        expect(hasher.stringHash(s)).toBe(low(s));
      }),
      { seed: 12, numRuns: 500 },
    );
    // bigints hash as their decimal digits; byte arrays as their bytes, whatever view they come as
    expect(hasher.hash(-12345678901234567890n)).toBe(low("-12345678901234567890"));
    const backing = Uint8Array.from([9, 1, 2, 3, 9]);
    expect(hasher.hash(backing.subarray(1, 4))).toBe(
      Number(siphash13(Uint8Array.from([1, 2, 3]), key) & 0xffffffffn) | 0,
    );
  });

  it("32-bit integers hash by simple tabulation with tables derived from the key (SipHash model)", () => {
    const key = new Uint32Array([0x01234567, 0x89abcdef, 0xdeadbeef, 0x0badf00d]);
    const model = intHashModel(key);
    const hasher = new KeyHasher(key);
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (x) => {
        expect(hasher.intHash(x)).toBe(model(x));
        expect(hasher.hash(x)).toBe(model(x));
      }),
      { seed: 11, numRuns: 2000 },
    );
    for (const x of [0, -1, 1, 2 ** 31 - 1, -(2 ** 31), 0xffff, 0x10000]) expect(hasher.intHash(x)).toBe(model(x));
    expect(hasher.hash(-0)).toBe(model(0));
  });

  /** Keys whose hash under `attackerKey` all land in bucket 0 of a 1024-bucket table. */
  function collidingStrings(attackerKey: Uint32Array, count: number): string[] {
    const out: string[] = [];
    for (let i = 0; out.length < count; i++) {
      const s = `flood:${i}`;
      if ((siphash13(s, attackerKey) & 1023n) === 0n) out.push(s);
    }
    return out;
  }

  it("keys that all collide under one key spread out under the dict's own random key", () => {
    const attackerKey = new Uint32Array(4); // an "unkeyed" hash: the all-zero key
    const keys = collidingStrings(attackerKey, 300);
    // Control: under the attacker's key they really do pile up on one chain.
    const victim = new Dict<string, number>(null, { key: attackerKey });
    for (const k of keys) victim.set(k, 1);
    while (victim.rehashFor(100));
    expect(victim.info().maxChain).toBe(300); // all in one bucket of the 512
    // With a random per-instance key (the default), chains stay short.
    const d = new Dict<string, number>(keys.map((k) => [k, 1]));
    while (d.rehashFor(100));
    const s = d.info();
    expect(s.size).toBe(300);
    expect(s.maxChain).toBeLessThanOrEqual(8);
    d.checkInvariants();
  });

  it("integers chosen to collide under a known integer-family key spread out under another key", () => {
    const attackerKey = new Uint32Array([5, 6, 7, 8]);
    const attackerHash = intHashModel(attackerKey);
    const keys: number[] = [];
    for (let x = 0; keys.length < 300; x++) if ((attackerHash(x) & 1023) === 0) keys.push(x);
    const victim = new Dict<number, number>(
      keys.map((k) => [k, 1]),
      { key: attackerKey },
    );
    while (victim.rehashFor(100));
    expect(victim.info().maxChain).toBe(300);
    const d = new Dict<number, number>(keys.map((k) => [k, 1]));
    while (d.rehashFor(100));
    expect(d.info().maxChain).toBeLessThanOrEqual(8);
  });
});

const KEY = new Uint32Array([0x01234567, 0x89abcdef, 0xdeadbeef, 0x0badf00d]);

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
