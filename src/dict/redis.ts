/**
 * `Dict#toRedis()` / `Dict.fromRedis()`: a dict as a Redis hash key's `DUMP` payload, through the RDB
 * codec in src/internal/rdb (facts from Redis 7.0's src/rdb.c and src/t_hash.c).
 *
 * A Redis hash maps byte strings to byte strings, so keys and values become Redis strings: a string
 * its UTF-8 bytes (a lone surrogate has none: a TypeError naming the key), a number or bigint its
 * decimal text (`String(x)`), a Uint8Array its bytes; a value of any other type goes through the
 * `encodeValue` callback or is a TypeError naming its key. Two keys that become the same field —
 * `1`, `1n`, `"1"` and the bytes of "1" — would be a hash Redis refuses (duplicate fields): a
 * TypeError naming both, rather than such a payload.
 *
 * Writing, as redis-server 7.0 writes a hash (RDB version 10):
 * - a listpack (RDB type 16) while it has at most 512 fields and every field and value has at most
 *   64 bytes (`hash-max-listpack-*`, Redis's defaults): field, value, field, value … in the dict's
 *   iteration order — which is insertion order until a deletion frees a slot for a later key, as a
 *   listpack hash is in Redis (HSET appends a new field, updates one in place) — strings that
 *   `string2ll` accepts as integer elements; the listpack one RDB string, LZF-compressed where Redis
 *   compresses it;
 * - otherwise the hash-table encoding (type 4): the field count, then each field and value as an
 *   RDB string. Redis writes these in its own dict's order, which depends on a hash seed drawn at
 *   server start: those bytes cannot be reproduced, only their content (RESTORE reads either the same).
 *
 * Reading accepts what Redis 6.2 to 8 DUMP for a hash: listpack (16, RDB ≥ 10), ziplist (13) and hash
 * table (4), integer-encoded and LZF-compressed strings; a field may appear once. Fields and values
 * come back as strings where their bytes are UTF-8 and as Uint8Arrays (copies) otherwise, or values
 * through `decodeValue`, which sees each value's bytes (a copy it may keep) only once the whole
 * payload has been checked.
 */
import { describe, formatError, typeError } from "../internal/errors.js";
import { DumpWriter, openDump, RdbType, typeName } from "../internal/rdb/dump.js";
import { ListpackWriter, readListpack } from "../internal/rdb/listpack.js";
import { isWellFormed, type RdbValue } from "../internal/rdb/values.js";
import { readZiplist } from "../internal/rdb/ziplist.js";
import { decodeUtf8, encodeWtf8Into, wtf8Length } from "../internal/wtf8.js";
import type { DictKey } from "./hash.js";

/** Redis's hash-max-listpack-entries default. */
export const HASH_MAX_LISTPACK_ENTRIES = 512;
/** Redis's hash-max-listpack-value default (bytes). */
export const HASH_MAX_LISTPACK_VALUE = 64;
const MIN_VERSION = 9;
const MAX_VERSION = 12;
/** Bytes a type-4 field-value pair takes at least: two one-byte string lengths. */
const MIN_PAIR = 2;

const ascii = new TextEncoder();

/** A string's UTF-8 bytes, or undefined when it holds a lone surrogate. */
function utf8Of(s: string): Uint8Array | undefined {
  if (!isWellFormed(s)) return undefined;
  const out = new Uint8Array(wtf8Length(s));
  encodeWtf8Into(s, out, 0);
  return out;
}

/** A key's Redis field. */
function fieldOf(key: DictKey, where: string): Uint8Array {
  if (typeof key === "string") {
    const b = utf8Of(key);
    if (b === undefined) {
      throw new TypeError(
        `redstruct/${where}: key ${describe(key)} has no Redis form: it is not well-formed UTF-16 (a lone surrogate), and Redis fields are UTF-8 bytes`,
      );
    }
    return b;
  }
  if (typeof key === "number" || typeof key === "bigint") return ascii.encode(String(key));
  return key;
}

/** A value's Redis string: its own bytes, or what `encodeValue` returned (copied at once). */
function valueBytes(
  value: unknown,
  key: DictKey,
  encodeValue: ((value: unknown) => Uint8Array) | undefined,
  where: string,
): Uint8Array {
  if (typeof value === "string") {
    const b = utf8Of(value);
    if (b === undefined) {
      throw new TypeError(
        `redstruct/${where}: the value of key ${describe(key)} has no Redis form: it is not well-formed UTF-16 (a lone surrogate)`,
      );
    }
    return b;
  }
  if (typeof value === "number" || typeof value === "bigint") return ascii.encode(String(value));
  if (value instanceof Uint8Array) return value;
  if (encodeValue === undefined) {
    throw new TypeError(
      `redstruct/${where}: a Redis hash holds strings: toRedis() writes string, number, bigint and Uint8Array values; ` +
        `the value of key ${describe(key)} is ${describe(value)}: pass toRedis({ encodeValue }) (and ` +
        "fromRedis(payload, { decodeValue })), e.g. JSON through TextEncoder",
    );
  }
  const encoded = encodeValue(value);
  if (!(encoded instanceof Uint8Array)) {
    throw typeError(where, `encodeValue(value of key ${describe(key)})`, encoded, "a Uint8Array");
  }
  return encoded.slice(); // the callback may reuse its buffer for the next value
}

/**
 * Refuses two keys that are one Redis field: only number, bigint and Uint8Array keys can meet
 * another key's field (strings are distinct, as are byte arrays by content, and bytes that are
 * not UTF-8 match no string).
 */
function checkDistinct(entries: readonly (readonly [DictKey, unknown])[], where: string): void {
  const texts = new Map<string, DictKey>();
  for (const [key] of entries) {
    if (typeof key === "string") continue;
    const text = key instanceof Uint8Array ? decodeUtf8(key) : String(key);
    if (text === undefined) continue;
    const other = texts.get(text);
    if (other !== undefined) throw sameField(where, other, key, text);
    texts.set(text, key);
  }
  if (texts.size === 0) return;
  for (const [key] of entries) {
    if (typeof key !== "string") continue;
    const other = texts.get(key);
    if (other !== undefined) throw sameField(where, other, key, key);
  }
}

function sameField(where: string, a: DictKey, b: DictKey, field: string): TypeError {
  return new TypeError(
    `redstruct/${where}: keys ${describe(a)} and ${describe(b)} are one Redis field, ${describe(field)} ` +
      "(Redis fields are strings: a number or bigint key is its decimal text, a Uint8Array its bytes); " +
      "Redis refuses a hash with a field twice",
  );
}

/**
 * The DUMP payload of a hash holding `entries` (a snapshot of the dict's, in its iteration order).
 * O(n + bytes).
 * @throws RangeError for no entries (Redis holds no empty key); TypeError as the module comment says.
 */
export function hashToDump(
  entries: readonly (readonly [DictKey, unknown])[],
  encodeValue: ((value: unknown) => Uint8Array) | undefined,
  where: string,
): Uint8Array {
  const n = entries.length;
  if (n === 0) {
    throw new RangeError(
      `redstruct/${where}: an empty dict has no DUMP payload: Redis deletes a hash with its last field (DEL the key instead)`,
    );
  }
  checkDistinct(entries, where);
  const fields = new Array<Uint8Array>(n);
  const values = new Array<Uint8Array>(n);
  let small = n <= HASH_MAX_LISTPACK_ENTRIES;
  for (let i = 0; i < n; i++) {
    const [key, value] = entries[i]!;
    const f = fieldOf(key, where);
    const v = valueBytes(value, key, encodeValue, where);
    fields[i] = f;
    values[i] = v;
    if (f.length > HASH_MAX_LISTPACK_VALUE || v.length > HASH_MAX_LISTPACK_VALUE) small = false;
  }
  if (small) {
    const lp = new ListpackWriter();
    for (let i = 0; i < n; i++) {
      lp.bytes(fields[i]!);
      lp.bytes(values[i]!);
    }
    return new DumpWriter(RdbType.HASH_LISTPACK).string(lp.finish()).finish();
  }
  const w = new DumpWriter(RdbType.HASH, 16 + 32 * n);
  w.length(n);
  for (let i = 0; i < n; i++) w.string(fields[i]!).string(values[i]!);
  return w.finish();
}

/** What {@link hashFromDump} read: fields (keys) and values, in order, values not yet decoded. */
export interface ReadHash {
  keys: DictKey[];
  /** Each value's bytes, a copy. */
  values: Uint8Array[];
}

/** An element's bytes: its own (a view), or an integer's decimal text. */
function bytesOf(v: RdbValue): Uint8Array {
  return v instanceof Uint8Array ? v : ascii.encode(String(v));
}

/** A field as a key: the string its bytes spell in UTF-8, or a copy of them. */
function keyOf(v: RdbValue): DictKey {
  if (!(v instanceof Uint8Array)) return String(v);
  return decodeUtf8(v) ?? v.slice();
}

/** A value without `decodeValue`: the string its bytes spell in UTF-8, or a copy of them. */
export function plainValue(bytes: Uint8Array): string | Uint8Array {
  return decodeUtf8(bytes) ?? bytes;
}

/**
 * Reads a hash's DUMP payload (see the module comment) into its fields and values, checked: the
 * trailer (RDB version 9..12, CRC-64), the type, every length against the bytes left. Duplicate
 * fields are the caller's to find (a dict sees them). O(n + bytes).
 * @throws RedstructFormatError for anything Redis would not have written; TypeError when `payload`
 *   is not a Uint8Array.
 */
export function hashFromDump(payload: Uint8Array, where: string): ReadHash {
  const { version, type, reader } = openDump(payload, where, "a hash", MIN_VERSION, MAX_VERSION);
  const bad = (why: string) => formatError(where, `not a hash's DUMP payload: ${why}`);
  const keys: DictKey[] = [];
  const values: Uint8Array[] = [];
  if (type === RdbType.HASH) {
    const n = reader.length("the field count");
    if (n === 0) throw bad("it holds no fields (Redis refuses an empty key)");
    if (n * MIN_PAIR > reader.remaining) {
      throw bad(`${n} fields need at least ${n * MIN_PAIR} bytes, ${reader.remaining} left`);
    }
    for (let i = 0; i < n; i++) {
      keys.push(keyOf(reader.string(`field ${i}`)));
      values.push(bytesOf(reader.string(`the value of field ${i}`)).slice());
    }
    reader.end();
    return { keys, values };
  }
  if (type === RdbType.HASH_LISTPACK || type === RdbType.HASH_ZIPLIST) {
    const kind = type === RdbType.HASH_LISTPACK ? "listpack" : "ziplist";
    if (type === RdbType.HASH_LISTPACK && version < 10) {
      throw bad(`a listpack in an RDB ${version} payload (listpacks came with RDB 10)`);
    }
    const encoded = reader.string(`the ${kind}`);
    reader.end();
    if (!(encoded instanceof Uint8Array)) throw bad(`its ${kind} is the integer ${encoded}`);
    const what = "not a hash's DUMP payload";
    const elements = kind === "listpack" ? readListpack(encoded, where, what) : readZiplist(encoded, where, what);
    if (elements.length === 0) throw bad("it holds no fields (Redis refuses an empty key)");
    if (elements.length % 2 !== 0) throw bad(`${elements.length} elements: not field-value pairs`);
    for (let i = 0; i < elements.length; i += 2) {
      keys.push(keyOf(elements[i]!));
      values.push(bytesOf(elements[i + 1]!).slice());
    }
    return { keys, values };
  }
  throw bad(`${typeName(type)}, not a hash (4, 13 or 16): the DUMP of a key of another type`);
}
