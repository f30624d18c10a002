/**
 * Redis strings as the RDB codec carries them, and the two conversions Redis applies to them:
 *
 * - integer-looking strings: Redis stores a string as an integer wherever `string2ll` (src/util.c)
 *   or its listpack twin `lpStringToInt64` accepts it — at most 20 bytes, an optional `-`, no
 *   leading zero, no `+`, no space, within the signed 64-bit range: "7", "-5" and
 *   "9223372036854775807" are integers; "007", "-0", "+5", " 5", "1e3" and
 *   "9223372036854775808" stay strings. {@link int64Of} applies exactly that rule.
 * - scores as text: a listpack keeps a score that is not an integer of magnitude ≤ 2^62 as the
 *   text `d2string` writes (Redis 7.0): "inf", "-inf", or C's `%.17g` — 17 significant digits,
 *   correctly rounded with ties to even (glibc), in fixed notation for exponents −4..16 and
 *   exponential otherwise, trailing zeros dropped. {@link formatG17} writes it.
 *
 * An element read from a payload is an {@link RdbValue}: the string's bytes, or the integer an
 * integer encoding holds (a `number` when it is a safe integer, a `bigint` beyond).
 */

/** A string element as read from a payload: its bytes, or the integer an integer encoding stores. */
export type RdbValue = Uint8Array | number | bigint;

const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

/**
 * The integer Redis would store `s` as (`string2ll`: see the module comment), as a number when it
 * is a safe integer and a bigint beyond; `undefined` when `s` is not such an integer. O(|s|).
 */
export function int64Of(s: string): number | bigint | undefined {
  const n = s.length;
  if (n === 0 || n > 20) return undefined;
  let i = s.charCodeAt(0) === 0x2d ? 1 : 0;
  if (i === n) return undefined;
  const first = s.charCodeAt(i);
  if (first === 0x30) return n === 1 ? 0 : undefined; // "0" alone; "-0" and "007" are strings
  if (first < 0x31 || first > 0x39) return undefined;
  let v = first - 0x30;
  for (i++; i < n; i++) {
    const c = s.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return undefined;
    v = v * 10 + c;
  }
  const negative = s.charCodeAt(0) === 0x2d;
  if (v <= Number.MAX_SAFE_INTEGER) return negative ? -v : v;
  const big = BigInt(s);
  return big < MIN_INT64 || big > MAX_INT64 ? undefined : big;
}

/** {@link int64Of} for the bytes `b[start, end)` (only ≤ 20 ASCII bytes can be an integer). */
export function int64OfBytes(b: Uint8Array, start: number, end: number): number | bigint | undefined {
  if (end - start > 20 || end === start) return undefined;
  let s = "";
  for (let i = start; i < end; i++) s += String.fromCharCode(b[i]!);
  return int64Of(s);
}

/** Whether a score is kept as an integer (Redis's `double2ll`): an integer of magnitude ≤ 2^62. */
export function isIntegerScore(v: number): boolean {
  return Number.isInteger(v) && v <= 2 ** 62 && v >= -(2 ** 62);
}

/**
 * The text Redis 7.0's `d2string` writes for a double: "nan", "inf", "-inf", "0", "-0", the
 * integer's digits when it is an integer of magnitude ≤ 2^62, else {@link formatG17}. O(1).
 */
export function d2string(v: number): string {
  if (Number.isNaN(v)) return "nan";
  if (v === Number.POSITIVE_INFINITY) return "inf";
  if (v === Number.NEGATIVE_INFINITY) return "-inf";
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  if (isIntegerScore(v)) return Number.isSafeInteger(v) ? String(v) : BigInt(v).toString();
  return formatG17(v);
}

/**
 * C's `printf("%.17g", v)` with glibc's rounding (exact, ties to even) for a finite non-zero
 * double. JavaScript's `toExponential` rounds the exact value too but breaks ties upward; a tie —
 * the exact value has 18 significant digits, the last a 5 — is found exactly (BigInt) and
 * resolved to even. O(1).
 */
export function formatG17(v: number): string {
  const negative = v < 0;
  const a = negative ? -v : v;
  let [digits, exponent] = splitExponential(a.toExponential(16));
  const wide = splitExponential(a.toExponential(17));
  if (wide[0].endsWith("5") && isExactly(a, BigInt(wide[0]), wide[1] - 17)) {
    let d17 = BigInt(wide[0]) / 10n;
    if (d17 % 2n === 1n) d17 += 1n;
    digits = d17.toString();
    exponent = wide[1];
    if (digits.length > 17) {
      digits = digits.slice(0, 17);
      exponent++;
    }
  }
  let body: string;
  if (exponent < -4 || exponent >= 17) {
    const frac = digits.slice(1).replace(/0+$/, "");
    const e = Math.abs(exponent);
    body = `${digits[0]}${frac === "" ? "" : `.${frac}`}e${exponent < 0 ? "-" : "+"}${e < 10 ? "0" : ""}${e}`;
  } else if (exponent >= 0) {
    const frac = digits.slice(exponent + 1).replace(/0+$/, "");
    body = `${digits.slice(0, exponent + 1)}${frac === "" ? "" : `.${frac}`}`;
  } else {
    body = `0.${"0".repeat(-exponent - 1)}${digits.replace(/0+$/, "")}`;
  }
  return negative ? `-${body}` : body;
}

/** "d.ddd…e±x" → [the digits without the point, x]. */
function splitExponential(s: string): [string, number] {
  const e = s.indexOf("e");
  return [s[0] + s.slice(2, e), Number(s.slice(e + 1))];
}

/** Whether the positive finite double `a` equals `d · 10^q` exactly. */
function isExactly(a: number, d: bigint, q: number): boolean {
  // a = m · 2^k with m a 53-bit integer.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = hi >>> 20;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let k: number;
  if (biased === 0) k = -1074;
  else {
    m |= 1n << 52n;
    k = biased - 1075;
  }
  let left = m;
  let right = d;
  if (k >= 0) left <<= BigInt(k);
  else right <<= BigInt(-k);
  if (q >= 0) right *= 10n ** BigInt(q);
  else left *= 10n ** BigInt(-q);
  return left === right;
}

/** C's floating-point syntax as strtod reads it in full: decimal, with an optional exponent, or inf/nan. */
const FLOAT_TEXT = /^[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)$/i;

/**
 * A score written as text (a listpack or ziplist string entry, as `d2string` writes it): the double
 * `strtod` reads from the whole of `text`, or `undefined` when `text` is not a number in C's
 * decimal syntax (hexadecimal floats, spaces and trailing characters included). NaN comes back as
 * NaN, for the caller to refuse. JavaScript's `Number` rounds decimal text correctly, as glibc's
 * strtod does.
 */
export function parseScore(text: string): number | undefined {
  if (!FLOAT_TEXT.test(text)) return undefined;
  const t = text.toLowerCase();
  const sign = t.startsWith("-") ? -1 : 1;
  if (t.endsWith("inf") || t.endsWith("infinity")) return sign * Number.POSITIVE_INFINITY;
  if (t.endsWith("nan")) return Number.NaN;
  return Number(text);
}

/** A value's text: its bytes decoded as latin1 (for scores and other ASCII); integers in decimal. */
export function asciiOf(v: RdbValue): string {
  if (!(v instanceof Uint8Array)) return String(v);
  let s = "";
  for (let i = 0; i < v.length; i++) s += String.fromCharCode(v[i]!);
  return s;
}

/** Whether `s` is well-formed UTF-16 (no lone surrogate), so that it has a UTF-8 form. */
export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** With the `u` flag a paired surrogate is one code point: only a lone one matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
