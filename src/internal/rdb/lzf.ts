/**
 * LZF (Marc Lehmann's liblzf 3.6), both ways, as Redis uses it for strings longer than 20 bytes in a
 * `DUMP` payload or an RDB file (`rdbcompression yes`, the default).
 *
 * Format: a sequence of runs, each opened by a control byte —
 * `000LLLLL` + L+1 literal bytes (1..32); `LLLooooo oooooooo` a back reference of L+2 bytes (L 1..6)
 * starting o+1 bytes back (1..8192); `111ooooo LLLLLLLL oooooooo` a back reference of L+9 bytes
 * (9..264). A back reference may overlap the bytes it produces.
 *
 * The compressor reproduces lzf_compress with the settings Redis ships and Debian's liblzf builds
 * alike (lzfP.h): HLOG 16 (a 65,536-slot table), VERY_FAST 1, ULTRA_FAST 0, so that its output is
 * byte for byte Redis's — the hash `IDX(h) = ((h >> 8) − 5h) & 0xffff` of the next three bytes, the
 * first candidate only, the 16-step unrolled match loop whose last steps may count the two bytes an
 * ordinary match leaves as literals, the two table updates after a match, and the output-buffer
 * checks that decide when compression "fails" (Redis stores the string raw unless it shrinks by at
 * least 4 bytes). C leaves the table uninitialised (INIT_HTAB 0); a stale slot can never produce a
 * match there — a trigram seen before in the input has overwritten its slot — so a clean table
 * gives the same bytes. The table here is cleaned in O(1) per call: a slot holds `base + position`,
 * and `base` moves past every position of the previous input.
 *
 * The decompressor checks every run against the input and the output: a truncated run, a reference
 * before the start, or output beyond the announced length is a RedstructFormatError. Callers check
 * the announced length against {@link LZF_MAX_RATIO} before allocating it.
 */
import { formatError } from "../errors.js";

/** The most an LZF stream expands: a 3-byte back reference produces 264 bytes. */
export const LZF_MAX_RATIO = 88;

const HSIZE = 1 << 16;
const MAX_LIT = 32;
const MAX_OFF = 1 << 13;
const MAX_REF = (1 << 8) + (1 << 3);

/** Slots hold `base + position`; a value below the current call's base is an empty slot. */
let table: Int32Array | null = null;
let nextBase = 1;

/**
 * Compresses `src[from, to)` into `out` from `at`, using at most `outLimit` bytes, as Redis's
 * lzf_compress(in, len, out, outLimit) does. Returns the bytes written, or 0 when the result would
 * not fit in `outLimit` (then `out`'s contents are undefined). `out` must have room for
 * `outLimit + 1` bytes from `at`. O(to − from), no allocation after the first call.
 */
export function lzfCompress(
  src: Uint8Array,
  from: number,
  to: number,
  out: Uint8Array,
  at: number,
  outLimit: number,
): number {
  const inLen = to - from;
  if (inLen === 0 || outLimit === 0) return 0;
  if (table === null || nextBase > 0x7fffffff - inLen - 1) {
    table ??= new Int32Array(HSIZE);
    table.fill(0);
    nextBase = 1;
  }
  const htab = table;
  const first = nextBase; // slots written by this call hold values ≥ first
  const base = first - from; // the value of input position p is base + p
  nextBase += inLen + 1;
  const outEnd = at + outLimit;
  let ip = from;
  let op = at;
  let lit = 0;
  op++; // start a literal run
  let hval = inLen > 1 ? (src[ip]! << 8) | src[ip + 1]! : 0;
  while (ip < to - 2) {
    hval = (hval << 8) | src[ip + 2]!;
    const slot = ((hval >>> 8) - Math.imul(hval, 5)) & 0xffff;
    const stored = htab[slot]!;
    htab[slot] = base + ip;
    const ref = stored - base;
    const off = ip - ref - 1;
    if (
      stored >= first &&
      off < MAX_OFF &&
      ref > from &&
      src[ref + 2] === src[ip + 2] &&
      src[ref] === src[ip] &&
      src[ref + 1] === src[ip + 1]
    ) {
      let maxlen = to - ip - 2;
      if (maxlen > MAX_REF) maxlen = MAX_REF;
      if (op + 3 + 1 >= outEnd && op - (lit === 0 ? 1 : 0) + 3 + 1 >= outEnd) return 0;
      out[op - lit - 1] = (lit - 1) & 0xff; // stop the run
      if (lit === 0) op--; // undo an empty run
      let len = matchLength(src, ref, ip, maxlen);
      len -= 2; // octets − 1
      ip++;
      if (len < 7) {
        out[op++] = (off >>> 8) + (len << 5);
      } else {
        out[op++] = (off >>> 8) + (7 << 5);
        out[op++] = len - 7;
      }
      out[op++] = off & 0xff;
      lit = 0;
      op++; // start a run
      ip += len + 1;
      if (ip >= to - 2) break;
      // VERY_FAST: hash the last two positions of the match, then go on after it.
      ip -= 2;
      hval = (src[ip]! << 8) | src[ip + 1]!;
      hval = (hval << 8) | src[ip + 2]!;
      htab[((hval >>> 8) - Math.imul(hval, 5)) & 0xffff] = base + ip;
      ip++;
      hval = (hval << 8) | src[ip + 2]!;
      htab[((hval >>> 8) - Math.imul(hval, 5)) & 0xffff] = base + ip;
      ip++;
    } else {
      if (op >= outEnd) return 0;
      lit++;
      out[op++] = src[ip++]!;
      if (lit === MAX_LIT) {
        out[op - lit - 1] = lit - 1;
        lit = 0;
        op++;
      }
    }
  }
  if (op + 3 > outEnd) return 0;
  while (ip < to) {
    lit++;
    out[op++] = src[ip++]!;
    if (lit === MAX_LIT) {
      out[op - lit - 1] = lit - 1;
      lit = 0;
      op++;
    }
  }
  out[op - lit - 1] = (lit - 1) & 0xff; // end the run
  if (lit === 0) op--;
  return op - at;
}

/**
 * The length of the match at `ip` against `ref` whose first three bytes agree, as lzf_compress's
 * loop counts it: when more than 16 bytes may match, 16 steps each comparing before counting, then
 * steps that count before comparing — so a match found by the unrolled steps may end past `maxlen`.
 */
function matchLength(src: Uint8Array, ref: number, ip: number, maxlen: number): number {
  let len = 2;
  if (maxlen > 16) {
    for (let k = 0; k < 16; k++) {
      len++;
      if (src[ref + len] !== src[ip + len]) return len;
    }
  }
  do len++;
  while (len < maxlen && src[ref + len] === src[ip + len]);
  return len;
}

/**
 * Expands the LZF stream `src[from, to)` into a new array of exactly `length` bytes, as Redis's
 * lzf_decompress with its input checks (CHECK_INPUT 1), and refuses — RedstructFormatError,
 * prefixed `redstruct/<where>: ` and naming `what` — a run cut short by the end of the input, a back
 * reference before the first byte, output beyond `length`, or a stream that ends before `length`
 * bytes. The caller has checked `length ≤ LZF_MAX_RATIO · (to − from)`. O(length + (to − from)).
 */
export function lzfDecompress(
  src: Uint8Array,
  from: number,
  to: number,
  length: number,
  where: string,
  what: string,
): Uint8Array {
  const bad = (why: string) => formatError(where, `${what}: invalid LZF stream (${why})`);
  const out = new Uint8Array(length);
  let ip = from;
  let op = 0;
  while (ip < to) {
    let ctrl = src[ip++]!;
    if (ctrl < 32) {
      ctrl++;
      if (op + ctrl > length) throw bad(`expands past the announced ${length} bytes`);
      if (ip + ctrl > to) throw bad("a literal run is cut short");
      out.set(src.subarray(ip, ip + ctrl), op);
      op += ctrl;
      ip += ctrl;
    } else {
      let len = ctrl >>> 5;
      let ref = op - ((ctrl & 0x1f) << 8) - 1;
      if (ip >= to) throw bad("a back reference is cut short");
      if (len === 7) {
        len += src[ip++]!;
        if (ip >= to) throw bad("a back reference is cut short");
      }
      ref -= src[ip++]!;
      if (op + len + 2 > length) throw bad(`expands past the announced ${length} bytes`);
      if (ref < 0) throw bad("a back reference points before the first byte");
      for (let k = 0; k < len + 2; k++) out[op++] = out[ref++]!;
    }
  }
  if (op !== length) throw bad(`expands to ${op} bytes, ${length} announced`);
  return out;
}
