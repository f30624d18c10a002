/**
 * Bounds-checked little-endian readers and writers for the serializers.
 *
 * Every serialized format in redstruct (HYLL blobs, `toBytes()` buffers) is parsed through
 * {@link ByteReader}, which checks each read against the end of the input and throws a
 * `RedstructFormatError` naming the structure. This is the single place where hostile input meets
 * an index, so no structure can read past a truncated buffer by forgetting a check.
 */
import { article, formatError, typeError } from "./errors.js";

/**
 * Whether a view's buffer was detached (transferred to a worker, or resized away): such a view reads
 * as empty, so hashing or loading it would silently use the wrong bytes. Node 20 lacks
 * `ArrayBuffer.prototype.detached`; there only an empty view can be detached, and a DataView over
 * a detached buffer is refused, which tells the two apart. Any typed array or DataView.
 */
function isDetached(view: ArrayBufferView): boolean {
  const buffer = view.buffer as ArrayBuffer & { detached?: boolean };
  if (typeof buffer.detached === "boolean") return buffer.detached;
  let length: number;
  try {
    length = view.byteLength;
  } catch {
    return true; // a DataView over a detached buffer refuses to say its length
  }
  if (length !== 0 || buffer.byteLength !== 0) return false;
  try {
    new DataView(buffer);
    return false;
  } catch {
    return true;
  }
}

/**
 * Checks a byte input: a `Uint8Array` (a Node `Buffer` is one) whose buffer is not detached.
 * @throws TypeError naming the parameter (null, a string, an array, a detached view).
 */
export function checkBytes(where: string, param: string, bytes: unknown): Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw typeError(where, param, bytes, "a Uint8Array (a Buffer is one)");
  }
  return refuseDetached(where, param, bytes);
}

/**
 * Returns `view` unless its buffer was detached, which no typed array or DataView can tell from
 * empty by its length alone.
 * @throws TypeError naming the parameter and the view's type.
 */
export function refuseDetached<T extends ArrayBufferView>(where: string, param: string, view: T): T {
  if (isDetached(view)) {
    const type = view.constructor.name;
    throw new TypeError(
      `redstruct/${where}: ${param} is ${article(type)} ${type} whose buffer was detached ` +
        "(transferred to a worker?): it holds nothing",
    );
  }
  return view;
}

/**
 * The magic of every byte format redstruct reads, and what reads it: redstruct's own `toBytes()`
 * formats and Redis's HYLL string, so that bytes handed to the wrong reader are named.
 */
const FORMATS: Record<string, string> = {
  HYLL: "a Redis HYLL string: read it with HyperLogLog.fromRedis()",
  RHLL: "a HyperLogLog's toBytes(): read them with HyperLogLog.fromBytes()",
  RULL: "an UltraLogLog's toBytes(): read them with UltraLogLog.fromBytes()",
  RELL: "an ExaLogLog's toBytes(): read them with ExaLogLog.fromBytes()",
  RSBF: "a BloomFilter's toBytes(): read them with BloomFilter.fromBytes()",
  RSBB: "a BlockedBloomFilter's toBytes(): read them with BlockedBloomFilter.fromBytes()",
  RSSB: "a ScalableBloomFilter's toBytes(): read them with ScalableBloomFilter.fromBytes()",
  RSRB: "a RedisBloomFilter's toBytes(): read them with RedisBloomFilter.fromBytes()",
  RSCF: "a CuckooFilter's toBytes(): read them with CuckooFilter.fromBytes()",
  RSCM: "a CountMinSketch's toBytes(): read them with CountMinSketch.fromBytes()",
  RSTK: "a TopK's toBytes(): read them with TopK.fromBytes()",
  RSTD: "a TDigest's toBytes(): read them with TDigest.fromBytes()",
  RSZS: "a SortedSet's toBytes(): read them with SortedSet.fromBytes()",
  RSGE: "a GeoSet's toBytes(): read them with GeoSet.fromBytes()",
  RSDI: "a Dict's toBytes(): read them with Dict.fromBytes()",
  RSBM: "a Bitmap's toBytes(): read them with Bitmap.fromBytes()",
  RSRO: "a RoaringBitmap's toBytes(): read them with RoaringBitmap.fromBytes()",
};

/**
 * What bytes that open with a known magic are and which method reads them ("a Redis HYLL string:
 * read it with HyperLogLog.fromRedis()"), or undefined for bytes of no known format. For messages.
 */
export function knownFormat(bytes: Uint8Array): string | undefined {
  return bytes.length >= 4 ? FORMATS[latin1(bytes.subarray(0, 4))] : undefined;
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");
}

/** Sequential reader over a byte array; every read is bounds-checked. */
export class ByteReader {
  /** Current read position. */
  offset = 0;
  readonly #view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly where: string,
  ) {
    checkBytes(where, "bytes", bytes);
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Bytes left to read. */
  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  /** Throws unless `n` more bytes are available. */
  need(n: number, what: string): void {
    if (n < 0 || this.offset + n > this.bytes.length) {
      throw formatError(
        this.where,
        `truncated input: ${what} needs ${n} bytes at offset ${this.offset}, ${this.remaining} left`,
      );
    }
  }

  u8(what = "a byte"): number {
    this.need(1, what);
    return this.bytes[this.offset++] as number;
  }

  u16(what = "a 16-bit word"): number {
    this.need(2, what);
    const v = this.#view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }

  u32(what = "a 32-bit word"): number {
    this.need(4, what);
    const v = this.#view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }

  f64(what = "a float64"): number {
    this.need(8, what);
    const v = this.#view.getFloat64(this.offset, true);
    this.offset += 8;
    return v;
  }

  /** Reads an unsigned 64-bit value that must fit in a safe integer. */
  u53(what = "a 64-bit length"): number {
    const lo = this.u32(what);
    const hi = this.u32(what);
    if (hi > 0x1fffff) throw formatError(this.where, `${what} ${hi}·2^32+${lo} exceeds 2^53`);
    return hi * 0x100000000 + lo;
  }

  /** Returns a view (not a copy) of the next `n` bytes. */
  view(n: number, what = "a byte range"): Uint8Array {
    this.need(n, what);
    const v = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }

  /**
   * Reads the opening of one of redstruct's own formats: its 4-character magic, then a version byte
   * that must be `version`. Bytes of another known format are named, with the method that reads
   * them (a HYLL string handed to `fromBytes`, a Bloom filter's bytes handed to a sketch).
   */
  header(magic: string, version: number): void {
    const found = this.bytes.length >= this.offset + 4 ? latin1(this.bytes.subarray(this.offset, this.offset + 4)) : "";
    if (found !== magic) {
      const owner = knownFormat(this.bytes.subarray(this.offset));
      const expected = `${this.where}.fromBytes() reads bytes that open with "${magic}"`;
      if (owner) throw formatError(this.where, `these bytes are ${owner}; ${expected}`);
      const shown =
        this.bytes.length === 0 ? "are empty" : `open with ${hex(this.bytes.subarray(this.offset, this.offset + 4))}`;
      throw formatError(this.where, `these bytes ${shown}: not a ${this.where}'s toBytes() output; ${expected}`);
    }
    this.offset += 4;
    const v = this.u8("the format version");
    if (v !== version) {
      throw formatError(
        this.where,
        `format version ${v} is not one this build reads (it reads version ${version})` +
          (v > version ? "; written by a newer redstruct?" : ""),
      );
    }
  }

  /** Throws unless every byte has been consumed (trailing garbage is corruption, not padding). */
  end(): void {
    if (this.offset !== this.bytes.length) {
      throw formatError(this.where, `${this.remaining} unexpected trailing bytes at offset ${this.offset}`);
    }
  }
}

/**
 * `buf` when it has room for `extra` more bytes after its first `used`, else a copy of those `used`
 * bytes in an array at least twice as large: how the writers of formats whose size is known only at
 * the end (DUMP payloads, listpacks) grow.
 */
export function withRoom(buf: Uint8Array, used: number, extra: number): Uint8Array {
  if (used + extra <= buf.length) return buf;
  let size = Math.max(buf.length * 2, 16);
  while (size < used + extra) size *= 2;
  const grown = new Uint8Array(size);
  grown.set(buf.subarray(0, used));
  return grown;
}

/** Writer into a preallocated byte array of known final size. */
export class ByteWriter {
  offset = 0;
  readonly bytes: Uint8Array;
  readonly #view: DataView;

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.#view = new DataView(this.bytes.buffer);
  }

  u8(v: number): this {
    this.bytes[this.offset++] = v;
    return this;
  }

  u16(v: number): this {
    this.#view.setUint16(this.offset, v, true);
    this.offset += 2;
    return this;
  }

  u32(v: number): this {
    this.#view.setUint32(this.offset, v, true);
    this.offset += 4;
    return this;
  }

  f64(v: number): this {
    this.#view.setFloat64(this.offset, v, true);
    this.offset += 8;
    return this;
  }

  /** Writes a non-negative safe integer as 64-bit little-endian. */
  u53(v: number): this {
    this.u32(v % 0x100000000);
    return this.u32(Math.floor(v / 0x100000000));
  }

  raw(src: ArrayLike<number>): this {
    this.bytes.set(src, this.offset);
    this.offset += src.length;
    return this;
  }

  magic(text: string): this {
    for (let i = 0; i < text.length; i++) this.bytes[this.offset++] = text.charCodeAt(i);
    return this;
  }

  /** Returns the bytes, checking that exactly the announced size was written. */
  finish(): Uint8Array {
    if (this.offset !== this.bytes.length) {
      throw new Error(`redstruct internal: wrote ${this.offset} of ${this.bytes.length} bytes`);
    }
    return this.bytes;
  }
}
