/**
 * RedisBloom's quantile walk (td_quantiles' iterate, facts from test/vectors/redisbloom/README.md,
 * "Queries"), written as the README states it: a linear walk over the centroids with a running sum.
 * TDigest answers the same walk by binary search over precomputed sums; the tests compare the two on
 * whatever state a digest holds (loaded from hostile bytes included). Also the state of a digest as
 * its toBytes() output spells it, for tests that look at the nodes.
 */
import type { TDigest } from "../../src/tdigest/index.js";
import { decodeBytes } from "../../src/tdigest/serialize.js";

/** The digest's whole state, nodes included (without merging its buffer). */
export function stateOf(d: TDigest) {
  return decodeBytes(d.toBytes(), Number.MAX_SAFE_INTEGER);
}

function weightedAverage(x1: number, w1: number, x2: number, w2: number): number {
  if (!(x1 <= x2)) return sortedAverage(x2, w2, x1, w1);
  return sortedAverage(x1, w1, x2, w2);
}

function sortedAverage(x1: number, w1: number, x2: number, w2: number): number {
  const x = (x1 * w1 + x2 * w2) / (w1 + w2);
  const inner = x < x2 ? x : x2;
  return x1 > inner ? x1 : inner;
}

/**
 * td_quantiles of one quantile over merged centroids (means, weights as doubles), with min, max and
 * the merged weight: NaN without centroids, the mean of a lone one, else the walk from the start.
 */
export function modelQuantile(
  means: ArrayLike<number>,
  weights: ArrayLike<number>,
  min: number,
  max: number,
  mergedWeight: bigint,
  q: number,
): number {
  const n = means.length;
  if (n === 0) return Number.NaN;
  if (n === 1) return means[0]!;
  const W = Number(mergedWeight);
  const index = q * W;
  const w0 = weights[0]!;
  if (w0 > 1 && index < w0 / 2) return min + ((index - 1) / (w0 / 2 - 1)) * (means[0]! - min);
  if (index > Number(BigInt.asIntN(64, mergedWeight - 1n))) return max;
  const wl = weights[n - 1]!;
  if (wl > 1 && W - index <= wl / 2) return max - ((W - index - 1) / (wl / 2 - 1)) * (max - means[n - 1]!);
  let sofar = w0 / 2;
  for (let pos = 0; pos < n - 1; pos++) {
    const left = weights[pos]!;
    const right = weights[pos + 1]!;
    const dw = (left + right) / 2;
    if (sofar + dw > index) {
      let leftUnit = 0;
      if (left === 1) {
        if (index - sofar < 0.5) return means[pos]!;
        leftUnit = 0.5;
      }
      let rightUnit = 0;
      if (right === 1) {
        if (sofar + dw - index <= 0.5) return means[pos + 1]!;
        rightUnit = 0.5;
      }
      const z1 = index - sofar - leftUnit;
      const z2 = sofar + dw - index - rightUnit;
      return weightedAverage(means[pos]!, z2, means[pos + 1]!, z1);
    }
    sofar += dw;
  }
  const z1 = index - W - wl / 2;
  const z2 = wl / 2 - z1;
  return weightedAverage(means[n - 1]!, z1, max, z2);
}
