import { crc64Into } from "../../src/hash/crc64.js";
import { TDigest } from "../../src/tdigest/index.js";

/** Recomputes a DUMP payload's CRC-64 trailer after an edit (a no-op for one too short to have it). */
export function withCrc(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 10) crc64Into(bytes, 0, bytes.length - 8, bytes, bytes.length - 8);
  return bytes;
}

/** What a loaded digest must survive: queries, adds, merges, both serializers. */
export function use(d: TDigest): void {
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
