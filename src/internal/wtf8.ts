/**
 * WTF-8: UTF-8 extended to lone surrogates, each encoded as its own 3-byte sequence (ED A0 80 –
 * ED BF BF), so that every JavaScript string — well-formed or not — has distinct bytes and comes
 * back unchanged. A well-formed string's WTF-8 is its UTF-8. The dict hashes string keys by these
 * bytes, and the serializers of structures keyed by JavaScript strings store them this way
 * (`TextEncoder` would turn every lone surrogate into U+FFFD and merge distinct keys).
 */

/**
 * Writes the WTF-8 bytes of `s` into `out` from `at` (room for at least `3 · s.length` bytes, or
 * {@link wtf8Length}) and returns the offset after them:
 * UTF-8 for every code point, a surrogate pair as its 4-byte code point, and each lone surrogate as
 * its own 3-byte sequence. Injective over all strings (a lead surrogate followed by a trail one is
 * always a pair, so their separate 3-byte forms never occur).
 */
export function encodeWtf8Into(s: string, out: Uint8Array, at = 0): number {
  let n = at;
  const len = s.length;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
    } else if (c < 0x800) {
      out[n++] = 0xc0 | (c >>> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      if ((c & 0xfc00) === 0xd800 && i + 1 < len) {
        const d = s.charCodeAt(i + 1);
        if ((d & 0xfc00) === 0xdc00) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          out[n++] = 0xf0 | (cp >>> 18);
          out[n++] = 0x80 | ((cp >>> 12) & 0x3f);
          out[n++] = 0x80 | ((cp >>> 6) & 0x3f);
          out[n++] = 0x80 | (cp & 0x3f);
          i++;
          continue;
        }
      }
      out[n++] = 0xe0 | (c >>> 12);
      out[n++] = 0x80 | ((c >>> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return n;
}

/** The WTF-8 bytes of `s`, in a fresh array of their exact length. O(|s|). */
export function wtf8(s: string): Uint8Array {
  const out = new Uint8Array(3 * s.length);
  return out.slice(0, encodeWtf8Into(s, out));
}

/** Bytes of `s` in WTF-8: what {@link encodeWtf8Into} writes. O(|s|). */
export function wtf8Length(s: string): number {
  let n = s.length;
  const len = s.length;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if ((c & 0xfc00) === 0xd800 && i + 1 < len && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 4 bytes for 2 code units
      i++;
    } else n += 2;
  }
  return n;
}

/**
 * Code units decoded so far: one array reused, grown by doubling up to 2^15 units (64 KiB) as inputs
 * need it; a longer input takes a one-shot array, so the kept scratch stays bounded.
 */
const SCRATCH_UNITS = 1 << 15;
let scratchUnits = new Uint16Array(0);

/**
 * The string whose WTF-8 bytes are `bytes[start, end)`, or `undefined` when they are not WTF-8
 * (a truncated or overlong sequence, a code point above U+10FFFF, a surrogate pair spelled as two
 * 3-byte sequences — which encodeWtf8Into never writes, so every string has one form). O(n).
 */
export function decodeWtf8(bytes: Uint8Array, start = 0, end = bytes.length): string | undefined {
  return decode(bytes, start, end, true);
}

/**
 * The string whose UTF-8 bytes are `bytes[start, end)`, or `undefined` when they are not UTF-8:
 * as {@link decodeWtf8}, and a surrogate code point (a lone surrogate's WTF-8 form) is refused too,
 * so the result is always well-formed UTF-16. O(n).
 */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string | undefined {
  return decode(bytes, start, end, false);
}

function decode(bytes: Uint8Array, start: number, end: number, surrogates: boolean): string | undefined {
  // A string has at most one code unit per byte.
  const need = end - start;
  if (need > scratchUnits.length && need <= SCRATCH_UNITS) {
    scratchUnits = new Uint16Array(Math.min(SCRATCH_UNITS, Math.max(need, 2 * scratchUnits.length, 64)));
  }
  const u = need <= scratchUnits.length ? scratchUnits : new Uint16Array(need);
  let n = 0;
  let pairAt = -1; // the unit index where a trail surrogate would complete a lone lead one
  let i = start;
  while (i < end) {
    const b = bytes[i]!;
    if (b < 0x80) {
      u[n++] = b;
      i++;
      continue;
    }
    let cp: number;
    let len: number;
    if (b >= 0xc2 && b < 0xe0) {
      cp = b & 0x1f;
      len = 2;
    } else if (b >= 0xe0 && b < 0xf0) {
      cp = b & 0x0f;
      len = 3;
    } else if (b >= 0xf0 && b < 0xf5) {
      cp = b & 0x07;
      len = 4;
    } else return undefined;
    if (i + len > end) return undefined;
    for (let k = 1; k < len; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) return undefined;
      cp = (cp << 6) | (c & 0x3f);
    }
    if ((len === 3 && cp < 0x800) || (len === 4 && (cp < 0x10000 || cp > 0x10ffff))) return undefined;
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      u[n++] = 0xd800 + (cp >>> 10);
      u[n++] = 0xdc00 + (cp & 0x3ff);
    } else {
      if (cp >= 0xd800 && cp < 0xe000 && !surrogates) return undefined;
      if (cp >= 0xdc00 && cp < 0xe000 && pairAt === n) return undefined;
      u[n++] = cp;
      if (cp >= 0xd800 && cp < 0xdc00) pairAt = n;
    }
  }
  let s = "";
  for (let k = 0; k < n; k += 4096) s += String.fromCharCode.apply(null, u.subarray(k, Math.min(n, k + 4096)) as never);
  return s;
}
