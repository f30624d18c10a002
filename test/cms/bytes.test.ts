/**
 * CountMinSketch's serialized form: toBytes/fromBytes and clone round-trip (and from counts each
 * item once), byte inputs are read once, a header that cannot be true is refused before anything
 * is allocated.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CountMinSketch, RedstructFormatError } from "../../src/cms/index.js";
import { dims, sketchOf, stream } from "../support/cms.js";
import { BYTE_FORMS, detached, inForm } from "../support/redisbloom.js";

describe("CountMinSketch serialization", () => {
  it("round-trips through toBytes / fromBytes and clone; from counts each item once (seeded)", () => {
    fc.assert(
      fc.property(dims, stream, ([w, d], pairs) => {
        const s = sketchOf(w, d, pairs);
        const back = CountMinSketch.fromBytes(s.toBytes());
        back.checkInvariants();
        expect(back.toBytes()).toEqual(s.toBytes());
        expect(back.info()).toEqual(s.info());
        for (const [item] of pairs) expect(back.count(item)).toBe(s.count(item));
        const c = s.clone();
        expect(c.toBytes()).toEqual(s.toBytes());
        c.incrBy("clone-only", 3);
        expect(back.toBytes()).toEqual(s.toBytes());
        expect(s.byteLength).toBe(4 * w * d + 4 * d);
        const items = pairs.map(([item]) => item);
        expect(CountMinSketch.from(items, { width: w, depth: d }).toBytes()).toEqual(
          sketchOf(
            w,
            d,
            items.map((x) => [x, 1]),
          ).toBytes(),
        );
        s.clear();
        expect(s.size).toBe(0);
        expect(s.toBytes()).toEqual(new CountMinSketch({ width: w, depth: d }).toBytes());
      }),
      { seed: 0xc37, numRuns: 200 },
    );
  });
  it("byte inputs are read once: fromBytes of a view, a subclass or a Buffer changed afterwards (seeded)", () => {
    fc.assert(
      fc.property(
        dims,
        stream,
        fc.constantFrom(...BYTE_FORMS),
        fc.uint8Array({ maxLength: 8 }),
        ([w, d], pairs, form, item) => {
          const s = sketchOf(w, d, pairs);
          const expected = s.toBytes();
          const b = inForm(expected, form);
          const back = CountMinSketch.fromBytes(b.value);
          b.scramble();
          expect(back.toBytes()).toEqual(expected);
          const x = inForm(item, form);
          back.incrBy(x.value, 2);
          x.scramble();
          expect(back.count(item)).toBeGreaterThanOrEqual(2);
        },
      ),
      { seed: 0xc39, numRuns: 150 },
    );
  });
  it("refuses a huge header before allocating", () => {
    const bytes = new CountMinSketch({ width: 2, depth: 2 }).toBytes();
    const view = new DataView(bytes.buffer);
    view.setUint32(5, 2 ** 14, true);
    view.setUint32(9, 2 ** 14, true);
    expect(() => CountMinSketch.fromBytes(bytes)).toThrow(RedstructFormatError);
    view.setUint32(5, 1000, true);
    view.setUint32(9, 1000, true);
    expect(() => CountMinSketch.fromBytes(bytes)).toThrow(/need 4000000 bytes/);
    expect(() => CountMinSketch.fromBytes("x" as unknown as Uint8Array)).toThrow(/bytes must be a Uint8Array/);
    expect(() => CountMinSketch.fromBytes(detached(bytes))).toThrow(/bytes is a Uint8Array whose buffer was detached/);
  });
});
