/**
 * The RDB codec's pieces on their own (no server): Redis's integer-string rule, d2string's `%.17g`,
 * LZF both ways, listpacks, ziplists (from fixtures assembled by hand from src/ziplist.c's documented
 * layout), RDB lengths and strings, and the DUMP envelope's checks. Byte-exact agreement with a real
 * redis-server is tested in test/skiplist/redis-dump.test.ts and test/dict/redis-dump.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { DumpReader, DumpWriter, openDump, RDB_VERSION, typeName } from "../../src/internal/rdb/dump.js";
import { ListpackWriter, readListpack } from "../../src/internal/rdb/listpack.js";
import { LZF_MAX_RATIO, lzfCompress, lzfDecompress } from "../../src/internal/rdb/lzf.js";
import { d2string, formatG17, int64Of, parseScore, type RdbValue } from "../../src/internal/rdb/values.js";
import { readZiplist } from "../../src/internal/rdb/ziplist.js";
import { corrupted } from "../support/fuzz.js";
import { dumpPayload, fromHex, hex, rdbLength, withCrc, ziplist } from "../support/rdb.js";

const utf8 = new TextEncoder();
const text = (v: RdbValue) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : String(v));

/** string2ll's rule written out: optional "-", no leading zero, digits only, within int64. */
function referenceInt(s: string): bigint | undefined {
  if (s.length === 0 || s.length > 20 || !/^(0|-?[1-9][0-9]*)$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < -(2n ** 63n) || v > 2n ** 63n - 1n ? undefined : v;
}

describe("integer-looking strings (string2ll / lpStringToInt64)", () => {
  it("accepts exactly Redis's integers", () => {
    const cases: [string, bigint | undefined][] = [
      ["0", 0n],
      ["7", 7n],
      ["-5", -5n],
      ["123", 123n],
      ["9223372036854775807", 9223372036854775807n],
      ["-9223372036854775808", -9223372036854775808n],
      ["9007199254740993", 9007199254740993n],
      ["9223372036854775808", undefined],
      ["-9223372036854775809", undefined],
      ["99999999999999999999", undefined],
      ["007", undefined],
      ["00", undefined],
      ["-0", undefined],
      ["+5", undefined],
      [" 5", undefined],
      ["5 ", undefined],
      ["1e3", undefined],
      ["1.0", undefined],
      ["", undefined],
      ["-", undefined],
      ["٣", undefined],
    ];
    for (const [s, want] of cases) {
      const got = int64Of(s);
      expect(got === undefined ? undefined : BigInt(got), s).toBe(want);
      if (typeof got === "bigint") expect(Number.isSafeInteger(Number(got)), s).toBe(false);
    }
  });

  it("agrees with the rule on random strings and integers", () => {
    const digits = fc.string({ unit: fc.constantFrom("0", "1", "9", "-", "+", " ", "e"), maxLength: 22 });
    fc.assert(
      fc.property(fc.oneof(digits, fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String)), (s) => {
        const got = int64Of(s);
        expect(got === undefined ? undefined : BigInt(got)).toBe(referenceInt(s));
      }),
      { seed: 0x2db1, numRuns: 5000 },
    );
  });
});

describe("d2string: scores as a listpack keeps them in text", () => {
  it("writes what C's %.17g writes (glibc: exact, ties to even), and Redis's words for the rest", () => {
    // Expected strings: printf("%.17g") of each value.
    const cases: [number, string][] = [
      [0.1, "0.10000000000000001"],
      [1.5, "1.5"],
      [1e300, "1.0000000000000001e+300"],
      [2 ** 50 + 0.25, "1125899906842624.2"], // a tie, to even: down
      [2 ** 50 + 0.75, "1125899906842624.8"], // a tie, to even: up
      [2 ** 63, "9.2233720368547758e+18"],
      [1e-5, "1.0000000000000001e-05"],
      [0.0001, "0.0001"],
      [1 / 3, "0.33333333333333331"],
      [5e-324, "4.9406564584124654e-324"],
      [Number.MAX_VALUE, "1.7976931348623157e+308"],
      [123456.789, "123456.789"],
      [2 ** 62 + 2048, "4.61168601842739e+18"],
      [-2.5e-7, "-2.4999999999999999e-07"],
      [0.30000000000000004, "0.30000000000000004"],
      [1e21, "1e+21"],
    ];
    for (const [v, want] of cases) expect(formatG17(v), String(v)).toBe(want);
    expect(d2string(Number.POSITIVE_INFINITY)).toBe("inf");
    expect(d2string(Number.NEGATIVE_INFINITY)).toBe("-inf");
    expect(d2string(Number.NaN)).toBe("nan");
    expect(d2string(-0)).toBe("-0");
    expect(d2string(0)).toBe("0");
    expect(d2string(-17)).toBe("-17");
    expect(d2string(2 ** 62)).toBe("4611686018427387904");
    expect(d2string(2 ** 62 + 1024)).toBe("4.6116860184273889e+18");
    expect(d2string(1e16 + 2)).toBe("10000000000000002");
  });

  it("reads back to the same double, and rounds as the exact value says", () => {
    const view = new DataView(new ArrayBuffer(8));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0x7fefffff }), (lo, hi) => {
        view.setUint32(0, lo, true);
        view.setUint32(4, hi, true);
        const v = view.getFloat64(0, true);
        if (v === 0) return;
        for (const x of [v, -v]) {
          const s = formatG17(x);
          expect(Number(s)).toBe(x);
          expect(parseScore(s)).toBe(x);
          // 17 significant digits, never a trailing zero in the fraction or mantissa
          expect(
            s.replace(/^-/, "").replace(/e.*$/, "").replace(".", "").replace(/^0+/, "").length,
          ).toBeLessThanOrEqual(17);
          expect(/\.\d*0(e|$)/.test(s)).toBe(false);
        }
      }),
      { seed: 0x2db2, numRuns: 5000 },
    );
  });

  it("parses what strtod parses in full, and nothing else", () => {
    expect(parseScore("inf")).toBe(Number.POSITIVE_INFINITY);
    expect(parseScore("-inf")).toBe(Number.NEGATIVE_INFINITY);
    expect(parseScore("+Infinity")).toBe(Number.POSITIVE_INFINITY);
    expect(parseScore("nan")).toBeNaN();
    expect(parseScore("1e3")).toBe(1000);
    expect(parseScore(".5")).toBe(0.5);
    expect(parseScore("5.")).toBe(5);
    expect(parseScore("-0")).toBe(-0);
    for (const bad of ["", " 1", "1 ", "0x10", "1e", "e5", "--1", "1,5", "Infinity1", "١"]) {
      expect(parseScore(bad), bad).toBeUndefined();
    }
  });
});

describe("LZF", () => {
  it("compresses a run as redis-server 7.0 does (bytes recorded from a DUMP of a 70-byte member)", () => {
    const a70 = utf8.encode("a".repeat(70));
    const out = new Uint8Array(71);
    const n = lzfCompress(a70, 0, 70, out, 0, 66);
    expect(hex(out.subarray(0, n))).toBe("016161e03900016161");
    expect(lzfDecompress(out, 0, n, 70, "T", "x")).toEqual(a70);
  });

  it("round-trips, and reports 0 when the output would not fit the limit", () => {
    const data = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 3000 }),
      fc
        .tuple(fc.array(fc.constantFrom(..."abcab cabca"), { minLength: 1, maxLength: 4000 }), fc.nat(40))
        .map(([cs, k]) => utf8.encode(cs.join("").repeat(1 + (k % 3)))),
    );
    fc.assert(
      fc.property(data, fc.nat(8), (input, pad) => {
        const out = new Uint8Array(input.length + 8 + pad);
        const n = lzfCompress(input, 0, input.length, out, pad, input.length + 4);
        if (n > 0) {
          expect(n).toBeLessThanOrEqual(input.length + 4);
          expect(lzfDecompress(out, pad, pad + n, input.length, "T", "x")).toEqual(input);
          // A limit just below the result fails; Redis then stores the string raw.
          expect(lzfCompress(input, 0, input.length, new Uint8Array(input.length + 8), 0, n - 4)).toBe(0);
        }
      }),
      { seed: 0x2db3, numRuns: 400 },
    );
  });

  it("compresses a slice in place, whatever sits around it", () => {
    const input = utf8.encode("xx-abcabcabcabcabcabcabcabcabc-yy");
    const alone = new Uint8Array(64);
    const n = lzfCompress(input, 3, input.length - 3, alone, 0, 40);
    const copy = input.slice(3, input.length - 3);
    const again = new Uint8Array(64);
    expect(lzfCompress(copy, 0, copy.length, again, 0, 40)).toBe(n);
    expect(again.subarray(0, n)).toEqual(alone.subarray(0, n));
  });

  it("refuses broken streams as RedstructFormatError", () => {
    const bad = (stream: number[], length: number, msg: RegExp) => {
      const s = Uint8Array.from(stream);
      expect(() => lzfDecompress(s, 0, s.length, length, "T", "x")).toThrow(RedstructFormatError);
      expect(() => lzfDecompress(s, 0, s.length, length, "T", "x")).toThrow(msg);
    };
    bad([0x02, 0x61, 0x62], 3, /cut short/); // a 3-byte literal with 2 bytes
    bad([0x20, 0x00], 3, /before the first byte/); // a back reference with no output yet
    bad([0x00, 0x61, 0xe0], 10, /cut short/);
    bad([0x00, 0x61, 0x20, 0x00], 2, /past the announced/);
    bad([0x01, 0x61, 0x62], 5, /expands to 2 bytes, 5 announced/);
    bad([0x01, 0x61, 0x62], 1, /past the announced/);
    expect(LZF_MAX_RATIO).toBe(88);
    // The most a 3-byte reference makes: 264 bytes.
    const s = Uint8Array.from([0x00, 0x61, 0xe0, 0xff, 0x00]);
    expect(lzfDecompress(s, 0, 5, 265, "T", "x")).toEqual(utf8.encode("a".repeat(265)));
  });
});

describe("listpacks", () => {
  it("encodes integers in the smallest encoding and reads them back", () => {
    const cases: [number | bigint, number][] = [
      [0, 1],
      [127, 1],
      [128, 2],
      [-1, 2],
      [-4096, 2],
      [4095, 2],
      [4096, 3],
      [-4097, 3],
      [-32768, 3],
      [32767, 3],
      [32768, 4],
      [-8388608, 4],
      [8388607, 4],
      [8388608, 5],
      [2147483647, 5],
      [-2147483648, 5],
      [2147483648, 9],
      [2 ** 53 - 1, 9],
      [-(2 ** 62), 9],
      [9223372036854775807n, 9],
      [-9223372036854775808n, 9],
    ];
    for (const [v, size] of cases) {
      const w = new ListpackWriter();
      w.integer(v);
      const lp = w.finish();
      expect(lp.length, String(v)).toBe(6 + size + 1 + 1);
      expect(readListpack(lp, "T", "x").map((e) => BigInt(e as number | bigint))).toEqual([BigInt(v)]);
      const viaString = new ListpackWriter();
      viaString.string(BigInt(v).toString());
      expect(viaString.finish(), String(v)).toEqual(lp);
    }
  });

  it("keeps the layout of src/listpack.c: header, encodings, backlen, terminator", () => {
    const w = new ListpackWriter();
    w.string("a");
    w.integer(-2);
    w.string("007");
    const lp = w.finish();
    // total 19, 3 elements; "a": 81 61 02; -2: dffe 02 (13-bit); "007": 83 303037 04; FF
    expect(hex(lp)).toBe(`120000000300${"816102"}${"dffe02"}${"8330303704"}ff`);
  });

  it("sizes string encodings and backlens at their boundaries", () => {
    for (const len of [0, 63, 64, 125, 126, 127, 4095, 4096, 16380, 16381, 16382, 16383, 70000]) {
      const s = "x".repeat(len);
      const w = new ListpackWriter();
      w.string(s);
      w.integer(5);
      const lp = w.finish();
      const head = len < 64 ? 1 : len < 4096 ? 2 : 5;
      const entry = head + len;
      const back = entry <= 127 ? 1 : entry < 16383 ? 2 : entry < 2097151 ? 3 : 4;
      expect(lp.length, String(len)).toBe(6 + entry + back + 2 + 1);
      expect(readListpack(lp, "T", "x").map(text)).toEqual([s, "5"]);
    }
  });

  it("round-trips any elements", () => {
    const element = fc.oneof(
      fc.string({ maxLength: 80, unit: "grapheme" }),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
      fc.integer().map(String),
      fc.constantFrom("-0", "007", "1e3", "9223372036854775808"),
    );
    fc.assert(
      fc.property(fc.array(element, { maxLength: 60 }), (elements) => {
        const w = new ListpackWriter();
        for (const e of elements) w.string(e);
        expect(w.count).toBe(elements.length);
        expect(readListpack(w.finish(), "T", "x").map(text)).toEqual(elements);
      }),
      { seed: 0x2db4, numRuns: 300 },
    );
  });

  it("refuses every malformed listpack as RedstructFormatError, and nothing else", () => {
    const w = new ListpackWriter();
    for (const e of ["a", "123", "x".repeat(70), "-4000", "9223372036854775807", "é"]) w.string(e);
    const good = w.finish();
    const read = (b: Uint8Array) => readListpack(b, "T", "x");
    const bad = (edit: (b: Uint8Array) => void, msg: RegExp) => {
      const b = good.slice();
      edit(b);
      expect(() => read(b)).toThrow(RedstructFormatError);
      expect(() => read(b)).toThrow(msg);
    };
    bad((b) => (b[0] = 0), /header says 0 bytes/);
    bad((b) => (b[b.length - 1] = 0), /terminator/);
    bad((b) => (b[4] = 9), /says 9 elements, it holds 6/);
    bad((b) => (b[6 + 2] = 0x70), /backlen/);
    bad((b) => (b[6] = 0xf5), /unknown encoding byte 0xf5/);
    expect(() => read(good.subarray(0, 6))).toThrow(/shorter than its 7-byte minimum/);
    let loaded = 0;
    fc.assert(
      fc.property(corrupted(good), (b) => {
        try {
          read(b);
          loaded++;
        } catch (e) {
          expect(e).toBeInstanceOf(RedstructFormatError);
        }
      }),
      { seed: 0x2db5, numRuns: 3000 },
    );
    expect(loaded).toBeGreaterThan(0);
  });

  it("counts the elements itself when the header says 65535", () => {
    const w = new ListpackWriter();
    for (let i = 0; i < 70000; i++) w.integer(i % 100);
    const lp = w.finish();
    expect(lp[4]! | (lp[5]! << 8)).toBe(65535);
    expect(readListpack(lp, "T", "x").length).toBe(70000);
  });
});

describe("ziplists (Redis ≤ 6.2), read from fixtures assembled by their documented layout", () => {
  it("reads the example of src/ziplist.c: [0f 00 00 00] [0c 00 00 00] [02 00] [00 f3] [02 f6] [ff]", () => {
    const zl = fromHex("0f000000 0c000000 0200 00f3 02f6 ff");
    expect(ziplist(["2", "5"])).toEqual(zl);
    expect(readZiplist(zl, "T", "x")).toEqual([2, 5]);
  });

  it("reads every encoding, 5-byte prevlens, and its example's 'Hello World'", () => {
    const entries = [
      "0",
      "12",
      "13",
      "-128",
      "127",
      "-32768",
      "32767",
      "-8388608",
      "8388607",
      "-2147483648",
      "2147483647",
    ];
    entries.push(
      "2147483648",
      "-9223372036854775808",
      "9223372036854775807",
      "Hello World",
      "x".repeat(300),
      "é".repeat(9000),
    );
    for (const big of [false, true]) {
      const zl = ziplist([...entries, { raw: "123" }], { bigPrevlen: big });
      expect(readZiplist(zl, "T", "x").map(text)).toEqual([...entries, "123"]);
    }
    const hello = ziplist(["2", "5", "Hello World"]);
    expect(hex(hello.subarray(14, 27))).toBe(hex(fromHex("02 0b 48656c6c6f20576f726c64")));
  });

  it("refuses every malformed ziplist as RedstructFormatError, and nothing else", () => {
    const good = ziplist(["a", "300", "x".repeat(260), "-7", "hello"]);
    const read = (b: Uint8Array) => readZiplist(b, "T", "x");
    const bad = (edit: (b: Uint8Array) => void, msg: RegExp) => {
      const b = good.slice();
      edit(b);
      expect(() => read(b)).toThrow(RedstructFormatError);
      expect(() => read(b)).toThrow(msg);
    };
    bad((b) => (b[0] = 1), /header says/);
    bad((b) => (b[b.length - 1] = 0), /terminator/);
    bad((b) => (b[4] = 11), /tail offset \d+ is not its last entry/);
    bad((b) => (b[5] = 0xff), /tail offset .* past its end/);
    bad((b) => (b[8] = 7), /says 7 entries, it holds 5/);
    bad((b) => (b[13] = 5), /previous entry has 5 bytes/);
    bad((b) => (b[14] = 0xc1), /unknown encoding byte 0xc1/);
    fc.assert(
      fc.property(corrupted(good), (b) => {
        try {
          read(b);
        } catch (e) {
          expect(e).toBeInstanceOf(RedstructFormatError);
        }
      }),
      { seed: 0x2db6, numRuns: 3000 },
    );
  });
});

describe("RDB lengths and strings", () => {
  it("writes lengths in rdbSaveLen's shortest form and reads them back", () => {
    for (const n of [0, 63, 64, 16383, 16384, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1]) {
      const payload = new DumpWriter(0).length(n).finish();
      expect(Array.from(payload.subarray(1, payload.length - 10)), String(n)).toEqual(rdbLength(n));
      const { reader } = openDump(payload, "T", "a test", 10, 10);
      expect(reader.length("n")).toBe(n);
      reader.end();
    }
  });

  it("writes strings as rdbSaveRawString does: int8/16/32 when ≤ 11 bytes, LZF when > 20 and it shrinks", () => {
    const body = (s: string | Uint8Array) => {
      const w = new DumpWriter(0);
      if (typeof s === "string") w.text(s);
      else w.string(s);
      const p = w.finish();
      return hex(p.subarray(1, p.length - 10));
    };
    expect(body("123")).toBe("c07b");
    expect(body("-128")).toBe("c080");
    expect(body("-129")).toBe("c17fff");
    expect(body("32767")).toBe("c1ff7f");
    expect(body("2147483647")).toBe("c2ffffff7f");
    expect(body("2147483648")).toBe(`0a${hex(utf8.encode("2147483648"))}`);
    expect(body("-0")).toBe("022d30");
    expect(body("007")).toBe("03303037");
    expect(body("")).toBe("00");
    expect(body("a".repeat(20))).toBe(`14${"61".repeat(20)}`);
    expect(body("a".repeat(70))).toBe("c3094046016161e03900016161");
    expect(body(utf8.encode("a".repeat(70)))).toBe(body("a".repeat(70)));
    const noise = Uint8Array.from({ length: 100 }, (_, i) => (i * 167 + 13) & 0xff);
    expect(body(noise)).toBe(`40 64${hex(noise)}`.replace(" ", ""));
    expect(body("é".repeat(40))).toBe(body(utf8.encode("é".repeat(40))));
    expect(new DumpWriter(0).text("a\uD800b")).toBe(false);
  });

  it("reads every string encoding, refusing what cannot be", () => {
    const strings = ["", "0", "-1", "300", "-70000", "2147483647", "x".repeat(21), "ab".repeat(100), "é😀".repeat(30)];
    const w = new DumpWriter(0);
    for (const s of strings) w.text(s);
    const { reader } = openDump(w.finish(), "T", "a test", 10, 10);
    for (const s of strings) expect(text(reader.string("s"))).toBe(s);
    reader.end();
    const read = (body: number[]) => () => {
      const r = new DumpReader(Uint8Array.from(body), "T");
      r.string("the string");
    };
    expect(read([0xc4])).toThrow(/unknown string encoding 0xc4/);
    expect(read([0x05, 0x61])).toThrow(RedstructFormatError);
    expect(read([0xc3, 0x00, 0x01])).toThrow(/0 LZF bytes cannot expand to the 1 announced/);
    expect(read([0xc3, 0x01, 0x40, 0x59, 0x00])).toThrow(/1 LZF bytes cannot expand to the 89 announced/);
    expect(read([0xc3, 0x09, 0x05, 0x00, 0x61])).toThrow(/9 compressed bytes announced, 2 left/);
    expect(read([0xc2, 0x01])).toThrow(RedstructFormatError);
    expect(read([0x82])).toThrow(/0x82 is not an RDB length/);
    expect(read([0x81, 0, 0x20, 0, 0, 0, 0, 0, 0])).toThrow(/exceeds 2\^53/);
  });
});

describe("the DUMP envelope", () => {
  const good = dumpPayload(0, [0x01, 0x61]);

  it("checks the trailer: length, RDB version, CRC-64", () => {
    expect(openDump(good, "T", "a test", 9, 12).type).toBe(0);
    expect(RDB_VERSION).toBe(10);
    const bad = (bytes: Uint8Array, msg: RegExp) => {
      expect(() => openDump(bytes, "T", "a test", 9, 12)).toThrow(RedstructFormatError);
      expect(() => openDump(bytes, "T", "a test", 9, 12)).toThrow(msg);
    };
    bad(good.subarray(0, 10), /not a test's DUMP payload: 10 bytes, shorter than a type byte and the 10-byte trailer/);
    bad(
      dumpPayload(0, [0x01, 0x61], 13),
      /RDB version 13; this build reads versions 9 to 12 \(written by a newer Redis\?\)/,
    );
    bad(dumpPayload(0, [0x01, 0x61], 8), /RDB version 8;.*older Redis/);
    const flipped = good.slice();
    flipped[2]! ^= 1;
    bad(flipped, /CRC-64 does not match/);
    expect(() => openDump(null as never, "T", "a test", 9, 12)).toThrow(TypeError);
  });

  it("names every RDB type", () => {
    expect(typeName(17)).toBe("RDB type 17 (a sorted set (listpack))");
    expect(typeName(4)).toBe("RDB type 4 (a hash (hash table))");
    expect(typeName(25)).toBe("RDB type 25 (a hash with field expiry (listpack))");
    expect(typeName(99)).toBe("RDB type 99 (unknown)");
  });

  it("writes RDB version 10 and a CRC-64 that openDump accepts", () => {
    const p = new DumpWriter(5).length(0).finish();
    expect(Array.from(p.subarray(p.length - 10, p.length - 8))).toEqual([10, 0]);
    expect(withCrc(p.slice())).toEqual(p);
  });
});
