/**
 * The Roaring portable format against CRoaring (roaring-wasm 1.1.0, CRoaring compiled to
 * WebAssembly) in both directions: the same operations on both sides give the same bytes, before
 * and after runOptimize (so container kinds change where CRoaring's do); CRoaring reads our bytes
 * as the same set; we read CRoaring's bytes as the same set and write them back unchanged; set
 * operations give CRoaring's bytes. Plus byte layouts spelled out from RoaringFormatSpec, the
 * spec's test-data sets, and each corruption the reader must refuse.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { RoaringBitmap } from "../../src/bitmap/roaring.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { corruptionsOf } from "../support/fuzz.js";
import {
  applyOp,
  applyToModel,
  type CRoaring,
  croaringTarget,
  hex,
  loadCRoaring,
  opArb,
  sorted,
  unhex,
} from "../support/roaring.js";

/** Hex written with spaces for reading, compared without them. */
const spaced = (text: string) => text.replace(/ /g, "");

let C: CRoaring;
beforeAll(async () => {
  C = await loadCRoaring();
});

/** A CRoaring bitmap used in `body`, then disposed (its memory lives in the WebAssembly heap). */
function withCRoaring<T>(body: (b: InstanceType<CRoaring["RoaringBitmap32"]>) => T, from?: Uint8Array): T {
  const b = from ? C.RoaringBitmap32.deserialize("portable", from) : new C.RoaringBitmap32();
  try {
    return body(b);
  } finally {
    b.dispose();
  }
}

describe("Roaring portable format: byte layouts from RoaringFormatSpec", () => {
  it("an empty bitmap is the no-run cookie and a zero count", () => {
    expect(hex(new RoaringBitmap().toPortable())).toBe("3a30000000000000");
    expect(RoaringBitmap.fromPortable(unhex("3a30000000000000")).size).toBe(0);
  });

  it("arrays without runs: cookie 12346, count, keys and cardinalities − 1, offsets, values", () => {
    const r = RoaringBitmap.from([1, 2, 70000]);
    expect(hex(r.toPortable())).toBe(
      spaced(
        "3a300000 02000000" + // cookie 12346, 2 containers
          " 0000 0100 0100 0000" + // key 0: 2 values; key 1: 1 value
          " 18000000 1c000000" + // offsets 24 and 28
          " 0100 0200" + // 1, 2
          " 7011", // 70000 − 65536 = 4464
      ),
    );
  });

  it("with a run container: cookie 12347 | (n − 1) << 16, the run bitset, no offsets below 4 containers", () => {
    const r = RoaringBitmap.from([1, 2, 70000]);
    r.addRange(100, 200);
    expect(r.runOptimize()).toBe(true);
    expect(hex(r.toPortable())).toBe(
      spaced(
        "3b300100" + // 12347 | 1 << 16: 2 containers
          " 01" + // container 0 is a run container
          " 0000 6500 0100 0000" + // key 0: 102 values; key 1: 1 value
          " 0200 0100 0100 6400 6300" + // 2 runs: (1, +1), (100, +99)
          " 7011",
      ),
    );
  });

  it("with runs and 4 or more containers the offset header is written; bitmaps are 1024 little-endian 64-bit words", () => {
    const r = new RoaringBitmap();
    r.addRange(0, 3); // a run (3 values)
    for (let i = 0; i < 5000; i++) r.add(65536 + 2 * i); // a bitmap
    r.add(2 * 65536 + 7);
    r.add(3 * 65536 + 9);
    const b = r.toPortable();
    const head = 4 + 1 + 16 + 16;
    expect(hex(b.subarray(0, head))).toBe(
      spaced(
        "3b300300 01" +
          " 0000 0200 0100 8713 0200 0000 0300 0000" + // cardinalities 3, 5000, 1, 1
          " 25000000 2b000000 2b200000 2d200000", // 37, 37 + 6, 43 + 8192, 8235 + 2
      ),
    );
    expect(hex(b.subarray(head, head + 6))).toBe("010000000200"); // 1 run: (0, +2)
    // Bit v of the bitmap is bit v % 64 of little-endian word v / 64: even values → 0x55 bytes.
    expect(hex(b.subarray(head + 6, head + 14))).toBe("5555555555555555");
    expect(b.length).toBe(head + 6 + 8192 + 2 + 2);
  });

  it("reads the spec's test-data sets (multiples of 1000 below 10^5, of 3 in [3·10^5, 6·10^5), all of [7·10^5, 8·10^5)) at the spec's sizes", () => {
    const r = new RoaringBitmap();
    for (let k = 0; k < 100000; k += 1000) r.add(k);
    for (let k = 100000; k < 200000; k++) r.add(3 * k);
    for (let k = 700000; k < 800000; k++) r.add(k);
    // testdata/bitmapwithoutruns.bin is 72616 bytes; bitmapwithruns.bin is 48056 bytes.
    expect(r.toPortable().length).toBe(72616);
    r.runOptimize();
    expect(r.toPortable().length).toBe(48056);
    const back = RoaringBitmap.fromPortable(r.toPortable());
    expect(back.size).toBe(100 + 100000 + 100000);
    expect(back.has(300003)).toBe(true);
    expect(back.has(300004)).toBe(false);
  });
});

describe("Roaring portable format: byte for byte with CRoaring (roaring-wasm 1.1.0)", () => {
  it("the same operations give CRoaring's bytes, before and after runOptimize on both sides", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 12 }), (ops) => {
        const ours = new RoaringBitmap();
        withCRoaring((theirs) => {
          const t = croaringTarget(theirs);
          for (const op of ops) {
            applyOp(ours, op);
            applyOp(t, op);
          }
          expect(hex(ours.toPortable())).toBe(hex(theirs.serialize("portable")));
          ours.runOptimize();
          theirs.runOptimize();
          expect(hex(ours.toPortable())).toBe(hex(theirs.serialize("portable")));
        });
      }),
      { seed: 12346, numRuns: 150 },
    );
  });

  it("CRoaring reads our bytes as the same set; we read CRoaring's as the same set and write them back unchanged", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 10 }), fc.boolean(), (ops, optimize) => {
        const ours = new RoaringBitmap();
        const model = new Set<number>();
        withCRoaring((theirs) => {
          const t = croaringTarget(theirs);
          for (const op of ops) {
            applyOp(ours, op);
            applyOp(t, op);
            applyToModel(model, op);
          }
          if (optimize) theirs.runOptimize();
          const want = sorted(model);
          withCRoaring((read) => {
            expect(read.size).toBe(want.length);
            expect(read.toUint32Array()).toEqual(Uint32Array.from(want));
          }, ours.toPortable());
          const bytes = theirs.serialize("portable");
          const back = RoaringBitmap.fromPortable(bytes);
          back.checkInvariants();
          expect([...back]).toEqual(want);
          expect(hex(back.toPortable())).toBe(hex(bytes));
        });
      }),
      { seed: 12347, numRuns: 120 },
    );
  });

  it("union, intersect, xor, diff and merge give CRoaring's or/and/xor/andNot/orInPlace bytes; the cardinalities agree", () => {
    const bitmapArb = fc.tuple(fc.array(opArb, { maxLength: 8 }), fc.boolean());
    fc.assert(
      fc.property(bitmapArb, bitmapArb, ([opsA, optA], [opsB, optB]) => {
        const a = new RoaringBitmap();
        const b = new RoaringBitmap();
        withCRoaring((A) =>
          withCRoaring((B) => {
            for (const op of opsA) {
              applyOp(a, op);
              applyOp(croaringTarget(A), op);
            }
            for (const op of opsB) {
              applyOp(b, op);
              applyOp(croaringTarget(B), op);
            }
            if (optA) {
              a.runOptimize();
              A.runOptimize();
            }
            if (optB) {
              b.runOptimize();
              B.runOptimize();
            }
            const pairs: [RoaringBitmap, InstanceType<CRoaring["RoaringBitmap32"]>][] = [
              [RoaringBitmap.union([a, b]), C.RoaringBitmap32.or(A, B)],
              [RoaringBitmap.intersect([a, b]), C.RoaringBitmap32.and(A, B)],
              [RoaringBitmap.xor([a, b]), C.RoaringBitmap32.xor(A, B)],
              [RoaringBitmap.diff([a, b]), C.RoaringBitmap32.andNot(A, B)],
            ];
            const inPlace = A.clone();
            inPlace.orInPlace(B);
            pairs.push([a.clone().merge(b), inPlace]);
            for (const [ours, theirs] of pairs) {
              try {
                expect(hex(ours.toPortable())).toBe(hex(theirs.serialize("portable")));
              } finally {
                theirs.dispose();
              }
            }
            expect(RoaringBitmap.intersectCard([a, b])).toBe(A.andCardinality(B));
            expect(RoaringBitmap.unionCard([a, b])).toBe(A.orCardinality(B));
          }),
        );
      }),
      { seed: 12348, numRuns: 120 },
    );
  });

  it("rank, at, min and max agree with CRoaring's rank, at, minimum and maximum", () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (ops, picks) => {
          const ours = new RoaringBitmap();
          withCRoaring((theirs) => {
            for (const op of ops) {
              applyOp(ours, op);
              applyOp(croaringTarget(theirs), op);
            }
            if (ours.size === 0) return;
            expect(ours.min()).toBe(theirs.minimum());
            expect(ours.max()).toBe(theirs.maximum());
            for (const p of picks) {
              const x = p % 2 ** 32;
              expect(ours.rank(x)).toBe(theirs.rank(x));
              const i = p % ours.size;
              expect(ours.at(i)).toBe(theirs.at(i));
            }
          });
        },
      ),
      { seed: 12349, numRuns: 100 },
    );
  });
});

describe("Roaring portable format: hostile bytes are RedstructFormatErrors", () => {
  const read = (b: Uint8Array) => RoaringBitmap.fromPortable(b);
  // Arrays in keys 0 and 2, runs in key 5, a bitmap in key 7: 4 containers, so offsets are written.
  const mixed = (() => {
    const r = RoaringBitmap.from([3, 9, 2 * 65536 + 1]);
    r.addRange(5 * 65536 + 10, 5 * 65536 + 20);
    r.addRange(5 * 65536 + 30, 5 * 65536 + 40);
    for (let i = 0; i < 4200; i++) r.add(7 * 65536 + 3 * i);
    return r.toPortable();
  })();
  const noRuns = RoaringBitmap.from([3, 9, 2 * 65536 + 1, 2 * 65536 + 5]).toPortable();
  const fewRuns = (() => {
    const r = RoaringBitmap.from([3]);
    r.addRange(65536 + 100, 65536 + 200);
    r.addRange(65536 + 300, 65536 + 400);
    return r.toPortable();
  })();

  it("the fixtures are what the checks below assume", () => {
    expect(hex(mixed.subarray(0, 5))).toBe("3b30030004");
    expect(hex(noRuns.subarray(0, 8))).toBe("3a30000002000000");
    expect(hex(fewRuns.subarray(0, 5))).toBe("3b30010002");
    for (const b of [mixed, noRuns, fewRuns]) expect(read(b).toPortable()).toEqual(b);
  });

  it("cookies, counts and truncation", () => {
    const { bad, patch } = corruptionsOf(read, noRuns);
    bad(patch(0, 0x3c), /not a Roaring portable bitmap: the cookie 0x0000303c/);
    bad(patch(2, 1), /not a Roaring portable bitmap/);
    bad(patch(4, 0xff, 0xff, 0xff, 0x7f), /container count 2147483647 exceeds 65536/);
    bad(patch(4, 0x00, 0x00, 0x01, 0x00), /truncated input: 65536 containers need at least/);
    bad((b) => b.subarray(0, 3), /truncated input/);
    bad((b) => b.subarray(0, b.length - 1), /truncated input: container 1 needs 4 bytes/);
    bad((b) => Uint8Array.from([...b, 0]), /1 unexpected trailing bytes/);
    bad(() => unhex("3a30000000000000 00"), /trailing/);
    bad(() => unhex("3b30ffff"), /truncated input: 65536 containers need/);
  });

  it("keys unsorted or repeated", () => {
    const { bad, patch } = corruptionsOf(read, noRuns);
    bad(patch(12, 0x00), /keys must be strictly increasing: key 0 of container 1 follows key 0/);
    bad(patch(8, 0x03), /key 2 of container 1 follows key 3/);
  });

  it("cardinalities the container does not hold", () => {
    const { bad, patch } = corruptionsOf(read, noRuns);
    bad(patch(10, 0x02), /the offset header says container 1 starts at byte 28, but it starts at byte 30/);
    bad(patch(10, 0xff, 0x0f), /truncated input: container 0 needs 8192 bytes at offset 24/);
    bad(patch(14, 0x00), /trailing bytes/);
    // A bitmap whose header claims more or fewer members than its set bits.
    const m = corruptionsOf(read, mixed);
    m.bad(patch(5 + 12 + 2, 0x69), /bitmap container 3 has 4200 bits set but its header says 4202/);
    // Runs that do not add up to the cardinality.
    m.bad(patch(5 + 8 + 2, 0x16), /run container 2 holds 20 values but its header says 23/);
  });

  it("offsets that are not where containers start, or beyond the end", () => {
    const { bad, patch } = corruptionsOf(read, mixed);
    const offsets = 5 + 16;
    bad(patch(offsets + 4, 0x00, 0x00, 0x00, 0x10), /container 1 starts at byte 268435456, .* \(beyond the end of the/);
    bad(patch(offsets, 0x24), /container 0 starts at byte 36, but it starts at byte 37/);
  });

  it("array values unsorted or repeated", () => {
    const { bad, patch } = corruptionsOf(read, noRuns);
    bad(patch(24, 0x09), /array container 0 must hold strictly increasing values: 9 follows 9/);
    bad(patch(26, 0x02), /2 follows 3/);
  });

  it("runs overlapping, touching, unsorted, past 65535, or none", () => {
    const { bad, patch } = corruptionsOf(read, fewRuns);
    // fewRuns: cookie (4), bitset (1), descriptive header (8), array [3] (2), runs at 15.
    const runs = 15;
    expect(hex(fewRuns.subarray(runs, runs + 10))).toBe(spaced("0200 6400 6300 2c01 6300"));
    bad(patch(runs + 6, 0xc7, 0x00), /run 1 starts at 199, the one before ends at 199/); // overlap
    bad(patch(runs + 6, 0xc8, 0x00), /run 1 starts at 200, the one before ends at 199/); // touching
    bad(patch(runs + 6, 0x0a, 0x00), /run 1 starts at 10, the one before ends at 199/); // unsorted
    bad(patch(runs + 8, 0xff, 0xff), /runs from 300 past 65535/);
    bad(patch(runs, 0x00, 0x00), /run container 1 has no runs/);
    bad(patch(runs, 0x01, 0x80), /claims 32769 runs/);
    bad(patch(runs, 0x03), /truncated input: container 1 needs 14 bytes/);
  });

  it("a huge container count is refused before anything is allocated for it", () => {
    // 65536 containers claimed by 12 bytes of input: refused by the size check, not by a failed allocation.
    for (const text of ["3a30000000000100 00000000", "3b30ffff 00000000 00000000"]) {
      expect(() => read(unhex(text))).toThrow(RedstructFormatError);
      expect(() => read(unhex(text))).toThrow(/need at least/);
    }
  });

  it("bytes of redstruct's own format are named", () => {
    expect(() => read(new RoaringBitmap().toBytes())).toThrow(/RoaringBitmap.fromBytes\(\)/);
  });
});
