/**
 * Bitmap against a trivial reference (test/support/bitmap-model.ts: bytes in a number[], every command
 * bit by bit, BITFIELD's overflow checks transcribed from Redis with 64-bit casts): model-based
 * sequences with the invariants checked after every command; BITFIELD at every width and overflow
 * mode; BITOP (Redis 8.2's four included) over sources of unequal lengths; round trips of both
 * formats; and argument checking — every misuse a RangeError or TypeError naming its parameter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BITMAP_MAX_BYTES,
  BITMAP_MAX_OFFSET,
  type BitfieldOp,
  Bitmap,
  type BitmapOp,
  RedstructFormatError,
} from "../../src/bitmap/index.js";
import { RefBitmap, type RefField, type RefOp, type Unit } from "../support/bitmap-model.js";

interface Model {
  ref: RefBitmap;
}
interface Real {
  bm: Bitmap;
}
type Cmd = fc.Command<Model, Real>;

/** The Bitmap equals the reference: same string, same count, same offsets; its invariants hold. */
function same(m: Model, r: Real): void {
  r.bm.checkInvariants();
  expect(Array.from(r.bm.toRedis())).toEqual(m.ref.bytes);
  expect(r.bm.byteLength).toBe(m.ref.bytes.length);
  expect(r.bm.size).toBe(m.ref.popcount());
}

abstract class Base implements Cmd {
  check = () => true;
  abstract act(m: Model, r: Real): void;
  run(m: Model, r: Real): void {
    this.act(m, r);
    same(m, r);
  }
}

class SetBitCmd extends Base {
  constructor(
    readonly offset: number,
    readonly bit: 0 | 1,
  ) {
    super();
  }
  act(m: Model, r: Real): void {
    expect(r.bm.setBit(this.offset, this.bit)).toBe(m.ref.setBit(this.offset, this.bit));
  }
  override toString = () => `setBit(${this.offset}, ${this.bit})`;
}

class GetBitCmd extends Base {
  constructor(readonly offset: number) {
    super();
  }
  act(m: Model, r: Real): void {
    expect(r.bm.getBit(this.offset)).toBe(m.ref.bit(this.offset));
  }
  override toString = () => `getBit(${this.offset})`;
}

class CountCmd extends Base {
  constructor(
    readonly range: [number, number] | undefined,
    readonly unit: Unit | undefined,
  ) {
    super();
  }
  act(m: Model, r: Real): void {
    const [s, e] = this.range ?? [undefined, undefined];
    const got = this.range ? r.bm.count(s, e, this.unit ? { unit: this.unit } : undefined) : r.bm.count();
    expect(got).toBe(m.ref.count(s, e, this.unit));
  }
  override toString = () => `count(${this.range?.join(", ") ?? ""}${this.unit ? `, ${this.unit}` : ""})`;
}

class PositionCmd extends Base {
  constructor(
    readonly bit: 0 | 1,
    readonly start: number | undefined,
    readonly end: number | undefined,
    readonly unit: Unit | undefined,
  ) {
    super();
  }
  act(m: Model, r: Real): void {
    const unit = this.end === undefined ? undefined : this.unit;
    const got =
      this.start === undefined
        ? r.bm.position(this.bit)
        : this.end === undefined
          ? r.bm.position(this.bit, this.start)
          : r.bm.position(this.bit, this.start, this.end, unit ? { unit } : undefined);
    expect(got).toBe(m.ref.position(this.bit, this.start, this.end, unit));
  }
  override toString = () => `position(${this.bit}, ${this.start}, ${this.end}, ${this.unit})`;
}

/** A generated BITFIELD op, in both shapes. */
interface FieldCase {
  op: BitfieldOp;
  ref?: Omit<RefField, "overflow">;
  overflow?: 0 | 1 | 2;
}

class BitfieldCmd extends Base {
  constructor(readonly cases: FieldCase[]) {
    super();
  }
  act(m: Model, r: Real): void {
    const ops = this.cases.map((c) => c.op);
    let overflow: 0 | 1 | 2 = 0;
    const refOps: RefField[] = [];
    for (const c of this.cases) {
      if (c.overflow !== undefined) overflow = c.overflow;
      else refOps.push({ ...c.ref!, overflow } as RefField);
    }
    const got = r.bm.bitfield(ops);
    const want = m.ref.bitfield(refOps);
    expect(got.length).toBe(want.length);
    for (let i = 0; i < got.length; i++) {
      const g = got[i];
      const bits = refOps[i]!.bits;
      if (want[i] === null) expect(g).toBeNull();
      else {
        expect(typeof g).toBe(bits <= 32 ? "number" : "bigint");
        expect(BigInt(g as number | bigint)).toBe(want[i]);
      }
    }
  }
  override toString = () =>
    `bitfield(${JSON.stringify(
      this.cases.map((c) => c.op),
      (_k, v) => (typeof v === "bigint" ? `${v}n` : v),
    )})`;
}

class OpCmd extends Base {
  constructor(
    readonly op: RefOp,
    readonly others: number[][],
    readonly at: number,
  ) {
    super();
  }
  act(m: Model, r: Real): void {
    const refs = this.others.map((b) => RefBitmap.of(b));
    const bms = this.others.map((b) => Bitmap.fromRedis(Uint8Array.from(b)));
    const at = Math.min(this.at, refs.length);
    refs.splice(at, 0, m.ref);
    bms.splice(at, 0, r.bm);
    const list = this.op === "not" ? [bms[at]!] : bms;
    const before = r.bm.toRedis();
    const out = Bitmap.op(this.op as BitmapOp, list);
    expect(r.bm.toRedis()).toEqual(before); // sources unchanged
    m.ref = RefBitmap.op(this.op, this.op === "not" ? [refs[at]!] : refs);
    r.bm = out;
  }
  override toString = () => `op(${this.op}, self at ${this.at} among ${JSON.stringify(this.others)})`;
}

class IterateCmd extends Base {
  act(m: Model, r: Real): void {
    expect([...r.bm]).toEqual(m.ref.offsets());
  }
  override toString = () => "iterate()";
}

class CopyCmd extends Base {
  constructor(readonly how: "clone" | "bytes" | "redis" | "clear") {
    super();
  }
  act(m: Model, r: Real): void {
    const old = r.bm;
    if (this.how === "clear") {
      r.bm.clear();
      m.ref = new RefBitmap();
      return;
    }
    r.bm =
      this.how === "clone"
        ? old.clone()
        : this.how === "bytes"
          ? Bitmap.fromBytes(old.toBytes())
          : Bitmap.fromRedis(old.toRedis());
    // Independent: a write to the copy leaves the original alone.
    const probe = r.bm.clone();
    probe.setBit(3, probe.getBit(3) ? 0 : 1);
    expect(Array.from(old.toRedis())).toEqual(m.ref.bytes);
  }
  override toString = () => this.how;
}

const smallOffset = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 160 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 5000 }) },
);
const index = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -30, max: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: -700, max: 700 }) },
);
const unit = fc.constantFrom<Unit | undefined>(undefined, "byte", "bit");

/** A BITFIELD type and a value near its bounds, at and beyond them, or anywhere in int64. */
const fieldType = fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 64 })).map(([signed, bits]) => ({
  signed: signed || bits === 64,
  bits,
}));
const int64Near = (signed: boolean, bits: number) => {
  const B = BigInt(bits);
  const max = signed ? 2n ** (B - 1n) - 1n : 2n ** B - 1n;
  const min = signed ? -(2n ** (B - 1n)) : 0n;
  return fc
    .oneof(
      fc.bigInt({ min: -3n, max: 3n }).map((d) => max + d),
      fc.bigInt({ min: -3n, max: 3n }).map((d) => min + d),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, -(2n ** 63n) + max, -(2n ** 63n) + max + 1n),
      fc.bigInt({ min: -300n, max: 300n }),
    )
    .map((v) => BigInt.asIntN(64, v));
};
const fieldCase: fc.Arbitrary<FieldCase> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(0, 1, 2)
      .map((o) => ({ op: { overflow: (["wrap", "sat", "fail"] as const)[o] }, overflow: o as 0 | 1 | 2 })),
  },
  {
    weight: 4,
    arbitrary: fieldType.chain(({ signed, bits }) =>
      fc
        .tuple(
          fc.constantFrom("get", "set", "incrby"),
          fc.boolean(),
          fc.integer({ min: 0, max: 200 }),
          int64Near(signed, bits),
          fc.boolean(),
        )
        .map(([kind, hash, at, value, asNumber]): FieldCase => {
          const type = `${signed ? "i" : "u"}${bits}` as const;
          const offset = hash ? Math.floor(at / bits) * bits : at;
          const where = hash ? (`#${Math.floor(at / bits)}` as const) : at;
          // Values that fit a double exactly go in as numbers half the time.
          const v = asNumber && value >= -(2n ** 53n) && value <= 2n ** 53n ? Number(value) : value;
          const op: BitfieldOp =
            kind === "get"
              ? { get: type, at: where }
              : kind === "set"
                ? { set: type, at: where, value: v }
                : { incrBy: type, at: where, by: v };
          return { op, ref: { kind: kind as "get", signed, bits, offset, value } as Omit<RefField, "overflow"> };
        }),
    ),
  },
);

const bytesArb = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 });

const commands = [
  fc.tuple(smallOffset, fc.constantFrom<0 | 1>(0, 1, 1)).map(([o, b]) => new SetBitCmd(o, b)),
  fc.tuple(smallOffset, fc.constantFrom<0 | 1>(0, 1, 1)).map(([o, b]) => new SetBitCmd(o, b)),
  smallOffset.map((o) => new GetBitCmd(o)),
  fc.tuple(fc.option(fc.tuple(index, index), { nil: undefined }), unit).map(([r, u]) => new CountCmd(r, u)),
  fc
    .tuple(
      fc.constantFrom<0 | 1>(0, 1),
      fc.option(index, { nil: undefined }),
      fc.option(index, { nil: undefined }),
      unit,
    )
    .map(([b, s, e, u]) => new PositionCmd(b, s, s === undefined ? undefined : e, u)),
  fc.array(fieldCase, { minLength: 1, maxLength: 5 }).map((c) => new BitfieldCmd(c)),
  fc
    .tuple(
      fc.constantFrom<RefOp>("and", "or", "xor", "not", "diff", "diff1", "andor", "one"),
      fc.array(bytesArb, { minLength: 1, maxLength: 3 }),
      fc.nat(3),
    )
    .map(([op, others, at]) => new OpCmd(op, others, at)),
  fc.constant(new IterateCmd()),
  fc.constantFrom("clone", "bytes", "redis", "clear").map((h) => new CopyCmd(h as "clone")),
];

describe("Bitmap: model-based against a bit-by-bit reference", () => {
  it("random command sequences match the reference and keep the invariants", () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 50 }), (cmds) => {
        fc.modelRun(() => ({ model: { ref: new RefBitmap() }, real: { bm: new Bitmap() } }), cmds);
      }),
      { seed: 20261129, numRuns: 400 },
    );
  });

  it("count and position agree with the reference on every range of dense and sparse strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ minLength: 1, maxLength: 24 }),
          fc.uint8Array({ minLength: 1, maxLength: 24 }).map((b) => b.map((x) => (x < 230 ? 0 : x))),
          fc.uint8Array({ minLength: 1, maxLength: 24 }).map((b) => b.map((x) => (x < 230 ? 255 : x))),
        ),
        (bytes) => {
          const bm = Bitmap.fromRedis(bytes);
          const ref = RefBitmap.of(bytes);
          const n = bytes.length;
          for (const u of ["byte", "bit"] as const) {
            const total = u === "bit" ? n * 8 : n;
            for (let s = -total - 2; s <= total + 2; s += u === "bit" ? 3 : 1) {
              for (let e = -total - 2; e <= total + 2; e += u === "bit" ? 5 : 1) {
                expect(bm.count(s, e, { unit: u })).toBe(ref.count(s, e, u));
                for (const b of [0, 1] as const)
                  expect(bm.position(b, s, e, { unit: u })).toBe(ref.position(b, s, e, u));
              }
              if (u === "byte") for (const b of [0, 1] as const) expect(bm.position(b, s)).toBe(ref.position(b, s));
            }
          }
        },
      ),
      { seed: 29, numRuns: 100 },
    );
  });
});

describe("Bitmap: SETBIT, GETBIT, BITCOUNT, BITPOS", () => {
  it("bit 0 is the most significant bit of byte 0; a set pads with zero bytes, even to set a 0", () => {
    const bm = new Bitmap();
    expect(bm.setBit(1, 1)).toBe(0);
    expect(bm.setBit(7, 1)).toBe(0);
    expect(bm.toRedis()).toEqual(Uint8Array.of(0b0100_0001));
    expect(bm.setBit(7, 1)).toBe(1);
    expect(bm.setBit(30, 0)).toBe(0);
    expect(bm.byteLength).toBe(4);
    expect(bm.size).toBe(2);
    expect(bm.getBit(1)).toBe(1);
    expect(bm.getBit(2)).toBe(0);
    expect(bm.getBit(BITMAP_MAX_OFFSET)).toBe(0);
    expect([...bm]).toEqual([1, 7]);
  });

  it("an empty bitmap answers as a missing key", () => {
    const bm = new Bitmap();
    expect(bm.count()).toBe(0);
    expect(bm.count(0, -1, { unit: "bit" })).toBe(0);
    expect(bm.position(1)).toBe(-1);
    expect(bm.position(0)).toBe(0);
    expect(bm.position(0, 5, 10)).toBe(0);
    expect(bm.position(1, 5, 10, { unit: "bit" })).toBe(-1);
    expect(bm.byteLength).toBe(0);
    expect([...bm]).toEqual([]);
    expect(bm.toRedis()).toEqual(new Uint8Array(0));
    expect(
      bm.bitfield([
        { get: "u8", at: 100 },
        { get: "i64", at: 3 },
      ]),
    ).toEqual([0, 0n]);
    expect(bm.byteLength).toBe(0); // reads do not create the key
  });

  it("BITPOS's rules: −1 for no 1; for no 0, the length in bits without an end and −1 with one", () => {
    const bm = Bitmap.fromRedis(Uint8Array.of(0xff, 0xff, 0xff));
    expect(bm.position(0)).toBe(24);
    expect(bm.position(0, 1)).toBe(24);
    expect(bm.position(0, 0, -1)).toBe(-1);
    expect(bm.position(0, 2, 1)).toBe(-1);
    expect(bm.position(1, 1)).toBe(8);
    const zeros = Bitmap.fromRedis(new Uint8Array(3));
    expect(zeros.position(1)).toBe(-1);
    expect(zeros.position(0, 1)).toBe(8);
    expect(zeros.position(0, 3, 5, { unit: "bit" })).toBe(3);
  });

  it("count() is the kept size; ranges in bytes and bits with negative indexes", () => {
    const bm = Bitmap.fromRedis(new TextEncoder().encode("foobar")); // Redis's own BITCOUNT example
    expect(bm.count()).toBe(26);
    expect(bm.count(0, 0)).toBe(4);
    expect(bm.count(1, 1)).toBe(6);
    expect(bm.count(1, 1, { unit: "byte" })).toBe(6);
    expect(bm.count(5, 30, { unit: "bit" })).toBe(17);
    expect(bm.count(-2, -1)).toBe(7);
    expect(bm.count(-1, -2)).toBe(0);
    const pos = Bitmap.fromRedis(Uint8Array.of(0xff, 0xf0, 0x00)); // Redis's BITPOS examples
    expect(pos.position(0)).toBe(12);
    const ones = Bitmap.fromRedis(Uint8Array.of(0x00, 0xff, 0xf0));
    expect(ones.position(1, 0)).toBe(8);
    expect(ones.position(1, 2)).toBe(16);
    expect(ones.position(1, 2, -1, { unit: "byte" })).toBe(16);
    expect(ones.position(1, 7, 15, { unit: "bit" })).toBe(8);
    expect(new Bitmap().position(0, 2)).toBe(0);
  });

  it("words are skipped in long runs, both ways", () => {
    const n = 1 << 14;
    const bm = new Bitmap();
    bm.setBit(n * 8 - 3, 1);
    expect(bm.position(1)).toBe(n * 8 - 3);
    expect(bm.position(1, 5, -2)).toBe(-1);
    expect(bm.count(1, -1)).toBe(1);
    expect(bm.count(0, -2)).toBe(0);
    const full = Bitmap.fromRedis(new Uint8Array(n).fill(0xff));
    full.setBit(n * 8 - 30, 0);
    expect(full.position(0)).toBe(n * 8 - 30);
    expect(full.position(0, 3, n - 5)).toBe(-1);
    expect(full.count(1, -2)).toBe((n - 2) * 8 - 1);
  });

  it("Bitmap.from sets each offset", () => {
    const bm = Bitmap.from([5, 1, 5, 300]);
    expect([...bm]).toEqual([1, 5, 300]);
    expect(bm.size).toBe(3);
    expect(Bitmap.from(new Set([0])).toRedis()).toEqual(Uint8Array.of(0x80));
  });

  it("iteration visits bits set ahead of it while it runs", () => {
    const bm = Bitmap.from([0, 9]);
    const seen: number[] = [];
    for (const o of bm) {
      seen.push(o);
      if (o === 0) {
        bm.setBit(500, 1);
        bm.setBit(9, 0);
      }
    }
    expect(seen).toEqual([0, 500]);
  });

  it("growth keeps the capacity a multiple of 8 and the string exact", () => {
    const bm = new Bitmap();
    for (let o = 0; o < 100_000; o += 37) bm.setBit(o, 1);
    bm.checkInvariants();
    expect(bm.byteLength).toBe(Math.floor(99_975 / 8) + 1);
    expect(bm.clone().toBytes()).toEqual(bm.toBytes());
  });
});

describe("Bitmap: BITFIELD", () => {
  it("every type and overflow mode matches the reference at and beyond its bounds", () => {
    let offset = 5;
    const bm = new Bitmap();
    const ref = new RefBitmap();
    for (const signed of [true, false]) {
      for (let bits = 1; bits <= (signed ? 64 : 63); bits++) {
        const type = `${signed ? "i" : "u"}${bits}` as const;
        const B = BigInt(bits);
        const max = signed ? 2n ** (B - 1n) - 1n : 2n ** B - 1n;
        const min = signed ? -(2n ** (B - 1n)) : 0n;
        for (const [overflow, mode] of [
          [0, "wrap"],
          [1, "sat"],
          [2, "fail"],
        ] as const) {
          for (const v0 of [
            0n,
            1n,
            -1n,
            max,
            max + 1n,
            min,
            min - 1n,
            -(2n ** 63n),
            2n ** 63n - 1n,
            -(2n ** 63n) + max,
            max * 2n,
          ]) {
            const v = BigInt.asIntN(64, v0);
            const asNumber = bits <= 32 && v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v;
            const got = bm.bitfield([
              { overflow: mode },
              { set: type, at: offset, value: asNumber },
              { incrBy: type, at: offset, by: asNumber },
              { get: type, at: offset },
            ]);
            const want = ref.bitfield([
              { kind: "set", signed, bits, offset, value: v, overflow },
              { kind: "incrby", signed, bits, offset, value: v, overflow },
              { kind: "get", signed, bits, offset },
            ]);
            expect(
              got.map((g) => (g === null ? null : BigInt(g))),
              `${type} ${mode} ${v}`,
            ).toEqual(want);
            for (const g of got) if (g !== null) expect(typeof g).toBe(bits <= 32 ? "number" : "bigint");
          }
        }
        offset += bits + 3;
      }
    }
    bm.checkInvariants();
    expect(Array.from(bm.toRedis())).toEqual(ref.bytes);
  });

  it("Redis's documented examples", () => {
    const bm = new Bitmap();
    expect(
      bm.bitfield([
        { incrBy: "i5", at: 100, by: 1 },
        { get: "u4", at: 0 },
      ]),
    ).toEqual([1, 0]);
    const c = new Bitmap();
    const step = () =>
      c.bitfield([{ incrBy: "u2", at: 100, by: 1 }, { overflow: "sat" }, { incrBy: "u2", at: 102, by: 1 }]);
    expect(step()).toEqual([1, 1]);
    expect(step()).toEqual([2, 2]);
    expect(step()).toEqual([3, 3]);
    expect(step()).toEqual([0, 3]);
    expect(c.bitfield([{ overflow: "fail" }, { incrBy: "u2", at: 102, by: 1 }])).toEqual([null]);
    const h = new Bitmap();
    expect(
      h.bitfield([
        { set: "i8", at: "#0", value: 100 },
        { set: "i8", at: "#1", value: 200 },
      ]),
    ).toEqual([0, 0]);
    expect(h.toRedis()).toEqual(Uint8Array.of(100, 200));
    expect(
      h.bitfield([
        { get: "u8", at: "#1" },
        { get: "i8", at: 8 },
      ]),
    ).toEqual([200, -56]);
  });

  it("writes grow the string to the farthest bit written, even when every write fails", () => {
    const bm = new Bitmap();
    expect(bm.bitfield([{ overflow: "fail" }, { incrBy: "u2", at: 100, by: 10 }])).toEqual([null]);
    expect(bm.byteLength).toBe(13);
    expect(bm.size).toBe(0);
    expect(bm.bitfield([{ set: "i64", at: 1000, value: -1n }])).toEqual([0n]);
    expect(bm.byteLength).toBe(133);
    expect(bm.size).toBe(64);
    expect(
      bm.bitfield(
        [
          { get: "u63", at: 1000 },
          { get: "i64", at: 1000 },
        ],
        { readOnly: true },
      ),
    ).toEqual([2n ** 63n - 1n, -1n]);
  });

  it("#n offsets wrap as Redis's 64-bit product does", () => {
    const bm = new Bitmap();
    // (2^61 + 1)·8 = 2^64 + 8 and −2^62·4 = −2^64: offsets 8 and 0 in Redis's int64 product
    // (redis-server 7.0.15 answers the same: GET gives 00 ff, then f0).
    expect(bm.bitfield([{ set: "u8", at: `#${2n ** 61n + 1n}` as `#${number}`, value: 255 }])).toEqual([0]);
    expect(bm.toRedis()).toEqual(Uint8Array.of(0, 255));
    const neg = new Bitmap();
    expect(neg.bitfield([{ set: "u4", at: `#${-(2n ** 62n)}` as `#${number}`, value: 15 }])).toEqual([0]);
    expect(neg.toRedis()).toEqual(Uint8Array.of(0xf0));
    expect(
      bm.bitfield([
        { get: "u8", at: `#${2n ** 61n + 1n}` as `#${number}` },
        { get: "i64", at: `#${2n ** 58n + 1n}` as `#${number}` },
      ]),
    ).toEqual([255, 0n]);
    expect(() => bm.bitfield([{ get: "u8", at: `#${2 ** 29}` }])).toThrow(RangeError);
    expect(bm.bitfield([{ get: "u8", at: `#${2 ** 29 - 1}` }])).toEqual([0]);
  });
});

describe("Bitmap: BITOP", () => {
  const ops: BitmapOp[] = ["and", "or", "xor", "not", "diff", "diff1", "andor", "one"];

  it("every op over sources of unequal lengths, empty ones included, matches the reference", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ops),
        fc.array(fc.uint8Array({ maxLength: 70 }), { minLength: 1, maxLength: 5 }),
        (op, sources) => {
          const list =
            op === "not"
              ? sources.slice(0, 1)
              : op.startsWith("d") || op === "andor"
                ? [...sources, new Uint8Array(3)]
                : sources;
          const out = Bitmap.op(
            op,
            list.map((b) => Bitmap.fromRedis(b)),
          );
          out.checkInvariants();
          const want = RefBitmap.op(
            op,
            list.map((b) => RefBitmap.of(b)),
          );
          expect(Array.from(out.toRedis())).toEqual(want.bytes);
          expect(out.size).toBe(want.popcount());
        },
      ),
      { seed: 8, numRuns: 600 },
    );
  });

  it("grown sources (slack past their length) combine as their strings do", () => {
    const a = new Bitmap();
    for (let o = 0; o < 3000; o += 7) a.setBit(o, 1);
    const b = Bitmap.from([1, 8, 15, 2999, 5000]);
    for (const op of ops) {
      const list = op === "not" ? [a] : [a, b];
      const out = Bitmap.op(op, list);
      out.checkInvariants();
      const want = RefBitmap.op(
        op,
        list.map((x) => RefBitmap.of(x.toRedis())),
      );
      expect(Array.from(out.toRedis()), op).toEqual(want.bytes);
    }
  });

  it("a result counts its bits when first asked, after any writes made before that", () => {
    const a = Bitmap.from([1, 2, 3, 40]);
    const b = Bitmap.from([2, 3, 4, 41]);
    for (const read of ["size", "count", "range"] as const) {
      const out = Bitmap.op("and", [a, b]);
      out.checkInvariants();
      expect(out.setBit(2, 0)).toBe(1);
      expect(out.setBit(100, 1)).toBe(0);
      out.bitfield([{ set: "u8", at: 8, value: 0xff }]);
      const want = [3, 8, 9, 10, 11, 12, 13, 14, 15, 100];
      const got = read === "size" ? out.size : read === "count" ? out.count() : out.count(0, -1, { unit: "bit" });
      expect(got).toBe(want.length);
      out.checkInvariants();
      expect([...out]).toEqual(want);
      out.setBit(3, 0);
      expect(out.size).toBe(want.length - 1);
      out.checkInvariants();
    }
    const copy = Bitmap.fromBytes(a.toBytes()).clone();
    copy.setBit(1, 0);
    expect(copy.size).toBe(3);
  });

  it("an all-empty result is an empty bitmap (Redis deletes the destination)", () => {
    const out = Bitmap.op("and", [new Bitmap(), new Bitmap()]);
    expect(out.byteLength).toBe(0);
    expect(Bitmap.op("not", [new Bitmap()]).byteLength).toBe(0);
    expect(Bitmap.op("and", [Bitmap.from([3]), new Bitmap()]).toRedis()).toEqual(Uint8Array.of(0));
  });

  it("refuses the source counts Redis refuses, and non-bitmaps", () => {
    const a = Bitmap.from([1]);
    expect(() => Bitmap.op("not", [a, a])).toThrow(/exactly one/);
    expect(() => Bitmap.op("not", [a, a])).toThrow(RangeError);
    for (const op of ["diff", "diff1", "andor"] as const) expect(() => Bitmap.op(op, [a])).toThrow(/two or more/);
    expect(() => Bitmap.op("and", [])).toThrow(RangeError);
    expect(Bitmap.op("one", [a]).toRedis()).toEqual(a.toRedis());
    expect(() => Bitmap.op("AND" as BitmapOp, [a])).toThrow(RangeError);
    expect(() => Bitmap.op(1 as unknown as BitmapOp, [a])).toThrow(TypeError);
    expect(() => Bitmap.op("and", a as unknown as Bitmap[])).toThrow(/one array/);
    expect(() => Bitmap.op("and", [a, null as unknown as Bitmap])).toThrow(/bitmaps\[1\]/);
    expect(() => Bitmap.op("and", [Object.create(Bitmap.prototype)])).toThrow(/prototype/);
    expect(() => Bitmap.op("and", "ab" as unknown as Bitmap[])).toThrow(TypeError);
  });
});

describe("Bitmap: formats", () => {
  it("toBytes / fromBytes and toRedis / fromRedis round-trip to the same bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (string) => {
        const bm = Bitmap.fromRedis(string);
        bm.checkInvariants();
        expect(bm.toRedis()).toEqual(string);
        const bytes = bm.toBytes();
        expect(Array.from(bytes.subarray(0, 5))).toEqual([0x52, 0x53, 0x42, 0x4d, 1]); // "RSBM", version 1
        const back = Bitmap.fromBytes(bytes);
        back.checkInvariants();
        expect(back.toBytes()).toEqual(bytes);
        expect(back.toRedis()).toEqual(string);
        expect(back.size).toBe(bm.size);
      }),
      { seed: 5, numRuns: 300 },
    );
  });

  it("copies its input and hands out copies", () => {
    const input = Uint8Array.of(1, 2, 3);
    const bm = Bitmap.fromRedis(input);
    input[0] = 0xff;
    expect(bm.toRedis()[0]).toBe(1);
    bm.toRedis()[1] = 0xff;
    expect(bm.toRedis()[1]).toBe(2);
    const bytes = bm.toBytes();
    const back = Bitmap.fromBytes(bytes);
    bytes[9] = 0xff;
    expect(back.toRedis()[0]).toBe(1);
  });

  it("names other formats and refuses hostile headers", () => {
    expect(() => Bitmap.fromBytes(new TextEncoder().encode("HYLL\x01"))).toThrow(/fromRedis/);
    expect(() => Bitmap.fromBytes(Uint8Array.of(0x52, 0x53, 0x42, 0x4d, 2, 0, 0, 0, 0))).toThrow(/version 2/);
    const huge = Uint8Array.of(0x52, 0x53, 0x42, 0x4d, 1, 0xff, 0xff, 0xff, 0xff);
    expect(() => Bitmap.fromBytes(huge)).toThrow(RedstructFormatError);
    const short = Uint8Array.of(0x52, 0x53, 0x42, 0x4d, 1, 5, 0, 0, 0, 1);
    expect(() => Bitmap.fromBytes(short)).toThrow(/announces 5 bytes/);
    expect(() => Bitmap.fromBytes(null as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => Bitmap.fromRedis(null as unknown as Uint8Array)).toThrow(/missing key/);
    expect(() => Bitmap.fromRedis("abc" as unknown as Uint8Array)).toThrow(TypeError);
    const detached = new Uint8Array(4);
    structuredClone(detached.buffer, { transfer: [detached.buffer] });
    expect(() => Bitmap.fromRedis(detached)).toThrow(/detached/);
  });

  it("is not JSON", () => {
    expect(() => JSON.stringify(Bitmap.from([1]))).toThrow(/toBytes\(\)/);
  });
});

describe("Bitmap: argument checks name the parameter", () => {
  const bm = Bitmap.from([1, 2]);
  const cases: [string, () => unknown, ErrorConstructor, RegExp][] = [
    ["negative offset", () => bm.setBit(-1, 1), RangeError, /offset must be an integer in \[0, 2\^32 − 1\]/],
    ["offset 2^32", () => bm.setBit(2 ** 32, 1), RangeError, /offset/],
    ["fractional offset", () => bm.getBit(1.5), RangeError, /offset/],
    ["NaN offset", () => bm.getBit(Number.NaN), RangeError, /offset/],
    ["string offset", () => bm.getBit("3" as unknown as number), TypeError, /offset/],
    ["bit 2", () => bm.setBit(1, 2 as 0), RangeError, /bit must be 0 or 1, got 2/],
    ["bit true", () => bm.setBit(1, true as unknown as 0), TypeError, /bit must be 0 or 1/],
    ["position bit 2", () => bm.position(2 as 0), RangeError, /bit must be 0 or 1/],
    ["count start alone", () => bm.count(0), TypeError, /start and end together/],
    ["count unit alone", () => bm.count(undefined, undefined, { unit: "bit" }), TypeError, /start and end/],
    ["count unit typo", () => bm.count(0, 1, { unit: "BIT" as "bit" }), RangeError, /unit must be "byte" or "bit"/],
    ["count option typo", () => bm.count(0, 1, { unti: "bit" } as never), TypeError, /did you mean "unit"/],
    ["count null options", () => bm.count(0, 1, null as never), TypeError, /options/],
    ["count fractional", () => bm.count(0.5, 1), RangeError, /start must be an integer/],
    ["count 2^63", () => bm.count(0, 2 ** 63), RangeError, /end/],
    ["position end alone", () => bm.position(1, undefined, 4), TypeError, /start, then end/],
    ["position unit without end", () => bm.position(1, 0, undefined, { unit: "bit" }), TypeError, /start, then end/],
    ["from a string", () => Bitmap.from("12" as unknown as number[]), TypeError, /offsets/],
    ["from a bad offset", () => Bitmap.from([1, -4]), RangeError, /offsets\[1\]/],
    [
      "constructor argument",
      () => new (Bitmap as unknown as new (x: unknown) => Bitmap)(new Uint8Array(2)),
      TypeError,
      /fromRedis/,
    ],
    ["bitfield i65", () => bm.bitfield([{ get: "i65", at: 0 }]), RangeError, /ops\[0\]\.get must be a BITFIELD type/],
    [
      "bitfield u64",
      () =>
        bm.bitfield([
          { get: "u8", at: 0 },
          { set: "u64", at: 0, value: 1 },
        ]),
      RangeError,
      /ops\[1\]\.set.*u64 is not supported/,
    ],
    ["bitfield I8", () => bm.bitfield([{ get: "I8" as "i8", at: 0 }]), RangeError, /ops\[0\]\.get/],
    ["bitfield type number", () => bm.bitfield([{ get: 8 as unknown as "i8", at: 0 }]), TypeError, /ops\[0\]\.get/],
    ["bitfield offset 2^32", () => bm.bitfield([{ get: "u8", at: 2 ** 32 }]), RangeError, /ops\[0\]\.at/],
    ["bitfield offset string", () => bm.bitfield([{ get: "u8", at: "8" as `#${number}` }]), TypeError, /ops\[0\]\.at/],
    ["bitfield #-1", () => bm.bitfield([{ get: "u8", at: "#-1" }]), RangeError, /ops\[0\]\.at/],
    ["bitfield #01", () => bm.bitfield([{ get: "u8", at: "#01" }]), RangeError, /ops\[0\]\.at/],
    ["bitfield value 1.5", () => bm.bitfield([{ set: "u8", at: 0, value: 1.5 }]), RangeError, /ops\[0\]\.value/],
    [
      "bitfield value 2^63",
      () => bm.bitfield([{ set: "i64", at: 0, value: 2n ** 63n }]),
      RangeError,
      /ops\[0\]\.value/,
    ],
    [
      "bitfield by string",
      () => bm.bitfield([{ incrBy: "u8", at: 0, by: "1" as unknown as number }]),
      TypeError,
      /ops\[0\]\.by/,
    ],
    ["bitfield overflow typo", () => bm.bitfield([{ overflow: "SAT" as "sat" }]), RangeError, /ops\[0\]\.overflow/],
    [
      "bitfield two subcommands",
      () => bm.bitfield([{ get: "u8", set: "u8", at: 0 } as never]),
      TypeError,
      /one subcommand/,
    ],
    [
      "bitfield extra key",
      () => bm.bitfield([{ get: "u8", at: 0, value: 3 } as never]),
      TypeError,
      /unknown key "value"/,
    ],
    ["bitfield null op", () => bm.bitfield([null as never]), TypeError, /ops\[0\]/],
    ["bitfield not iterable", () => bm.bitfield(5 as never), TypeError, /ops/],
    [
      "bitfield_ro set",
      () => bm.bitfield([{ set: "u8", at: 0, value: 1 }], { readOnly: true }),
      TypeError,
      /BITFIELD_RO/,
    ],
    ["bitfield readOnly 1", () => bm.bitfield([], { readOnly: 1 as unknown as boolean }), TypeError, /readOnly/],
  ];
  for (const [name, f, type, msg] of cases) {
    it(`${name}: ${type.name}`, () => {
      const before = bm.toRedis();
      expect(f).toThrow(type);
      expect(f).toThrow(msg);
      expect(f).toThrow(/^redstruct\/Bitmap: /);
      expect(bm.toRedis()).toEqual(before);
    });
  }

  it("a bad op anywhere in a bitfield changes nothing", () => {
    const b = new Bitmap();
    expect(() =>
      b.bitfield([
        { set: "u8", at: 0, value: 7 },
        { get: "u64", at: 0 },
      ]),
    ).toThrow(RangeError);
    expect(b.byteLength).toBe(0);
  });

  it("the largest offset is accepted by every reader without allocating", () => {
    const b = new Bitmap();
    expect(b.getBit(BITMAP_MAX_OFFSET)).toBe(0);
    expect(b.bitfield([{ get: "i64", at: BITMAP_MAX_OFFSET }])).toEqual([0n]);
    expect(b.byteLength).toBe(0);
    expect(BITMAP_MAX_BYTES).toBe(2 ** 29 + 8);
  });
});
