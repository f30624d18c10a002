/**
 * The HyperLogLog family's serialized forms: toBytes/fromBytes of all three sketches and
 * HyperLogLog's toRedis/fromRedis round-trip (registers, martingale state, encoding), Redis's own
 * encoding of the empty and of large registers, the CVE-2025-32023 shape and other specific
 * corruptions refused with RedstructFormatError naming what is wrong, bytes of another format named
 * with the method that reads them, and byte inputs read once: changing a view or its buffer after
 * the call changes nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../../src/hll/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { mulberry32 } from "../../src/internal/random.js";
import {
  classes,
  detached,
  distinct,
  element,
  ellShape,
  ellSketch,
  fromBytesOf,
  hllElement,
  merge,
  type Sketch,
  ullSketch,
} from "../support/hll.js";

describe("HyperLogLog: serialization", () => {
  const anySketch = fc
    .record({
      p: fc.integer({ min: 4, max: 18 }),
      estimator: fc.constantFrom("ertl" as const, "classic" as const),
      values: fc.array(hllElement, { maxLength: 50 }),
      bulk: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 20_000 })),
    })
    .map(({ p, estimator, values, bulk }) => {
      const h = HyperLogLog.from(values, { precision: p, estimator });
      for (let i = 0; i < bulk; i++) h.add(`ser:${i}`);
      return h;
    });

  it("toBytes / fromBytes round-trips registers, precision, estimator and encoding", () => {
    fc.assert(
      fc.property(anySketch, (h) => {
        const bytes = h.toBytes();
        const back = HyperLogLog.fromBytes(bytes);
        back.checkInvariants();
        expect(back.equals(h)).toBe(true);
        expect(back.estimator).toBe(h.estimator);
        expect(back.encoding).toBe(h.encoding);
        expect(back.count()).toBe(h.count());
        expect(back.toBytes()).toEqual(bytes);
      }),
      { seed: 7, numRuns: 60 },
    );
    // 13 bytes of header and 24 of martingale state; 13 in all without the state.
    expect(new HyperLogLog().toBytes().length).toBe(37);
    expect(new HyperLogLog().merge(new HyperLogLog()).toBytes().length).toBe(13);
  });

  it("toRedis / fromRedis round-trips at precision 14, sparse and dense", () => {
    fc.assert(
      fc.property(fc.array(hllElement, { maxLength: 50 }), fc.integer({ min: 0, max: 6000 }), (values, bulk) => {
        const h = HyperLogLog.from(values);
        for (let i = 0; i < bulk; i++) h.add(`redis:${i}`);
        const blob = h.toRedis();
        expect(String.fromCharCode(...blob.subarray(0, 4))).toBe("HYLL");
        if (blob[4] === 1) expect(blob.length).toBeLessThanOrEqual(3000);
        else expect(blob.length).toBe(12304);
        const back = HyperLogLog.fromRedis(blob);
        back.checkInvariants();
        expect(back.equals(h)).toBe(true);
        const dense = h.toRedis({ encoding: "dense" });
        expect(dense.length).toBe(12304);
        expect(HyperLogLog.fromRedis(dense).equals(h)).toBe(true);
        // Cached cardinality: little-endian, valid (top bit clear), equal to count().
        let card = 0;
        for (let i = 15; i >= 8; i--) card = card * 256 + dense[i]!;
        expect(card).toBe(h.count());
      }),
      { seed: 8, numRuns: 40 },
    );
  });

  it("encodes the empty sketch as Redis does: one XZERO of 16384", () => {
    const blob = new HyperLogLog().toRedis();
    expect(Array.from(blob)).toEqual([0x48, 0x59, 0x4c, 0x4c, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0xff]);
  });

  it("reads registers above 32 only densely and writes them densely", () => {
    const h = new HyperLogLog();
    h.addHash(3, 0); // run 51
    expect(h.register(3)).toBe(51);
    expect(h.toRedis().length).toBe(12304);
    expect(HyperLogLog.fromRedis(h.toRedis()).register(3)).toBe(51);
  });
});

describe("HyperLogLog: hostile Redis strings", () => {
  const header = (enc: number) => [0x48, 0x59, 0x4c, 0x4c, enc, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80];
  const formatError = (f: () => unknown) => expect(f).toThrow(RedstructFormatError);
  it("rejects the CVE-2025-32023 shape: XZERO runs past the last register", () => {
    // Two XZEROs of 16384 each: the second starts past the end.
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f, 0xff, 0x7f, 0xff])));
    // A VAL run crossing the end, after 16383 zeros.
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f, 0xfe, 0x83])));
    // Not enough registers, a truncated XZERO, bad magic, bad encoding, dense of wrong size.
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f, 0xfe])));
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f])));
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(1)].map((b, i) => (i === 0 ? 0 : b)))));
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(2), 0x7f, 0xff])));
    formatError(() => HyperLogLog.fromRedis(Uint8Array.from([...header(0), 0, 0])));
    formatError(() => HyperLogLog.fromRedis(new Uint8Array(5)));
    expect(() => HyperLogLog.fromRedis("HYLL" as never)).toThrow(TypeError);
    // A dense register of 63 (> 51) cannot come from Redis.
    const dense = new HyperLogLog().toRedis({ encoding: "dense" });
    dense[16] = 63;
    formatError(() => HyperLogLog.fromRedis(dense));
    // A sparse blob exactly covering the registers is fine: 16383 zeros then one VAL.
    const ok = HyperLogLog.fromRedis(Uint8Array.from([...header(1), 0x7f, 0xfe, 0x80 | (4 << 2)]));
    expect(ok.register(16383)).toBe(5);
  });
});

describe("UltraLogLog: serialization", () => {
  it("toBytes / fromBytes round-trips registers and the martingale state, which then goes on exactly", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 14 }).chain((p) => fc.tuple(ullSketch(p), fc.boolean())),
        fc.nat(2000),
        ([u, merged], more) => {
          if (merged) u.merge(u.clone());
          const bytes = u.toBytes();
          const back = UltraLogLog.fromBytes(bytes);
          back.checkInvariants();
          expect(back.equals(u)).toBe(true);
          expect(back.toBytes()).toEqual(bytes);
          expect(back.count("fgra")).toBe(u.count("fgra"));
          expect(bytes.length).toBe(7 + u.registerCount + (merged ? 0 : 24));
          if (!merged) {
            u.addAll(distinct(more, "go"));
            back.addAll(distinct(more, "go"));
            expect(back.estimate("martingale")).toBe(u.estimate("martingale"));
          }
        },
      ),
      { seed: 206, numRuns: 60 },
    );
  });
});

describe("ExaLogLog: serialization", () => {
  it("toBytes / fromBytes round-trips registers and the martingale state, which then goes on exactly", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 12 }),
        ellShape,
        fc.array(element, { maxLength: 30 }),
        fc.nat(3000),
        fc.boolean(),
        fc.nat(2000),
        (p, { t, d }, xs, bulk, merged, more) => {
          const e = ellSketch(p, t, d, xs, bulk, "r");
          if (merged) e.merge(e.clone());
          const bytes = e.toBytes();
          const back = ExaLogLog.fromBytes(bytes);
          back.checkInvariants();
          expect(back.equals(e)).toBe(true);
          expect(back.toBytes()).toEqual(bytes);
          expect(back.count()).toBe(e.count());
          expect(bytes.length).toBe(9 + Math.ceil((6 + t + d) / 8) * 2 ** p + (merged ? 0 : 24));
          if (!merged) {
            e.addAll(distinct(more, "go"));
            back.addAll(distinct(more, "go"));
            expect(back.estimate({ estimator: "martingale" })).toBe(e.estimate({ estimator: "martingale" }));
          }
        },
      ),
      { seed: 340, numRuns: 50 },
    );
  });
  it("names what is wrong: version, parameters, impossible registers, a lying martingale state", () => {
    const good = ExaLogLog.from(distinct(40, "n"), { precision: 4, t: 2, d: 24 }).toBytes();
    const edit = (at: number, ...v: number[]) => {
      const b = good.slice();
      b.set(v, at);
      return () => ExaLogLog.fromBytes(b);
    };
    expect(edit(4, 2)).toThrow(/format version 2 is not one this build reads \(it reads version 1\)/);
    expect(edit(5, 27)).toThrow(/precision 27 is outside 4\.\.26/);
    expect(edit(6, 3)).toThrow(/t 3 is outside 0\.\.2/);
    expect(edit(7, 25)).toThrow(/d 25 is outside 0\.\.24/);
    expect(edit(8, 2)).toThrow(/unknown flags 2/);
    // Register 0 (after 9 header bytes and 24 of martingale state): u = 1 with the flag of u − 1.
    expect(edit(33, 0, 0, 0x80, 0x01)).toThrow(/register 0 holds the impossible value 25165824/);
    expect(edit(33, 0, 0, 0, 0xff)).toThrow(/register 0 holds the impossible value/);
    expect(edit(9, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f)).toThrow(/martingale estimate 1 is below the \d+ non-empty registers/);
    expect(() => ExaLogLog.fromBytes(new UltraLogLog().toBytes())).toThrow(/an UltraLogLog's toBytes\(\)/);
    expect(() => UltraLogLog.fromBytes(good)).toThrow(
      /an ExaLogLog's toBytes\(\): read them with ExaLogLog\.fromBytes\(\)/,
    );
  });
});

describe("items' bytes are read when added", () => {
  for (const c of classes) {
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
