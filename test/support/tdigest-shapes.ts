/**
 * TDigests of the shapes the deserializer tests start from: empty, one observation, ties and signed
 * zeros with a buffer, merged centroids with a buffer, weights past 2^53 (self-merges), NaN and
 * infinite means (±DBL_MAX data), and RESTORE's zeroed node — in its own digest and moved by MERGE.
 * Index 5 is the ±DBL_MAX one.
 */
import { TDigest } from "../../src/tdigest/index.js";

/** A digest restored from the DUMP of one observation: RESTORE's zeroed node (mean 0, weight 0) in its buffer. */
export function restoredSingle(v: number): TDigest {
  return TDigest.fromRedis(TDigest.from([v]).toRedis());
}

export function digestShapes(): TDigest[] {
  const empty = new TDigest({ compression: 3 });
  const single = TDigest.from([42.5]);
  const ties = TDigest.from([1, -0, 0, 2, 2, 7.5, 2, 2, 1, 1, 3], { compression: 2 });
  ties.quantile(0.5);
  ties.add(2, 0.5);
  const merged = new TDigest({ compression: 4 });
  for (let i = 0; i < 300; i++) merged.add(Math.sin(i) * 100);
  const wide = TDigest.from([-1, -2, -3], { compression: 100 });
  for (let i = 0; i < 56; i++) wide.merge(wide);
  const extremes = [Number.MAX_VALUE, -Number.MAX_VALUE, 1e308, -1e308, 1];
  const huge = TDigest.from(
    Array.from({ length: 8 }, (_, i) => extremes[i % 5]!),
    { compression: 1 },
  );
  huge.quantile(0.5);
  const ghost = restoredSingle(42.5).add(40, 50, 45);
  const ghostMerged = TDigest.union([TDigest.from([3, -4, 8, 1]), restoredSingle(7), restoredSingle(-2)]);
  return [empty, single, ties, merged, wide, huge, ghost, ghostMerged];
}
