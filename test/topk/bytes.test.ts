/**
 * TopK's serialized form: toBytes/fromBytes round-trips and the copy replays the same random draws
 * afterwards; byte items and fromBytes input are copied (views, subclasses and Buffers changed
 * afterwards change nothing); a header that cannot be true is refused before anything is allocated.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { glibcRandom, RedstructFormatError, TopK } from "../../src/topk/index.js";
import { BYTE_FORMS, inForm } from "../support/redisbloom.js";

describe("TopK serialization", () => {
  const anyItems = fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.uint8Array({ maxLength: 4 })), { maxLength: 300 });
  it("round-trips through toBytes / fromBytes, replaying the same draws afterwards (seeded)", () => {
    fc.assert(
      fc.property(anyItems, fc.integer({ min: 1, max: 6 }), (items, k) => {
        const t = new TopK({ k, width: 6, depth: 3, decay: 0.8, random: glibcRandom(3) });
        t.addAll(items);
        const back = TopK.fromBytes(t.toBytes(), { random: glibcRandom(3) });
        back.checkInvariants();
        expect(back.toBytes()).toEqual(t.toBytes());
        expect(back.list({ withCount: true })).toEqual(t.list({ withCount: true }));
        expect(back.info()).toEqual(t.info());
        for (const x of items.slice(0, 20)) {
          expect(back.count(x)).toBe(t.count(x));
          expect(back.has(x)).toBe(t.has(x));
        }
        // Same draws from here on: the same future.
        const more = items.slice(0, 30);
        const t2 = TopK.fromBytes(t.toBytes(), { random: glibcRandom(9) });
        const b2 = TopK.fromBytes(t.toBytes(), { random: glibcRandom(9) });
        expect(b2.addAll(more)).toEqual(t2.addAll(more));
        t.clear();
        expect(t.list()).toEqual([]);
        expect(t.toBytes()).toEqual(new TopK({ k, width: 6, depth: 3, decay: 0.8 }).toBytes());
      }),
      { seed: 0x70c, numRuns: 150 },
    );
  });
  it("byte items and fromBytes input are copied: views, subclasses and Buffers changed afterwards (seeded)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.constantFrom(...BYTE_FORMS)), { maxLength: 120 }),
        fc.constantFrom(...BYTE_FORMS),
        (adds, form) => {
          const alphabet = Array.from({ length: 8 }, (_, i) => Uint8Array.from([104, 101, 108, 108, 111, i]));
          const t = new TopK({ k: 3, width: 5, depth: 3, random: glibcRandom(11) });
          const reference = new TopK({ k: 3, width: 5, depth: 3, random: glibcRandom(11) });
          for (const [i, f] of adds) {
            const x = inForm(alphabet[i]!, f);
            expect(t.add(x.value)).toBe(reference.add(alphabet[i]!.slice()));
            x.scramble(); // the caller reuses its buffer: k.write("HELLO")
            t.checkInvariants();
          }
          expect(t.toBytes()).toEqual(reference.toBytes());
          for (const item of alphabet) expect(t.has(item)).toBe(reference.has(item));
          const bytes = t.toBytes();
          const b = inForm(bytes, form);
          const back = TopK.fromBytes(b.value, { random: glibcRandom(1) });
          b.scramble();
          back.checkInvariants();
          expect(back.toBytes()).toEqual(bytes);
        },
      ),
      { seed: 0x710, numRuns: 200 },
    );
    if (typeof Buffer === "function") {
      // A Buffer rewritten in place after add().
      const k = Buffer.from("hello");
      const t = new TopK({ k: 3 });
      t.add(k);
      k.write("HELLO");
      expect(t.list()).toEqual(["hello"]);
      expect(t.has("hello")).toBe(true);
      t.checkInvariants();
    }
  });
  it("refuses a huge header before allocating", () => {
    const bytes = new TopK({ k: 1, width: 1, depth: 1 }).toBytes();
    const view = new DataView(bytes.buffer);
    view.setUint32(5, 2 ** 20, true); // k
    expect(() => TopK.fromBytes(bytes)).toThrow(/need more than/);
    view.setUint32(5, 1, true);
    view.setUint32(9, 2 ** 13, true);
    view.setUint32(13, 2 ** 13, true);
    expect(() => TopK.fromBytes(bytes)).toThrow(RedstructFormatError);
  });
});
