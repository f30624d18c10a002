/**
 * Redis's HYLL blob (src/hyperloglog.c): the bytes `GET key` returns for a HyperLogLog key, and
 * what `SET key <blob>` accepts before PFCOUNT / PFADD / PFMERGE.
 *
 * Layout (precision 14 only, m = 16384 registers):
 * - 16-byte header: "HYLL", encoding (0 dense, 1 sparse), 3 unused zero bytes, the cached
 *   cardinality as 8 bytes little-endian whose top bit (bit 7 of byte 15) means "stale".
 * - dense body: 12288 bytes, register i in bits [6i, 6i+6) LSB-first (the same packing as our
 *   in-memory dense form, so encoding is a copy).
 * - sparse body: opcodes that cover the 16384 registers in order —
 *   ZERO `00xxxxxx` (1..64 zero registers), XZERO `01xxxxxx yyyyyyyy` (1..16384 zero registers,
 *   14-bit length − 1), VAL `1vvvvvxx` (value 1..32 repeated 1..4 times).
 *
 * Reading is the hostile-input boundary: every opcode's run is checked against the registers left
 * before anything is written (CVE-2025-32023 was an XZERO run that Redis let run past the end of
 * its register array), the runs must cover exactly 16384 registers, a dense body must be exactly
 * 12288 bytes and no dense register may exceed 51 (= 64 − 14 + 1, the longest possible run).
 * Cost: O(blob length + m) to read, O(m) to write.
 */

import { knownFormat } from "../internal/bytes.js";
import { formatError } from "../internal/errors.js";

const WHERE = "HyperLogLog";

/** Redis's fixed precision and register count. */
export const REDIS_PRECISION = 14;
const REDIS_REGISTERS = 1 << REDIS_PRECISION;
/** Bytes of the packed dense registers (16384 × 6 bits). */
const REDIS_DENSE_BODY = (REDIS_REGISTERS * 6) / 8;
const REDIS_HEADER = 16;
/** `hll-sparse-max-bytes`: Redis promotes to dense rather than let a sparse blob grow past this. */
const REDIS_SPARSE_MAX_BYTES = 3000;
/**
 * The cached cardinality is 63 bits (the 64th is the stale flag); Redis's own PFCOUNT overflows
 * there (it answers −2^63 past it).
 */
const CACHE_LIMIT = 2 ** 63;
const MAX_RUN = 64 - REDIS_PRECISION + 1;
/** Largest value a VAL opcode can hold. */
const SPARSE_MAX_VALUE = 32;

const ENCODING_DENSE = 0;
const ENCODING_SPARSE = 1;

function writeHeader(out: Uint8Array, encoding: number, cardinality: number): void {
  out[0] = 0x48; // H
  out[1] = 0x59; // Y
  out[2] = 0x4c; // L
  out[3] = 0x4c; // L
  out[4] = encoding;
  if (!(cardinality < CACHE_LIMIT)) {
    // Not expressible in the 63-bit cache: mark it stale (zero bytes, top bit set) for Redis to recount.
    out[15] = 0x80;
    return;
  }
  // A valid (not stale) cache: Redis's PFCOUNT returns it without recounting, which is right
  // because our count with the Ertl estimator is PFCOUNT's count for the same registers.
  let lo = cardinality % 0x100000000;
  let hi = Math.floor(cardinality / 0x100000000);
  for (let i = 8; i < 12; i++, lo >>>= 8) out[i] = lo & 0xff;
  for (let i = 12; i < 16; i++, hi >>>= 8) out[i] = hi & 0xff;
  out[15]! &= 0x7f;
}

/**
 * A dense HYLL blob from packed registers (`packed[0 .. 12288)`, our in-memory layout).
 * @returns a new 12304-byte array.
 */
export function encodeRedisDense(packed: Uint8Array, cardinality: number): Uint8Array {
  const out = new Uint8Array(REDIS_HEADER + REDIS_DENSE_BODY);
  writeHeader(out, ENCODING_DENSE, cardinality);
  out.set(packed.subarray(0, REDIS_DENSE_BODY), REDIS_HEADER);
  return out;
}

/**
 * A sparse HYLL blob from one register value per byte (`values[0 .. 16384)`), in the canonical
 * form: maximal runs, XZERO only for runs of more than 64 zeros.
 * @returns the blob, or `null` when Redis could not hold these registers sparse (a value above 32,
 *   or more than {@link REDIS_SPARSE_MAX_BYTES} bytes).
 */
export function encodeRedisSparse(values: Uint8Array, cardinality: number): Uint8Array | null {
  // First pass: size (and the value check), so the blob is allocated once.
  let size = REDIS_HEADER;
  for (let i = 0; i < REDIS_REGISTERS; ) {
    const v = values[i]!;
    if (v > SPARSE_MAX_VALUE) return null;
    let j = i + 1;
    while (j < REDIS_REGISTERS && values[j] === v) j++;
    const run = j - i;
    size += v === 0 ? (run > 64 ? 2 : 1) : Math.ceil(run / 4);
    i = j;
  }
  if (size > REDIS_SPARSE_MAX_BYTES) return null;
  const out = new Uint8Array(size);
  writeHeader(out, ENCODING_SPARSE, cardinality);
  let pos = REDIS_HEADER;
  for (let i = 0; i < REDIS_REGISTERS; ) {
    const v = values[i]!;
    let j = i + 1;
    while (j < REDIS_REGISTERS && values[j] === v) j++;
    let run = j - i;
    if (v === 0) {
      // One run of zeros never exceeds 16384, the XZERO maximum.
      if (run > 64) {
        out[pos++] = 0x40 | ((run - 1) >>> 8);
        out[pos++] = (run - 1) & 0xff;
      } else {
        out[pos++] = run - 1;
      }
    } else {
      for (; run > 0; run -= 4) out[pos++] = 0x80 | ((v - 1) << 2) | (Math.min(run, 4) - 1);
    }
    i = j;
  }
  return out;
}

/**
 * Decodes a HYLL blob (dense or sparse) into one register value per byte; reads `bytes` (a checked
 * Uint8Array) once and keeps no reference to it.
 * @returns a new Uint8Array(16384).
 * @throws RedstructFormatError for anything that is not a well-formed blob.
 */
export function decodeRedis(bytes: Uint8Array): Uint8Array {
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (magic !== "HYLL") {
    const owner = knownFormat(bytes);
    const expected = 'HyperLogLog.fromRedis() reads Redis\'s HYLL string (GET of a PFADD key), which opens with "HYLL"';
    if (owner !== undefined) throw formatError(WHERE, `these bytes are ${owner}; ${expected}`);
    const shown = bytes.length === 0 ? "are empty" : `open with ${JSON.stringify(magic)}`;
    throw formatError(WHERE, `these bytes ${shown}: not a HYLL string; ${expected}`);
  }
  if (bytes.length < REDIS_HEADER) {
    throw formatError(WHERE, `a HYLL blob has a 16-byte header, got ${bytes.length} bytes`);
  }
  // Bytes 5..7 are unused and the cached cardinality (8..15) is only a cache: Redis ignores the
  // former and we recompute the latter, so neither can make the structure wrong.
  const values = new Uint8Array(REDIS_REGISTERS);
  const encoding = bytes[4];
  if (encoding === ENCODING_DENSE) {
    if (bytes.length !== REDIS_HEADER + REDIS_DENSE_BODY) {
      throw formatError(WHERE, `a dense HYLL blob is ${REDIS_HEADER + REDIS_DENSE_BODY} bytes, got ${bytes.length}`);
    }
    // 4 registers in every 3 bytes.
    for (let i = 0, b = REDIS_HEADER; i < REDIS_REGISTERS; i += 4, b += 3) {
      const b0 = bytes[b]!;
      const b1 = bytes[b + 1]!;
      const b2 = bytes[b + 2]!;
      values[i] = b0 & 63;
      values[i + 1] = ((b0 >>> 6) | (b1 << 2)) & 63;
      values[i + 2] = ((b1 >>> 4) | (b2 << 4)) & 63;
      values[i + 3] = b2 >>> 2;
    }
    for (let i = 0; i < REDIS_REGISTERS; i++) {
      if (values[i]! > MAX_RUN) {
        throw formatError(WHERE, `dense register ${i} holds ${values[i]}, above the maximum ${MAX_RUN}`);
      }
    }
    return values;
  }
  if (encoding !== ENCODING_SPARSE) {
    throw formatError(WHERE, `unknown HYLL encoding ${encoding} (0 dense, 1 sparse)`);
  }
  let index = 0;
  let pos = REDIS_HEADER;
  // Each opcode consumes at least one byte, so this loop ends after at most length − 16 steps.
  while (pos < bytes.length) {
    const op = bytes[pos]!;
    let run: number;
    let value = 0;
    if ((op & 0xc0) === 0x00) {
      run = (op & 0x3f) + 1;
      pos += 1;
    } else if ((op & 0xc0) === 0x40) {
      if (pos + 1 >= bytes.length) throw formatError(WHERE, `truncated XZERO opcode at offset ${pos}`);
      run = (((op & 0x3f) << 8) | bytes[pos + 1]!) + 1;
      pos += 2;
    } else {
      value = ((op >>> 2) & 0x1f) + 1;
      run = (op & 0x03) + 1;
      pos += 1;
    }
    if (run > REDIS_REGISTERS - index) {
      throw formatError(
        WHERE,
        `sparse opcode at offset ${pos} covers registers ${index}..${index + run - 1}, past the last register ${REDIS_REGISTERS - 1}`,
      );
    }
    // Zero runs need no write: `values` starts zeroed.
    if (value !== 0) values.fill(value, index, index + run);
    index += run;
  }
  if (index !== REDIS_REGISTERS) {
    throw formatError(WHERE, `sparse opcodes cover ${index} registers, expected ${REDIS_REGISTERS}`);
  }
  return values;
}
