/**
 * The `DUMP` payload of a RedisBloom TDIGEST key (RDB version 10), written and read byte for byte
 * (facts from test/vectors/redisbloom/README.md, "DUMP / RESTORE payload"):
 *
 * - `07` (RDB_TYPE_MODULE_2), then the module id as an RDB 64-bit length, `81` + 8 bytes big-endian
 *   `4c3212f9360f1000`: "TDIS-TYPE" in the module charset (6 bits a character) shifted left by 10,
 *   encoding version 0 in the low 10 bits;
 * - the fields, each an opcode and a value: `04` + float64 little-endian (SaveDouble) or `02` + an RDB
 *   length (SaveSigned; negative values as their unsigned 64-bit form): compression, min, max (doubles),
 *   capacity, merged nodes, unmerged nodes, total compressions (signed), merged weight, unmerged weight
 *   (doubles), then the merged nodes' means and their weights (doubles);
 * - `00` (module EOF), `0a 00` (RDB version 10, little-endian), the CRC-64-Jones of all of it, little-endian.
 *
 * An RDB length is `00xxxxxx` (< 64), `01xxxxxx xxxxxxxx` (< 16384, big-endian), `80` + 4 bytes or
 * `81` + 8 bytes big-endian. RESTORE converts the weight doubles back with C's `(long long)` (2^63
 * becomes −2^63 on x86-64) and leaves the unmerged nodes, which DUMP does not save, as zeros.
 *
 * Reading is the hostile-input boundary: the CRC, the RDB version, the type byte and the module id
 * first; then every field is checked against what RedisBloom can have written (see {@link decodeDump})
 * and the payload's length against the node count before anything is allocated. NaN is written as
 * x86-64's default NaN (`00 00 00 00 00 00 f8 ff`), the NaN RedisBloom's arithmetic produces.
 */
import { formatError } from "../internal/errors.js";
import { DumpWriter, openDump, RdbType, typeName } from "../internal/rdb/dump.js";
import { countProblem } from "./state.js";

const WHERE = "TDigest";

/** A digest's state as the serializers carry it. */
export interface DigestState {
  compression: number;
  min: number;
  max: number;
  mergedNodes: number;
  unmergedNodes: number;
  totalCompressions: number;
  /** C's merged_weight and unmerged_weight (signed 64-bit). */
  mergedWeight: bigint;
  unmergedWeight: bigint;
  /** The saved nodes' means and exact weights (the merged ones for a DUMP; every node for toBytes). */
  means: Float64Array;
  weights: BigInt64Array;
}

/** "TDIS-TYPE" << 10 | encver 0, big-endian. */
const MODULE_ID = [0x4c, 0x32, 0x12, 0xf9, 0x36, 0x0f, 0x10, 0x00];
const OP_EOF = 0;
const OP_SIGNED = 2;
const OP_DOUBLE = 4;
/** The RDB versions whose DUMP payloads carry this layout: Redis 7.0 (10) to 7.4/8.x (12). */
const RDB_VERSION_MIN = 10;
const RDB_VERSION_MAX = 12;
/** x86-64's default NaN, little-endian: the NaN RedisBloom's arithmetic makes. */
const DEFAULT_NAN = [0, 0, 0, 0, 0, 0, 0xf8, 0xff];
const MODULE_CHARSET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const TWO63 = 2 ** 63;

/** Whether the 8 bytes at `at` are x86-64's default NaN, the NaN RedisBloom's arithmetic makes. */
export function isDefaultNaN(bytes: Uint8Array, at: number): boolean {
  for (let k = 0; k < 6; k++) if (bytes[at + k] !== 0) return false;
  return bytes[at + 6] === 0xf8 && bytes[at + 7] === 0xff;
}

/**
 * What a payload may make RESTORE allocate beyond its own size, for the unmerged nodes it counts but
 * does not hold: 1 MiB, 65,536 nodes (a MERGE of RESTOREd one-observation digests can fill a buffer
 * with zeroed nodes, all counted by a payload of a few dozen bytes).
 */
const ZEROED_NODES_BYTES = 1 << 20;

/** Bytes of one SaveDouble field. */
const DOUBLE_FIELD = 9;

function lengthBytes(v: number): number {
  return v < 64 ? 1 : v < 16384 ? 2 : v <= 0xffffffff ? 5 : 9;
}

/** The DUMP payload of a state whose `means`/`weights` are its merged nodes. O(n). */
export function encodeDump(s: DigestState): Uint8Array {
  const n = s.mergedNodes;
  const counts = [6 * s.compression + 10, s.mergedNodes, s.unmergedNodes, s.totalCompressions];
  let size = 1 + 9 + DOUBLE_FIELD * 3 + DOUBLE_FIELD * 2 + 2 * n * DOUBLE_FIELD + 1 + 2 + 8;
  for (const c of counts) size += 1 + lengthBytes(c);
  const w = new DumpWriter(RdbType.MODULE_2, size).u8(0x81).raw(MODULE_ID);
  const double = (v: number) => {
    w.u8(OP_DOUBLE);
    if (Number.isNaN(v)) w.raw(DEFAULT_NAN);
    else w.double(v);
  };
  double(s.compression);
  double(s.min);
  double(s.max);
  for (const c of counts) w.u8(OP_SIGNED).length(c);
  double(Number(s.mergedWeight));
  double(Number(s.unmergedWeight));
  for (let i = 0; i < n; i++) double(s.means[i]!);
  for (let i = 0; i < n; i++) double(Number(s.weights[i]!));
  return w.u8(OP_EOF).finish();
}

/**
 * The state a TDIGEST key's DUMP payload holds, as RESTORE loads it: `means`/`weights` hold the merged
 * nodes; the unmerged nodes are zeros. Refused, as RedstructFormatError, before anything is allocated:
 * - a payload shorter than its trailer, an RDB version outside 10..12, a CRC-64 that does not match;
 * - a value that is not a module value, a module other than TDIS-TYPE, an encoding version other than 0;
 * - a field with the wrong opcode, an RDB length of the "encoded" kind, a payload that ends early or
 *   has bytes after the module's EOF;
 * - what DUMP cannot have written: a compression or node counts no digest has (state.ts), a capacity
 *   other than 6·compression + 10, a weight that is not an integer double (a total in [−2^63, 2^63],
 *   as C's `(long long)` reads it back; a centroid's in [0, 2^63)), a NaN mean other than x86-64's
 *   default NaN, and unmerged nodes in a digest of total weight above 1 (DUMP merges the buffer
 *   first, and only a total ≤ 1 stops it);
 * - more nodes, counting the unmerged ones RESTORE fills with zeros, than 16 bytes each of the payload
 *   or 65,536 (a payload cannot make the digest allocate more than its own size, or 1 MiB).
 * The state itself is then checked by the caller (TDigest.fromRedis, with state.ts's rules).
 */
export function decodeDump(bytes: Uint8Array, maxCompression: number): DigestState {
  const { type, reader } = openDump(bytes, WHERE, "a TDIGEST key", RDB_VERSION_MIN, RDB_VERSION_MAX);
  const len = bytes.length;
  const r = reader.r;
  const bad = (message: string) => formatError(WHERE, `not a TDIGEST key's DUMP payload: ${message}`);
  if (type !== RdbType.MODULE_2)
    throw bad(`${typeName(type)}, not a module value (7): the DUMP of a key of another type`);
  const id = r.view(9, "the module id");
  if (id[0] !== 0x81) throw bad(`module id encoded with length byte 0x${id[0]!.toString(16)}, not 0x81`);
  if (MODULE_ID.some((b, i) => id[i + 1] !== b)) {
    const view = new DataView(id.buffer, id.byteOffset + 1, 8);
    const hi = view.getUint32(0, false);
    const lo = view.getUint32(4, false);
    const encver = lo & 0x3ff;
    let name = "";
    // 9 characters of 6 bits from the top of the 64-bit id; the low 10 bits are the encoding version.
    const full = (BigInt(hi) << 32n) | BigInt(lo);
    for (let c = 0; c < 9; c++) name += MODULE_CHARSET[Number((full >> BigInt(58 - 6 * c)) & 63n)];
    if (name === "TDIS-TYPE") throw bad(`TDIS-TYPE encoding version ${encver}, this build reads 0`);
    throw bad(`a value of module type "${name}", not RedisBloom's "TDIS-TYPE"`);
  }
  const opcode = (what: string, expected: number, kind: string) => {
    const op = r.u8(what);
    if (op !== expected) throw bad(`${what}: opcode ${op}, expected ${kind} (${expected})`);
  };
  const double = (what: string): number => {
    opcode(what, OP_DOUBLE, "a double");
    return reader.double(what);
  };
  // SaveSigned writes a long long as an RDB length: counts are non-negative and below 2^53, or refused.
  const signed = (what: string): number => {
    opcode(what, OP_SIGNED, "a signed integer");
    return reader.length(what);
  };
  const weight = (what: string, v: number): bigint => {
    if (!Number.isInteger(v) || v < -TWO63 || v > TWO63) {
      throw bad(`${what} ${v} is not a 64-bit integer (RedisBloom saves (double) of a long long)`);
    }
    return v === TWO63 ? -(1n << 63n) : BigInt(v);
  };

  const compression = double("the compression");
  const compressionProblem = countProblem(compression, 0, 0, maxCompression);
  if (compressionProblem !== null) throw bad(compressionProblem);
  const min = double("the min");
  const max = double("the max");
  const cap = signed("the capacity");
  if (cap !== 6 * compression + 10) throw bad(`capacity ${cap}, expected 6·${compression} + 10`);
  const merged = signed("the merged node count");
  const unmerged = signed("the unmerged node count");
  const counts = countProblem(compression, merged, unmerged, maxCompression);
  if (counts !== null) throw bad(counts);
  const totalCompressions = signed("the compression count");
  const mwDouble = double("the merged weight");
  const mergedWeight = weight("the merged weight", mwDouble);
  const uwDouble = double("the unmerged weight");
  const unmergedWeight = weight("the unmerged weight", uwDouble);
  if (unmerged > 0 && !(mwDouble + uwDouble <= 1)) {
    throw bad(`${unmerged} unmerged nodes in a digest of total weight ${mwDouble + uwDouble} (DUMP merges them first)`);
  }
  if (reader.remaining !== 2 * DOUBLE_FIELD * merged + 1) {
    throw bad(
      `${merged} merged nodes need ${2 * DOUBLE_FIELD * merged + 1} more bytes, the payload has ${reader.remaining}`,
    );
  }
  if (16 * (merged + unmerged) > Math.max(len, ZEROED_NODES_BYTES)) {
    throw bad(
      `${merged + unmerged} nodes claimed by a ${len}-byte payload (more than its size, or ${ZEROED_NODES_BYTES / 16} nodes, to allocate)`,
    );
  }
  const means = new Float64Array(merged);
  const weights = new BigInt64Array(merged);
  for (let i = 0; i < merged; i++) {
    const m = double("a centroid mean");
    if (Number.isNaN(m) && !isDefaultNaN(r.bytes, r.offset - 8)) {
      throw bad(
        `centroid ${i}'s mean is a NaN other than x86-64's default (00 00 00 00 00 00 f8 ff), the one RedisBloom's arithmetic makes`,
      );
    }
    means[i] = m;
  }
  for (let i = 0; i < merged; i++) {
    const w = double("a centroid weight");
    // A centroid holds less than 2^63: td_add's checks keep every sum within 2^63 − 1, and a
    // centroid never holds all of it (its neighbours' quantiles bound it), so its double is below 2^63.
    if (!(Number.isInteger(w) && w >= 0 && w < TWO63))
      throw bad(`centroid ${i}'s weight ${w} is not an integer in [0, 2^63)`);
    weights[i] = BigInt(w);
  }
  const eof = r.u8("the module's EOF");
  if (eof !== OP_EOF) throw bad(`opcode ${eof} where the module's EOF (0) belongs`);
  reader.end();
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
