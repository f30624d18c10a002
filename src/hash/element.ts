/**
 * Elements and their bytes.
 *
 * An element is hashed as the bytes Redis would store for it: strings as UTF-8, numbers and
 * bigints as their decimal string (`String(x)`), byte arrays as they are. So `42` and `"42"` are the
 * same element, exactly as `PFADD k 42` and `PFADD k "42"` are in Redis.
 *
 * Hot paths never allocate. Hash cores read a {@link Source} word by word through {@link word4} /
 * {@link wordN}: an ASCII string's code units are its UTF-8 bytes, so it is hashed in place with
 * `charCodeAt`; the reader notes any code unit above 0x7f, and the hash is then redone over the
 * string's UTF-8 bytes encoded into a reused scratch buffer ({@link utf8Of}). A `Uint8Array` is read
 * in place. So every core exists once and is bit-identical to hashing `utf8(value)`.
 */
import { refuseDetached } from "../internal/bytes.js";
import { typeError } from "../internal/errors.js";

/**
 * What every structure accepts as an element. Named `Item` rather than `Element` so that importing it
 * never shadows the DOM's `Element` in browser code.
 */
export type Item = string | number | bigint | Uint8Array;

const encoder = new TextEncoder();

/**
 * The bytes an element stands for: UTF-8 for strings, the decimal string for numbers and
 * bigints, the array itself (not a copy) for a `Uint8Array`.
 * @throws TypeError for any other type.
 */
export function utf8(value: Item): Uint8Array {
  if (typeof value === "string") return encoder.encode(value);
  if (typeof value === "number" || typeof value === "bigint") return encoder.encode(String(value));
  return checkItem("hash", "element", value) as Uint8Array;
}

/**
 * Returns `value` when it is an {@link Item}: a string, a number, a bigint, or a `Uint8Array` whose
 * buffer is not detached (a detached view reads as no bytes, so it would silently stand for the empty
 * item). Every structure calls it first in each method that takes an item, so a wrong argument is
 * reported in the structure's name and before anything changes. O(1).
 * @throws TypeError naming `where` and `param`.
 */
export function checkItem(where: string, param: string, value: unknown): Item {
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") return value;
  if (value instanceof Uint8Array) {
    // Only an empty view can be detached: the hot path skips the call.
    return value.length === 0 ? refuseDetached(where, param, value) : value;
  }
  throw typeError(where, param, value, "a string, number, bigint or Uint8Array");
}

/** What the hash cores read: a string's code units (hoped ASCII) or a byte array. */
export type Source = string | Uint8Array;

/**
 * The form of an element the hash cores read directly: strings as they are (read with
 * `charCodeAt`, no copy), numbers and bigints as their decimal string, byte arrays as they are.
 * @throws TypeError when `value` is not an {@link Item}.
 */
export function sourceOf(value: Item): Source {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return checkItem("hash", "element", value) as Uint8Array;
}

// OR of every code unit read from a string since startWords(): above 0x7f means the string was not
// ASCII, its code units are not its UTF-8 bytes, and the result must be discarded (see utf8Of).
let seen = 0;

/** Starts a hash over `src`: resets the ASCII check. */
export function startWords(): void {
  seen = 0;
}

/** True when every code unit read since {@link startWords} was ASCII, i.e. the hash is valid. */
export function wordsWereAscii(): boolean {
  return seen <= 0x7f;
}

/** The little-endian 32-bit word of bytes [i, i + 4) of `src`, as an int32. */
export function word4(src: Source, i: number): number {
  if (typeof src === "string") {
    const a = src.charCodeAt(i);
    const b = src.charCodeAt(i + 1);
    const c = src.charCodeAt(i + 2);
    const d = src.charCodeAt(i + 3);
    seen |= a | b | c | d;
    return a | (b << 8) | (c << 16) | (d << 24);
  }
  return src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16) | (src[i + 3]! << 24);
}

/** The little-endian word of the `n` (0..4) bytes [i, i + n) of `src`, zero-extended. */
export function wordN(src: Source, i: number, n: number): number {
  let w = 0;
  if (typeof src === "string") {
    for (let j = n - 1; j >= 0; j--) {
      const c = src.charCodeAt(i + j);
      seen |= c;
      w = (w << 8) | c;
    }
  } else {
    for (let j = n - 1; j >= 0; j--) w = (w << 8) | src[i + j]!;
  }
  return w;
}

/** The most scratch kept between calls: a longer string is encoded into a buffer of its own. */
const SCRATCH_CAP = 1 << 16;
let scratch = new Uint8Array(256);
let written = scratch;

/**
 * Encodes a (non-ASCII) string's UTF-8 bytes and returns their count; read them once from
 * {@link scratchBytes} before the next call. The slow path of every hash; lone surrogates become
 * U+FFFD exactly as with `TextEncoder.encode`. Strings whose bytes fit in 64 KiB go to a reused
 * buffer, grown on demand up to that size; a longer one gets a buffer of its own that
 * {@link scratchBytes} hands out once and then drops, so one huge item does not pin its size in
 * memory for the life of the process.
 */
export function encodeScratch(value: string): number {
  // A UTF-16 code unit is at most 3 UTF-8 bytes (a surrogate pair is 4 bytes for 2 units).
  const most = 3 * value.length;
  if (most > SCRATCH_CAP) {
    written = encoder.encode(value);
    return written.length;
  }
  if (scratch.length < most) {
    let n = scratch.length;
    while (n < most) n *= 2;
    scratch = new Uint8Array(Math.min(n, SCRATCH_CAP));
  }
  written = scratch;
  return encoder.encodeInto(value, scratch).written;
}

/**
 * The buffer the last {@link encodeScratch} wrote to, handed out once (the next call answers the
 * reused buffer). Internal: never hand it to a caller. Fetch it after encodeScratch returns:
 * `const n = encodeScratch(s); f(scratchBytes(), n)`, never `f(scratchBytes(), encodeScratch(s))`
 * (arguments are evaluated left to right, so that would hash the previous buffer).
 */
export function scratchBytes(): Uint8Array {
  const bytes = written;
  written = scratch;
  return bytes;
}
