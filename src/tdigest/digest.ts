/**
 * t-digest, exact with RedisBloom 2.4's TDIGEST.* (RedisBloom v2.4.23 over t-digest-c 5b89d70): the
 * same centroids after the same calls, so every quantile, CDF, rank and trimmed mean is RedisBloom's
 * double, and a key's `DUMP` payload moves between the two in either direction.
 *
 * Algorithm: Dunning & Ertl, "Computing extremely accurate quantiles using t-digests" (2019), the
 * merging variant with t-digest-c's scale (q(1 − q) bound). Observations go into a buffer behind the
 * merged centroids; when merged + unmerged nodes reach capacity − 1 (capacity = 6·compression + 10),
 * and before every query, the buffer is merged: all nodes are sorted by mean with t-digest-c's own
 * quicksort (sort.ts), then one left-to-right pass folds node i into the current centroid while
 * z = (w_cur + w_i)·compression/(2π·total·ln total) stays ≤ q(1 − q) at both of the centroid's edge
 * quantiles. Every formula, its order of evaluation and its edge cases are the ones recorded in
 * test/vectors/redisbloom/README.md ("tdigest.json"); they are why the order of queries, the
 * batching of adds and the tie order of the sort all change the answers, as in RedisBloom.
 *
 * Memory layout: two `Float64Array`s, the means and the weights of the nodes (merged nodes first,
 * then the buffer), grown by doubling up to the capacity as observations arrive, so a large
 * compression costs memory only in proportion to the data. RedisBloom's weights are 64-bit
 * integers: below 2^53 (every digest fed by fewer than 2^53 observations) a double holds them
 * exactly; a digest whose weights pass 2^53 (only reachable through repeated self-merges or a
 * restored DUMP) keeps them in a `BigInt64Array` beside the doubles, the weights' C `(double)`
 * conversions, and does its integer arithmetic in 64 bits with C's wrap-around — slower, but still
 * RedisBloom's answers. A prefix array of the quantile walk's running sums (rebuilt after a merge)
 * lets a quantile find its centroid by binary search instead of a walk, with the same doubles.
 *
 * Invariants: the state is one RedisBloom's operations reach (state.ts, which `fromBytes`,
 * `fromRedis` and `checkInvariants()` share: counts within the capacity 6c + 10, weights that add up
 * to the totals, means within [min, max] and merged in order, …); without the 64-bit store both totals
 * are below 2^53, and with it the doubles are its values.
 *
 * Costs: add O(1) amortized, plus a merge every ~capacity adds: O(capacity·log capacity) expected,
 * O(capacity) on all-equal values (sort.ts makes td_qsort's moves on ties without its O(m²) scans),
 * no allocation. Queries: the pending merge, then quantile O(log n) (n merged centroids), cdf / rank /
 * trimmedMean O(n). merge / union O(Σ sizes·log). toRedis / toBytes O(n).
 */

import { checkBytes, refuseDetached } from "../internal/bytes.js";
import { checkInteger, formatError, invariantFailure, notJson, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { lnRounded } from "../internal/log.js";
import { checkInstance, checkIterable, checkOptions } from "../internal/options.js";
import { type DigestState, decodeDump, encodeDump } from "./redis.js";
import { decodeBytes, encodeBytes } from "./serialize.js";
import { sortByMean } from "./sort.js";
import { type StateView, stateProblem } from "./state.js";

const WHERE = "TDigest";

/**
 * Largest compression accepted: 357,913,939, the largest whose capacity 6c + 10 fits the C `int`
 * RedisBloom keeps it in (beyond it RedisBloom's capacity turns negative and every TDIGEST.ADD fails).
 */
export const TDIGEST_MAX_COMPRESSION = 357_913_939;
const DEFAULT_COMPRESSION = 100;
const DBL_MAX = Number.MAX_VALUE;
/** t-digest-c's π (M_PI, 3.14159265358979323846, as a double). */
const PI = Math.PI;
/** Largest total kept in doubles; beyond it the 64-bit store takes over. */
const SAFE = Number.MAX_SAFE_INTEGER;
const LLONG_MAX = (1n << 63n) - 1n;
const TWO63 = 2 ** 63;
/** Nodes allocated first (or the capacity, when smaller). */
const INITIAL_NODES = 64;

/** Options of {@link TDigest} (TDIGEST.CREATE's parameter). */
export interface TDigestOptions {
  /**
   * The accuracy/size trade-off: more centroids with more compression (about 67 at 100, 426 at 1000,
   * for 10^6 values), and a buffer of 6·compression + 10 nodes. An integer in
   * [1, {@link TDIGEST_MAX_COMPRESSION}]. @defaultValue 100
   */
  compression?: number;
}

/** What {@link TDigest.info} returns: TDIGEST.INFO's fields, camelCase. */
export interface TDigestInfo {
  /** "Compression". */
  compression: number;
  /** "Capacity": 6·compression + 10 nodes, merged and buffered together. */
  capacity: number;
  /** "Merged nodes": centroids after the last merge. */
  mergedNodes: number;
  /** "Unmerged nodes": observations (or merged-in centroids) waiting in the buffer. */
  unmergedNodes: number;
  /** "Merged weight": the weight of the merged centroids. */
  mergedWeight: number;
  /** "Unmerged weight": the weight waiting in the buffer. */
  unmergedWeight: number;
  /** "Observations": merged + unmerged weight (the same as {@link TDigest.size}). */
  size: number;
  /** "Total compressions": merges since creation, restore or clear. */
  totalCompressions: number;
  /**
   * "Memory usage": 8 + 16·capacity, the bytes the digest occupies in RedisBloom (which allocates its
   * whole buffer up front). What this object holds is {@link TDigest.byteLength}.
   */
  byteLength: number;
}

/**
 * A t-digest exact with RedisBloom's TDIGEST.* commands: same answers for the same calls, and the
 * key's `DUMP` payload in and out ({@link TDigest.toRedis}, {@link TDigest.fromRedis}).
 *
 * @example
 * const d = new TDigest({ compression: 100 });
 * d.addAll([12, 15, 11, 90, 14]);
 * d.quantile(0.5); // the median, as TDIGEST.QUANTILE answers it
 */
export class TDigest {
  #compression: number;
  #cap: number;
  #mean: Float64Array;
  /** Each node's weight as a double: C's `(double)weight`, exact below 2^53. */
  #weight: Float64Array;
  /** The exact 64-bit weights, only once some weight or total may pass 2^53 ("wide" digests). */
  #exact: BigInt64Array | null = null;
  #merged = 0;
  #unmerged = 0;
  /** `(double)merged_weight` and `(double)unmerged_weight`; exact unless the digest is wide. */
  #mw = 0;
  #uw = 0;
  /** The exact totals of a wide digest. */
  #mwBig = 0n;
  #uwBig = 0n;
  #min = DBL_MAX;
  #max = -DBL_MAX;
  #compressions = 0;
  /** The quantile walk's running sums over the merged centroids, valid while #prefixValid. */
  #prefix: Float64Array | null = null;
  #prefixValid = false;
  /** The quantile walk's position, carried between the quantiles of one ascending run. */
  #walk = 0;

  /**
   * An empty digest, like `TDIGEST.CREATE key [COMPRESSION c]`. Nothing is allocated in proportion to
   * the compression until observations arrive. O(1).
   * @throws TypeError for an unknown option; RangeError unless compression is an integer in
   *   [1, {@link TDIGEST_MAX_COMPRESSION}].
   */
  constructor(options?: TDigestOptions) {
    const o = checkOptions(WHERE, options, ["compression"]);
    const c =
      o.compression === undefined
        ? DEFAULT_COMPRESSION
        : checkInteger(WHERE, "compression", o.compression, 1, TDIGEST_MAX_COMPRESSION);
    this.#compression = c;
    this.#cap = 6 * c + 10;
    const initial = Math.min(this.#cap, INITIAL_NODES);
    this.#mean = new Float64Array(initial);
    this.#weight = new Float64Array(initial);
  }

  /** A digest of `values`, like TDIGEST.CREATE then TDIGEST.ADD of them in order. O(n). */
  static from(values: Iterable<number>, options?: TDigestOptions): TDigest {
    return new TDigest(options).addAll(values);
  }

  /** The compression (TDIGEST.CREATE's COMPRESSION). */
  get compression(): number {
    return this.#compression;
  }

  /**
   * The number of observations (TDIGEST.INFO "Observations"): merged plus buffered weight. Exact below
   * 2^53; a digest past that (through self-merges) reports the nearest double. O(1).
   */
  get size(): number {
    return this.#exact === null ? this.#mw + this.#uw : Number(BigInt.asIntN(64, this.#mwBig + this.#uwBig));
  }

  /** Bytes of the typed arrays this digest holds (its buffer grows to 16·capacity as data arrives). O(1). */
  get byteLength(): number {
    return (
      this.#mean.byteLength + this.#weight.byteLength + (this.#exact?.byteLength ?? 0) + (this.#prefix?.byteLength ?? 0)
    );
  }

  // --- adding -------------------------------------------------------------------------------------

  /**
   * TDIGEST.ADD: adds each value as an observation of weight 1. Every value is checked before any is
   * added, as TDIGEST.ADD parses all of them first. When the buffer is full (capacity − 1 nodes) it is
   * merged first. O(1) amortized per value, no allocation.
   * @returns this digest.
   * @throws TypeError for a value that is not a number; RangeError for NaN or ±Infinity (RedisBloom:
   *   "error parsing val parameter" / "val parameter needs to be a finite number"), and — only for a
   *   digest whose total weight has reached 2^63 − 1 through self-merges — RedisBloom's "overflow
   *   detected" (the values before it stay added, as in RedisBloom).
   */
  add(...values: number[]): this {
    const n = values.length;
    for (let i = 0; i < n; i++) checkValue(i, values[i]);
    for (let i = 0; i < n; i++) this.#addOne(values[i]!);
    return this;
  }

  /**
   * TDIGEST.ADD of every value of an iterable (an array, a typed array, a Set, a generator), in order.
   * Each value is read once and checked before any is added: an array, or any iterable, is copied as
   * it is read (a getter, a Proxy or a generator runs once per value, and one that throws midway adds
   * nothing); a typed array is checked and then added from its own buffer, which no code can change in
   * between (one over a SharedArrayBuffer, which another thread can, is copied first). O(n).
   * @returns this digest.
   * @throws TypeError when `values` is not a synchronous iterable, holds a non-number, or is a typed
   *   array or DataView whose buffer was detached (transferred); RangeError as {@link TDigest.add}.
   */
  addAll(values: Iterable<number>): this {
    const list = readValues(values);
    const n = list.length;
    for (let i = 0; i < n; i++) this.#addOne(list[i]!);
    return this;
  }

  /** td_add(value, 1). */
  #addOne(v: number): void {
    if (this.#exact !== null || this.#mw + this.#uw >= SAFE) {
      this.#addWide(v, 1, 1n);
      return;
    }
    this.#put(this.#slot(), v, 1);
    this.#uw++;
  }

  /** td_add(value, w): `w` as a double and, for a wide source, the exact 64-bit weight. */
  #addWeighted(v: number, w: number, wBig: bigint | null): void {
    if (this.#exact === null && w >= 0 && w <= SAFE && this.#mw + this.#uw + w <= SAFE) {
      this.#put(this.#slot(), v, w);
      this.#uw += w;
      return;
    }
    this.#addWide(v, w, wBig ?? BigInt(w));
  }

  /** td_add in 64-bit integers, with t-digest-c's overflow checks and C's wrap-around. */
  #addWide(v: number, w: number, wBig: bigint): void {
    if (this.#exact === null) this.#widen();
    const pos = this.#slot();
    // t-digest-c's add-is-safe test: a ≤ LLONG_MAX − b, or a ≥ LLONG_MAX − b (wrapped) when b < 0.
    if (!addSafe(this.#uwBig, wBig) || !addSafe(BigInt.asIntN(64, this.#uwBig + wBig), this.#mwBig)) {
      throw overflow();
    }
    this.#put(pos, v, w);
    this.#exact![pos] = wBig;
    this.#uwBig = BigInt.asIntN(64, this.#uwBig + wBig);
    this.#uw = Number(this.#uwBig);
  }

  /**
   * td_add's first steps: merge the buffer when it holds capacity − 1 nodes, refuse a full buffer
   * (which a merge leaves full only at total weight ≤ 1), and return the next node's index (growing
   * the arrays when they end there).
   */
  #slot(): number {
    let pos = this.#merged + this.#unmerged;
    if (pos >= this.#cap - 1) {
      this.#compress();
      pos = this.#merged + this.#unmerged;
      if (pos >= this.#cap) throw overflow();
    }
    if (pos === this.#mean.length) this.#grow();
    return pos;
  }

  /** td_add's update: min and max (strict comparisons: the first of −0 and 0 stays), the node, the count. */
  #put(pos: number, v: number, w: number): void {
    if (v < this.#min) this.#min = v;
    if (v > this.#max) this.#max = v;
    this.#mean[pos] = v;
    this.#weight[pos] = w;
    this.#unmerged++;
  }

  /** Doubles the node arrays (up to the capacity). */
  #grow(): void {
    const size = Math.min(this.#cap, Math.max(INITIAL_NODES, this.#mean.length * 2));
    const mean = new Float64Array(size);
    mean.set(this.#mean);
    const weight = new Float64Array(size);
    weight.set(this.#weight);
    this.#mean = mean;
    this.#weight = weight;
    if (this.#exact !== null) {
      const exact = new BigInt64Array(size);
      exact.set(this.#exact);
      this.#exact = exact;
    }
  }

  /** Moves the weights into the 64-bit store (they are exact doubles until now). */
  #widen(): void {
    const exact = new BigInt64Array(this.#mean.length);
    const n = this.#merged + this.#unmerged;
    for (let i = 0; i < n; i++) exact[i] = BigInt(this.#weight[i]!);
    this.#exact = exact;
    this.#mwBig = BigInt(this.#mw);
    this.#uwBig = BigInt(this.#uw);
  }

  // --- the merge (td_compress) ----------------------------------------------------------------

  /** td_compress: sorts every node by mean and folds neighbours into centroids. */
  #compress(): void {
    if (this.#unmerged === 0) return;
    const n = this.#merged + this.#unmerged;
    const mean = this.#mean;
    const weight = this.#weight;
    const exact = this.#exact;
    this.#prefixValid = false;
    if (exact === null) sortByMean(mean, weight, 0, n - 1);
    else sortWide(mean, weight, exact, n);
    const total = this.#mw + this.#uw;
    if (!(total > 1)) return;
    const normalizer = this.#compression / (2 * PI * total * lnRounded(total));
    let cur = 0;
    let sofar = 0;
    for (let i = 1; i < n; i++) {
      const wi = weight[i]!;
      const p = weight[cur]! + wi;
      const z = p * normalizer;
      const q0 = sofar / total;
      const q2 = (sofar + p) / total;
      if (z <= q0 * (1 - q0) && z <= q2 * (1 - q2)) {
        // The merged weight as C's (double) of the 64-bit sum: p itself below 2^53.
        let wc = p;
        if (exact !== null) {
          exact[cur] = exact[cur]! + exact[i]!;
          wc = Number(exact[cur]!);
        }
        weight[cur] = wc;
        mean[cur]! += ((mean[i]! - mean[cur]!) * wi) / wc;
      } else {
        sofar += weight[cur]!;
        cur++;
        weight[cur] = wi;
        mean[cur] = mean[i]!;
        if (exact !== null) exact[cur] = exact[i]!;
      }
    }
    if (exact === null) this.#mw = total;
    else {
      this.#mwBig = castInt64(total);
      this.#mw = Number(this.#mwBig);
      this.#uwBig = 0n;
    }
    this.#merged = cur + 1;
    this.#unmerged = 0;
    this.#uw = 0;
    this.#compressions++;
  }

  // --- queries -------------------------------------------------------------------------------

  /**
   * TDIGEST.MIN: the smallest value added, or NaN when the digest is empty. Does not merge the buffer.
   * The first of −0 and 0 added is the one kept, as in RedisBloom. O(1).
   */
  min(): number {
    return this.#hasObservations() ? this.#min : Number.NaN;
  }

  /** TDIGEST.MAX: the largest value added, or NaN when the digest is empty. Does not merge the buffer. O(1). */
  max(): number {
    return this.#hasObservations() ? this.#max : Number.NaN;
  }

  #hasObservations(): boolean {
    return this.#exact === null ? this.#mw + this.#uw > 0 : BigInt.asIntN(64, this.#mwBig + this.#uwBig) > 0n;
  }

  /**
   * TDIGEST.QUANTILE with one quantile: the estimated value below which a fraction `q` of the
   * observations lie. Merges the buffer first (so it changes what later calls answer, as in
   * RedisBloom). NaN for an empty digest or a lone observation (RedisBloom merges nothing while the
   * total weight is ≤ 1). O(log n) after the merge.
   * @throws RangeError unless q is a number in [0, 1].
   */
  quantile(q: number): number {
    checkQuantile("q", q);
    this.#compress();
    const n = this.#merged;
    if (n === 0) return Number.NaN;
    if (n === 1) return this.#mean[0]!;
    this.#walk = 0;
    return this.#iterate(q * this.#mw);
  }

  /**
   * TDIGEST.QUANTILE with several quantiles, answered as RedisBloom does: each maximal non-decreasing
   * run of `qs` is one walk over the centroids (the walk's position carries over within a run), so the
   * answers can differ from separate {@link TDigest.quantile} calls. Every q is checked before the
   * buffer is merged. O(n + k log n) for k quantiles.
   * @throws TypeError when `qs` is not an iterable of numbers; RangeError for a q outside [0, 1].
   */
  quantiles(qs: Iterable<number>): number[] {
    const list = Array.from(checkIterable(WHERE, "qs", qs));
    for (let i = 0; i < list.length; i++) checkQuantile(`qs[${i}]`, list[i]);
    const out: number[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      // Each run is one td_quantiles call, which merges the buffer (a no-op unless the total is ≤ 1,
      // where it re-sorts the buffered nodes, and so permutes tied means, once per run).
      if (i === 0 || list[i]! < list[i - 1]!) {
        this.#compress();
        this.#walk = 0;
      }
      const n = this.#merged;
      if (n === 0) out[i] = Number.NaN;
      else if (n === 1) out[i] = this.#mean[0]!;
      else out[i] = this.#iterate(list[i]! * this.#mw);
    }
    return out;
  }

  /**
   * The interpolation of t-digest-c's quantile walk at `index` (= q·merged weight), continuing from
   * the walk position #walk, which it leaves at the centroid it stopped at.
   */
  #iterate(index: number): number {
    const mean = this.#mean;
    const weight = this.#weight;
    const n = this.#merged;
    const W = this.#mw;
    const min = this.#min;
    const max = this.#max;
    const w0 = weight[0]!;
    if (w0 > 1 && index < w0 / 2) return min + ((index - 1) / (w0 / 2 - 1)) * (mean[0]! - min);
    if (index > this.#mergedWeightMinusOne()) return max;
    const wl = weight[n - 1]!;
    if (wl > 1 && W - index <= wl / 2) return max - ((W - index - 1) / (wl / 2 - 1)) * (max - mean[n - 1]!);
    const sums = this.#sums();
    // The walk stops at the first pos (from #walk on) where sofar + dw > index, i.e. sums[pos + 1] > index;
    // the sums never decrease (weights are ≥ 0), so a binary search finds it.
    let pos = this.#walk;
    let hi = n - 1;
    while (pos < hi) {
      const mid = (pos + hi) >>> 1;
      if (sums[mid + 1]! > index) hi = mid;
      else pos = mid + 1;
    }
    this.#walk = pos;
    if (pos < n - 1) {
      const sofar = sums[pos]!;
      const left = weight[pos]!;
      const right = weight[pos + 1]!;
      const dw = (left + right) / 2;
      let leftUnit = 0;
      if (left === 1) {
        if (index - sofar < 0.5) return mean[pos]!;
        leftUnit = 0.5;
      }
      let rightUnit = 0;
      if (right === 1) {
        if (sofar + dw - index <= 0.5) return mean[pos + 1]!;
        rightUnit = 0.5;
      }
      const z1 = index - sofar - leftUnit;
      const z2 = sofar + dw - index - rightUnit;
      return weightedAverage(mean[pos]!, z2, mean[pos + 1]!, z1);
    }
    const z1 = index - W - wl / 2;
    const z2 = wl / 2 - z1;
    return weightedAverage(mean[n - 1]!, z1, max, z2);
  }

  /** The walk's running sums: sums[0] = w0/2, sums[k + 1] = sums[k] + (w[k] + w[k+1])/2, in that order. */
  #sums(): Float64Array {
    const n = this.#merged;
    if (this.#prefixValid) return this.#prefix!;
    if (this.#prefix === null || this.#prefix.length < n) {
      this.#prefix = new Float64Array(Math.min(this.#cap, Math.max(n, 2 * (this.#prefix?.length ?? 0))));
    }
    const sums = this.#prefix;
    const weight = this.#weight;
    let s = weight[0]! / 2;
    sums[0] = s;
    for (let k = 0; k < n - 1; k++) {
      s += (weight[k]! + weight[k + 1]!) / 2;
      sums[k + 1] = s;
    }
    this.#prefixValid = true;
    return sums;
  }

  /** `(double)(merged_weight − 1)` in C's 64-bit arithmetic. */
  #mergedWeightMinusOne(): number {
    return this.#exact === null ? this.#mw - 1 : Number(BigInt.asIntN(64, this.#mwBig - 1n));
  }

  /** td_quantile (BYRANK's): like a one-quantile TDIGEST.QUANTILE, but an index below 1 answers min. */
  #quantileByRank(q: number): number {
    this.#compress();
    const n = this.#merged;
    if (n === 0) return Number.NaN;
    if (n === 1) return this.#mean[0]!;
    const index = q * this.#mw;
    if (index < 1) return this.#min;
    this.#walk = 0;
    return this.#iterate(index);
  }

  /**
   * TDIGEST.CDF of one value: the estimated fraction of observations ≤ `value` (half of those equal).
   * Merges the buffer first. NaN for an empty digest or a lone observation; ±Infinity are accepted.
   * O(n) after the merge.
   * @throws RangeError for NaN (RedisBloom: "error parsing cdf").
   */
  cdf(value: number): number {
    checkQueryValue("value", value);
    return this.#cdf(value);
  }

  /**
   * TDIGEST.CDF of several values: one answer per value, in order (the same as {@link TDigest.cdf}
   * of each; every value is checked first). O(k·n).
   * @throws TypeError when `values` is not an iterable of numbers; RangeError for NaN.
   */
  cdfs(values: Iterable<number>): number[] {
    const list = Array.from(checkIterable(WHERE, "values", values));
    for (let i = 0; i < list.length; i++) checkQueryValue(`values[${i}]`, list[i]);
    return list.map((v) => this.#cdf(v));
  }

  /** td_cdf. */
  #cdf(x: number): number {
    this.#compress();
    const n = this.#merged;
    if (n === 0) return Number.NaN;
    const min = this.#min;
    const max = this.#max;
    if (x < min) return 0;
    if (x > max) return 1;
    if (n === 1) return x - min <= max - min ? 0.5 : (x - min) / (max - min);
    const mean = this.#mean;
    const weight = this.#weight;
    const W = this.#mw;
    const m0 = mean[0]!;
    if (x < m0) {
      const width = m0 - min;
      if (width > 0) {
        if (x === min) return 0.5 / W;
        return (1 + ((x - min) / width) * (weight[0]! / 2 - 1)) / W;
      }
      return 0;
    }
    const ml = mean[n - 1]!;
    if (x > ml) {
      const width = max - ml;
      if (width > 0) {
        if (x === max) return 1 - 0.5 / W;
        return 1 - (1 + ((max - x) / width) * (weight[n - 1]! / 2 - 1)) / W;
      }
      return 1;
    }
    let sofar = 0;
    for (let i = 0; i < n - 1; i++) {
      const mi = mean[i]!;
      if (mi === x) {
        let dw = 0;
        for (let j = i; j < n && mean[j] === x; j++) dw += weight[j]!;
        return (sofar + dw / 2) / W;
      }
      const wi = weight[i]!;
      if (mi <= x && x < mean[i + 1]!) {
        const wi1 = weight[i + 1]!;
        const gap = mean[i + 1]! - mi;
        if (!(gap > 0)) return (sofar + (wi + wi1) / 2) / W;
        if (wi === 1 && wi1 === 1) return (sofar + 1) / W;
        const leftExcluded = wi === 1 ? 0.5 : 0;
        const rightExcluded = wi1 === 1 ? 0.5 : 0;
        const dw = (wi + wi1) / 2;
        return (sofar + wi / 2 + leftExcluded + ((dw - leftExcluded - rightExcluded) * (x - mi)) / gap) / W;
      }
      sofar += wi;
    }
    return 1 - 0.5 / W;
  }

  /**
   * TDIGEST.RANK of one value: the estimated number of observations below it, rounded as RedisBloom
   * rounds (half of the equal ones count). −1 below the minimum, the observation count above the
   * maximum, −2 for an empty digest; merges the buffer only for a value within [min, max]. A lone
   * observation's own value answers −9223372036854775808 (C's `(long long)` of NaN, RedisBloom's reply).
   * O(n) after the merge.
   * @throws RangeError for NaN (±Infinity are accepted).
   */
  rank(value: number): number {
    checkQueryValue("value", value);
    const size = this.#sizeDouble();
    if (size === 0) return -2;
    if (value < this.#min) return -1;
    if (value > this.#max) return castInt(size);
    return castInt(halfRoundDown(this.#cdf(value) * size));
  }

  /**
   * TDIGEST.REVRANK of one value: the estimated number of observations above it (−1 above the
   * maximum, the count below the minimum, −2 when empty), as RedisBloom computes it. O(n) after the merge.
   * @throws RangeError for NaN.
   */
  revRank(value: number): number {
    checkQueryValue("value", value);
    const size = this.#sizeDouble();
    if (size === 0) return -2;
    if (value < this.#min) return castInt(size);
    if (value > this.#max) return -1;
    return castInt(roundHalfAway(size - roundHalfAway(this.#cdf(value) * size)));
  }

  /**
   * TDIGEST.BYRANK: the estimated value of the observation of rank `rank` (0 = the smallest): the
   * minimum for 0, +Infinity for a rank ≥ the observation count, NaN when empty. Merges the buffer
   * only for 0 < rank < count. O(log n) after the merge.
   * @throws RangeError unless rank is an integer ≥ 0.
   */
  byRank(rank: number): number {
    checkRank(rank);
    const size = this.#sizeDouble();
    if (size === 0) return Number.NaN;
    if (rank === 0) return this.#min;
    if (rank >= size) return Number.POSITIVE_INFINITY;
    return this.#quantileByRank(rank / size);
  }

  /**
   * TDIGEST.BYREVRANK: the estimated value of the observation of reverse rank `rank` (0 = the
   * largest): the maximum for 0, −Infinity for a rank ≥ the count, NaN when empty. O(log n) after the merge.
   * @throws RangeError unless rank is an integer ≥ 0.
   */
  byRevRank(rank: number): number {
    checkRank(rank);
    const size = this.#sizeDouble();
    if (size === 0) return Number.NaN;
    if (rank === 0) return this.#max;
    if (rank >= size) return Number.NEGATIVE_INFINITY;
    return this.#quantileByRank((size - rank - 1) / size);
  }

  /** `(double)(merged_weight + unmerged_weight)`, the size RANK and BYRANK use. */
  #sizeDouble(): number {
    return this.#exact === null ? this.#mw + this.#uw : Number(BigInt.asIntN(64, this.#mwBig + this.#uwBig));
  }

  /**
   * TDIGEST.TRIMMED_MEAN: the mean of the observations between the quantiles `low` and `high`
   * (centroids cut in proportion at the edges), as RedisBloom computes it. Merges the buffer first.
   * NaN when empty or for a lone observation. O(n) after the merge.
   * @throws RangeError unless 0 ≤ low < high ≤ 1.
   */
  trimmedMean(low: number, high: number): number {
    checkQuantile("low", low);
    checkQuantile("high", high);
    if (!(low < high)) throw rangeError(WHERE, "low", low, `lower than high (${high})`);
    this.#compress();
    const n = this.#merged;
    if (n === 0) return Number.NaN;
    if (n === 1) return this.#mean[0]!;
    const mean = this.#mean;
    const weight = this.#weight;
    const W = this.#mw;
    const left = Math.floor(W * low);
    const right = Math.ceil(W * high);
    let done = 0;
    let sum = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const w = weight[i]!;
      let add = w - cMin(cMax(0, left - done), w);
      add = cMin(cMax(0, right - done), add);
      done += w;
      sum += mean[i]! * add;
      count += add;
      if (done >= right) break;
    }
    return sum / count;
  }

  /**
   * TDIGEST.INFO: the digest's counters, camelCase. Weights and counts are exact below 2^53 (a digest
   * past that, through self-merges, reports the nearest doubles; {@link TDigest.toBytes} holds the
   * exact 64-bit values). Does not merge the buffer. O(1).
   */
  info(): TDigestInfo {
    return {
      compression: this.#compression,
      capacity: this.#cap,
      mergedNodes: this.#merged,
      unmergedNodes: this.#unmerged,
      mergedWeight: this.#mw,
      unmergedWeight: this.#uw,
      size: this.size,
      totalCompressions: this.#compressions,
      byteLength: 8 + 16 * this.#cap,
    };
  }

  // --- combining ------------------------------------------------------------------------------

  /**
   * TDIGEST.MERGE into a new key: a new digest holding `digests` (one or more; the same digest may be
   * listed twice, and counts twice), with `compression` or else the largest of theirs. Each source's
   * buffer is merged in place first, as TDIGEST.MERGE does, and its centroids are added in order. Also
   * what `TDIGEST.MERGE dest … OVERRIDE` and, with dest listed first, `TDIGEST.MERGE dest … COMPRESSION c`
   * build. O(Σ nodes·log).
   * @throws TypeError when `digests` is not an iterable of TDigests or for an unknown option; RangeError
   *   for none, a bad compression (nothing changed), or RedisBloom's "overflow detected" (weights past
   *   2^63 − 1), after which the sources up to the one being added have their buffers merged, as
   *   TDIGEST.MERGE leaves them.
   */
  static union(digests: Iterable<TDigest>, options?: { compression?: number }): TDigest {
    const list = Array.from(checkIterable(WHERE, "digests", digests));
    if (list.length === 0) throw rangeError(WHERE, "digests", list, "at least one TDigest");
    for (let i = 0; i < list.length; i++) checkInstance(WHERE, `digests[${i}]`, list[i], TDigest);
    const o = checkOptions(WHERE, options, ["compression"]);
    let c: number;
    if (o.compression === undefined) {
      c = 1;
      for (const d of list) c = Math.max(c, d.#compression);
    } else c = checkInteger(WHERE, "compression", o.compression, 1, TDIGEST_MAX_COMPRESSION);
    const out = new TDigest({ compression: c });
    for (const d of list) out.#mergeFrom(d);
    return out;
  }

  /**
   * TDIGEST.MERGE into this digest (`TDIGEST.MERGE this n others…`): the digest is rebuilt at its own
   * compression from itself and then each of `others` in order (this digest may be among them, and
   * then counts twice). The others' buffers are merged in place first. Takes digests as arguments or
   * one iterable of them. With no others it does nothing. O(Σ nodes·log).
   * @returns this digest.
   * @throws TypeError for an argument that is not a TDigest (nothing changed); RangeError for
   *   RedisBloom's "overflow detected" (weights past 2^63 − 1): as TDIGEST.MERGE leaves the key, this
   *   digest and the others up to the one being added then have their buffers merged (td_merge merges
   *   both buffers before adding), and nothing else has changed.
   */
  merge(...others: TDigest[]): this;
  merge(others: Iterable<TDigest>): this;
  merge(...args: unknown[]): this {
    let list: unknown[] = args;
    const only = args[0];
    // One argument that is not a TDigest but iterable is the list; anything else is checked as a TDigest.
    if (args.length === 1 && only !== null && typeof only === "object" && Symbol.iterator in only) {
      list = Array.from(checkIterable(WHERE, "merge argument", only as Iterable<unknown>));
    }
    for (let i = 0; i < list.length; i++) checkInstance(WHERE, `merge argument ${i}`, list[i], TDigest);
    if (list.length === 0) return this;
    const out = new TDigest({ compression: this.#compression });
    out.#mergeFrom(this);
    for (const d of list as TDigest[]) out.#mergeFrom(d);
    this.#adopt(out);
    return this;
  }

  /** td_merge(this, from): merge both buffers, then td_add every node of `from` with its weight. */
  #mergeFrom(from: TDigest): void {
    this.#compress();
    from.#compress();
    const n = from.#merged + from.#unmerged;
    const mean = from.#mean;
    const weight = from.#weight;
    const exact = from.#exact;
    for (let i = 0; i < n; i++) {
      const w = weight[i]!;
      this.#addWeighted(mean[i]!, w, exact === null ? null : exact[i]!);
    }
  }

  /** Takes over another digest's state (which is not used afterwards). */
  #adopt(o: TDigest): void {
    this.#compression = o.#compression;
    this.#cap = o.#cap;
    this.#mean = o.#mean;
    this.#weight = o.#weight;
    this.#exact = o.#exact;
    this.#merged = o.#merged;
    this.#unmerged = o.#unmerged;
    this.#mw = o.#mw;
    this.#uw = o.#uw;
    this.#mwBig = o.#mwBig;
    this.#uwBig = o.#uwBig;
    this.#min = o.#min;
    this.#max = o.#max;
    this.#compressions = o.#compressions;
    this.#prefix = null;
    this.#prefixValid = false;
  }

  /** TDIGEST.RESET: empties the digest, keeping its compression. O(1). */
  clear(): void {
    this.#merged = 0;
    this.#unmerged = 0;
    this.#mw = 0;
    this.#uw = 0;
    this.#mwBig = 0n;
    this.#uwBig = 0n;
    this.#exact = null;
    this.#min = DBL_MAX;
    this.#max = -DBL_MAX;
    this.#compressions = 0;
    this.#prefixValid = false;
  }

  /** An independent copy with the same state (buffer included): it answers every call alike. O(n). */
  clone(): TDigest {
    const c = new TDigest({ compression: this.#compression });
    c.#adopt(this);
    c.#mean = this.#mean.slice();
    c.#weight = this.#weight.slice();
    c.#exact = this.#exact === null ? null : this.#exact.slice();
    return c;
  }

  // --- serialization --------------------------------------------------------------------------

  /**
   * The payload `DUMP key` returns for this digest in RedisBloom 2.4 (RDB version 10, module type
   * "TDIS-TYPE" encver 0, CRC-64 trailer): `RESTORE key 0 <bytes>` recreates it in Redis. Like DUMP, it
   * merges the buffer first (so it changes the digest as DUMP does). O(n).
   */
  toRedis(): Uint8Array {
    this.#compress();
    return encodeDump(this.#state(this.#merged));
  }

  /**
   * The digest a `DUMP` payload of a RedisBloom TDIGEST key holds, as `RESTORE` rebuilds it (buffered
   * nodes, which DUMP does not save, come back as zeros, as in RedisBloom). O(payload).
   * @throws TypeError unless `bytes` is a Uint8Array whose buffer is not detached;
   *   RedstructFormatError for anything else: a bad CRC, another RDB type or module, a truncated
   *   payload, counts that cannot be true (before allocating more than the payload's size, or 1 MiB
   *   for the zeroed nodes), and a state no RedisBloom operation leaves a key in (weights that do not
   *   add up, means out of order or outside [min, max], …: docs/tdigest.md, "What loads"), naming
   *   the field.
   */
  static fromRedis(bytes: Uint8Array): TDigest {
    checkBytes(WHERE, "bytes", bytes);
    return TDigest.#fromState(decodeDump(bytes, TDIGEST_MAX_COMPRESSION), "not a TDIGEST key's DUMP payload: ");
  }

  /**
   * The digest in redstruct's format: the whole state, buffer and exact weights included, without
   * merging anything (so `fromBytes` gives a digest that answers every later call alike). "RSTD",
   * version 1; 57 + 16·(nodes) bytes. O(n).
   */
  toBytes(): Uint8Array {
    return encodeBytes(this.#state(this.#merged + this.#unmerged));
  }

  /**
   * Reads {@link TDigest.toBytes} output: the digest written, buffer and all. O(bytes).
   * @throws TypeError unless `bytes` is a Uint8Array whose buffer is not detached;
   *   RedstructFormatError for anything else — counts checked before anything is allocated — and for
   *   a state no sequence of RedisBloom's operations reaches (docs/tdigest.md, "What loads"), naming
   *   the field.
   */
  static fromBytes(bytes: Uint8Array): TDigest {
    return TDigest.#fromState(decodeBytes(bytes, TDIGEST_MAX_COMPRESSION), "");
  }

  /** The state the serializers write: the first `nodes` nodes. */
  #state(nodes: number): DigestState {
    const { exact, ...view } = this.#view();
    let weights: BigInt64Array;
    if (exact !== null) weights = exact.slice(0, nodes);
    else {
      weights = new BigInt64Array(nodes);
      for (let i = 0; i < nodes; i++) weights[i] = BigInt(this.#weight[i]!);
    }
    return { ...view, means: this.#mean.subarray(0, nodes), weights };
  }

  /**
   * A digest from a decoded state whose `means`/`weights` hold merged + unmerged nodes or fewer (the
   * rest zero, as RESTORE leaves them), if it is a state RedisBloom's operations reach (state.ts).
   * @throws RedstructFormatError naming what is not, after `prefix`.
   */
  static #fromState(s: DigestState, prefix: string): TDigest {
    const d = new TDigest({ compression: s.compression });
    const nodes = s.mergedNodes + s.unmergedNodes;
    const size = Math.min(d.#cap, Math.max(nodes, INITIAL_NODES));
    d.#mean = new Float64Array(size);
    d.#weight = new Float64Array(size);
    d.#mean.set(s.means);
    let wide = s.mergedWeight < 0n || s.unmergedWeight < 0n || s.mergedWeight + s.unmergedWeight > BigInt(SAFE);
    let sum = 0n;
    for (let i = 0; i < s.weights.length; i++) {
      const w = s.weights[i]!;
      if (w < 0n) wide = true;
      sum += w;
      d.#weight[i] = Number(w);
    }
    if (sum > s.mergedWeight + s.unmergedWeight) wide = true;
    if (wide) {
      d.#exact = new BigInt64Array(size);
      d.#exact.set(s.weights);
      d.#mwBig = s.mergedWeight;
      d.#uwBig = s.unmergedWeight;
    }
    d.#mw = Number(s.mergedWeight);
    d.#uw = Number(s.unmergedWeight);
    d.#merged = s.mergedNodes;
    d.#unmerged = s.unmergedNodes;
    d.#min = s.min;
    d.#max = s.max;
    d.#compressions = s.totalCompressions;
    const problem = stateProblem(d.#view(), TDIGEST_MAX_COMPRESSION);
    if (problem !== null) throw formatError(WHERE, `${prefix}${problem}`);
    return d;
  }

  /** The state as {@link stateProblem} reads it (the node arrays themselves, not copies). */
  #view(): StateView {
    const exact = this.#exact;
    return {
      compression: this.#compression,
      min: this.#min,
      max: this.#max,
      mergedNodes: this.#merged,
      unmergedNodes: this.#unmerged,
      totalCompressions: this.#compressions,
      mergedWeight: exact === null ? BigInt(this.#mw) : this.#mwBig,
      unmergedWeight: exact === null ? BigInt(this.#uw) : this.#uwBig,
      means: this.#mean,
      weights: this.#weight,
      exact,
    };
  }

  /**
   * Throws unless the digest is in a state RedisBloom's operations reach — the check `fromBytes` and
   * `fromRedis` make (src/tdigest/state.ts: counts within the capacity, weights that add up to the
   * totals, means within [min, max] and merged in order, …) — and its storage is consistent: capacity
   * 6·compression + 10, node arrays holding every node, totals below 2^53 without the 64-bit store,
   * and with it, doubles equal to the 64-bit values. O(n).
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const c = this.#compression;
    if (this.#cap !== 6 * c + 10) fail(`capacity ${this.#cap} for compression ${c}`);
    const n = this.#merged + this.#unmerged;
    if (this.#mean.length !== this.#weight.length || this.#mean.length < n || this.#mean.length > this.#cap) {
      fail(`node arrays of ${this.#mean.length}/${this.#weight.length} for ${n} nodes`);
    }
    const exact = this.#exact;
    if (exact === null) {
      if (!Number.isSafeInteger(this.#mw) || !Number.isSafeInteger(this.#uw) || this.#mw + this.#uw > SAFE) {
        fail(`weights ${this.#mw} + ${this.#uw} without the 64-bit store`);
      }
    } else {
      if (exact.length !== this.#mean.length) fail("64-bit store size");
      for (let i = 0; i < n; i++) {
        if (this.#weight[i] !== Number(exact[i]!)) fail(`node ${i} weight ${this.#weight[i]} ≠ ${exact[i]}`);
      }
      if (this.#mw !== Number(this.#mwBig) || this.#uw !== Number(this.#uwBig)) fail("totals ≠ their 64-bit values");
    }
    const problem = stateProblem(this.#view(), TDIGEST_MAX_COMPRESSION);
    if (problem !== null) fail(problem);
  }

  /** A TDigest is not JSON: send {@link TDigest.toBytes} and rebuild it with {@link TDigest.fromBytes}. */
  toJSON(): never {
    throw notJson(WHERE);
  }

  static {
    defineInspect(TDigest, (d) => ({ fields: { ...d.info() } }));
  }
}

// --- helpers -----------------------------------------------------------------------------------

/** Checks values[i] = v, an observation to add: a finite number. */
function checkValue(i: number, v: unknown): void {
  if (typeof v !== "number" || !Number.isFinite(v)) throw valueError(i, v);
}

/** The error for a refused observation, naming it by its position in `values`. */
function valueError(i: number, v: unknown): Error {
  const param = `values[${i}]`;
  if (typeof v !== "number") return typeError(WHERE, param, v, "a finite number");
  return rangeError(WHERE, param, v, "a finite number (RedisBloom refuses NaN and ±inf)");
}

/** Copies grow to the input's size by doubling, so a sparse array claiming 2^32 − 1 slots fails at its first hole. */
const FIRST_COPY = 1024;

/**
 * The values of `values` (addAll's argument), each read once and checked: a typed array over an
 * ArrayBuffer is checked in place (its elements cannot change until addAll returns: no code runs in
 * between and no other thread shares the buffer); an array (a Proxy of one included) and any other
 * iterable are copied into a Float64Array as they are read, one read per value.
 */
function readValues(values: Iterable<number>): ArrayLike<number> {
  if (ArrayBuffer.isView(values)) {
    refuseDetached(WHERE, "values", values);
    // A DataView is not iterable: checkIterable below names it.
    if (!(values instanceof DataView)) {
      const view = values as unknown as ArrayLike<unknown> & { buffer: ArrayBufferLike };
      const n = view.length;
      if (typeof SharedArrayBuffer === "function" && view.buffer instanceof SharedArrayBuffer) {
        const copy = new Float64Array(n);
        for (let i = 0; i < n; i++) {
          const v = view[i];
          checkValue(i, v);
          copy[i] = v as number;
        }
        return copy;
      }
      for (let i = 0; i < n; i++) checkValue(i, view[i]);
      return view as ArrayLike<number>;
    }
  }
  if (Array.isArray(values)) {
    const n = values.length;
    let copy = new Float64Array(Math.min(n, FIRST_COPY));
    for (let i = 0; i < n; i++) {
      const v: unknown = values[i];
      checkValue(i, v);
      if (i === copy.length) copy = grown(copy, n);
      copy[i] = v as number;
    }
    return copy;
  }
  checkIterable(WHERE, "values", values);
  let copy = new Float64Array(16);
  let n = 0;
  for (const v of values as Iterable<unknown>) {
    checkValue(n, v);
    if (n === copy.length) copy = grown(copy, Number.POSITIVE_INFINITY);
    copy[n++] = v as number;
  }
  return copy.subarray(0, n);
}

/** `copy` in an array twice its size (at most `limit`). */
function grown(copy: Float64Array, limit: number): Float64Array<ArrayBuffer> {
  const next = new Float64Array(Math.min(limit, Math.max(16, copy.length * 2)));
  next.set(copy);
  return next;
}

function checkQueryValue(param: string, v: unknown): void {
  if (typeof v !== "number") throw typeError(WHERE, param, v, "a number (±Infinity allowed)");
  if (Number.isNaN(v)) throw rangeError(WHERE, param, v, "a number, not NaN");
}

function checkQuantile(param: string, q: unknown): void {
  if (typeof q !== "number") throw typeError(WHERE, param, q, "a number in [0, 1]");
  if (!(q >= 0 && q <= 1)) throw rangeError(WHERE, param, q, "a number in [0, 1]");
}

function checkRank(r: unknown): void {
  if (typeof r !== "number") throw typeError(WHERE, "rank", r, "an integer ≥ 0");
  if (!Number.isInteger(r) || r < 0) throw rangeError(WHERE, "rank", r, "an integer ≥ 0");
}

function overflow(): RangeError {
  return new RangeError(
    `redstruct/${WHERE}: overflow detected: the total weight would pass 2^63 − 1 (RedisBloom's "overflow detected")`,
  );
}

/** t-digest-c's overflow test for a + b in 64 bits. */
function addSafe(a: bigint, b: bigint): boolean {
  return b < 0n ? a >= BigInt.asIntN(64, LLONG_MAX - b) : a <= LLONG_MAX - b;
}

/** C's `(long long)d` on x86-64: truncation; NaN and values outside the range give LLONG_MIN. */
function castInt64(d: number): bigint {
  if (!(d >= -TWO63 && d < TWO63)) return -(1n << 63n);
  return BigInt(Math.trunc(d));
}

/** The same cast as a number (exact: the result is a double's truncation or −2^63). */
function castInt(d: number): number {
  if (!(d >= -TWO63 && d < TWO63)) return -TWO63;
  return Math.trunc(d) + 0;
}

/** RedisBloom's rank rounding: the truncation when |fraction| ≤ 0.5, else one step away from zero. */
function halfRoundDown(x: number): number {
  if (!Number.isFinite(x)) return x;
  const t = Math.trunc(x);
  const frac = x - t;
  if (Math.abs(frac) <= 0.5) return t;
  return x > 0 ? t + 1 : t - 1;
}

/** C's round(): halves away from zero. */
function roundHalfAway(x: number): number {
  if (!Number.isFinite(x)) return x;
  const t = Math.trunc(x);
  if (Math.abs(x - t) >= 0.5) return x > 0 ? t + 1 : t - 1;
  return t;
}

/** C's `MIN(a, b)` macro: `a < b ? a : b`. */
function cMin(a: number, b: number): number {
  return a < b ? a : b;
}

/** C's `MAX(a, b)` macro: `a > b ? a : b`. */
function cMax(a: number, b: number): number {
  return a > b ? a : b;
}

/** t-digest-c's weighted average: the arguments ordered so that x1 ≤ x2, the result clamped to [x1, x2]. */
function weightedAverage(x1: number, w1: number, x2: number, w2: number): number {
  if (x1 <= x2) return weightedAverageSorted(x1, w1, x2, w2);
  return weightedAverageSorted(x2, w2, x1, w1);
}

function weightedAverageSorted(x1: number, w1: number, x2: number, w2: number): number {
  const x = (x1 * w1 + x2 * w2) / (w1 + w2);
  return cMax(x1, cMin(x, x2));
}

/** Scratch permutation for sorting a wide digest. */
let order = new Float64Array(0);

/** td_qsort over a wide digest: sorts the means with an index array, then moves both weight stores alike. */
function sortWide(mean: Float64Array, weight: Float64Array, exact: BigInt64Array, n: number): void {
  if (order.length < n) order = new Float64Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  sortByMean(mean, order, 0, n - 1);
  const w = weight.slice(0, n);
  const e = exact.slice(0, n);
  for (let i = 0; i < n; i++) {
    const from = order[i]!;
    weight[i] = w[from]!;
    exact[i] = e[from]!;
  }
}
