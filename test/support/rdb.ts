/**
 * Hand assembly of RDB fixtures, independent of the codec under test: DUMP payloads around a body
 * (type byte, value, RDB version, CRC-64), RDB lengths, and ziplists built from the layout that
 * src/ziplist.c documents (with Redis 6.2's `zipTryEncoding` choice of integer encodings), so that
 * the readers meet payloads no writer of ours produced.
 */
import { crc64Into } from "../../src/hash/crc64.js";

/** An RDB length (rdbSaveLen), as bytes: 6-bit, 14-bit big-endian, `80` + u32 or `81` + u64 big-endian. */
export function rdbLength(n: number): number[] {
  if (n < 64) return [n];
  if (n < 16384) return [0x40 | (n >>> 8), n & 0xff];
  if (n <= 0xffffffff) return [0x80, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const hi = Math.floor(n / 2 ** 32);
  return [0x81, ...rdbLength32(hi), ...rdbLength32(n % 2 ** 32)];
}

function rdbLength32(v: number): number[] {
  return [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

/** A raw RDB string: its length, then its bytes. */
export function rdbRaw(bytes: ArrayLike<number>): number[] {
  return [...rdbLength(bytes.length), ...Array.from(bytes)];
}

/** A DUMP payload: `type`, `body`, the RDB version (u16 little-endian) and the CRC-64 (u64 little-endian). */
export function dumpPayload(type: number, body: ArrayLike<number>, version = 10): Uint8Array {
  const out = new Uint8Array(1 + body.length + 10);
  out[0] = type;
  out.set(Array.from(body), 1);
  out[1 + body.length] = version & 0xff;
  out[2 + body.length] = version >>> 8;
  crc64Into(out, 0, out.length - 8, out, out.length - 8);
  return out;
}

/** Recomputes a payload's CRC-64 trailer in place (a no-op below 10 bytes); returns it. */
export function withCrc(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 10) crc64Into(bytes, 0, bytes.length - 8, bytes, bytes.length - 8);
  return bytes;
}

/** Sets a payload's RDB version (and recomputes its CRC); returns a copy. */
export function withVersion(payload: Uint8Array, version: number): Uint8Array {
  const out = payload.slice();
  out[out.length - 10] = version & 0xff;
  out[out.length - 9] = version >>> 8;
  return withCrc(out);
}

/** A ziplist entry: a string (integer-encoded when 6.2 would), or `{ raw }` to keep a string as bytes. */
export type ZiplistEntry = string | { raw: string } | { bytes: Uint8Array };

const utf8 = new TextEncoder();

/** The integer 6.2's zipTryEncoding stores a string as (< 32 bytes, string2ll), else undefined. */
function zipInteger(s: string): bigint | undefined {
  if (s.length === 0 || s.length >= 32) return undefined;
  if (!/^(0|-?[1-9][0-9]*)$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < -(2n ** 63n) || v >= 2n ** 63n ? undefined : v;
}

/** The encoding and data bytes of one entry. */
function zipEntryBody(e: ZiplistEntry): number[] {
  const bytes = typeof e === "string" ? utf8.encode(e) : "raw" in e ? utf8.encode(e.raw) : e.bytes;
  const int = typeof e === "string" ? zipInteger(e) : undefined;
  if (int !== undefined) {
    const le = (v: bigint, n: number) =>
      Array.from({ length: n }, (_, i) => Number((BigInt.asUintN(64, v) >> BigInt(8 * i)) & 0xffn));
    if (int >= 0n && int <= 12n) return [0xf1 + Number(int)];
    if (int >= -128n && int <= 127n) return [0xfe, ...le(int, 1)];
    if (int >= -32768n && int <= 32767n) return [0xc0, ...le(int, 2)];
    if (int >= -8388608n && int <= 8388607n) return [0xf0, ...le(int, 3)];
    if (int >= -2147483648n && int <= 2147483647n) return [0xd0, ...le(int, 4)];
    return [0xe0, ...le(int, 8)];
  }
  const n = bytes.length;
  if (n <= 63) return [n, ...bytes];
  if (n <= 16383) return [0x40 | (n >>> 8), n & 0xff, ...bytes];
  return [0x80, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff, ...bytes];
}

/**
 * A ziplist as src/ziplist.c lays it out: u32 total bytes, u32 offset of the last entry, u16 count,
 * entries (`prevlen` in 1 byte below 254, else `FE` + u32; the encoding; the data), `FF`.
 * `bigPrevlen` writes every prevlen in the 5-byte form (as a cascade update may leave them).
 */
export function ziplist(entries: readonly ZiplistEntry[], { bigPrevlen = false } = {}): Uint8Array {
  const body: number[] = [];
  let prev = 0;
  let tail = 10;
  for (const e of entries) {
    tail = 10 + body.length;
    const prevlen =
      prev < 254 && !bigPrevlen ? [prev] : [0xfe, prev & 0xff, (prev >>> 8) & 0xff, (prev >>> 16) & 0xff, prev >>> 24];
    const entry = [...prevlen, ...zipEntryBody(e)];
    body.push(...entry);
    prev = entry.length;
  }
  const total = 10 + body.length + 1;
  const count = Math.min(entries.length, 65535);
  return Uint8Array.from([
    total & 0xff,
    (total >>> 8) & 0xff,
    (total >>> 16) & 0xff,
    total >>> 24,
    tail & 0xff,
    (tail >>> 8) & 0xff,
    (tail >>> 16) & 0xff,
    tail >>> 24,
    count & 0xff,
    count >>> 8,
    ...body,
    0xff,
  ]);
}

/** Bytes as lowercase hex, for readable comparisons. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Bytes from a hex string (spaces allowed). */
export function fromHex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  return Uint8Array.from({ length: clean.length / 2 }, (_, i) => Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16));
}
