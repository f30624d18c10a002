/**
 * Elements and their bytes.
 *
 * An element is hashed as the bytes Redis would store for it: strings as UTF-8, numbers and
 * bigints as their decimal string (`String(x)`), byte arrays as they are. So `42` and `"42"` are the
 * same element, exactly as `PFADD k 42` and `PFADD k "42"` are in Redis.
 *
 * Hot paths never allocate: {@link loadElement} writes the bytes of an element into one module-level
 * scratch buffer (grown on demand, never shrunk) and returns its length. ASCII strings are copied
 * with a `charCodeAt` loop; the first non-ASCII code unit switches to `TextEncoder.encodeInto` on
 * the same buffer, which encodes lone surrogates as U+FFFD exactly like `TextEncoder.encode`.
 * A `Uint8Array` element is hashed in place, without a copy.
 */
import { typeError } from "../internal/errors.js";

/** What every structure accepts as an element. */
export type Element = string | number | bigint | Uint8Array;

const encoder = new TextEncoder();

/**
 * The bytes an element stands for: UTF-8 for strings, the decimal string for numbers and
 * bigints, the array itself (not a copy) for a `Uint8Array`.
 * @throws TypeError for any other type.
 */
export function utf8(value: Element): Uint8Array {
  if (typeof value === "string") return encoder.encode(value);
  if (value instanceof Uint8Array) return value;
  if (typeof value === "number" || typeof value === "bigint") return encoder.encode(String(value));
  throw typeError("hash", "element", value, "a string, number, bigint or Uint8Array");
}

/**
 * The scratch area filled by {@link loadElement}. `bytes` is either the shared scratch buffer or
 * the caller's own `Uint8Array`; only the first `loadElement()` bytes are meaningful, and only until
 * the next call. Internal: never hand `bytes` to a caller.
 */
export const loaded: { bytes: Uint8Array } = { bytes: new Uint8Array(256) };
let scratch: Uint8Array = loaded.bytes;

function grow(minLength: number): Uint8Array {
  let n = scratch.length;
  while (n < minLength) n *= 2;
  scratch = new Uint8Array(n);
  return scratch;
}

/**
 * Makes `loaded.bytes[0 .. returned length)` the bytes of `value`, without allocating in the
 * steady state. Internal building block of every hash function.
 * @throws TypeError when `value` is not an {@link Element}.
 */
export function loadElement(value: Element): number {
  if (typeof value !== "string") {
    if (value instanceof Uint8Array) {
      loaded.bytes = value;
      return value.length;
    }
    if (typeof value !== "number" && typeof value !== "bigint") {
      throw typeError("hash", "element", value, "a string, number, bigint or Uint8Array");
    }
    value = String(value);
  }
  const n = value.length;
  // A UTF-16 code unit is at most 3 UTF-8 bytes (a surrogate pair is 4 bytes for 2 units).
  const buf = scratch.length >= 3 * n ? scratch : grow(3 * n);
  loaded.bytes = buf;
  let i = 0;
  for (; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c > 0x7f) break;
    buf[i] = c;
  }
  if (i === n) return n;
  // Non-ASCII: the prefix is already in place; encode the rest after it.
  return i + encoder.encodeInto(i === 0 ? value : value.slice(i), buf.subarray(i)).written;
}
