/**
 * BITFIELD (Redis 7.0, src/bitops.c `bitfieldGeneric`): integers of 1 to 64 bits at any bit offset
 * of a bitmap, read and written most significant bit first, with Redis's overflow rules.
 *
 * Redis facts matched here:
 * - A type is `i1`…`i64` or `u1`…`u63` (lower-case sign, width in decimal with no leading zero);
 *   `u64` is refused because a reply cannot hold it.
 * - An offset is a bit offset, or `#n` for n times the type's width; either must come to
 *   0 ≤ offset < 2^32. Redis multiplies `#n` in 64-bit two's complement, so it wraps: that is
 *   reproduced (in BigInt, only for the absurd `n` that reach 2^63).
 * - Every op is parsed before any runs, so a bad op anywhere changes nothing. When any op writes,
 *   the string first grows to hold the farthest bit any write touches — even if every write then
 *   fails its overflow check.
 * - OVERFLOW applies to the ops after it, WRAP by default. An overflow is judged on the exact sum
 *   (INCRBY) or value (SET): above the type's maximum is an overflow up, below its minimum one
 *   down. A negative SET value for an unsigned type is, as Redis's uint64 cast makes it, a huge
 *   value: an overflow up (SAT then stores the maximum). WRAP keeps the low bits (two's complement),
 *   SAT stores the bound crossed, FAIL writes nothing and answers null. One quirk kept: Redis
 *   computes max − value in uint64 and reads it as int64, so a SET of a value ≤ max − 2^63 into a
 *   signed field narrower than 64 bits counts as an overflow up, and SAT stores the maximum.
 * - GET answers the field; SET the field's previous value; INCRBY its new value. GET past the end
 *   of the string reads zeros.
 *
 * Types of at most 32 bits run in doubles with no BigInt: a field spans at most 5 bytes (40 bits,
 * exact in a double), and a SET value or increment is first reduced to a number of magnitude below
 * 2^49 that keeps its sign, its side of every bound and its residue mod 2^32 — all that the
 * overflow check and the wrap of a ≤ 32-bit field depend on. Wider types use BigInt.
 */
import { describe, rangeError, typeError } from "../internal/errors.js";
import { POP8 } from "./bits.js";

/** A BITFIELD type: `i1`…`i64` (signed) or `u1`…`u63` (unsigned). */
export type BitfieldType = `i${number}` | `u${number}`;

/** A bit offset (0 ≤ offset < 2^32), or `#n`: n times the type's width. */
export type BitfieldOffset = number | `#${number}`;

/** BITFIELD's OVERFLOW modes. */
export type BitfieldOverflow = "wrap" | "sat" | "fail";

/** BITFIELD … GET type offset: the field's value. */
export interface BitfieldGet {
  /** The field's type. */
  get: BitfieldType;
  /** Where the field starts. */
  at: BitfieldOffset;
}

/** BITFIELD … SET type offset value: writes `value`, answers the previous value. */
export interface BitfieldSet {
  /** The field's type. */
  set: BitfieldType;
  /** Where the field starts. */
  at: BitfieldOffset;
  /** A 64-bit signed integer: a safe integer, an integral double in [−2^63, 2^63), or a bigint. */
  value: number | bigint;
}

/** BITFIELD … INCRBY type offset increment: adds `by`, answers the new value. */
export interface BitfieldIncrBy {
  /** The field's type. */
  incrBy: BitfieldType;
  /** Where the field starts. */
  at: BitfieldOffset;
  /** A 64-bit signed integer, as {@link BitfieldSet.value}. */
  by: number | bigint;
}

/** BITFIELD … OVERFLOW WRAP|SAT|FAIL: how the SET and INCRBY ops after it treat overflow. */
export interface BitfieldOverflowOp {
  /** The mode for the ops that follow. */
  overflow: BitfieldOverflow;
}

/** One BITFIELD subcommand. */
export type BitfieldOp = BitfieldGet | BitfieldSet | BitfieldIncrBy | BitfieldOverflowOp;

/** Options of `Bitmap.bitfield`. */
export interface BitfieldOptions {
  /** BITFIELD_RO: only GET ops are allowed (OVERFLOW is accepted and has no effect). @defaultValue false */
  readOnly?: boolean;
}

const GET = 0;
const SET = 1;
const INCRBY = 2;
const WRAP = 0;
const SAT = 1;
const FAIL = 2;

const TWO32 = 0x100000000;
/** Offsets must be below this (Redis: offset / 8 < proto-max-bulk-len, 512 MiB). */
const OFFSET_LIMIT = TWO32;
/** Where a reduced ≤ 32-bit operand lands when its magnitude is beyond 2^49 (see the header). */
const FAR = 2 ** 48;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** One parsed subcommand. */
interface FieldOp {
  code: number;
  signed: boolean;
  bits: number;
  offset: number;
  overflow: number;
  /** SET value or INCRBY increment for types of ≤ 32 bits, reduced (see the header); 0 for GET. */
  small: number;
  /** SET value or INCRBY increment for wider types; 0n otherwise. */
  wide: bigint;
  /** A signed SET whose value Redis's check sends up, not down (see {@link setsUp}). */
  up: boolean;
}

/**
 * Parses BITFIELD's subcommands in order, as Redis does before running any.
 * @throws TypeError / RangeError naming `ops[i]` and the field at fault; TypeError when `readOnly`
 *   and an op writes (BITFIELD_RO's "only supports the GET subcommand").
 */
export function parseBitfield(where: string, ops: readonly unknown[], readOnly: boolean): FieldOp[] {
  const out: FieldOp[] = [];
  let overflow = WRAP;
  let writes = false;
  for (let i = 0; i < ops.length; i++) {
    const param = `ops[${i}]`;
    const op = ops[i];
    if (op === null || typeof op !== "object" || Array.isArray(op)) {
      throw typeError(
        where,
        param,
        op,
        "a BITFIELD op: { get, at }, { set, at, value }, { incrBy, at, by } or { overflow }",
      );
    }
    const o = op as Record<string, unknown>;
    const keys = Object.keys(o);
    const kind = keys.filter((k) => k === "get" || k === "set" || k === "incrBy" || k === "overflow");
    if (kind.length !== 1) {
      throw new TypeError(
        `redstruct/${where}: ${param} must name one subcommand (get, set, incrBy or overflow), got ${describe(op)}`,
      );
    }
    const name = kind[0]!;
    const allowed =
      name === "overflow"
        ? ["overflow"]
        : name === "get"
          ? ["get", "at"]
          : name === "set"
            ? ["set", "at", "value"]
            : ["incrBy", "at", "by"];
    for (const k of keys) {
      if (!allowed.includes(k)) {
        throw new TypeError(
          `redstruct/${where}: unknown key "${k}" in ${param} (a ${name} op takes ${allowed.join(", ")})`,
        );
      }
    }
    if (name === "overflow") {
      const m = o.overflow;
      if (m === "wrap") overflow = WRAP;
      else if (m === "sat") overflow = SAT;
      else if (m === "fail") overflow = FAIL;
      else throw rangeError(where, `${param}.overflow`, m, '"wrap", "sat" or "fail"');
      continue;
    }
    const { signed, bits } = parseType(where, `${param}.${name}`, o[name]);
    const offset = parseOffset(where, `${param}.at`, o.at, bits);
    const code = name === "get" ? GET : name === "set" ? SET : INCRBY;
    let small = 0;
    let wide = 0n;
    let up = false;
    if (code !== GET) {
      writes = true;
      const vp = `${param}.${code === SET ? "value" : "by"}`;
      const v = checkInt64(where, vp, code === SET ? o.value : o.by);
      if (bits > 32) wide = typeof v === "bigint" ? v : BigInt(v);
      else small = reduce(v);
      up = code === SET && signed && setsUp(v, bits);
    }
    out.push({ code, signed, bits, offset, overflow, small, wide, up });
  }
  if (readOnly && writes) {
    throw new TypeError(
      `redstruct/${where}: a read-only bitfield (BITFIELD_RO) takes only get ops (and overflow); got a set or incrBy`,
    );
  }
  return out;
}

/** The farthest bit any write of `ops` touches, or −1 when none writes. */
export function farthestWrite(ops: readonly FieldOp[]): number {
  let far = -1;
  for (const op of ops) if (op.code !== GET && op.offset + op.bits - 1 > far) far = op.offset + op.bits - 1;
  return far;
}

/**
 * Runs parsed ops over `bytes` (already long enough for every write; reads past its end are zeros)
 * and returns the replies and the change in the number of set bits.
 */
export function runBitfield(
  bytes: Uint8Array,
  ops: readonly FieldOp[],
): { replies: (number | bigint | null)[]; delta: number } {
  const replies: (number | bigint | null)[] = [];
  let delta = 0;
  for (const op of ops) {
    if (op.bits <= 32) {
      const raw = readBits(bytes, op.offset, op.bits);
      const pow = 2 ** op.bits;
      const old = op.signed && raw >= pow / 2 ? raw - pow : raw;
      if (op.code === GET) {
        replies.push(old);
        continue;
      }
      const max = op.signed ? pow / 2 - 1 : pow - 1;
      const min = op.signed ? -pow / 2 : 0;
      // The exact new value; an unsigned SET of a negative value is Redis's huge uint64.
      const target = op.code === SET ? op.small : old + op.small;
      const up = op.up || target > max || (op.code === SET && !op.signed && target < 0);
      const down = !up && target < min;
      if ((up || down) && op.overflow === FAIL) {
        replies.push(null);
        continue;
      }
      let next: number; // the raw bits to store, in [0, 2^bits)
      if ((up || down) && op.overflow === SAT) next = up ? max : min;
      else next = target;
      next = ((next % pow) + pow) % pow;
      delta += writeBits(bytes, op.offset, op.bits, next);
      replies.push(op.code === SET ? old : op.signed && next >= pow / 2 ? next - pow : next);
      continue;
    }
    const hiBits = op.bits - 32;
    const rawHi = readBits(bytes, op.offset, hiBits);
    const rawLo = readBits(bytes, op.offset + hiBits, 32);
    const raw = (BigInt(rawHi) << 32n) | BigInt(rawLo);
    const old = op.signed ? BigInt.asIntN(op.bits, raw) : raw;
    if (op.code === GET) {
      replies.push(old);
      continue;
    }
    const bits = BigInt(op.bits);
    const max = op.signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
    const min = op.signed ? -(1n << (bits - 1n)) : 0n;
    const target = op.code === SET ? op.wide : old + op.wide;
    const up = op.up || target > max || (op.code === SET && !op.signed && target < 0n);
    const down = !up && target < min;
    if ((up || down) && op.overflow === FAIL) {
      replies.push(null);
      continue;
    }
    const stored = (up || down) && op.overflow === SAT ? (up ? max : min) : target;
    const next = BigInt.asUintN(op.bits, stored);
    delta += writeBits(bytes, op.offset, hiBits, Number(next >> 32n));
    delta += writeBits(bytes, op.offset + hiBits, 32, Number(next & 0xffffffffn));
    replies.push(op.code === SET ? old : op.signed ? BigInt.asIntN(op.bits, next) : next);
  }
  return { replies, delta };
}

/**
 * The unsigned value of the `bits`-bit field (1 ≤ bits ≤ 32) at bit `offset`, most significant bit
 * first; bytes past the end of `bytes` read as zeros. At most 5 bytes, accumulated in a double.
 */
function readBits(bytes: Uint8Array, offset: number, bits: number): number {
  const first = Math.floor(offset / 8);
  const shift = offset - first * 8;
  const count = (shift + bits + 7) >> 3;
  let acc = 0;
  for (let k = 0; k < count; k++) {
    const i = first + k;
    acc = acc * 256 + (i < bytes.length ? bytes[i]! : 0);
  }
  return Math.floor(acc / 2 ** (count * 8 - shift - bits)) % 2 ** bits;
}

/**
 * Stores `value` (0 ≤ value < 2^bits, 1 ≤ bits ≤ 32) in the field at bit `offset`, most significant
 * bit first, byte by byte from the field's last byte; returns the change in set bits. The field must
 * lie inside `bytes`.
 */
function writeBits(bytes: Uint8Array, offset: number, bits: number, value: number): number {
  let delta = 0;
  let end = offset + bits;
  while (end > offset) {
    const i = Math.floor((end - 1) / 8);
    const start = Math.max(offset, i * 8);
    const n = end - start; // bits of the field in byte i: 1..8
    const shift = i * 8 + 8 - end; // bits of byte i after the field
    const unit = 1 << n;
    const part = value % unit;
    value = (value - part) / unit;
    const mask = (unit - 1) << shift;
    const was = bytes[i]!;
    const now = (was & ~mask) | (part << shift);
    bytes[i] = now;
    delta += POP8[now]! - POP8[was]!;
    end = start;
  }
  return delta;
}

/** `{ signed, bits }` of a type string, by Redis's rules. */
function parseType(where: string, param: string, type: unknown): { signed: boolean; bits: number } {
  const allowed = 'a BITFIELD type "i1"…"i64" or "u1"…"u63" (u64 is not supported, as in Redis)';
  if (typeof type !== "string") throw typeError(where, param, type, allowed);
  const m = /^([iu])([1-9][0-9]{0,2})$/.exec(type);
  const bits = m ? Number(m[2]) : 0;
  const signed = m?.[1] === "i";
  if (!m || bits > (signed ? 64 : 63)) throw rangeError(where, param, type, allowed);
  return { signed, bits };
}

/** A bit offset or `#n` (n·bits, in Redis's wrapping 64-bit product), checked: 0 ≤ offset < 2^32. */
function parseOffset(where: string, param: string, at: unknown, bits: number): number {
  const allowed = 'a bit offset in [0, 2^32) or "#n" (n times the type\'s width, within that range)';
  if (typeof at === "number") {
    if (!Number.isInteger(at) || at < 0 || at >= OFFSET_LIMIT) throw rangeError(where, param, at, allowed);
    return at;
  }
  if (typeof at !== "string" || !at.startsWith("#")) throw typeError(where, param, at, allowed);
  const n = parseLongLong(at.slice(1));
  if (n === undefined) throw rangeError(where, param, at, allowed);
  let offset: number;
  const product = Number(n) * bits;
  if (Math.abs(product) < 2 ** 62) offset = product;
  else offset = Number(BigInt.asIntN(64, BigInt(n) * BigInt(bits)));
  if (offset < 0 || offset >= OFFSET_LIMIT) throw rangeError(where, param, at, allowed);
  return offset;
}

/**
 * Redis's `string2ll`: an optional "-", then digits with no leading zero ("0" alone is zero), at
 * most 20 characters, within the signed 64-bit range; undefined otherwise. A number while exact,
 * a bigint beyond 2^53 (only absurd offsets get there).
 */
function parseLongLong(s: string): number | bigint | undefined {
  if (s.length === 0 || s.length >= 21) return undefined;
  if (s === "0") return 0;
  if (!/^-?[1-9][0-9]*$/.test(s)) return undefined;
  if (s.length <= 15) return Number(s);
  const v = BigInt(s);
  return v < I64_MIN || v > I64_MAX ? undefined : v;
}

/**
 * A SET value or INCRBY increment: a number that is an integer in [−2^63, 2^63), or a bigint in
 * that range (Redis parses a signed 64-bit integer).
 */
function checkInt64(where: string, param: string, v: unknown): number | bigint {
  const allowed = "a 64-bit signed integer (an integral number or a bigint in [-2^63, 2^63))";
  if (typeof v === "number") {
    if (!Number.isInteger(v) || v < -(2 ** 63) || v >= 2 ** 63) throw rangeError(where, param, v, allowed);
    return v;
  }
  if (typeof v === "bigint") {
    if (v < I64_MIN || v > I64_MAX) throw rangeError(where, param, v, allowed);
    return v;
  }
  throw typeError(where, param, v, allowed);
}

/**
 * Whether Redis judges a SET of `v` into a signed field of `bits` < 64 bits an overflow up although
 * `v` is below the minimum: its check compares 0 with max − v computed in uint64 and read as int64,
 * which wraps negative when max − v ≥ 2^63, that is for v ≤ max − 2^63. Only SAT tells the two
 * directions apart (it then stores the maximum).
 */
function setsUp(v: number | bigint, bits: number): boolean {
  if (bits === 64) return false;
  if (bits > 32 || typeof v === "bigint") return BigInt(v) + 2n ** 63n <= 2n ** BigInt(bits - 1) - 1n;
  // v + 2^63 is exact in a double for v in [−2^63, −2^62); max ≤ 2^31 − 1 is exact.
  return v < -(2 ** 62) && v + 2 ** 63 <= 2 ** (bits - 1) - 1;
}

/**
 * A ≤ 32-bit operand as a double of magnitude below 2^49 with the same sign, the same side of every
 * bound a ≤ 32-bit field has (|bound| ≤ 2^32), and the same residue mod 2^32 (see the header).
 */
function reduce(v: number | bigint): number {
  if (typeof v === "bigint") {
    if (v >= -(2n ** 49n) && v <= 2n ** 49n) return Number(v);
    const r = Number(BigInt.asUintN(32, v));
    return v > 0n ? FAR + r : -FAR + r;
  }
  if (Math.abs(v) <= 2 ** 49) return v;
  const r = ((v % TWO32) + TWO32) % TWO32;
  return v > 0 ? FAR + r : -FAR + r;
}
