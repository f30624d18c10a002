/**
 * CuckooFilter's serialized forms: toRedis/fromRedis (CF.SCANDUMP chunks) and toBytes/fromBytes
 * round-trip across growth and deletes, fromRedis takes the data chunks in any order that delivers
 * every byte once, byte inputs are copied or consumed when read (a reader reusing one buffer, views,
 * Buffers), and a header past the slot limit is refused before anything is allocated.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CuckooFilter, RedstructFormatError } from "../../src/cuckoo/index.js";
import { build, ops, params } from "../support/cuckoo.js";
import { BYTE_FORMS, inForm, oneBuffer } from "../support/redisbloom.js";

describe("CuckooFilter serialization", () => {
  it("toRedis / fromRedis and toBytes / fromBytes round-trip, across growth and deletes (seeded)", () => {
    fc.assert(
      fc.property(params, ops, (p, list) => {
        fc.pre(p.capacity >= 2 * p.bucketSize);
        const f = build(p, list);
        const bytes = f.toBytes();
        const fromBytes = CuckooFilter.fromBytes(bytes);
        fromBytes.checkInvariants();
        expect(fromBytes.info()).toEqual(f.info());
        expect(fromBytes.toBytes()).toEqual(bytes);
        const dump = f.toRedis();
        if (f.size === 0) {
          expect(dump).toEqual([]);
          return;
        }
        const back = CuckooFilter.fromRedis(dump);
        back.checkInvariants();
        expect(back.info()).toEqual(f.info());
        expect(back.toRedis()).toEqual(dump);
        expect(back.toBytes()).toEqual(bytes);
        for (let i = 0; i <= 60; i++) expect(back.count(`item:${i}`)).toBe(f.count(`item:${i}`));
      }),
      { seed: 0xcf2, numRuns: 200 },
    );
  });
  it("fromRedis accepts the data chunks in any order that delivers every byte once (seeded)", () => {
    // Several chunks per sub-filter: the dump's own chunks cut into pieces, positions recomputed.
    const pieces = (dump: [number, Uint8Array][], cuts: number[]): [number, Uint8Array][] => {
      const out: [number, Uint8Array][] = [dump[0]!];
      let offset = 0;
      for (const [, chunk] of dump.slice(1)) {
        let at = 0;
        for (const cut of cuts) {
          const end = Math.min(chunk.length, at + cut);
          if (end > at) {
            out.push([offset + end + 1, chunk.subarray(at, end)]);
            at = end;
          }
        }
        if (at < chunk.length) out.push([offset + chunk.length + 1, chunk.subarray(at)]);
        offset += chunk.length;
      }
      return out;
    };
    fc.assert(
      fc.property(
        params,
        ops,
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }),
        fc.infiniteStream(fc.nat()),
        (p, list, cuts, rand) => {
          fc.pre(p.capacity >= 2 * p.bucketSize);
          const f = build(p, list);
          fc.pre(f.size > 0);
          const chunks = pieces(f.toRedis(), cuts);
          const data = chunks.slice(1);
          const r = rand[Symbol.iterator]();
          for (let i = data.length - 1; i > 0; i--) {
            const j = r.next().value % (i + 1);
            [data[i], data[j]] = [data[j]!, data[i]!];
          }
          const shuffled = [chunks[0]!, ...data];
          expect(CuckooFilter.fromRedis(shuffled).toBytes()).toEqual(f.toBytes());
          if (data.length > 1) {
            // A chunk delivered twice (in place of another) or left out is refused.
            const twice = [chunks[0]!, ...data.slice(0, -1), data[0]!];
            expect(() => CuckooFilter.fromRedis(twice)).toThrow(RedstructFormatError);
            expect(() => CuckooFilter.fromRedis([chunks[0]!, ...data.slice(1)])).toThrow(/delivered/);
          }
          expect(() => CuckooFilter.fromRedis([...shuffled, data[0]!])).toThrow(/more than/);
          expect(() => CuckooFilter.fromRedis([data[0]!, chunks[0]!])).toThrow(/first chunk must be the header/);
        },
      ),
      { seed: 0xcf5, numRuns: 150 },
    );
  });
  it("byte inputs are copied or consumed when read: reused-buffer readers, views, Buffers (seeded)", () => {
    // A reader yielding every chunk from one reused buffer.
    const small = new CuckooFilter({ capacity: 4, bucketSize: 1, expansion: 1 });
    for (let i = 0; i < 6; i++) small.add(`i${i}`);
    expect(small.info().filters).toBeGreaterThan(1);
    const loaded = CuckooFilter.fromRedis(oneBuffer(small.toRedis()));
    for (let i = 0; i < 6; i++) expect(loaded.has(`i${i}`)).toBe(true);
    fc.assert(
      fc.property(
        params,
        ops,
        fc.constantFrom(...BYTE_FORMS),
        fc.array(fc.uint8Array({ maxLength: 6 })),
        (p, list, form, items) => {
          fc.pre(p.capacity >= 2 * p.bucketSize);
          const f = build(p, list);
          const expected = f.toBytes();
          if (f.size > 0) {
            expect(CuckooFilter.fromRedis(oneBuffer(f.toRedis())).toBytes()).toEqual(expected);
            const chunks = f.toRedis().map(([pos, c]) => [pos, inForm(c, form)] as const);
            const g = CuckooFilter.fromRedis(chunks.map(([pos, c]) => [pos, c.value]));
            for (const [, c] of chunks) c.scramble();
            expect(g.toBytes()).toEqual(expected);
          }
          const b = inForm(expected, form);
          const h = CuckooFilter.fromBytes(b.value);
          b.scramble();
          expect(h.toBytes()).toEqual(expected);
          // Items: the filter keeps fingerprints, so a byte item changed after add is still the item added.
          for (const item of items) {
            const x = inForm(item, form);
            try {
              h.add(x.value);
            } catch {
              continue;
            }
            x.scramble();
            expect(h.has(item)).toBe(true);
          }
          h.checkInvariants();
        },
      ),
      { seed: 0xcf6, numRuns: 150 },
    );
  });
  it("refuses a header past the slot limit before allocating", () => {
    const header = new Uint8Array(38);
    const v = new DataView(header.buffer);
    v.setUint32(0, 1, true);
    v.setUint32(8, 2 ** 30, true); // buckets
    v.setUint32(24, 1, true); // one filter
    v.setUint16(32, 4, true);
    v.setUint16(34, 20, true);
    v.setUint16(36, 1, true);
    expect(() => CuckooFilter.fromRedis([[1, header]])).toThrow(/exceed/);
    v.setUint32(8, 2 ** 20, true);
    v.setUint32(24, 32, true);
    v.setUint16(36, 1, true); // 32 sub-filters of 2^22 slots: 2^27 in all, accepted
    expect(() => CuckooFilter.fromRedis([[1, header]])).toThrow(/delivered 0 of 134217728 bytes/);
    v.setUint16(36, 2, true); // doubling: past 2^30 at the ninth
    expect(() => CuckooFilter.fromRedis([[1, header]])).toThrow(/9 sub-filters .* exceed 1073741824 slots/);
    v.setUint32(24, 1, true);
    expect(() => CuckooFilter.fromRedis([[1, header]])).toThrow(/delivered 0 of 4194304 bytes/);
    const bytes = new CuckooFilter({ capacity: 4, bucketSize: 1 }).toBytes();
    new DataView(bytes.buffer).setUint32(5, 2 ** 30, true); // buckets
    expect(() => CuckooFilter.fromBytes(bytes)).toThrow(/need 1073741824 bytes of slots, got 4/);
  });
});
