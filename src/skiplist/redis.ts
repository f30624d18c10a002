/**
 * `SortedSet#toRedis()` / `SortedSet.fromRedis()`: a sorted set as a Redis key's `DUMP` payload,
 * through the RDB codec in src/internal/rdb (facts from Redis 7.0's src/rdb.c and src/t_zset.c).
 *
 * Writing, as redis-server 7.0 writes the same set (RDB version 10):
 * - a listpack (RDB type 17) while the set has at most 128 members and none is longer than 64 bytes
 *   (`zset-max-listpack-entries` / `-value`, Redis's defaults): member, score, member, score … in
 *   order; a member `string2ll` accepts is an integer element; a score that is an integer of
 *   magnitude ≤ 2^62 is an integer element (so −0 becomes 0, as Redis stores it), any other score
 *   the text `d2string` writes ("inf", "-inf", `%.17g`). The listpack is one RDB string, LZF-compressed
 *   when longer than 20 bytes and compressible, as every RDB string;
 * - otherwise the skiplist encoding (RDB type 5, ZSET_2): the member count, then each member as an
 *   RDB string and its score as a binary double, from the last entry to the first (Redis walks its
 *   skiplist from the tail, so that loading inserts at the head).
 * Either way the bytes equal Redis's DUMP of a key holding the same members and scores, in the
 * encoding Redis chooses from the same size and lengths. (Redis never converts a skiplist back to a
 * listpack when members leave, so a key that once grew past a threshold DUMPs as type 5 where this
 * writes type 17; RESTORE reads both into the same set.)
 *
 * Reading accepts what Redis 7.x DUMPs for a sorted set and what 6.2 DUMPs (RDB 9): listpack (17,
 * RDB ≥ 10), ziplist (12) and ZSET_2 (5), with integer-encoded and LZF-compressed strings. Members
 * must be UTF-8 (a SortedSet holds strings); scores may not be NaN; a member may appear once; the
 * entries may come in any order (they are sorted when they are not already in Redis's order).
 * Every count is checked against the bytes left before anything is allocated.
 */
import { describe, formatError } from "../internal/errors.js";
import { DumpWriter, openDump, RdbType, typeName } from "../internal/rdb/dump.js";
import { ListpackWriter, readListpack } from "../internal/rdb/listpack.js";
import { asciiOf, d2string, isIntegerScore, isWellFormed, parseScore, type RdbValue } from "../internal/rdb/values.js";
import { readZiplist } from "../internal/rdb/ziplist.js";
import { decodeUtf8, wtf8Length } from "../internal/wtf8.js";
import { compareMembers } from "./order.js";
import { MAX_SIZE, type ZSet } from "./zset.js";

/** Redis's zset-max-listpack-entries default. */
export const ZSET_MAX_LISTPACK_ENTRIES = 128;
/** Redis's zset-max-listpack-value default (bytes). */
export const ZSET_MAX_LISTPACK_VALUE = 64;
/** RDB versions read: Redis 6.2 (9) to 7.4 and 8 (12). */
const MIN_VERSION = 9;
const MAX_VERSION = 12;
/** Bytes a ZSET_2 entry takes at least: a one-byte string length and the double. */
const MIN_ENTRY = 9;

/** The TypeError for a member with a lone surrogate: it has no UTF-8 form, so no Redis form. */
function noRedisForm(where: string, member: string): TypeError {
  return new TypeError(
    `redstruct/${where}: member ${describe(member)} has no Redis form: it is not well-formed UTF-16 (a lone ` +
      "surrogate), and Redis members are UTF-8 bytes",
  );
}

/**
 * The DUMP payload of the set `z` holds (see the module comment). O(n + bytes).
 * @throws RangeError for an empty set (Redis holds no empty key); TypeError naming a member with a
 *   lone surrogate.
 */
export function zsetToDump(z: ZSet, where: string): Uint8Array {
  const n = z.size;
  if (n === 0) {
    throw new RangeError(
      `redstruct/${where}: an empty set has no DUMP payload: Redis deletes a key with its last member (DEL the key instead)`,
    );
  }
  if (n <= ZSET_MAX_LISTPACK_ENTRIES) {
    let small = true;
    for (let p = z.firstPos(); p >= 0 && small; p = z.nextPos(p)) {
      const m = z.memberAt(p);
      if (!isWellFormed(m)) throw noRedisForm(where, m);
      small = m.length <= ZSET_MAX_LISTPACK_VALUE && wtf8Length(m) <= ZSET_MAX_LISTPACK_VALUE;
    }
    if (small) {
      const lp = new ListpackWriter();
      for (let p = z.firstPos(); p >= 0; p = z.nextPos(p)) {
        lp.string(z.memberAt(p));
        const score = z.scoreAt(p);
        if (isIntegerScore(score)) lp.integer(score === 0 ? 0 : score);
        else lp.string(d2string(score));
      }
      return new DumpWriter(RdbType.ZSET_LISTPACK).string(lp.finish()).finish();
    }
  }
  // From the last entry to the first.
  // Room for a length byte, the member and the score per entry, the members' length taken from a sample.
  let sampled = 0;
  let chars = 0;
  for (let p = z.firstPos(); p >= 0 && sampled < 64; p = z.nextPos(p), sampled++) chars += z.memberAt(p).length;
  const w = new DumpWriter(RdbType.ZSET_2, 16 + Math.ceil(n * (9 + chars / sampled) * 1.06));
  w.length(n);
  // Run by run (a node's entries, consecutive positions of one pair of arrays), each backwards.
  for (let p = z.start(true); p >= 0; ) {
    const end = z.runEnd(p, true);
    const origin = z.runOrigin(p);
    const members = z.runMembers(p);
    const scores = z.runScores(p);
    for (let q = p; q > end; q--) {
      const m = members[q - origin]!;
      if (!w.text(m)) throw noRedisForm(where, m);
      w.double(scores[q - origin]!);
    }
    p = z.step(end + 1, true);
  }
  return w.finish();
}

/** What {@link zsetFromDump} read: members and scores, and the order that sorts them (null: as they are). */
export interface ReadZset {
  members: string[];
  scores: Float64Array;
  order: Int32Array | null;
}

/**
 * Reads a sorted set's DUMP payload (see the module comment) into its entries, checked: the trailer
 * (RDB version 9..12, CRC-64), the type, every length against the bytes left, members as UTF-8,
 * scores, pairs; duplicates with equal scores here, any others by {@link loadZset}. O(n log n) at
 * most (O(n) for entries in Redis's order).
 * @throws RedstructFormatError for anything Redis would not have written; TypeError when `payload`
 *   is not a Uint8Array.
 */
export function zsetFromDump(payload: Uint8Array, where: string): ReadZset {
  const { version, type, reader } = openDump(payload, where, "a sorted set", MIN_VERSION, MAX_VERSION);
  const bad = (why: string) => formatError(where, `not a sorted set's DUMP payload: ${why}`);
  if (type === RdbType.ZSET_2) {
    const n = reader.length("the member count");
    if (n === 0) throw bad("it holds no members (Redis refuses an empty key)");
    if (n > MAX_SIZE) throw bad(`${n} members, more than a SortedSet holds (2^26)`);
    if (n * MIN_ENTRY > reader.remaining) {
      throw bad(`${n} members need at least ${n * MIN_ENTRY} bytes, ${reader.remaining} left`);
    }
    const members = new Array<string>(n);
    const scores = new Float64Array(n);
    // Redis writes the last entry first: fill from the end.
    for (let i = n - 1; i >= 0; i--) {
      const k = n - 1 - i;
      members[i] = memberText(reader.string(`member ${k}`), where, k);
      const score = reader.double(`the score of member ${k}`);
      if (Number.isNaN(score)) throw bad(`member ${k} has a NaN score`);
      scores[i] = score;
    }
    reader.end();
    return sorted(members, scores, where);
  }
  if (type === RdbType.ZSET_LISTPACK || type === RdbType.ZSET_ZIPLIST) {
    if (type === RdbType.ZSET_LISTPACK && version < 10)
      throw bad(`a listpack in an RDB ${version} payload (listpacks came with RDB 10)`);
    const encoded = reader.string(type === RdbType.ZSET_LISTPACK ? "the listpack" : "the ziplist");
    reader.end();
    if (!(encoded instanceof Uint8Array))
      throw bad(`its ${type === RdbType.ZSET_LISTPACK ? "listpack" : "ziplist"} is the integer ${encoded}`);
    const what = "not a sorted set's DUMP payload";
    const elements =
      type === RdbType.ZSET_LISTPACK ? readListpack(encoded, where, what) : readZiplist(encoded, where, what);
    if (elements.length === 0) throw bad("it holds no members (Redis refuses an empty key)");
    if (elements.length % 2 !== 0) throw bad(`${elements.length} elements: not member-score pairs`);
    const n = elements.length / 2;
    if (n > MAX_SIZE) throw bad(`${n} members, more than a SortedSet holds (2^26)`);
    const members = new Array<string>(n);
    const scores = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      members[i] = memberText(elements[2 * i]!, where, i);
      scores[i] = elementScore(elements[2 * i + 1]!, where, i);
    }
    return sorted(members, scores, where);
  }
  throw bad(`${typeName(type)}, not a sorted set (5, 12 or 17): the DUMP of a key of another type`);
}

/** A member's string: UTF-8 bytes decoded, an integer as its decimal text. */
function memberText(v: RdbValue, where: string, i: number): string {
  if (!(v instanceof Uint8Array)) return String(v);
  const s = decodeUtf8(v);
  if (s === undefined) {
    throw formatError(where, `member ${i} is not UTF-8 text (a SortedSet holds strings; Redis allows any bytes)`);
  }
  return s;
}

/** A listpack or ziplist score element: an integer, or the text of a double. */
function elementScore(v: RdbValue, where: string, i: number): number {
  const score = v instanceof Uint8Array ? parseScore(asciiOf(v)) : Number(v);
  if (score === undefined) throw formatError(where, `the score of member ${i} is not a number`);
  if (Number.isNaN(score)) throw formatError(where, `member ${i} has a NaN score`);
  return score;
}

/**
 * The entries with the order that sorts them by (score, member bytes): none when they already
 * increase strictly; a sort otherwise, refusing a member that appears twice with the same score.
 */
function sorted(members: string[], scores: Float64Array, where: string): ReadZset {
  const n = members.length;
  let inOrder = true;
  for (let i = 1; i < n && inOrder; i++) {
    const a = scores[i - 1]!;
    const b = scores[i]!;
    inOrder = a < b || (a === b && compareMembers(members[i - 1]!, members[i]!) < 0);
  }
  if (inOrder) return { members, scores, order: null };
  const order = Int32Array.from({ length: n }, (_, i) => i).sort(
    (x, y) => scores[x]! - scores[y]! || compareMembers(members[x]!, members[y]!) || x - y,
  );
  for (let k = 1; k < n; k++) {
    const x = order[k - 1]!;
    const y = order[k]!;
    if (scores[x] === scores[y] && members[x] === members[y]) {
      throw formatError(where, `member ${describe(members[y])} appears twice`);
    }
  }
  return { members, scores, order };
}

/**
 * Loads what {@link zsetFromDump} read into the empty set `z` (bulk, O(n)) and refuses a member
 * that appears twice (with different scores, the only case the sort cannot see).
 */
export function loadZset(z: ZSet, read: ReadZset, where: string): void {
  const { members, scores, order } = read;
  if (!z.loadSorted(members, scores, order, members.length)) {
    const seen = new Set<string>();
    const dup = members.find((m) => seen.size === seen.add(m).size);
    throw formatError(where, `member ${describe(dup)} appears twice`);
  }
}
