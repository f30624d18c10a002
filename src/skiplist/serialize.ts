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
import { decodeWtf8, encodeWtf8Into, wtf8Length } from "../internal/wtf8.js";
import { compareMembers } from "./order.js";
import { MAX_SIZE } from "./zset.js";

const MAGIC = "RSZS";
const VERSION = 1;
const HEADER = 4 + 1 + 4 + 4;
/** Bytes an entry takes at least: its score and its length. */
const ENTRY = 8 + 4;

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
    w.offset = encodeWtf8Into(members[i]!, w.bytes, w.offset);
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
    const member = decodeWtf8(r.view(len, `the member of entry ${i}`));
    if (member === undefined) throw formatError(where, `the member of entry ${i} is not valid UTF-8 (WTF-8)`);
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
