/**
 * `SortedSet#toBytes()` / `SortedSet.fromBytes()`: redstruct's versioned format for a sorted set.
 *
 * Layout (little-endian): "RSZS", version byte 1, u32 generator state (the seed from which the
 * set's generator continues, so a copy draws the same levels and random members), u32 entry count,
 * then per entry in order: f64 score, u32 byte length, the member's bytes. Members are written as
 * UTF-8 — WTF-8 strictly: a lone surrogate, which UTF-8 cannot carry, takes the 3-byte form of its
 * code unit, so every JavaScript string round-trips; a well-formed string's bytes are its UTF-8.
 *
 * Reading checks everything before trusting it: the count against the bytes left (each entry
 * takes at least 12) before any array is allocated, each length against the bytes left, the
 * encoding (no overlong form, no code point above U+10FFFF, no surrogate pair split into two
 * 3-byte forms), NaN scores, the order (strictly increasing in (score, member bytes)), duplicate
 * members, trailing bytes — and throws `RedstructFormatError` for any of them. O(n + bytes).
 */
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { formatError } from "../internal/errors.js";
import { MAX_SIZE } from "./core.js";
import { compareMembers } from "./order.js";

const MAGIC = "RSZS";
const VERSION = 1;
const HEADER = 4 + 1 + 4 + 4;
/** Bytes an entry takes at least: its score and its length. */
const ENTRY = 8 + 4;

/** Bytes of `s` in WTF-8 (UTF-8, lone surrogates as 3-byte forms). */
export function wtf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 4 bytes for 2 code units
      i++;
    } else n += 2;
  }
  return n;
}

/** Writes `s` as WTF-8 into `out` at `at`; returns the offset after it. */
export function wtf8Encode(s: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[at++] = c;
    } else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 63);
    } else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[at++] = 0xf0 | (c >> 18);
      out[at++] = 0x80 | ((c >> 12) & 63);
      out[at++] = 0x80 | ((c >> 6) & 63);
      out[at++] = 0x80 | (c & 63);
    } else {
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 63);
      out[at++] = 0x80 | (c & 63);
    }
  }
  return at;
}

/** Code units of the member being decoded (reused). */
let units = new Uint16Array(256);

/**
 * Decodes strict WTF-8 (the output of {@link wtf8Encode}, nothing else) or throws a
 * RedstructFormatError naming `what`.
 */
export function wtf8Decode(bytes: Uint8Array, where: string, what: string): string {
  if (units.length < bytes.length) units = new Uint16Array(Math.max(bytes.length, 2 * units.length));
  const u = units;
  const bad = () => formatError(where, `${what} is not valid UTF-8 (WTF-8)`);
  let n = 0;
  let lowAfterHigh = -1; // the unit index where a low surrogate would complete a high one
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      u[n++] = b;
      i++;
      continue;
    }
    let cp: number;
    let len: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      cp = b & 0x1f;
      len = 2;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      cp = b & 0x0f;
      len = 3;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      cp = b & 0x07;
      len = 4;
      min = 0x10000;
    } else {
      throw bad();
    }
    if (i + len > bytes.length) throw bad();
    for (let k = 1; k < len; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) throw bad();
      cp = (cp << 6) | (c & 63);
    }
    if (cp < min || cp > 0x10ffff) throw bad();
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      u[n++] = 0xd800 + (cp >> 10);
      u[n++] = 0xdc00 + (cp & 0x3ff);
    } else {
      // A lone low surrogate right after a lone high one is a pair written in two halves.
      if (cp >= 0xdc00 && cp < 0xe000 && lowAfterHigh === n) throw bad();
      u[n++] = cp;
      if (cp >= 0xd800 && cp < 0xdc00) lowAfterHigh = n;
    }
  }
  let s = "";
  for (let i = 0; i < n; i += 4096) s += String.fromCharCode.apply(null, u.subarray(i, Math.min(n, i + 4096)) as never);
  return s;
}

/** The bytes of a set holding `members[i]` with `scores[i]`, in order, and the generator state. */
export function writeSortedSet(state: number, members: readonly string[], scores: Float64Array): Uint8Array {
  const count = members.length;
  const lengths = new Uint32Array(count);
  let size = HEADER + ENTRY * count;
  for (let i = 0; i < count; i++) size += lengths[i] = wtf8Length(members[i]!);
  const w = new ByteWriter(size);
  w.magic(MAGIC).u8(VERSION).u32(state).u32(count);
  for (let i = 0; i < count; i++) {
    w.f64(scores[i]!).u32(lengths[i]!);
    w.offset = wtf8Encode(members[i]!, w.bytes, w.offset);
  }
  return w.finish();
}

/** What {@link readSortedSet} found: entries in order and the generator state. */
export interface ReadSet {
  state: number;
  members: string[];
  scores: Float64Array;
}

/** Reads and checks the bytes of {@link writeSortedSet}; duplicates are the caller's (its index sees them). */
export function readSortedSet(bytes: Uint8Array, where: string): ReadSet {
  const r = new ByteReader(bytes, where);
  r.header(MAGIC, VERSION);
  const state = r.u32("the generator state");
  const count = r.u32("the entry count");
  if (count > MAX_SIZE) throw formatError(where, `entry count ${count} exceeds the member limit 2^26`);
  if (count * ENTRY > r.remaining) {
    throw formatError(where, `${count} entries need at least ${count * ENTRY} bytes, ${r.remaining} left`);
  }
  const members = new Array<string>(count);
  const scores = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const score = r.f64(`the score of entry ${i}`);
    if (Number.isNaN(score)) throw formatError(where, `entry ${i} has a NaN score`);
    const len = r.u32(`the member length of entry ${i}`);
    const member = wtf8Decode(r.view(len, `the member of entry ${i}`), where, `the member of entry ${i}`);
    if (i > 0) {
      const prev = scores[i - 1]!;
      if (prev > score || (prev === score && compareMembers(members[i - 1]!, member) >= 0)) {
        throw formatError(where, `entry ${i} is out of order (entries must increase by score, then member bytes)`);
      }
    }
    members[i] = member;
    scores[i] = score;
  }
  r.end();
  return { state, members, scores };
}
