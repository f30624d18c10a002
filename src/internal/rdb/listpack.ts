/**
 * Listpacks (Redis ≥ 7.0's src/listpack.c), written byte for byte as Redis builds them and read
 * with every check of `lpValidateIntegrity` in its deep mode.
 *
 * Layout: u32 total bytes, u16 element count (65535 = "count them"), the elements, `FF`; all
 * little-endian. An element is an encoding byte (with its data), then its "backlen": the size of
 * encoding + data in 1..5 bytes, 7 bits each, most significant first, every byte but the first with
 * its top bit set (so it reads backwards from the element's last byte).
 *
 * | first byte | element |
 * | --- | --- |
 * | `0xxxxxxx` | integer 0..127 |
 * | `10LLLLLL` | string of 0..63 bytes |
 * | `110xxxxx` + 1 byte | 13-bit integer, two's complement, −4096..4095 |
 * | `1110LLLL` + 1 byte | string of < 4096 bytes (12-bit length, big-endian) |
 * | `F0` + u32 | string (32-bit length) |
 * | `F1` / `F2` / `F3` / `F4` | 16 / 24 / 32 / 64-bit integer, little-endian two's complement |
 *
 * A string that `string2ll` accepts is stored as the smallest integer encoding of its value (see
 * ./values.ts); that is how both writers here pick an encoding, so their bytes are Redis's.
 */

import { withRoom } from "../bytes.js";
import { formatError } from "../errors.js";
import { encodeWtf8Into, wtf8Length } from "../wtf8.js";
import { int64Of, int64OfBytes, type RdbValue } from "./values.js";

/** The header: u32 total bytes, u16 element count. */
const HEADER = 6;
/** The element count a header holds when it cannot say (the elements must be counted). */
const UNKNOWN_COUNT = 65535;
const EOF = 0xff;

/** Bytes of the backlen of an element of `l` bytes (Redis's lpEncodeBacklen boundaries). */
function backlenSize(l: number): number {
  return l <= 127 ? 1 : l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
}

/** Builds a listpack element by element, as Redis's lpAppend / lpAppendInteger do. */
export class ListpackWriter {
  #buf: Uint8Array = new Uint8Array(256);
  #at = HEADER;
  #count = 0;

  /** Elements written so far. */
  get count(): number {
    return this.#count;
  }

  #room(n: number): void {
    this.#buf = withRoom(this.#buf, this.#at, n);
  }

  #backlen(l: number): void {
    const b = this.#buf;
    let at = this.#at;
    if (l <= 127) b[at++] = l;
    else if (l < 16383) {
      b[at++] = l >>> 7;
      b[at++] = (l & 127) | 128;
    } else if (l < 2097151) {
      b[at++] = l >>> 14;
      b[at++] = ((l >>> 7) & 127) | 128;
      b[at++] = (l & 127) | 128;
    } else if (l < 268435455) {
      b[at++] = l >>> 21;
      b[at++] = ((l >>> 14) & 127) | 128;
      b[at++] = ((l >>> 7) & 127) | 128;
      b[at++] = (l & 127) | 128;
    } else {
      b[at++] = Math.floor(l / 2 ** 28);
      b[at++] = ((l >>> 21) & 127) | 128;
      b[at++] = ((l >>> 14) & 127) | 128;
      b[at++] = ((l >>> 7) & 127) | 128;
      b[at++] = (l & 127) | 128;
    }
    this.#at = at;
    this.#count++;
  }

  /** Appends an integer element (Redis's lpAppendInteger): `v` an integer within the int64 range. */
  integer(v: number | bigint): void {
    this.#room(9 + 1);
    const b = this.#buf;
    const at = this.#at;
    let size: number;
    if (typeof v === "number" && v >= -2147483648 && v <= 2147483647) {
      if (v >= 0 && v <= 127) {
        b[at] = v;
        size = 1;
      } else if (v >= -4096 && v <= 4095) {
        const u = v < 0 ? 8192 + v : v;
        b[at] = (u >>> 8) | 0xc0;
        b[at + 1] = u & 0xff;
        size = 2;
      } else if (v >= -32768 && v <= 32767) {
        b[at] = 0xf1;
        b[at + 1] = v & 0xff;
        b[at + 2] = (v >> 8) & 0xff;
        size = 3;
      } else if (v >= -8388608 && v <= 8388607) {
        b[at] = 0xf2;
        b[at + 1] = v & 0xff;
        b[at + 2] = (v >> 8) & 0xff;
        b[at + 3] = (v >> 16) & 0xff;
        size = 4;
      } else {
        b[at] = 0xf3;
        b[at + 1] = v & 0xff;
        b[at + 2] = (v >> 8) & 0xff;
        b[at + 3] = (v >> 16) & 0xff;
        b[at + 4] = (v >>> 24) & 0xff;
        size = 5;
      }
    } else {
      // 64-bit: low and high words of the two's complement.
      let lo: number;
      let hi: number;
      if (typeof v === "number") {
        hi = Math.floor(v / 4294967296);
        lo = v - hi * 4294967296;
      } else {
        const u = BigInt.asUintN(64, v);
        hi = Number(u >> 32n);
        lo = Number(u & 0xffffffffn);
      }
      b[at] = 0xf4;
      for (let k = 0; k < 4; k++) b[at + 1 + k] = (lo >>> (8 * k)) & 0xff;
      for (let k = 0; k < 4; k++) b[at + 5 + k] = (hi >>> (8 * k)) & 0xff;
      size = 9;
    }
    this.#at = at + size;
    this.#backlen(size);
  }

  /**
   * Appends a JavaScript string as its UTF-8 bytes — an integer element when `string2ll` accepts it,
   * as lpAppend does. The caller has refused lone surrogates (a well-formed string's WTF-8 is its
   * UTF-8).
   */
  string(s: string): void {
    const int = s.length <= 20 ? int64Of(s) : undefined;
    if (int !== undefined) {
      this.integer(int);
      return;
    }
    const len = wtf8Length(s);
    const head = this.#stringHead(len);
    this.#at = encodeWtf8Into(s, this.#buf, this.#at);
    this.#backlen(head + len);
  }

  /** Appends the bytes `b[start, end)` as lpAppend does (an integer element when they are one). */
  bytes(b: Uint8Array, start = 0, end = b.length): void {
    const int = int64OfBytes(b, start, end);
    if (int !== undefined) {
      this.integer(int);
      return;
    }
    const len = end - start;
    const head = this.#stringHead(len);
    this.#buf.set(b.subarray(start, end), this.#at);
    this.#at += len;
    this.#backlen(head + len);
  }

  /** Writes a string element's encoding for `len` bytes, making room for all of it; returns its size. */
  #stringHead(len: number): number {
    this.#room(5 + len + 5);
    const b = this.#buf;
    const at = this.#at;
    if (len < 64) {
      b[at] = 0x80 | len;
      this.#at = at + 1;
      return 1;
    }
    if (len < 4096) {
      b[at] = 0xe0 | (len >>> 8);
      b[at + 1] = len & 0xff;
      this.#at = at + 2;
      return 2;
    }
    b[at] = 0xf0;
    for (let k = 0; k < 4; k++) b[at + 1 + k] = (len >>> (8 * k)) & 0xff;
    this.#at = at + 5;
    return 5;
  }

  /** The listpack: header, elements, terminator, in a new array of its exact size. O(bytes). */
  finish(): Uint8Array {
    const total = this.#at + 1;
    const out = new Uint8Array(total);
    out.set(this.#buf.subarray(0, this.#at));
    out[this.#at] = EOF;
    out[0] = total & 0xff;
    out[1] = (total >>> 8) & 0xff;
    out[2] = (total >>> 16) & 0xff;
    out[3] = (total >>> 24) & 0xff;
    const count = Math.min(this.#count, UNKNOWN_COUNT);
    out[4] = count & 0xff;
    out[5] = count >>> 8;
    return out;
  }
}

/**
 * The elements of the listpack `lp`, in order: strings as views into `lp` (copy what you keep),
 * integers as numbers (bigints beyond the safe range). Checked as Redis's deep validation checks
 * them — the header's byte count against the length, the terminator, every element's encoding,
 * bounds and backlen, the element count (unless 65535) — and a RedstructFormatError prefixed
 * `redstruct/<where>: ` and naming `what` for any failure. O(bytes).
 */
export function readListpack(lp: Uint8Array, where: string, what: string): RdbValue[] {
  const bad = (why: string) => formatError(where, `${what}: ${why}`);
  const size = lp.length;
  if (size < HEADER + 1) throw bad(`a listpack of ${size} bytes, shorter than its 7-byte minimum`);
  const total = (lp[0]! | (lp[1]! << 8) | (lp[2]! << 16) | (lp[3]! << 24)) >>> 0;
  if (total !== size) throw bad(`the listpack header says ${total} bytes, it has ${size}`);
  if (lp[size - 1] !== EOF) throw bad("the listpack does not end with its terminator (FF)");
  const declared = lp[4]! | (lp[5]! << 8);
  const view = new DataView(lp.buffer, lp.byteOffset, lp.byteLength);
  const out: RdbValue[] = [];
  const last = size - 1; // the terminator
  let p = HEADER;
  while (p < last) {
    const b = lp[p]!;
    let head: number; // encoding bytes
    let len: number; // data bytes
    let value: RdbValue;
    if (b < 0x80) {
      head = 1;
      len = 0;
      value = b;
    } else if (b < 0xc0) {
      head = 1;
      len = b & 0x3f;
      value = lp.subarray(p + 1, p + 1 + len);
    } else if (b < 0xe0) {
      head = 2;
      len = 0;
      if (p + 2 > last) throw bad(`element ${out.length} is cut short`);
      const u = ((b & 0x1f) << 8) | lp[p + 1]!;
      value = u >= 4096 ? u - 8192 : u;
    } else if (b < 0xf0) {
      head = 2;
      if (p + 2 > last) throw bad(`element ${out.length} is cut short`);
      len = ((b & 0x0f) << 8) | lp[p + 1]!;
      value = lp.subarray(p + 2, p + 2 + len);
    } else if (b === 0xf0) {
      head = 5;
      if (p + 5 > last) throw bad(`element ${out.length} is cut short`);
      len = view.getUint32(p + 1, true);
      value = lp.subarray(p + 5, p + 5 + len);
    } else if (b >= 0xf1 && b <= 0xf4) {
      head = 1;
      len = b === 0xf1 ? 2 : b === 0xf2 ? 3 : b === 0xf3 ? 4 : 8;
      if (p + 1 + len > last) throw bad(`element ${out.length} is cut short`);
      if (b === 0xf1) value = view.getInt16(p + 1, true);
      else if (b === 0xf2) value = ((view.getUint16(p + 1, true) | (lp[p + 3]! << 16)) << 8) >> 8;
      else if (b === 0xf3) value = view.getInt32(p + 1, true);
      else {
        const lo = view.getUint32(p + 1, true);
        const hi = view.getInt32(p + 5, true);
        const v = hi * 4294967296 + lo;
        value = Number.isSafeInteger(v) ? v : (BigInt(hi) << 32n) | BigInt(lo);
      }
    } else {
      throw bad(`element ${out.length} has the unknown encoding byte 0x${b.toString(16)}`);
    }
    const entry = head + len;
    const end = p + entry + backlenSize(entry); // the next element
    if (end > last) throw bad(`element ${out.length} runs past the end of the listpack`);
    // The backlen, read backwards from the element's last byte, must give its size.
    let back = 0;
    let shift = 0;
    for (let q = end - 1; ; q--) {
      back += (lp[q]! & 127) * 2 ** shift;
      if (!(lp[q]! & 128)) break;
      shift += 7;
      if (shift > 28 || q <= p + entry) {
        back = -1;
        break;
      }
    }
    if (back !== entry) throw bad(`element ${out.length}'s backlen does not match its size ${entry}`);
    out.push(value);
    p = end;
  }
  if (declared !== UNKNOWN_COUNT && declared !== out.length) {
    throw bad(`the listpack header says ${declared} elements, it holds ${out.length}`);
  }
  return out;
}
