/**
 * Bounds-checked little-endian readers and writers for the serializers.
 *
 * Every serialized format in redstruct (HYLL blobs, `toBytes()` buffers) is parsed through
 * {@link ByteReader}, which checks each read against the end of the input and throws a
 * `RedstructFormatError` naming the structure. This is the single place where hostile input meets
 * an index, so no structure can read past a truncated buffer by forgetting a check.
 */
import { formatError } from "./errors.js";

/** Sequential reader over a byte array; every read is bounds-checked. */
export class ByteReader {
  /** Current read position. */
  offset = 0;
  readonly #view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly where: string,
  ) {
    if (!(bytes instanceof Uint8Array)) throw formatError(where, `expected a Uint8Array, got ${typeof bytes}`);
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

  /** Checks a fixed ASCII magic string. */
  magic(text: string): void {
    this.need(text.length, `the magic "${text}"`);
    for (let i = 0; i < text.length; i++) {
      if (this.bytes[this.offset + i] !== text.charCodeAt(i)) {
        throw formatError(this.where, `bad magic: expected "${text}"`);
      }
    }
    this.offset += text.length;
  }

  /** Throws unless every byte has been consumed (trailing garbage is corruption, not padding). */
  end(): void {
    if (this.offset !== this.bytes.length) {
      throw formatError(this.where, `${this.remaining} unexpected trailing bytes at offset ${this.offset}`);
    }
  }
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
