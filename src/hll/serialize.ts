/**
 * `toBytes()` / `fromBytes()`: redstruct's own compact, versioned HyperLogLog format, for any
 * precision (Redis's HYLL blob, in redis.ts, only exists for precision 14).
 *
 * Layout (version 2, little-endian):
 * - "RHLL" magic, version byte (2), precision byte (4..18), estimator byte (0 ertl, 1 classic),
 *   encoding byte (0 dense, 1 sparse), flags byte (bit 0: the martingale state follows; other bits 0);
 * - martingale state when flagged: three float64 — estimate, variance estimate, and the running sum
 *   Σ_j P(register j changes) — so a sketch read back continues its HIP estimate exactly;
 * - dense: the m registers packed 6 bits each, LSB-first (6m/8 bytes, the in-memory layout);
 * - sparse: u32 entry count n ≤ m, then n entries of 3 bytes, `index << 6 | value` with strictly
 *   increasing indexes and values 1..q+1 (index ≤ 2^18 − 1 and value ≤ 63 fit in 24 bits).
 *
 * An empty precision-14 sketch is 37 bytes (13 without the state), a dense one 12321.
 * Reading validates every field and every register and throws RedstructFormatError on the first
 * violation (the martingale state is checked against the registers by HyperLogLog.fromBytes). The
 * input is read once and not kept: registers are copied out. O(m) either way.
 */

import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { formatError } from "../internal/errors.js";

const WHERE = "HyperLogLog";
const MAGIC = "RHLL";
const VERSION = 2;

/** The martingale state as stored: see martingale.ts. */
interface MartingaleState {
  estimate: number;
  variance: number;
  sum: number;
}

/** What a decoded buffer holds: one register value per byte plus the sketch's settings. */
interface DecodedSketch {
  precision: number;
  estimator: number;
  values: Uint8Array;
  /** The martingale state, or null when the buffer does not carry it. */
  martingale: MartingaleState | null;
}

function header(w: ByteWriter, precision: number, estimator: number, encoding: number, mg: MartingaleState | null) {
  w.magic(MAGIC)
    .u8(VERSION)
    .u8(precision)
    .u8(estimator)
    .u8(encoding)
    .u8(mg === null ? 0 : 1);
  if (mg !== null) w.f64(mg.estimate).f64(mg.variance).f64(mg.sum);
}

/** Serializes packed dense registers (`packed[0 .. 6m/8)`). */
export function encodeDense(
  precision: number,
  estimator: number,
  mg: MartingaleState | null,
  packed: Uint8Array,
): Uint8Array {
  const body = ((1 << precision) * 6) / 8;
  const w = new ByteWriter(9 + (mg === null ? 0 : 24) + body);
  header(w, precision, estimator, 0, mg);
  w.raw(packed.subarray(0, body));
  return w.finish();
}

/** Serializes sparse entries (`entries[0 .. length)`, each `index << 6 | value`, sorted). */
export function encodeSparse(
  precision: number,
  estimator: number,
  mg: MartingaleState | null,
  entries: Uint32Array,
  length: number,
): Uint8Array {
  const w = new ByteWriter(13 + (mg === null ? 0 : 24) + 3 * length);
  header(w, precision, estimator, 1, mg);
  w.u32(length);
  for (let i = 0; i < length; i++) {
    const e = entries[i]!;
    w.u8(e & 0xff)
      .u8((e >>> 8) & 0xff)
      .u8(e >>> 16);
  }
  return w.finish();
}

/**
 * Parses and validates a `toBytes()` buffer.
 * @throws RedstructFormatError on a bad magic, version, field, length or register.
 */
export function decodeBytes(bytes: Uint8Array): DecodedSketch {
  const r = new ByteReader(bytes, WHERE);
  r.header(MAGIC, VERSION);
  const precision = r.u8("the precision");
  if (precision < 4 || precision > 18) throw formatError(WHERE, `precision ${precision} is outside 4..18`);
  const estimator = r.u8("the estimator");
  if (estimator > 1) throw formatError(WHERE, `unknown estimator code ${estimator}`);
  const encoding = r.u8("the encoding");
  let martingale: MartingaleState | null = null;
  {
    const flags = r.u8("the flags");
    if (flags > 1) throw formatError(WHERE, `unknown flags ${flags}`);
    if (flags === 1) {
      // Checked against the registers by the caller (stateProblem in martingale.ts).
      const estimate = r.f64("the martingale estimate");
      const variance = r.f64("the martingale variance");
      const sum = r.f64("the martingale sum");
      martingale = { estimate, variance, sum };
    }
  }
  const m = 1 << precision;
  const maxRun = 64 - precision + 1;
  const values = new Uint8Array(m);
  if (encoding === 0) {
    const packed = r.view((m * 6) / 8, "the dense registers");
    r.end();
    for (let i = 0, b = 0; i < m; i += 4, b += 3) {
      const b0 = packed[b]!;
      const b1 = packed[b + 1]!;
      const b2 = packed[b + 2]!;
      values[i] = b0 & 63;
      values[i + 1] = ((b0 >>> 6) | (b1 << 2)) & 63;
      values[i + 2] = ((b1 >>> 4) | (b2 << 4)) & 63;
      values[i + 3] = b2 >>> 2;
    }
    for (let i = 0; i < m; i++) {
      if (values[i]! > maxRun)
        throw formatError(WHERE, `register ${i} holds ${values[i]}, above the maximum ${maxRun}`);
    }
  } else if (encoding === 1) {
    const n = r.u32("the entry count");
    if (n > m) throw formatError(WHERE, `${n} sparse entries for ${m} registers`);
    const body = r.view(3 * n, "the sparse entries");
    r.end();
    let last = -1;
    for (let i = 0; i < n; i++) {
      const e = body[3 * i]! | (body[3 * i + 1]! << 8) | (body[3 * i + 2]! << 16);
      const index = e >>> 6;
      const value = e & 63;
      if (index >= m || index <= last) {
        throw formatError(WHERE, `sparse entry ${i} has index ${index}; indexes must increase and stay below ${m}`);
      }
      if (value === 0 || value > maxRun) {
        throw formatError(WHERE, `sparse entry ${i} holds ${value}, outside 1..${maxRun}`);
      }
      values[index] = value;
      last = index;
    }
  } else {
    throw formatError(WHERE, `unknown encoding ${encoding} (0 dense, 1 sparse)`);
  }
  return { precision, estimator, values, martingale };
}
