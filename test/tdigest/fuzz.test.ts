/**
 * TDigest.fromRedis (DUMP payloads) and TDigest.fromBytes, fuzzed: every corruption either loads into
 * a digest that passes checkInvariants() and answers queries, or throws RedstructFormatError — never
 * another error, an out-of-bounds read or an allocation the bytes do not justify. DUMP payloads are
 * fuzzed twice: as they are (the CRC-64 refuses nearly every corruption) and with the CRC recomputed
 * after the corruption, so that the fields themselves meet the parser. 10^4 seeded inputs per run each.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RedstructFormatError, TDigest } from "../../src/tdigest/index.js";
import { corrupted, fuzzDeserializer, lying } from "../support/fuzz.js";
import { use, withCrc } from "../support/tdigest-load.js";
import { digestShapes } from "../support/tdigest-shapes.js";

/** Inputs per fuzz run. */
const RUNS = 10_000;

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
});
