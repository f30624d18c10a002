/**
 * `toBytes()` / `fromBytes()`: redstruct's own TDigest format, the whole state (the buffer and the
 * exact 64-bit weights included), so that a digest read back answers every later call as the original
 * would — unlike a DUMP payload, which RedisBloom writes after merging the buffer.
 *
 * Layout (version 1, little-endian): "RSTD", version byte 1; u32 compression; f64 min, f64 max;
 * u32 merged nodes, u32 unmerged nodes; u64 total compressions (< 2^53); i64 merged weight,
 * i64 unmerged weight; then, for every node (merged first, then the buffer), its f64 mean (a NaN mean,
 * which RedisBloom's arithmetic makes from ±DBL_MAX data, always as x86-64's default NaN
 * `00 00 00 00 00 00 f8 ff`, so the bytes do not depend on the engine), and then every node's i64
 * weight. 57 + 16·nodes bytes.
 *
 * Reading checks the compression and the node counts against the capacity and against the bytes
 * that follow (before allocating), and that a NaN mean has the one bit pattern written; the digest
 * then loads only if its state is one RedisBloom's operations reach (state.ts). O(nodes) either way.
 */
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { formatError } from "../internal/errors.js";
import { type DigestState, isDefaultNaN } from "./redis.js";
import { countProblem } from "./state.js";

const WHERE = "TDigest";
const MAGIC = "RSTD";
const VERSION = 1;
const HEADER = 4 + 1 + 4 + 16 + 8 + 8 + 16;

function writeI64(w: ByteWriter, v: bigint): void {
  const u = BigInt.asUintN(64, v);
  w.u32(Number(u & 0xffffffffn)).u32(Number(u >> 32n));
}

function readI64(r: ByteReader, what: string): bigint {
  const lo = r.u32(what);
  const hi = r.u32(what);
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}

/** The toBytes() buffer of a state whose `means`/`weights` hold every node. */
export function encodeBytes(s: DigestState): Uint8Array {
  const n = s.means.length;
  const w = new ByteWriter(HEADER + 16 * n);
  w.magic(MAGIC).u8(VERSION).u32(s.compression).f64(s.min).f64(s.max);
  w.u32(s.mergedNodes).u32(s.unmergedNodes).u53(s.totalCompressions);
  writeI64(w, s.mergedWeight);
  writeI64(w, s.unmergedWeight);
  for (let i = 0; i < n; i++) {
    const m = s.means[i]!;
    // One NaN pattern (x86-64's default NaN), whatever bits the engine keeps: the bytes are canonical.
    if (Number.isNaN(m)) w.u32(0).u32(0xfff80000);
    else w.f64(m);
  }
  const weights = s.weights;
  for (let i = 0; i < n; i++) {
    const v = weights[i]!;
    // Weights below 2^32 (nearly all) skip the bigint split.
    if (v >= 0n && v <= 0xffffffffn) w.u32(Number(v)).u32(0);
    else writeI64(w, v);
  }
  return w.finish();
}

/** Reads an {@link encodeBytes} buffer. */
export function decodeBytes(bytes: Uint8Array, maxCompression: number): DigestState {
  const r = new ByteReader(bytes, WHERE);
  r.header(MAGIC, VERSION);
  const compression = r.u32("the compression");
  const min = r.f64("the min");
  const max = r.f64("the max");
  const merged = r.u32("the merged node count");
  const unmerged = r.u32("the unmerged node count");
  const counts = countProblem(compression, merged, unmerged, maxCompression);
  if (counts !== null) throw formatError(WHERE, counts);
  const totalCompressions = r.u53("the compression count");
  const mergedWeight = readI64(r, "the merged weight");
  const unmergedWeight = readI64(r, "the unmerged weight");
  const n = merged + unmerged;
  if (r.remaining !== 16 * n) {
    throw formatError(WHERE, `${n} nodes need ${16 * n} bytes, got ${r.remaining}`);
  }
  const means = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const at = r.offset;
    const m = r.f64("a mean");
    if (Number.isNaN(m) && !isDefaultNaN(bytes, at)) {
      throw formatError(WHERE, `mean ${i} is a NaN other than the one toBytes() writes (00 00 00 00 00 00 f8 ff)`);
    }
    means[i] = m;
  }
  const weights = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    const lo = r.u32("a weight");
    const hi = r.u32("a weight");
    weights[i] = hi === 0 ? BigInt(lo) : BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
  }
  r.end();
  return {
    compression,
    min,
    max,
    mergedNodes: merged,
    unmergedNodes: unmerged,
    totalCompressions,
    mergedWeight,
    unmergedWeight,
    means,
    weights,
  };
}
