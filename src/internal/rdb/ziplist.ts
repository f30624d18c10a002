/**
 * Ziplists (src/ziplist.c), the encoding Redis up to 6.2 saved small sorted sets (RDB type 12) and
 * hashes (type 13) in; Redis 7 converts them to listpacks when it loads them. Read only, with every
 * check of `ziplistValidateIntegrity` in its deep mode.
 *
 * Layout (little-endian unless said): u32 total bytes, u32 offset of the last entry, u16 entry count
 * (65535 = "count them"), the entries, `FF`. An entry is `prevlen` (the previous entry's size: one
 * byte below 254, else `FE` + u32), an encoding, and data:
 *
 * | encoding | entry |
 * | --- | --- |
 * | `00LLLLLL` | string of 0..63 bytes |
 * | `01LLLLLL LLLLLLLL` | string, 14-bit length, big-endian |
 * | `10______` + u32 big-endian | string, 32-bit length |
 * | `C0` / `D0` / `E0` | int16 / int32 / int64 |
 * | `F0` | int24 |
 * | `FE` | int8 |
 * | `F1`..`FD` | the integers 0..12 (the low 4 bits minus 1) |
 */
import { formatError } from "../errors.js";
import type { RdbValue } from "./values.js";

const HEADER = 10;
const UNKNOWN_COUNT = 65535;
const END = 0xff;

/**
 * The entries of the ziplist `zl`, in order: strings as views into `zl` (copy what you keep),
 * integers as numbers (bigints beyond the safe range). Refused, as RedstructFormatError prefixed
 * `redstruct/<where>: ` and naming `what`: a header byte count other than the length, a missing
 * terminator, a tail offset past the end or not at the last entry, an unknown encoding, an entry
 * that runs past the end, a `prevlen` other than the previous entry's size, an entry count other
 * than the header's (unless 65535). O(bytes).
 */
export function readZiplist(zl: Uint8Array, where: string, what: string): RdbValue[] {
  const bad = (why: string) => formatError(where, `${what}: ${why}`);
  const size = zl.length;
  if (size < HEADER + 1) throw bad(`a ziplist of ${size} bytes, shorter than its 11-byte minimum`);
  const view = new DataView(zl.buffer, zl.byteOffset, zl.byteLength);
  const total = view.getUint32(0, true);
  if (total !== size) throw bad(`the ziplist header says ${total} bytes, it has ${size}`);
  if (zl[size - 1] !== END) throw bad("the ziplist does not end with its terminator (FF)");
  const tail = view.getUint32(4, true);
  if (tail > size - 1) throw bad(`the ziplist's tail offset ${tail} is past its end`);
  const declared = view.getUint16(8, true);
  const last = size - 1;
  const out: RdbValue[] = [];
  let p = HEADER;
  let prevSize = 0;
  let prevAt = -1;
  while (zl[p] !== END) {
    const n = out.length;
    const cut = () => bad(`entry ${n} runs past the end of the ziplist`);
    // prevlen
    let q = p;
    let prevlen: number;
    if (zl[q]! < 254) prevlen = zl[q++]!;
    else {
      if (q + 5 > last) throw cut();
      prevlen = view.getUint32(q + 1, true);
      q += 5;
    }
    if (prevlen !== prevSize) throw bad(`entry ${n} says the previous entry has ${prevlen} bytes, it has ${prevSize}`);
    if (q >= last) throw cut();
    const enc = zl[q]!;
    let len: number;
    let value: RdbValue;
    if (enc < 0xc0) {
      const kind = enc >>> 6;
      if (kind === 0) {
        len = enc & 0x3f;
        q += 1;
      } else if (kind === 1) {
        if (q + 2 > last) throw cut();
        len = ((enc & 0x3f) << 8) | zl[q + 1]!;
        q += 2;
      } else {
        if (q + 5 > last) throw cut();
        len = view.getUint32(q + 1, false);
        q += 5;
      }
      if (q + len > last) throw cut();
      value = zl.subarray(q, q + len);
    } else {
      q += 1;
      if (enc === 0xfe) len = 1;
      else if (enc === 0xc0) len = 2;
      else if (enc === 0xf0) len = 3;
      else if (enc === 0xd0) len = 4;
      else if (enc === 0xe0) len = 8;
      else if (enc >= 0xf1 && enc <= 0xfd) len = 0;
      else throw bad(`entry ${n} has the unknown encoding byte 0x${enc.toString(16)}`);
      if (q + len > last) throw cut();
      if (len === 0) value = (enc & 0x0f) - 1;
      else if (len === 1) value = view.getInt8(q);
      else if (len === 2) value = view.getInt16(q, true);
      else if (len === 3) value = ((view.getUint16(q, true) | (zl[q + 2]! << 16)) << 8) >> 8;
      else if (len === 4) value = view.getInt32(q, true);
      else {
        const lo = view.getUint32(q, true);
        const hi = view.getInt32(q + 4, true);
        const v = hi * 4294967296 + lo;
        value = Number.isSafeInteger(v) ? v : (BigInt(hi) << 32n) | BigInt(lo);
      }
    }
    out.push(value);
    prevAt = p;
    prevSize = q + len - p;
    p = q + len;
  }
  if (p !== last) throw bad(`the ziplist's terminator is at byte ${p}, not at its end`);
  if (prevAt >= 0 && prevAt !== tail) throw bad(`the ziplist's tail offset ${tail} is not its last entry (${prevAt})`);
  if (declared !== UNKNOWN_COUNT && declared !== out.length) {
    throw bad(`the ziplist header says ${declared} entries, it holds ${out.length}`);
  }
  return out;
}
