/**
 * The `DUMP` / `RESTORE` payload of a Redis key (src/cluster.c `createDumpPayload`, src/rdb.c): one
 * RDB value — its type byte, then its encoding — followed by the RDB version as u16 little-endian
 * and the CRC-64-Jones of everything before the CRC, u64 little-endian.
 *
 * RDB primitives (src/rdb.h), all read here through {@link ByteReader}, so every read is checked
 * against the end of the value (the trailer excluded):
 * - length: `00LLLLLL` (< 64), `01LLLLLL LLLLLLLL` (< 16384, big-endian), `80` + u32 big-endian,
 *   `81` + u64 big-endian; `11xxxxxx` marks an encoded string instead;
 * - string: a length and that many bytes; or `C0`/`C1`/`C2` + an int8/16/32 little-endian (the
 *   decimal text of that integer), or `C3` + compressed length + length + an LZF stream. Redis writes
 *   a string of ≤ 11 bytes that `string2ll` accepts within the int32 range as an integer, one of
 *   more than 20 bytes LZF-compressed when that saves at least 4 bytes, and any other raw
 *   (`rdbSaveRawString`); {@link DumpWriter.string} makes the same choices, so its bytes are Redis's;
 * - binary double: 8 bytes little-endian (sorted-set scores since RDB 8).
 *
 * {@link openDump} checks the trailer first (the RDB version against the range the caller reads,
 * then the CRC), refusing with a RedstructFormatError that names the version, and hands the type
 * byte to the caller, which names a type it does not read with {@link typeName};
 * {@link DumpWriter} builds a payload and {@link DumpWriter.finish} appends the trailer.
 * Lengths are checked against the bytes left before anything is allocated: an LZF stream may not
 * announce more than {@link LZF_MAX_RATIO} times its size.
 */
import { crc64Into } from "../../hash/crc64.js";
import { ByteReader, checkBytes, withRoom } from "../bytes.js";
import { formatError } from "../errors.js";
import { encodeWtf8Into } from "../wtf8.js";
import { LZF_MAX_RATIO, lzfCompress, lzfDecompress } from "./lzf.js";
import { int64Of, int64OfBytes, isWellFormed, type RdbValue } from "./values.js";

/** The RDB version Redis 7.0 writes, and the one {@link DumpWriter} writes. */
export const RDB_VERSION = 10;

/** RDB value types (src/rdb.h) the readers and writers name. */
export const RdbType = {
  HASH: 4,
  ZSET_2: 5,
  MODULE_2: 7,
  ZSET_ZIPLIST: 12,
  HASH_ZIPLIST: 13,
  HASH_LISTPACK: 16,
  ZSET_LISTPACK: 17,
} as const;

/** What each RDB type is, for messages (Redis 2.x to 8.x, src/rdb.h). */
const TYPE_NAMES: Record<number, string> = {
  0: "a string",
  1: "a list (linked list)",
  2: "a set (hash table)",
  3: "a sorted set in the pre-RDB-8 format (text scores)",
  4: "a hash (hash table)",
  5: "a sorted set (skiplist)",
  6: "a module value (4.0 release candidates)",
  7: "a module value",
  9: "a hash (zipmap, Redis 2.x)",
  10: "a list (ziplist)",
  11: "a set (intset)",
  12: "a sorted set (ziplist)",
  13: "a hash (ziplist)",
  14: "a list (quicklist)",
  15: "a stream",
  16: "a hash (listpack)",
  17: "a sorted set (listpack)",
  18: "a list (quicklist of listpacks)",
  19: "a stream (RDB 10)",
  20: "a set (listpack)",
  21: "a stream (RDB 11)",
  22: "a hash with field expiry (7.4 release candidates)",
  23: "a hash with field expiry (listpack, 7.4 release candidates)",
  24: "a hash with field expiry",
  25: "a hash with field expiry (listpack)",
};

/** "RDB type 5 (a sorted set (skiplist))", or "RDB type 99 (unknown)". */
export function typeName(type: number): string {
  return `RDB type ${type} (${TYPE_NAMES[type] ?? "unknown"})`;
}

/** The trailer: u16 RDB version and u64 CRC-64. */
const TRAILER = 10;

/** What {@link openDump} reads: the payload's RDB version, its value type, and a reader of the value. */
export interface OpenDump {
  version: number;
  type: number;
  reader: DumpReader;
}

/**
 * Opens a DUMP payload: checks its trailer — at least 11 bytes (a type byte and the trailer), an RDB version in
 * [minVersion, maxVersion], the CRC-64 — and reads its type byte. A RedstructFormatError prefixed
 * `redstruct/<where>: ` and opening with "not <what>'s DUMP payload" names the version or says the
 * CRC does not match. The caller then checks the type (see {@link typeName}). O(bytes) for the CRC.
 * @throws TypeError when `payload` is not a Uint8Array or is detached.
 */
export function openDump(
  payload: Uint8Array,
  where: string,
  what: string,
  minVersion: number,
  maxVersion: number,
): OpenDump {
  checkBytes(where, "payload", payload);
  const len = payload.length;
  const bad = (why: string) => formatError(where, `not ${what}'s DUMP payload: ${why}`);
  if (len < TRAILER + 1) {
    throw bad(`${len} bytes, shorter than a type byte and the 10-byte trailer (RDB version and CRC-64)`);
  }
  const version = payload[len - 10]! | (payload[len - 9]! << 8);
  if (version < minVersion || version > maxVersion) {
    throw bad(
      `RDB version ${version}; this build reads versions ${minVersion} to ${maxVersion}` +
        (version > maxVersion ? " (written by a newer Redis?)" : " (written by an older Redis?)"),
    );
  }
  const crc = new Uint8Array(8);
  crc64Into(payload, 0, len - 8, crc, 0);
  for (let i = 0; i < 8; i++) {
    if (crc[i] !== payload[len - 8 + i]) throw bad("the CRC-64 does not match (corrupted or truncated)");
  }
  const reader = new DumpReader(payload.subarray(0, len - TRAILER), where);
  const type = reader.r.u8("the RDB type");
  return { version, type, reader };
}

/** Reads RDB primitives from a value's bytes (the trailer excluded); every read bounds-checked. */
export class DumpReader {
  /** The underlying reader: its `offset` is the position in the payload. */
  readonly r: ByteReader;
  readonly #where: string;

  constructor(value: Uint8Array, where: string) {
    this.r = new ByteReader(value, where);
    this.#where = where;
  }

  /** Bytes left before the trailer. */
  get remaining(): number {
    return this.r.remaining;
  }

  /**
   * Reads an RDB length (refusing an encoded-string marker and a 64-bit length of 2^53 or more).
   * Returns it with `encoded` false; for a `11xxxxxx` byte, when `allowEncoded`, returns its low 6
   * bits with `encoded` true.
   */
  #length(what: string, allowEncoded: boolean): [number, boolean] {
    const r = this.r;
    const first = r.u8(what);
    switch (first >>> 6) {
      case 0:
        return [first, false];
      case 1:
        return [((first & 0x3f) << 8) | r.u8(what), false];
      case 3:
        if (!allowEncoded) {
          throw formatError(
            this.#where,
            `${what}: the byte 0x${first.toString(16)} marks an encoded string, not a length`,
          );
        }
        return [first & 0x3f, true];
    }
    if (first === 0x80) {
      const b = r.view(4, what);
      return [((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0, false];
    }
    if (first === 0x81) {
      const b = r.view(8, what);
      const hi = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
      const lo = ((b[4]! << 24) | (b[5]! << 16) | (b[6]! << 8) | b[7]!) >>> 0;
      if (hi > 0x1fffff) throw formatError(this.#where, `${what}: the 64-bit length ${hi}·2^32 + ${lo} exceeds 2^53`);
      return [hi * 4294967296 + lo, false];
    }
    throw formatError(this.#where, `${what}: the byte 0x${first.toString(16)} is not an RDB length`);
  }

  /** An RDB length (rdbLoadLen). @throws RedstructFormatError for an encoded-string marker or ≥ 2^53. */
  length(what: string): number {
    return this.#length(what, false)[0];
  }

  /**
   * An RDB string (rdbGenericLoadStringObject): raw bytes as a view into the payload (copy what you
   * keep), an integer-encoded string as its integer, an LZF-compressed one expanded into a new array
   * — after checking that its lengths fit the bytes left and that the stream could expand that far.
   */
  string(what: string): RdbValue {
    const [len, encoded] = this.#length(what, true);
    const r = this.r;
    if (!encoded) return r.view(len, what);
    switch (len) {
      case 0: {
        const v = r.u8(what);
        return (v << 24) >> 24;
      }
      case 1: {
        const b = r.view(2, what);
        return ((b[0]! | (b[1]! << 8)) << 16) >> 16;
      }
      case 2: {
        const b = r.view(4, what);
        return b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24);
      }
      case 3: {
        const compressed = this.length(`${what}'s compressed length`);
        const length = this.length(`${what}'s length`);
        if (compressed > r.remaining) {
          throw formatError(this.#where, `${what}: ${compressed} compressed bytes announced, ${r.remaining} left`);
        }
        if (length > LZF_MAX_RATIO * compressed) {
          throw formatError(
            this.#where,
            `${what}: ${compressed} LZF bytes cannot expand to the ${length} announced (at most ${LZF_MAX_RATIO}×)`,
          );
        }
        const start = r.offset;
        r.offset += compressed;
        return lzfDecompress(r.bytes, start, start + compressed, length, this.#where, what);
      }
      default:
        throw formatError(this.#where, `${what}: unknown string encoding 0x${(0xc0 | len).toString(16)}`);
    }
  }

  /** A binary double (8 bytes little-endian), as RDB 8+ saves sorted-set scores. */
  double(what: string): number {
    return this.r.f64(what);
  }

  /** Throws unless the value has been read to its end (trailing bytes are corruption). */
  end(): void {
    this.r.end();
  }
}

/**
 * Scratch arrays for LZF output and for the UTF-8 of JavaScript strings: reused, grown by doubling up
 * to 64 KiB as strings need them; a longer string takes a one-shot array, so what is kept between
 * calls stays bounded.
 */
const SCRATCH_KEEP = 1 << 16;
let lzfOut: Uint8Array = new Uint8Array(256);
let textBytes: Uint8Array = new Uint8Array(256);

/** `current` when it holds `n` bytes, else a larger array (kept by the caller only up to SCRATCH_KEEP). */
function scratch(current: Uint8Array, n: number): Uint8Array {
  return n <= current.length ? current : new Uint8Array(n <= SCRATCH_KEEP ? Math.max(n, 2 * current.length) : n);
}

/**
 * Builds a DUMP payload: the type byte, then the value's RDB primitives, then (in
 * {@link finish}) the trailer. Grows as it goes. Strings are written as Redis's `rdbSaveRawString`
 * writes them (see the module comment).
 */
export class DumpWriter {
  #buf: Uint8Array;
  #view: DataView;
  #at = 0;

  /** Starts a payload of RDB type `type`; `sizeHint` is the expected size in bytes. */
  constructor(type: number, sizeHint = 64) {
    this.#buf = new Uint8Array(Math.max(64, sizeHint));
    this.#view = new DataView(this.#buf.buffer);
    this.#buf[this.#at++] = type;
  }

  #room(n: number): void {
    const grown = withRoom(this.#buf, this.#at, n);
    if (grown === this.#buf) return;
    this.#buf = grown;
    this.#view = new DataView(grown.buffer);
  }

  /** Writes one byte. */
  u8(v: number): this {
    this.#room(1);
    this.#buf[this.#at++] = v;
    return this;
  }

  /** Writes bytes as they are. */
  raw(b: ArrayLike<number>): this {
    this.#room(b.length);
    this.#buf.set(b, this.#at);
    this.#at += b.length;
    return this;
  }

  /** Writes a non-negative safe integer as an RDB length (rdbSaveLen: the shortest form). */
  length(n: number): this {
    this.#room(9);
    const b = this.#buf;
    if (n < 64) b[this.#at++] = n;
    else if (n < 16384) {
      b[this.#at++] = 0x40 | (n >>> 8);
      b[this.#at++] = n & 0xff;
    } else if (n <= 0xffffffff) {
      b[this.#at++] = 0x80;
      this.#view.setUint32(this.#at, n, false);
      this.#at += 4;
    } else {
      b[this.#at++] = 0x81;
      this.#view.setUint32(this.#at, Math.floor(n / 4294967296), false);
      this.#view.setUint32(this.#at + 4, n % 4294967296, false);
      this.#at += 8;
    }
    return this;
  }

  /** Writes a float64 little-endian (rdbSaveBinaryDoubleValue). */
  double(v: number): this {
    if (this.#at + 8 > this.#buf.length) this.#room(8);
    this.#view.setFloat64(this.#at, v, true);
    this.#at += 8;
    return this;
  }

  /** Writes `b[start, end)` as an RDB string, as rdbSaveRawString chooses (integer, LZF or raw). */
  string(b: Uint8Array, start = 0, end = b.length): this {
    const len = end - start;
    if (len <= 11) {
      const v = int64OfBytes(b, start, end);
      if (typeof v === "number" && v >= -2147483648 && v <= 2147483647) return this.#integer(v);
    }
    if (len > 20) {
      const out = scratch(lzfOut, len + 1);
      if (out.length <= SCRATCH_KEEP) lzfOut = out;
      const compressed = lzfCompress(b, start, end, out, 0, len - 4);
      if (compressed > 0) {
        this.#lzf(out, compressed, len);
        return this;
      }
    }
    this.length(len);
    this.#room(len);
    this.#buf.set(b.subarray(start, end), this.#at);
    this.#at += len;
    return this;
  }

  /**
   * Writes a JavaScript string's UTF-8 bytes as an RDB string (see {@link string}), or, when it holds
   * a lone surrogate (no UTF-8 form), writes nothing and returns false. An ASCII string is copied
   * once, straight into place (or into the compressor's input), with no intermediate array.
   */
  text(s: string): boolean {
    const n = s.length;
    if (this.#at + n + 16 > this.#buf.length) this.#room(n + 16);
    const b = this.#buf;
    const at = this.#at;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      b[at + 1 + i] = c;
    }
    if (i < n) {
      if (!isWellFormed(s)) return false;
      const t = scratch(textBytes, 3 * n);
      if (t.length <= SCRATCH_KEEP) textBytes = t;
      this.string(t, 0, encodeWtf8Into(s, t, 0));
      return true;
    }
    // The ASCII bytes sit at at + 1: the place of a string shorter than 64 bytes.
    if (n <= 11) {
      const v = int64Of(s);
      if (typeof v === "number" && v >= -2147483648 && v <= 2147483647) {
        this.#integer(v);
        return true;
      }
    } else if (n > 20) {
      const out = scratch(lzfOut, n + 1);
      if (out.length <= SCRATCH_KEEP) lzfOut = out;
      const compressed = lzfCompress(b, at + 1, at + 1 + n, out, 0, n - 4);
      if (compressed > 0) {
        this.#lzf(out, compressed, n);
        return true;
      }
    }
    if (n < 64) {
      b[at] = n;
      this.#at = at + 1 + n;
    } else {
      const head = n < 16384 ? 2 : 5;
      b.copyWithin(at + head, at + 1, at + 1 + n);
      this.length(n);
      this.#at += n;
    }
    return true;
  }

  /** Writes an LZF-compressed string: `C3`, the compressed and original lengths, `data[0, compressed)`. */
  #lzf(data: Uint8Array, compressed: number, length: number): void {
    this.u8(0xc3).length(compressed).length(length);
    this.#room(compressed);
    this.#buf.set(data.subarray(0, compressed), this.#at);
    this.#at += compressed;
  }

  /** rdbEncodeInteger: `C0` int8, `C1` int16, `C2` int32, little-endian. */
  #integer(v: number): this {
    this.#room(5);
    const b = this.#buf;
    if (v >= -128 && v <= 127) {
      b[this.#at++] = 0xc0;
      b[this.#at++] = v & 0xff;
    } else if (v >= -32768 && v <= 32767) {
      b[this.#at++] = 0xc1;
      b[this.#at++] = v & 0xff;
      b[this.#at++] = (v >> 8) & 0xff;
    } else {
      b[this.#at++] = 0xc2;
      this.#view.setInt32(this.#at, v, true);
      this.#at += 4;
    }
    return this;
  }

  /**
   * The payload: what was written, the RDB version (10) and the CRC-64. A view of the writer's own
   * array when that is at most 1/8 larger than the payload (a size hint that was right), else a copy
   * of the exact size. The writer is done after this.
   */
  finish(): Uint8Array {
    const n = this.#at;
    this.#room(TRAILER);
    const fits = n + TRAILER >= this.#buf.length - (this.#buf.length >>> 3);
    const out = fits ? this.#buf.subarray(0, n + TRAILER) : this.#buf.slice(0, n + TRAILER);
    out[n] = RDB_VERSION & 0xff;
    out[n + 1] = RDB_VERSION >>> 8;
    crc64Into(out, 0, n + 2, out, n + 2);
    return out;
  }
}
