/**
 * Hostile and careless serialized input for TDigest.fromRedis (DUMP payloads) and TDigest.fromBytes:
 * every corruption either loads into a digest that passes checkInvariants() and answers queries, or
 * throws RedstructFormatError — never another error, an out-of-bounds read or an allocation the
 * bytes do not justify. DUMP payloads are fuzzed twice: as they are (the CRC-64 refuses nearly every
 * corruption) and with the CRC recomputed after the corruption, so that the fields themselves meet
 * the parser.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc64Into } from "../../src/hash/crc64.js";
import { RedstructFormatError, TDigest } from "../../src/tdigest/index.js";
import { encodeDump } from "../../src/tdigest/redis.js";
import { corrupted, corruptionsOf, fuzzDeserializer, lying } from "../support/fuzz.js";
import { detached } from "../support/redisbloom.js";
import { digestShapes } from "../support/tdigest-shapes.js";

/** Inputs per fuzz run. */
const RUNS = 10_000;

/** Recomputes a DUMP payload's CRC-64 trailer after an edit (a no-op for one too short to have it). */
function withCrc(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 10) crc64Into(bytes, 0, bytes.length - 8, bytes, bytes.length - 8);
  return bytes;
}

/** What a loaded digest must survive: queries, adds, merges, both serializers. */
function use(d: TDigest): void {
  try {
    d.quantiles([0, 0.25, 0.5, 1]);
    d.cdf(0);
    d.rank(1);
    d.byRank(1);
    d.trimmedMean(0.1, 0.9);
    d.add(1, 2, 3);
    d.merge(TDigest.from([4]));
    d.toRedis();
    TDigest.fromBytes(d.toBytes()).checkInvariants();
    d.checkInvariants();
  } catch (e) {
    // The one refusal a loaded digest may give: RedisBloom's own, for weights at 2^63 − 1.
    if (!(e instanceof RangeError && /overflow detected/.test(e.message))) throw e;
  }
}

describe("TDigest.fromRedis on hostile DUMP payloads", () => {
  it(`only loads or throws RedstructFormatError: ${RUNS} mutated payloads as they are (seeded)`, () => {
    const counts = fuzzDeserializer(
      { name: "TDigest.fromRedis", read: TDigest.fromRedis, valid: digestShapes().map((d) => d.toRedis()), use },
      { seed: 0x7d10, runs: RUNS },
    );
    expect(counts.loaded + counts.refused).toBe(RUNS);
  });

  it(`only loads or throws RedstructFormatError: ${RUNS} mutated payloads with their CRC-64 recomputed (seeded)`, () => {
    const valid = digestShapes().map((d) => d.toRedis());
    let loaded = 0;
    let refused = 0;
    const input = fc.oneof(
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map(withCrc) },
      { weight: 6, arbitrary: fc.oneof(...valid.map((v) => corrupted(v.subarray(0, v.length - 8)))) },
      { weight: 3, arbitrary: fc.oneof(...valid.map((v) => lying(v.subarray(0, v.length - 8)))) },
    );
    fc.assert(
      fc.property(input, (body) => {
        const bytes = body.length === 0 ? body : withCrc(Uint8Array.from([...body, 0, 0, 0, 0, 0, 0, 0, 0]));
        let d: TDigest;
        try {
          d = TDigest.fromRedis(bytes);
        } catch (e) {
          if (!(e instanceof RedstructFormatError)) throw e;
          refused++;
          return;
        }
        d.checkInvariants();
        use(d);
        loaded++;
      }),
      { seed: 0x7d11, numRuns: RUNS },
    );
    // Near-valid payloads reach the fields: some load (a mean changed within its neighbours), most
    // are refused (only states RedisBloom's operations reach load).
    expect(loaded).toBeGreaterThan(RUNS / 25);
    expect(refused).toBeGreaterThan(RUNS / 10);
  });

  it("names what is wrong, before allocating anything the payload does not hold", () => {
    const d = TDigest.from([3, 1, 2, 5, 4], { compression: 7 });
    d.quantile(0.5);
    const good = d.toRedis();
    // Offsets: 0 type, 1..9 module id, 10 compression, 19 min, 28 max, 37 capacity (02 34: 52),
    // 39 merged (02 n), 41 unmerged (02 00), 43 compressions (02 01), 45 merged weight, 54 unmerged weight,
    // 63 the means, then the weights, the EOF, the RDB version and the CRC.
    const n = d.info().mergedNodes;
    expect(good.length).toBe(63 + 18 * n + 1 + 2 + 8);
    expect(Array.from(good.subarray(37, 45))).toEqual([2, 52, 2, n, 2, 0, 2, 1]);
    const { bad } = corruptionsOf(TDigest.fromRedis, good);
    const edit =
      (f: (b: Uint8Array) => void, crc = true) =>
      (b: Uint8Array) => {
        f(b);
        return crc ? withCrc(b) : b;
      };
    bad(
      edit((b) => (b[20] = b[20]! ^ 1), false),
      /CRC-64 does not match/,
    );
    bad((b) => b.subarray(0, b.length - 1), /CRC-64 does not match|RDB version/);
    bad(
      edit((b) => (b[b.length - 10] = 9)),
      /RDB version 9, this build reads 10\.\.12/,
    );
    bad((b) => b.subarray(0, 9), /shorter than the 10-byte trailer/);
    bad(
      edit((b) => (b[0] = 0)),
      /RDB type 0, not a module value/,
    );
    bad(
      edit((b) => (b[2] = 0x4d)),
      /a value of module type "[A-Za-z0-9_-]{9}", not RedisBloom's "TDIS-TYPE"/,
    );
    bad(
      edit((b) => (b[9] = 1)),
      /TDIS-TYPE encoding version 1, this build reads 0/,
    );
    const setF64 = (at: number, v: number) => (b: Uint8Array) => new DataView(b.buffer).setFloat64(at, v, true);
    bad(edit(setF64(11, 7.5)), /compression 7.5, expected an integer/);
    bad(edit(setF64(11, 0)), /compression 0/);
    bad(edit(setF64(11, 1e9)), /compression 1000000000/);
    bad(edit(setF64(11, 8)), /capacity 52, expected 6·8 \+ 10/);
    bad(edit(setF64(20, Number.NaN)), /min NaN/);
    bad(edit(setF64(29, Number.NaN)), /max NaN/);
    bad(
      edit((b) => (b[40] = 60)),
      /60 merged \+ 0 unmerged nodes, beyond the capacity 52/,
    );
    bad(
      edit((b) => (b[40] = 9)),
      /9 merged nodes need 163 more bytes, the payload has/,
    );
    bad(
      edit((b) => (b[42] = 3)),
      /3 unmerged nodes in a digest of total weight 5/,
    );
    bad(
      edit((b) => (b[41] = 7)),
      /opcode 7, expected a signed integer/,
    );
    bad(
      edit((b) => (b[38] = 0xc0)),
      /RDB length byte 0xc0 is not a length/,
    );
    bad(edit(setF64(46, 5.5)), /merged weight 5.5 is not a 64-bit integer/);
    bad(edit(setF64(46, 2 ** 64)), /is not a 64-bit integer/);
    bad(edit(setF64(55, 1)), /unmerged weight 1 without unmerged nodes/);
    // A NaN mean loads as x86-64's default NaN, the one RedisBloom's arithmetic makes (from ±DBL_MAX
    // data, or from RESTORE's zeroed nodes merged together); another NaN is not RedisBloom's.
    const nanMean = good.slice();
    nanMean.set([0, 0, 0, 0, 0, 0, 0xf8, 0xff], 64);
    const withNan = TDigest.fromRedis(withCrc(nanMean));
    withNan.checkInvariants();
    use(withNan);
    bad(
      edit((b) => b.set([0, 0, 0, 0, 0, 0, 0xf8, 0x7f], 64)),
      /centroid 0's mean is a NaN other than x86-64's default/,
    );
    bad(
      edit((b) => (b[b.length - 11] = 4)),
      /where the module's EOF/,
    );
    // A header claiming millions of merged nodes in a short payload: refused by its length.
    bad(
      edit((b) => b.set([0x80, 0, 0x0f, 0x42, 0x40], 40)),
      /beyond the capacity|opcode/,
    );
    const claims = TDigest.from([1, 2, 3], { compression: 100_000_000 });
    claims.quantile(0.5);
    const payload = claims.toRedis();
    const lie = payload.slice();
    lie.set([0x80, 0x01, 0x00, 0x00, 0x00], 0);
    expect(() => TDigest.fromRedis(lie)).toThrow(RedstructFormatError);
  });

  it("unmerged nodes (which RESTORE zeroes) only where DUMP leaves them, and no more than 1 MiB beyond the payload", () => {
    const single = TDigest.from([42.5]).toRedis();
    const restored = TDigest.fromRedis(single);
    expect(restored.info().unmergedNodes).toBe(1);
    expect(restored.min()).toBe(42.5);
    // Two zeroed nodes outside [min, max]: only the lone observation of a digest of weight 1 is one.
    const two = single.slice();
    expect(two[43]).toBe(1);
    two[43] = 2;
    expect(() => TDigest.fromRedis(withCrc(two))).toThrow(
      /2 nodes of weight 0 and mean 0 outside \[min 42.5, max 42.5\]/,
    );
    // A buffer of zeroed nodes MERGE gathered (min = max = 0, weight 0): 60,000 load from 80 bytes,
    // 70,000 would allocate more than 1 MiB beyond the payload.
    const zeros = (nodes: number) =>
      encodeDump({
        compression: 20_000,
        min: 0,
        max: 0,
        mergedNodes: 0,
        unmergedNodes: nodes,
        totalCompressions: 0,
        mergedWeight: 0n,
        unmergedWeight: 0n,
        means: new Float64Array(0),
        weights: new BigInt64Array(0),
      });
    const loaded = TDigest.fromRedis(zeros(60_000));
    expect(loaded.info().unmergedNodes).toBe(60_000);
    loaded.checkInvariants();
    expect(() => TDigest.fromRedis(zeros(70_000))).toThrow(/70000 nodes claimed by a \d+-byte payload/);
  });

  it("refuses what is not bytes with a TypeError naming the parameter", () => {
    expect(() => TDigest.fromRedis("07814c" as never)).toThrow(TypeError);
    expect(() => TDigest.fromRedis(null as never)).toThrow(/bytes must be a Uint8Array/);
    expect(() => TDigest.fromRedis(detached(TDigest.from([1, 2]).toRedis()))).toThrow(/detached/);
    expect(() => TDigest.fromBytes([1, 2, 3] as never)).toThrow(TypeError);
  });

  it("CRC-64-Jones: Redis's check value, written little-endian as Redis appends it", () => {
    const crc = (bytes: Uint8Array) => {
      const out = new Uint8Array(8).fill(0xff);
      crc64Into(bytes, 0, bytes.length, out, 0);
      return Array.from(out);
    };
    // crc64("123456789") = 0xe9c6d914c4b8d9ca
    expect(crc(new TextEncoder().encode("123456789"))).toEqual([0xca, 0xd9, 0xb8, 0xc4, 0x14, 0xd9, 0xc6, 0xe9]);
    expect(crc(new Uint8Array(0))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe("TDigest.fromBytes on hostile input", () => {
  it(`only loads (writing the same bytes back) or throws RedstructFormatError: ${RUNS} inputs (seeded)`, () => {
    const valid = digestShapes().map((d) => d.toBytes());
    const counts = fuzzDeserializer(
      {
        name: "TDigest.fromBytes",
        read: TDigest.fromBytes,
        valid,
        use: (d) => use(d.clone()),
        write: (d) => d.toBytes(),
      },
      { seed: 0x7d12, runs: RUNS },
    );
    expect(counts.loaded).toBeGreaterThan(RUNS / 10);
  });

  it("names what is wrong", () => {
    const good = TDigest.from([1, 2, 3], { compression: 5 }).toBytes();
    const { bad, patch } = corruptionsOf(TDigest.fromBytes, good);
    bad(patch(0, 0x48, 0x59, 0x4c, 0x4c), /a Redis HYLL string: read it with HyperLogLog\.fromRedis\(\)/);
    bad(patch(4, 2), /format version 2/);
    bad(patch(5, 0, 0, 0, 0), /compression 0/);
    bad(patch(5, 0xff, 0xff, 0xff, 0xff), /compression 4294967295/);
    bad(patch(9, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f), /min NaN/);
    bad(patch(25, 0, 1), /256 merged \+ 3 unmerged nodes, beyond the capacity 40/);
    bad(patch(25, 2), /5 nodes need 80 bytes, got 48/);
    bad(patch(41, 1), /merged weight 1 without merged nodes/);
    bad((b) => b.subarray(0, b.length - 1), /3 nodes need 48 bytes, got 47/);
    bad((b) => Uint8Array.from([...b, 0]), /3 nodes need 48 bytes, got 49/);
    // NaN means (from ±DBL_MAX data) are written as one pattern; another one is corruption.
    const huge = digestShapes()[5]!;
    const bytes = huge.toBytes();
    const view = new DataView(bytes.buffer);
    const nodes = huge.info().mergedNodes + huge.info().unmergedNodes;
    const at = Array.from({ length: nodes }, (_, i) => 57 + 8 * i).find((o) => Number.isNaN(view.getFloat64(o, true)));
    expect(at).toBeDefined();
    expect(Array.from(bytes.subarray(at!, at! + 8))).toEqual([0, 0, 0, 0, 0, 0, 0xf8, 0xff]);
    expect(TDigest.fromBytes(bytes).toBytes()).toEqual(bytes);
    const other = bytes.slice();
    other[at! + 7] = 0x7f;
    expect(() => TDigest.fromBytes(other)).toThrow(/mean \d+ is a NaN other than the one toBytes\(\) writes/);
    expect(() => TDigest.fromRedis(good)).toThrow(RedstructFormatError);
    expect(() => TDigest.fromBytes(TDigest.from([1]).toRedis())).toThrow(RedstructFormatError);
  });
});
