/**
 * Hostile DUMP payloads for SortedSet.fromRedis, GeoSet.fromRedis and Dict.fromRedis: every input
 * either loads into a structure that passes checkInvariants(), survives use and writes a payload
 * that reads back equal, or throws RedstructFormatError — never another error, an out-of-bounds read
 * or an allocation its bytes do not justify. Payloads are fuzzed as they are (the CRC-64 refuses
 * nearly every corruption) and with the CRC recomputed after the corruption, so that the listpacks,
 * ziplists, LZF streams, lengths and strings themselves meet the parser.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dict } from "../../src/dict/index.js";
import { GeoSet } from "../../src/geo/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { SortedSet } from "../../src/skiplist/index.js";
import { corrupted, fuzzDeserializer, lying } from "../support/fuzz.js";
import { dumpPayload, rdbRaw, withCrc, ziplist } from "../support/rdb.js";

/** Inputs per fuzz run. */
const RUNS = 10_000;

function zsets(): Uint8Array[] {
  const tiny = SortedSet.from([["a", 1]]);
  const special = SortedSet.from([
    ["123", -0],
    ["-5", Number.POSITIVE_INFINITY],
    ["007", 0.1],
    ["9223372036854775808", 2 ** 62 + 2048],
    ["é😀", -2.5],
    ["x".repeat(40), 1e300],
  ]);
  const big = new SortedSet();
  for (let i = 0; i < 40; i++) big.add(i % 3 ? `member:${i}` : "abc".repeat(8 + i), i % 5 === 0 ? -0 : i / 3);
  big.add("y".repeat(70), 2);
  const ints = new SortedSet();
  for (let i = 0; i < 30; i++) ints.add(String(i * 997 - 5000), i);
  ints.add("z".repeat(65), -1);
  const zl = dumpPayload(12, rdbRaw(ziplist(["a", "1", "12", "2.5", "b", "inf"])), 9);
  return [tiny.toRedis(), special.toRedis(), big.toRedis(), ints.toRedis(), zl];
}

function hashes(): Uint8Array[] {
  const tiny = new Dict([["f", "v"]]);
  const mixed = new Dict<string | Uint8Array, string | number | Uint8Array>([
    ["123", "007"],
    ["é", 9223372036854775807n.toString()],
    [Uint8Array.of(0xff), Uint8Array.of(0, 1)],
    ["long", "abc".repeat(12)],
  ]);
  const table = new Dict<string, string | number>();
  for (let i = 0; i < 12; i++) table.set(`f${i}`, i % 4 === 0 ? "q".repeat(70) : i);
  const zl = dumpPayload(13, rdbRaw(ziplist(["f", "v", "300", "x".repeat(30)])), 9);
  return [tiny.toRedis(), mixed.toRedis(), table.toRedis(), zl];
}

function useZset(zs: SortedSet): void {
  expect(zs.size).toBeGreaterThan(0);
  zs.range(0, -1);
  zs.rangeByScore(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
  const back = SortedSet.fromRedis(zs.toRedis());
  back.checkInvariants();
  expect([...back].map(([m, s]) => [m, s === 0 ? 0 : s])).toEqual([...zs].map(([m, s]) => [m, s === 0 ? 0 : s]));
  zs.add("new", 1);
  zs.checkInvariants();
}

function useGeo(g: GeoSet): void {
  for (const [m] of g.sortedSet) g.position(m);
  GeoSet.fromRedis(g.toRedis()).checkInvariants();
}

function useDict(d: Dict): void {
  expect(d.size).toBeGreaterThan(0);
  const back = Dict.fromRedis(d.toRedis());
  back.checkInvariants();
  expect(back.size).toBe(d.size);
  for (const [k, v] of d) expect(back.get(k)).toEqual(v);
}

/** Feeds `RUNS` seeded payload bodies, each closed with a freshly computed CRC-64 trailer. */
function fuzzWithCrc<T extends { checkInvariants(): void }>(
  read: (bytes: Uint8Array) => T,
  use: (x: T) => void,
  valid: Uint8Array[],
  seed: number,
): { loaded: number; refused: number } {
  let loaded = 0;
  let refused = 0;
  // Bodies keep the 2-byte RDB version; the 8 bytes of CRC are recomputed.
  const bodies = valid.map((v) => v.subarray(0, v.length - 8));
  const input = fc.oneof(
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Uint8Array.from([...b, 10, 0])) },
    { weight: 6, arbitrary: fc.oneof(...bodies.map((v) => corrupted(v))) },
    { weight: 3, arbitrary: fc.oneof(...bodies.map((v) => lying(v))) },
  );
  fc.assert(
    fc.property(input, (body) => {
      const bytes = withCrc(Uint8Array.from([...body, 0, 0, 0, 0, 0, 0, 0, 0]));
      let x: T;
      try {
        x = read(bytes);
      } catch (e) {
        if (!(e instanceof RedstructFormatError)) {
          throw new Error(`threw ${(e as Error)?.name} "${(e as Error)?.message}", not a RedstructFormatError`);
        }
        refused++;
        return;
      }
      x.checkInvariants();
      use(x);
      loaded++;
    }),
    { seed, numRuns: RUNS },
  );
  return { loaded, refused };
}

describe("fromRedis on hostile DUMP payloads", () => {
  it(`SortedSet: ${RUNS} mutated payloads as they are (seeded)`, () => {
    const counts = fuzzDeserializer(
      { name: "SortedSet.fromRedis", read: SortedSet.fromRedis, valid: zsets(), use: useZset },
      { seed: 0x2d20, runs: RUNS },
    );
    expect(counts.loaded + counts.refused).toBe(RUNS);
  });

  it(`SortedSet: ${RUNS} mutated payloads with their CRC-64 recomputed (seeded)`, () => {
    const { loaded, refused } = fuzzWithCrc(SortedSet.fromRedis, useZset, zsets(), 0x2d21);
    expect(loaded).toBeGreaterThan(RUNS / 20);
    expect(refused).toBeGreaterThan(RUNS / 10);
  });

  it(`GeoSet: ${RUNS} mutated payloads with their CRC-64 recomputed (seeded)`, () => {
    const places = GeoSet.from([
      ["Palermo", 13.361389, 38.115556],
      ["Catania", 15.087269, 37.502669],
    ]);
    const { loaded, refused } = fuzzWithCrc(GeoSet.fromRedis, useGeo, [places.toRedis(), ...zsets()], 0x2d22);
    expect(loaded).toBeGreaterThan(RUNS / 20);
    expect(refused).toBeGreaterThan(RUNS / 10);
  });

  it(`Dict: ${RUNS} mutated payloads as they are (seeded)`, () => {
    const counts = fuzzDeserializer(
      { name: "Dict.fromRedis", read: (b) => Dict.fromRedis(b), valid: hashes(), use: useDict },
      { seed: 0x2d23, runs: RUNS },
    );
    expect(counts.loaded + counts.refused).toBe(RUNS);
  });

  it(`Dict: ${RUNS} mutated payloads with their CRC-64 recomputed (seeded)`, () => {
    const { loaded, refused } = fuzzWithCrc((b) => Dict.fromRedis(b), useDict, hashes(), 0x2d24);
    expect(loaded).toBeGreaterThan(RUNS / 20);
    expect(refused).toBeGreaterThan(RUNS / 10);
  });

  it("allocates nothing a payload's bytes cannot justify", () => {
    // A count of 2^26 members in 30 bytes, a 2^32-byte string, an LZF stream announcing 2^30 bytes.
    const hostile = [
      dumpPayload(5, [0x80, 0x04, 0x00, 0x00, 0x00, 0x01, 0x61]),
      dumpPayload(17, [0x80, 0xff, 0xff, 0xff, 0xff, 0x61]),
      dumpPayload(17, [0xc3, 0x02, 0x80, 0x40, 0x00, 0x00, 0x00, 0x00, 0x61]),
      dumpPayload(4, [0x81, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]),
    ];
    for (const p of hostile) {
      expect(() => SortedSet.fromRedis(p)).toThrow(RedstructFormatError);
      expect(() => Dict.fromRedis(p)).toThrow(RedstructFormatError);
    }
  });
});
