/**
 * `Dict.toBytes()` / `Dict.fromBytes()`: redstruct's versioned format for a dict's entries.
 *
 * Layout (version 1, little-endian): "RSDI", version byte (1), flags byte (bit 0: every value was
 * written by an `encodeValue` callback; other bits 0), u53 entry count, then per entry a key and a
 * value, each a tag byte and its payload:
 * - keys: 0 string (u32 byte length, WTF-8 — every JavaScript string, lone surrogates included,
 *   comes back unchanged), 1 number (float64), 2 bigint (u32 length, its decimal digits with an
 *   optional leading "-"), 3 bytes (u32 length, the bytes);
 * - values: 0 undefined, 1 null, 2 false, 3 true, 4 number (float64), 5 string (as a key),
 *   6 bigint (as a key), 7 bytes (as a key), 8 encoded (u32 length, what `encodeValue` returned).
 *
 * The SipHash key is not written: a dict read back draws a fresh secret key (or takes the one the
 * options give), so bytes sent to someone else never reveal the key that protects the sender's
 * tables. Reading checks every tag, length and encoding, refuses a key that appears twice and an
 * entry count the bytes cannot hold before anything is allocated, and copies every byte string out
 * of the input (nothing read aliases the caller's buffer). O(n + bytes) both ways.
 */
import { ByteReader, ByteWriter, checkBytes } from "../internal/bytes.js";
import { describe, formatError } from "../internal/errors.js";
import { decodeWtf8, wtf8 } from "../internal/wtf8.js";
import type { DictKey } from "./hash.js";

const WHERE = "Dict";
/** The magic of the format (registered in src/internal/bytes.ts). */
const DICT_MAGIC = "RSDI";
/** The format version this build writes and reads. */
const DICT_VERSION = 1;
const ENCODED = 1;

/** A key or value as it will be written: its tag and payload. */
interface Part {
  tag: number;
  /** Bytes of a string, bigint, byte array or encoded value; null for fixed-size payloads. */
  bytes: Uint8Array | null;
  /** The payload of a number. */
  number: number;
  /** Whether the payload is `number` as a float64. */
  isNumber: boolean;
}

const ascii = new TextEncoder();

function keyPart(key: DictKey): Part {
  if (typeof key === "string") return { tag: 0, bytes: wtf8(key), number: 0, isNumber: false };
  if (typeof key === "number") return { tag: 1, bytes: null, number: key, isNumber: true };
  if (typeof key === "bigint") return { tag: 2, bytes: ascii.encode(String(key)), number: 0, isNumber: false };
  return { tag: 3, bytes: key, number: 0, isNumber: false };
}

function valuePart(value: unknown, key: DictKey, encode: ((value: unknown) => Uint8Array) | undefined): Part {
  if (encode !== undefined) {
    // Copied at once: an encoder may hand back one scratch buffer each time, or transfer the last.
    const bytes = checkBytes(WHERE, `encodeValue(value of key ${describe(key)})`, encode(value)).slice();
    return { tag: 8, bytes, number: 0, isNumber: false };
  }
  switch (typeof value) {
    case "undefined":
      return { tag: 0, bytes: null, number: 0, isNumber: false };
    case "boolean":
      return { tag: value ? 3 : 2, bytes: null, number: 0, isNumber: false };
    case "number":
      return { tag: 4, bytes: null, number: value, isNumber: true };
    case "string":
      return { tag: 5, bytes: wtf8(value), number: 0, isNumber: false };
    case "bigint":
      return { tag: 6, bytes: ascii.encode(String(value)), number: 0, isNumber: false };
    default:
      if (value === null) return { tag: 1, bytes: null, number: 0, isNumber: false };
      if (value instanceof Uint8Array) return { tag: 7, bytes: value, number: 0, isNumber: false };
      throw new TypeError(
        `redstruct/${WHERE}: toBytes() stores strings, numbers, bigints, booleans, null, undefined and ` +
          `Uint8Arrays as they are; the value of key ${describe(key)} is ${describe(value)}: ` +
          "pass toBytes({ encodeValue }) (and fromBytes(bytes, { decodeValue })), e.g. JSON through TextEncoder",
      );
  }
}

function partSize(p: Part): number {
  return 1 + (p.bytes !== null ? 4 + p.bytes.length : p.isNumber ? 8 : 0);
}

function writePart(w: ByteWriter, p: Part): void {
  w.u8(p.tag);
  if (p.bytes !== null) w.u32(p.bytes.length).raw(p.bytes);
  else if (p.isNumber) w.f64(p.number);
}

/**
 * The bytes of `entries` (a snapshot of a dict's, taken before any callback runs: an `encodeValue`
 * that changes the dict changes nothing written).
 */
export function encodeDict(
  entries: readonly (readonly [DictKey, unknown])[],
  encodeValue: ((value: unknown) => Uint8Array) | undefined,
): Uint8Array {
  const size = entries.length;
  const parts: Part[] = [];
  let total = 4 + 1 + 1 + 8;
  for (const [k, v] of entries) {
    const kp = keyPart(k);
    const vp = valuePart(v, k, encodeValue);
    parts.push(kp, vp);
    total += partSize(kp) + partSize(vp);
  }
  const w = new ByteWriter(total);
  w.magic(DICT_MAGIC)
    .u8(DICT_VERSION)
    .u8(encodeValue !== undefined ? ENCODED : 0)
    .u53(size);
  for (let i = 0; i < parts.length; i += 2) {
    writePart(w, parts[i]!);
    writePart(w, parts[i + 1]!);
  }
  return w.finish();
}

/** What {@link decodeDict} reads: the keys and values, in order. */
interface DecodedDict {
  keys: DictKey[];
  values: unknown[];
}

function readString(r: ByteReader, what: string): string {
  const n = r.u32(`${what}'s length`);
  const view = r.view(n, what);
  const s = decodeWtf8(view);
  if (s === undefined) throw formatError(WHERE, `${what} is not WTF-8`);
  return s;
}

function readBigInt(r: ByteReader, what: string): bigint {
  const n = r.u32(`${what}'s length`);
  const view = r.view(n, what);
  let text = "";
  for (const b of view) text += String.fromCharCode(b);
  if (!/^-?(0|[1-9][0-9]*)$/.test(text) || text === "-0") throw formatError(WHERE, `${what} is not a decimal integer`);
  return BigInt(text);
}

/**
 * Parses and validates `bytes`; `decodeValue` is required when (and only when) the values were
 * written by an `encodeValue` callback, and its results are the values.
 * @throws RedstructFormatError on anything malformed, and when `decodeValue` is missing or not
 *   needed (the message says which).
 */
export function decodeDict(bytes: Uint8Array, decodeValue: ((bytes: Uint8Array) => unknown) | undefined): DecodedDict {
  const r = new ByteReader(bytes, WHERE);
  r.header(DICT_MAGIC, DICT_VERSION);
  const flags = r.u8("the flags");
  if (flags > ENCODED) throw formatError(WHERE, `unknown flags ${flags}`);
  const encoded = flags === ENCODED;
  // The bytes and the call disagree: a format error (hostile bytes can flip the flag), with the fix.
  if (encoded && decodeValue === undefined) {
    throw formatError(
      WHERE,
      "these bytes hold values written by an encodeValue callback: pass fromBytes(bytes, { decodeValue })",
    );
  }
  if (!encoded && decodeValue !== undefined) {
    throw formatError(
      WHERE,
      "decodeValue was given but these bytes were written without encodeValue: their values are stored as they are",
    );
  }
  const n = r.u53("the entry count");
  // The smallest entry is 2 bytes (a tag each), 6 when encoded.
  if (n > r.remaining / (encoded ? 6 : 2)) {
    throw formatError(WHERE, `entry count ${n} cannot fit in the ${r.remaining} bytes that follow`);
  }
  const keys: DictKey[] = [];
  const values: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const kt = r.u8(`key ${i}'s tag`);
    let key: DictKey;
    if (kt === 0) key = readString(r, `key ${i}`);
    else if (kt === 1) key = r.f64(`key ${i}`);
    else if (kt === 2) key = readBigInt(r, `key ${i}`);
    else if (kt === 3) key = r.view(r.u32(`key ${i}'s length`), `key ${i}`).slice();
    else throw formatError(WHERE, `key ${i} has unknown tag ${kt}`);
    const vt = r.u8(`value ${i}'s tag`);
    if (encoded !== (vt === 8)) {
      throw formatError(
        WHERE,
        `value ${i} has tag ${vt}, ${encoded ? "expected 8 (encoded)" : "8 needs the encoded flag"}`,
      );
    }
    let value: unknown;
    switch (vt) {
      case 0:
        value = undefined;
        break;
      case 1:
        value = null;
        break;
      case 2:
        value = false;
        break;
      case 3:
        value = true;
        break;
      case 4:
        value = r.f64(`value ${i}`);
        break;
      case 5:
        value = readString(r, `value ${i}`);
        break;
      case 6:
        value = readBigInt(r, `value ${i}`);
        break;
      case 7:
        value = r.view(r.u32(`value ${i}'s length`), `value ${i}`).slice();
        break;
      case 8:
        value = r.view(r.u32(`value ${i}'s length`), `value ${i}`).slice();
        break;
      default:
        throw formatError(WHERE, `value ${i} has unknown tag ${vt}`);
    }
    keys.push(key);
    values.push(value);
  }
  r.end();
  // The callback sees values only once every byte has been checked.
  if (encoded)
    for (let i = 0; i < n; i++) values[i] = (decodeValue as (b: Uint8Array) => unknown)(values[i] as Uint8Array);
  return { keys, values };
}
