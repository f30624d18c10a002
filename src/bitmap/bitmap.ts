/**
 * A Redis string value used as a bitmap, exact with redis-server 7.0's bit commands (src/bitops.c):
 * SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD / BITFIELD_RO and STRLEN give the same replies,
 * errors included, and {@link Bitmap.toRedis} is the very string Redis holds.
 *
 * Redis facts matched here:
 * - Bit 0 is the most significant bit of byte 0 (bit offset o is bit 7 − o mod 8 of byte ⌊o/8⌋), so
 *   SETBIT, BITFIELD and GET agree on one layout.
 * - Offsets are integers 0 ≤ o < 2^32 (Redis's limit: o/8 below proto-max-bulk-len, 512 MiB). Setting
 *   a bit past the end pads the string with zero bytes up to the byte holding it — even to set a 0 —
 *   so memory follows the highest offset ever set, as Redis's does. BITFIELD writes grow the string
 *   to the farthest bit they touch, which may pass 2^32 by up to 63 bits.
 * - BITCOUNT and BITPOS take ranges in bytes (default) or bits, negative indexes counting from the
 *   end, clamped to the string. BITPOS answers −1 when no 1 is found, and when no 0 is found in a
 *   range whose end was given; with no end, the string reads as followed by zeros, so the first 0
 *   past a string of ones is its length in bits. An empty Bitmap answers as a missing key: count 0,
 *   BITPOS 1 → −1 and BITPOS 0 → 0 whatever the range.
 * - BITOP pads shorter sources with zeros to the longest; NOT takes exactly one source; an empty
 *   result (every source empty) is an empty Bitmap, as Redis deletes the destination key.
 *
 * Memory layout: the string's bytes in a `Uint8Array` whose capacity is a multiple of 8 and at least
 * the string's length (`byteLength`, STRLEN), with an `Int32Array` view of the same buffer for
 * whole-word popcounts, searches and BITOP. The number of set bits is counted when first asked for
 * (a bitmap read from bytes or made by BITOP does not count until then) and from then on kept by
 * every write, which adjusts it by what it changed, so `size` is O(1) after its first read. The
 * capacity grows geometrically — ×2 below 16 MiB, ×1.25 above, never past {@link BITMAP_MAX_BYTES} —
 * or straight to the length needed when that is more (one far SETBIT allocates what Redis allocates).
 *
 * Invariants: length ≤ capacity ≤ {@link BITMAP_MAX_BYTES}, capacity mod 8 = 0; every byte past the
 * length is zero (so word loops need no masks); once counted, the kept count equals the popcount of
 * the string.
 *
 * Costs: setBit / getBit O(1) (amortized for growth), no allocation; `size` and count() O(1) once
 * counted (the first count O(length / 32)); count(start, end) and position O(range / 32) (position
 * skips whole words); op O(longest · sources); bitfield O(ops); iteration O(length / 4 + set bits);
 * toRedis / fromRedis / toBytes / fromBytes / clone O(length).
 */
import { ByteReader, ByteWriter, checkBytes } from "../internal/bytes.js";
import { describe, formatError, invariantFailure, notJson, rangeError, typeError } from "../internal/errors.js";
import { defineInspect, firstOf } from "../internal/inspect.js";
import { checkFlag, checkInstance, checkIterable, checkOptions } from "../internal/options.js";
import { type BitfieldOp, type BitfieldOptions, farthestWrite, parseBitfield, runBitfield } from "./bitfield.js";
import { BITMAP_OPS, type BitmapOp, bitop } from "./bitop.js";
import { POP8, popBytes, popWords } from "./bits.js";

const WHERE = "Bitmap";

/** The largest bit offset SETBIT, GETBIT and BITFIELD accept: 2^32 − 1, as Redis. */
export const BITMAP_MAX_OFFSET = 2 ** 32 - 1;

/**
 * The longest string a Bitmap holds, in bytes: 2^29 + 8, reached by a BITFIELD write of an `i64` at
 * offset 2^32 − 1 (SETBIT alone reaches 2^29).
 */
export const BITMAP_MAX_BYTES = 2 ** 29 + 8;

/** Capacities double below this many bytes and grow by a quarter above. */
const DOUBLE_BELOW = 16 * 1024 * 1024;

const MAGIC = "RSBM";
const VERSION = 1;

/** Options of {@link Bitmap.count} and {@link Bitmap.position}. */
export interface BitmapRangeOptions {
  /** Whether start and end count bytes or bits (BITCOUNT / BITPOS … BYTE | BIT). @defaultValue "byte" */
  unit?: "byte" | "bit";
}

/** An index of BITCOUNT / BITPOS: Redis parses a signed 64-bit integer. */
function checkIndex(param: string, v: unknown): number {
  const allowed = "an integer in [-2^63, 2^63)";
  if (typeof v !== "number") throw typeError(WHERE, param, v, allowed);
  if (!Number.isInteger(v) || v < -(2 ** 63) || v >= 2 ** 63) throw rangeError(WHERE, param, v, allowed);
  return v;
}

function offsetError(param: string, v: unknown): Error {
  const allowed = "an integer in [0, 2^32 − 1] (Redis's bit offsets)";
  return typeof v === "number" ? rangeError(WHERE, param, v, allowed) : typeError(WHERE, param, v, allowed);
}

function bitError(param: string, v: unknown): Error {
  return typeof v === "number" ? rangeError(WHERE, param, v, "0 or 1") : typeError(WHERE, param, v, "0 or 1");
}

/** Whether the unit of `options` is bits (checking the options). */
function bitUnit(options: BitmapRangeOptions | undefined): boolean {
  const unit = checkOptions(WHERE, options, ["unit"]).unit;
  if (unit === undefined || unit === "byte") return false;
  if (unit === "bit") return true;
  throw (typeof unit === "string" ? rangeError : typeError)(WHERE, "unit", unit, '"byte" or "bit"');
}

/** `n` rounded up to a multiple of 8. */
function roundUp8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/**
 * A Redis string used as a bitmap (SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD, STRLEN), with
 * Redis's replies and errors. Offsets 0 ≤ o < 2^32; memory follows the highest offset set.
 */
export class Bitmap {
  #bytes: Uint8Array;
  /** The same buffer as #bytes, as words. */
  #words: Int32Array;
  /** The string's length in bytes (STRLEN). */
  #length = 0;
  /**
   * Set bits in the string, once #counted; before that, only the changes of the writes since (which
   * the count then replaces): every write adjusts it alike, with no test on the hot path.
   */
  #size = 0;
  /** Whether #size is the string's popcount; false for a bitmap read from bytes or made by BITOP. */
  #counted = true;

  /**
   * An empty bitmap: what Redis has for a key that does not exist. O(1).
   * @throws TypeError when given an argument (`Bitmap.fromRedis(bytes)` reads a string,
   *   `Bitmap.from(offsets)` sets offsets).
   */
  constructor();
  constructor(...args: unknown[]) {
    if (args.length > 0) {
      throw new TypeError(
        `redstruct/${WHERE}: new Bitmap() takes no arguments, got ${describe(args[0])}; ` +
          "Bitmap.fromRedis(bytes) reads a Redis string, Bitmap.from(offsets) sets bits",
      );
    }
    this.#bytes = new Uint8Array(0);
    this.#words = new Int32Array(this.#bytes.buffer);
  }

  /**
   * A bitmap with the bits at `offsets` set (SETBIT key offset 1 for each, in order). O(offsets).
   * @throws TypeError for a non-iterable (a lone string included); RangeError / TypeError for an
   *   offset that is not an integer in [0, 2^32 − 1], naming its index.
   */
  static from(offsets: Iterable<number>): Bitmap {
    checkIterable(WHERE, "offsets", offsets);
    const b = new Bitmap();
    let i = 0;
    for (const o of offsets) {
      if (o >>> 0 !== o) throw offsetError(`offsets[${i}]`, o);
      b.setBit(o, 1);
      i++;
    }
    return b;
  }

  // --- bits ----------------------------------------------------------------------------------

  /**
   * SETBIT: sets the bit at `offset` to `bit` and returns its previous value. The string grows with
   * zero bytes to hold the offset, even when `bit` is 0. O(1), amortized over growth; no allocation
   * unless it grows.
   * @throws RangeError / TypeError for an offset that is not an integer in [0, 2^32 − 1] or a bit
   *   other than 0 and 1 (Redis's "bit offset is not an integer or out of range", "bit is not an
   *   integer or out of range"); nothing changes.
   */
  setBit(offset: number, bit: 0 | 1): 0 | 1 {
    if (offset >>> 0 !== offset) throw offsetError("offset", offset);
    if (bit !== 0 && bit !== 1) throw bitError("bit", bit);
    const i = offset >>> 3;
    if (i >= this.#length) this.#extend(i + 1);
    const bytes = this.#bytes;
    const mask = 0x80 >>> (offset & 7);
    const was = bytes[i]!;
    if ((was & mask) !== 0) {
      if (bit === 0) {
        bytes[i] = was ^ mask;
        this.#size--;
      }
      return 1;
    }
    if (bit === 1) {
      bytes[i] = was | mask;
      this.#size++;
    }
    return 0;
  }

  /**
   * GETBIT: the bit at `offset`; 0 past the end of the string. O(1), no allocation.
   * @throws RangeError / TypeError for an offset that is not an integer in [0, 2^32 − 1].
   */
  getBit(offset: number): 0 | 1 {
    if (offset >>> 0 !== offset) throw offsetError("offset", offset);
    // Bytes past the length are zero, and a read past the buffer gives undefined, which >>> makes 0:
    // no length test is needed.
    return ((this.#bytes[offset >>> 3]! >>> (~offset & 7)) & 1) as 0 | 1;
  }

  /**
   * BITCOUNT: the number of set bits — in the whole string (O(1) once counted: see {@link size}), or in
   * [start, end] (both given, inclusive, in bytes or with `unit: "bit"` in bits; negative indexes
   * count from the end; clamped to the string; 0 when start > end after that). O(range / 32).
   * @throws TypeError when only one of start and end is given, or a unit without them (Redis's
   *   syntax error), or for a non-number; RangeError for an index that is not an integer in
   *   [−2^63, 2^63), or a unit other than "byte" and "bit". Arguments are checked even on an empty
   *   bitmap, where Redis answers 0 for a missing key before reading them.
   */
  count(start?: number, end?: number, options?: BitmapRangeOptions): number {
    if (start === undefined && end === undefined && options === undefined) return this.#count();
    const bits = bitUnit(options);
    if (start === undefined && end === undefined && options?.unit === undefined) return this.#count();
    if (start === undefined || end === undefined) {
      throw new TypeError(
        `redstruct/${WHERE}: count takes start and end together (BITCOUNT key [start end [BYTE|BIT]]), ` +
          `got start ${describe(start)} and end ${describe(end)}`,
      );
    }
    checkIndex("start", start);
    checkIndex("end", end);
    const length = this.#length;
    if (start < 0 && end < 0 && start > end) return 0;
    const total = bits ? length * 8 : length;
    if (start < 0) start = Math.max(0, start + total);
    if (end < 0) end = Math.max(0, end + total);
    if (end >= total) end = total - 1;
    if (start > end) return 0;
    const from = bits ? start : start * 8;
    const to = bits ? end : end * 8 + 7;
    if (from === 0 && to === length * 8 - 1) return this.#count();
    return this.#countBits(from, to);
  }

  /** The number of set bits, counted now if not yet. */
  #count(): number {
    if (!this.#counted) {
      this.#size = popWords(this.#words, 0, this.#words.length);
      this.#counted = true;
    }
    return this.#size;
  }

  /** Set bits in bit offsets [from, to], both inside the string. */
  #countBits(from: number, to: number): number {
    const bytes = this.#bytes;
    const first = Math.floor(from / 8);
    const last = Math.floor(to / 8);
    const head = 0xff >>> (from & 7);
    const tail = (0xff << (7 - (to & 7))) & 0xff;
    if (first === last) return POP8[bytes[first]! & head & tail]!;
    return POP8[bytes[first]! & head]! + popBytes(bytes, this.#words, first + 1, last) + POP8[bytes[last]! & tail]!;
  }

  /**
   * BITPOS: the offset of the first bit equal to `bit` — in the whole string, from `start`, or in
   * [start, end] (bytes, or bits with `unit: "bit"`; negative indexes count from the end, clamped).
   * When none is found: −1 for `bit` 1; for `bit` 0, −1 if `end` was given, else the string's
   * length in bits (it reads as followed by zeros). −1 for a range empty after clamping. An empty
   * bitmap is a missing key: 0 for `bit` 0 and −1 for `bit` 1, whatever the range.
   * O(range / 32): whole words of zeros (ones, for `bit` 0) are skipped.
   * @throws TypeError for `end` without `start`, or a unit without both (Redis's syntax error);
   *   RangeError / TypeError for a bit other than 0 and 1 ("The bit argument must be 1 or 0."), an
   *   index that is not an integer in [−2^63, 2^63), or a unit other than "byte" and "bit".
   */
  position(bit: 0 | 1, start?: number, end?: number, options?: BitmapRangeOptions): number {
    if (bit !== 0 && bit !== 1) throw bitError("bit", bit);
    const bits = bitUnit(options);
    if ((start === undefined && end !== undefined) || (options?.unit !== undefined && end === undefined)) {
      throw new TypeError(
        `redstruct/${WHERE}: position takes start, then end, then a unit (BITPOS key bit [start [end [BYTE|BIT]]]), ` +
          `got start ${describe(start)}, end ${describe(end)} and unit ${describe(options?.unit)}`,
      );
    }
    if (start !== undefined) checkIndex("start", start);
    if (end !== undefined) checkIndex("end", end);
    const length = this.#length;
    if (length === 0) return bit === 1 ? -1 : 0;
    let from = 0;
    let to = length * 8 - 1;
    if (start !== undefined) {
      const total = bits ? length * 8 : length;
      let s = start;
      let e = end ?? total - 1;
      if (s < 0) s = Math.max(0, s + total);
      if (e < 0) e = Math.max(0, e + total);
      if (e >= total) e = total - 1;
      if (s > e) return -1;
      from = bits ? s : s * 8;
      to = bits ? e : e * 8 + 7;
    }
    const found = this.#find(bit, from, to);
    if (found >= 0 || bit === 1 || end !== undefined) return found;
    return to + 1;
  }

  /** The first offset in [from, to] (inside the string) whose bit is `bit`, or −1. */
  #find(bit: 0 | 1, from: number, to: number): number {
    const bytes = this.#bytes;
    const flip = bit === 1 ? 0 : 0xff; // looking for a 0 is looking for a 1 in the inverted byte
    let i = Math.floor(from / 8);
    const last = Math.floor(to / 8);
    const tail = (0xff << (7 - (to & 7))) & 0xff;
    let v = (bytes[i]! ^ flip) & (0xff >>> (from & 7));
    if (i === last) v &= tail;
    if (v !== 0) return i * 8 + Math.clz32(v) - 24;
    if (i === last) return -1;
    i++;
    while (i < last && (i & 3) !== 0) {
      v = bytes[i]! ^ flip;
      if (v !== 0) return i * 8 + Math.clz32(v) - 24;
      i++;
    }
    if (i < last) {
      // Skip whole words with nothing to find; words below `end` hold only bytes before `last`.
      const words = this.#words;
      const skip = bit === 1 ? 0 : -1;
      const end = last >> 2;
      let w = i >> 2;
      while (w < end && words[w] === skip) w++;
      i = w * 4;
    }
    for (; i < last; i++) {
      v = bytes[i]! ^ flip;
      if (v !== 0) return i * 8 + Math.clz32(v) - 24;
    }
    v = (bytes[last]! ^ flip) & tail;
    return v !== 0 ? last * 8 + Math.clz32(v) - 24 : -1;
  }

  /**
   * BITFIELD (or BITFIELD_RO with `readOnly: true`): runs `ops` in order and returns one reply per
   * get, set and incrBy op: the field's value (GET), its previous value (SET), its new value (INCRBY),
   * or null where OVERFLOW FAIL refused a write. A reply is a number for types of up to 32 bits and a
   * bigint for wider ones. Every op is checked before any runs; when any writes, the string first
   * grows to the farthest bit a write touches (even if the writes then fail). O(ops), amortized.
   * @example bm.bitfield([{ set: "u8", at: 0, value: 200 }, { overflow: "sat" }, { incrBy: "u8", at: 0, by: 100 }]) // [0, 255]
   * @throws TypeError / RangeError naming `ops[i]` and its field: a type other than i1…i64 and
   *   u1…u63 ("i65", "u64"), an offset outside [0, 2^32) after `#n` scaling, a value or increment
   *   outside the signed 64-bit range, an overflow mode other than "wrap", "sat" and "fail", or an op
   *   that names no subcommand or an unknown key; with `readOnly`, a set or incrBy op. Nothing changes.
   */
  bitfield(ops: Iterable<BitfieldOp>, options?: BitfieldOptions): (number | bigint | null)[] {
    const list = Array.from(checkIterable(WHERE, "ops", ops));
    const readOnly = checkFlag(WHERE, "readOnly", checkOptions(WHERE, options, ["readOnly"]).readOnly, false);
    const parsed = parseBitfield(WHERE, list, readOnly);
    const far = farthestWrite(parsed);
    if (far >= 0) {
      const need = Math.floor(far / 8) + 1;
      if (need > this.#length) this.#extend(need);
    }
    const { replies, delta } = runBitfield(this.#bytes, parsed);
    this.#size += delta;
    return replies;
  }

  // --- growth --------------------------------------------------------------------------------

  /** Makes the string `length` bytes long (length > the current one), padding with zeros. */
  #extend(length: number): void {
    if (length > this.#bytes.length) {
      const capacity = this.#bytes.length;
      const grown = capacity < DOUBLE_BELOW ? capacity * 2 : capacity + Math.floor(capacity / 4);
      const bytes = new Uint8Array(roundUp8(Math.min(Math.max(grown, length), BITMAP_MAX_BYTES)));
      bytes.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = bytes;
      this.#words = new Int32Array(bytes.buffer);
    }
    this.#length = length;
  }

  // --- combining -----------------------------------------------------------------------------

  /**
   * BITOP into a new bitmap: `op` of `bitmaps`, each read as zero-padded to the longest. "and", "or",
   * "xor" take one or more; "not" exactly one; Redis 8.2's "diff" (X ∧ ¬(Y1 ∨ Y2 …)), "diff1"
   * (¬X ∧ (Y1 ∨ Y2 …)) and "andor" (X ∧ (Y1 ∨ Y2 …)) two or more, X the first; "one" (bits set in
   * exactly one) one or more. The result is as long as the longest source (BITOP's reply is its
   * `byteLength`); empty when every source is. The sources are not changed; the result counts its
   * set bits when first asked ({@link size}). O(longest · sources).
   * @throws TypeError when `bitmaps` is not an iterable of Bitmap (naming the index of a wrong
   *   element; a lone Bitmap is refused with the array form shown); RangeError for an unknown op or a
   *   number of sources the op does not take (Redis's "BITOP NOT must be called with a single source
   *   key.", "… must be called with at least two source keys.").
   */
  static op(op: BitmapOp, bitmaps: Iterable<Bitmap>): Bitmap {
    if (!(BITMAP_OPS as readonly unknown[]).includes(op)) {
      throw (typeof op === "string" ? rangeError : typeError)(
        WHERE,
        "op",
        op,
        BITMAP_OPS.map((o) => `"${o}"`).join(", "),
      );
    }
    if (Bitmap.#built(bitmaps)) {
      throw new TypeError(
        `redstruct/${WHERE}: bitmaps must be an iterable of Bitmap, got a Bitmap; ` +
          `pass them as one array: Bitmap.op("${op}", [a${op === "not" ? "" : ", b"}])`,
      );
    }
    checkIterable(WHERE, "bitmaps", bitmaps);
    const list: Bitmap[] = [];
    for (const b of bitmaps) list.push(Bitmap.#check(`bitmaps[${list.length}]`, b));
    const needs =
      op === "not" ? "exactly one" : op === "diff" || op === "diff1" || op === "andor" ? "two or more" : "one or more";
    const n = list.length;
    if ((op === "not" && n !== 1) || n < (needs === "two or more" ? 2 : 1)) {
      throw rangeError(WHERE, "bitmaps", `${n} bitmaps`, `${needs} Bitmaps for "${op}" (BITOP ${op.toUpperCase()})`);
    }
    let length = 0;
    for (const b of list) if (b.#length > length) length = b.#length;
    const out = new Bitmap();
    if (length === 0) return out;
    out.#bytes = new Uint8Array(roundUp8(length));
    out.#words = new Int32Array(out.#bytes.buffer);
    out.#length = length;
    out.#counted = false;
    bitop(
      op,
      list.map((b) => b.#words),
      out.#words,
      out.#bytes,
      length,
    );
    return out;
  }

  /** Whether `value` was built by this class (not merely given its prototype). */
  static #built(value: unknown): value is Bitmap {
    return typeof value === "object" && value !== null && #bytes in value;
  }

  /** `value` as a Bitmap, or a TypeError naming `param`. */
  static #check(param: string, value: unknown): Bitmap {
    if (Bitmap.#built(value)) return value;
    checkInstance(WHERE, param, value, Bitmap);
    throw new TypeError(
      `redstruct/${WHERE}: ${param} has Bitmap's prototype but no bitmap in it (Object.create?); ` +
        "build bitmaps with new Bitmap(), Bitmap.from(), Bitmap.fromRedis() or Bitmap.fromBytes()",
    );
  }

  // --- inspection ----------------------------------------------------------------------------

  /**
   * The number of set bits: BITCOUNT of the whole string. Counted on the first read after the bitmap
   * was read from bytes or made by {@link Bitmap.op} (O(length / 32)), then kept by every write: O(1).
   */
  get size(): number {
    return this.#count();
  }

  /**
   * The string's length in bytes: STRLEN (0 for an empty bitmap, as for a missing key). The buffer
   * held may be larger by its growth slack (at most 2×, or 1.25× past 16 MiB). O(1).
   */
  get byteLength(): number {
    return this.#length;
  }

  /**
   * The offsets of the set bits, ascending. O(length / 4 + set bits) for a whole walk: zero words are
   * skipped. Bits set ahead of the walk while it runs are visited; bits cleared ahead are not.
   */
  *[Symbol.iterator](): IterableIterator<number> {
    for (let w = 0; w * 4 < this.#length; w++) {
      if (this.#words[w] === 0) continue;
      for (let i = w * 4; i < w * 4 + 4; i++) {
        let b = this.#bytes[i]!;
        while (b !== 0) {
          const lead = Math.clz32(b) - 24;
          yield i * 8 + lead;
          b &= ~(0x80 >>> lead);
        }
      }
    }
  }

  /** Empties the bitmap, releasing its buffer: a missing key again. O(1). */
  clear(): void {
    this.#bytes = new Uint8Array(0);
    this.#words = new Int32Array(this.#bytes.buffer);
    this.#length = 0;
    this.#size = 0;
    this.#counted = true;
  }

  /** An independent copy, holding no growth slack. O(length). */
  clone(): Bitmap {
    const c = new Bitmap();
    c.#load(this.#bytes.subarray(0, this.#length));
    c.#size = this.#size;
    c.#counted = this.#counted;
    return c;
  }

  /** Takes a copy of `string` as the whole state, its set bits not yet counted. */
  #load(string: Uint8Array): void {
    const bytes = new Uint8Array(roundUp8(string.length));
    bytes.set(string);
    this.#bytes = bytes;
    this.#words = new Int32Array(bytes.buffer);
    this.#length = string.length;
    this.#size = 0;
    this.#counted = false;
  }

  /**
   * Throws unless the state is consistent: the word view over the byte buffer, capacity a multiple
   * of 8 within {@link BITMAP_MAX_BYTES}, length within it, zeros past the length, and the kept count
   * (once counted) equal to the popcount. O(capacity); counts nothing it was not asked to.
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const bytes = this.#bytes;
    const capacity = bytes.length;
    if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== capacity) fail("byte view is not the whole buffer");
    if (this.#words.buffer !== bytes.buffer || this.#words.length * 4 !== capacity) fail("word view");
    if (capacity % 8 !== 0 || capacity > BITMAP_MAX_BYTES) fail(`capacity ${capacity}`);
    if (!Number.isInteger(this.#length) || this.#length < 0 || this.#length > capacity) fail(`length ${this.#length}`);
    for (let i = this.#length; i < capacity; i++) if (bytes[i] !== 0) fail(`byte ${i} past the length is not zero`);
    if (this.#counted) {
      const pop = popWords(this.#words, 0, this.#words.length);
      if (pop !== this.#size) fail(`size ${this.#size}, popcount ${pop}`);
    }
  }

  /**
   * Always throws: a bitmap's state is private, so `JSON.stringify` would write `{}`. Send
   * {@link toBytes} (or {@link toRedis}) and rebuild it with {@link Bitmap.fromBytes}.
   * @throws TypeError, always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  // --- serialization -------------------------------------------------------------------------

  /**
   * The Redis string value: `SET key <these bytes>` recreates the key in Redis (an empty bitmap is
   * a missing key: DEL it rather than SET an empty string). A copy. O(length).
   */
  toRedis(): Uint8Array {
    return this.#bytes.slice(0, this.#length);
  }

  /**
   * A bitmap holding a Redis string value (what `GET key` answers); empty bytes give an empty
   * bitmap, as a missing key. The input is copied. O(length).
   * @throws TypeError when `bytes` is not a Uint8Array (a GET of a missing key answers null: that is
   *   `new Bitmap()`) or is detached; RedstructFormatError beyond {@link BITMAP_MAX_BYTES} bytes.
   */
  static fromRedis(bytes: Uint8Array): Bitmap {
    if (bytes === null) {
      throw new TypeError(
        `redstruct/${WHERE}: bytes must be a Uint8Array, got null (a GET of a missing key?); a missing key is an empty bitmap: new Bitmap()`,
      );
    }
    checkBytes(WHERE, "bytes", bytes);
    if (bytes.length > BITMAP_MAX_BYTES) {
      throw formatError(
        WHERE,
        `a ${bytes.length}-byte string is longer than a bitmap can be (${BITMAP_MAX_BYTES} bytes)`,
      );
    }
    const b = new Bitmap();
    b.#load(bytes);
    return b;
  }

  /**
   * The bitmap in redstruct's format: "RSBM", version byte 1, u32 length (little-endian), then the
   * string's bytes: 9 + byteLength bytes. O(length).
   */
  toBytes(): Uint8Array {
    const w = new ByteWriter(9 + this.#length);
    w.magic(MAGIC).u8(VERSION).u32(this.#length).raw(this.#bytes.subarray(0, this.#length));
    return w.finish();
  }

  /**
   * Reads {@link toBytes} output into a new bitmap. The length is checked against the input before
   * anything is allocated; the input is copied. O(length).
   * @throws TypeError when `bytes` is not a Uint8Array (or is detached); RedstructFormatError for
   *   anything else (another format, a version this build does not read, a length beyond
   *   {@link BITMAP_MAX_BYTES} or not matching the input).
   */
  static fromBytes(bytes: Uint8Array): Bitmap {
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    const length = r.u32("the length");
    if (length > BITMAP_MAX_BYTES) throw formatError(WHERE, `length ${length} exceeds ${BITMAP_MAX_BYTES} bytes`);
    if (r.remaining !== length) {
      throw formatError(WHERE, `the header announces ${length} bytes of string, the input holds ${r.remaining}`);
    }
    const b = new Bitmap();
    b.#load(r.view(length, "the string"));
    r.end();
    return b;
  }

  static {
    defineInspect(Bitmap, (b) => ({
      size: b.size,
      entries: (limit) => firstOf(b[Symbol.iterator](), limit),
      fields: { byteLength: b.byteLength },
    }));
  }
}
