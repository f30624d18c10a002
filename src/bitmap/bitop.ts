/**
 * BITOP's word loops (Redis 7.0, src/bitops.c `bitopCommand`; DIFF, DIFF1, ANDOR and ONE as Redis
 * 8.2 documents them). Every source reads as zeros past its end, so the result is as long as the
 * longest source; a source's bytes past its length are zero by the Bitmap's invariant, which lets
 * the loops run over whole words without masking (only NOT, which turns those zeros into ones, clears
 * its tail afterwards).
 *
 * Two sources — the common case — take one fused pass: combine a word, store it, count its bits.
 * More sources fold into the output one source at a time, then one pass counts.
 */
import { pop32, popWords } from "./bits.js";

/** A BITOP operation; the last four as Redis 8.2 defines them. */
export type BitmapOp = "and" | "or" | "xor" | "not" | "diff" | "diff1" | "andor" | "one";

/** Every {@link BitmapOp}, for checks and messages. */
export const BITMAP_OPS: readonly BitmapOp[] = ["and", "or", "xor", "not", "diff", "diff1", "andor", "one"];

/** A source's words (zero past its length) and its number of set bits. */
export interface BitopSource {
  readonly words: Int32Array;
  readonly size: number;
}

/**
 * Writes `op` of `sources` into `out` (zeroed, as many words as the result's capacity; `outBytes`
 * views the same buffer and `length` is the result's length in bytes) and returns the number of set
 * bits in it. The caller has checked the number of sources for `op`.
 */
export function bitop(
  op: BitmapOp,
  sources: readonly BitopSource[],
  out: Int32Array,
  outBytes: Uint8Array,
  length: number,
): number {
  if (op === "not") {
    const x = sources[0]!;
    const words = x.words;
    for (let k = 0; k < out.length; k++) out[k] = ~words[k]!;
    outBytes.fill(0, length);
    return length * 8 - x.size;
  }
  if (sources.length === 2) return two(op, sources[0]!.words, sources[1]!.words, out);
  fold(op, sources, out);
  return popWords(out, 0, out.length);
}

/** Words of `w` the result reads: the rest are zero or past the result's capacity. */
function span(w: Int32Array, out: Int32Array): number {
  return Math.min(w.length, out.length);
}

/** `op` of two sources in one pass: combine, store, count. */
function two(op: BitmapOp, a: Int32Array, b: Int32Array, out: Int32Array): number {
  const na = span(a, out);
  const nb = span(b, out);
  const both = Math.min(na, nb);
  let n = 0;
  let k = 0;
  switch (op) {
    case "and":
    case "andor": // X ∧ (Y): with one Y, an AND
      for (; k < both; k++) {
        const r = a[k]! & b[k]!;
        out[k] = r;
        n += pop32(r);
      }
      return n;
    case "or":
      for (; k < both; k++) {
        const r = a[k]! | b[k]!;
        out[k] = r;
        n += pop32(r);
      }
      return n + rest(a, both, na, out) + rest(b, both, nb, out);
    case "xor":
    case "one": // exactly one of two: XOR
      for (; k < both; k++) {
        const r = a[k]! ^ b[k]!;
        out[k] = r;
        n += pop32(r);
      }
      return n + rest(a, both, na, out) + rest(b, both, nb, out);
    case "diff": // X ∧ ¬Y
      for (; k < both; k++) {
        const r = a[k]! & ~b[k]!;
        out[k] = r;
        n += pop32(r);
      }
      return n + rest(a, both, na, out);
    case "diff1": // ¬X ∧ Y
      for (; k < both; k++) {
        const r = ~a[k]! & b[k]!;
        out[k] = r;
        n += pop32(r);
      }
      return n + rest(b, both, nb, out);
    default:
      throw new Error(`redstruct internal: bitop ${op} of two sources`);
  }
}

/** Copies w[from, to) into out and counts it: the part of one source the other does not reach. */
function rest(w: Int32Array, from: number, to: number, out: Int32Array): number {
  if (from >= to) return 0;
  out.set(w.subarray(from, to), from);
  return popWords(out, from, to);
}

/** `op` of any number of sources, folded into `out` one source at a time. */
function fold(op: BitmapOp, sources: readonly BitopSource[], out: Int32Array): void {
  const first = sources[0]!.words;
  switch (op) {
    case "and": {
      out.set(first.subarray(0, span(first, out)));
      for (let j = 1; j < sources.length; j++) {
        const w = sources[j]!.words;
        const n = span(w, out);
        for (let k = 0; k < n; k++) out[k]! &= w[k]!;
        out.fill(0, n); // past a source's end it reads as zeros
      }
      return;
    }
    case "or":
    case "xor": {
      for (const s of sources) {
        const w = s.words;
        const n = span(w, out);
        if (op === "or") for (let k = 0; k < n; k++) out[k]! |= w[k]!;
        else for (let k = 0; k < n; k++) out[k]! ^= w[k]!;
      }
      return;
    }
    case "diff": {
      // X ∧ ¬Y1 ∧ ¬Y2 …; past a Y's end, ¬0 keeps X.
      out.set(first.subarray(0, span(first, out)));
      for (let j = 1; j < sources.length; j++) {
        const w = sources[j]!.words;
        const n = span(w, out);
        for (let k = 0; k < n; k++) out[k]! &= ~w[k]!;
      }
      return;
    }
    case "diff1":
    case "andor": {
      // (Y1 ∨ Y2 …), then ∧ ¬X (DIFF1) or ∧ X (ANDOR); past X's end it reads as zeros.
      for (let j = 1; j < sources.length; j++) {
        const w = sources[j]!.words;
        const n = span(w, out);
        for (let k = 0; k < n; k++) out[k]! |= w[k]!;
      }
      const n = span(first, out);
      if (op === "diff1") for (let k = 0; k < n; k++) out[k]! &= ~first[k]!;
      else {
        for (let k = 0; k < n; k++) out[k]! &= first[k]!;
        out.fill(0, n);
      }
      return;
    }
    case "one": {
      // Bits seen at least once (out) and at least twice (twice); the result is once ∧ ¬twice.
      const twice = new Int32Array(out.length);
      for (const s of sources) {
        const w = s.words;
        const n = span(w, out);
        for (let k = 0; k < n; k++) {
          const x = w[k]!;
          twice[k]! |= out[k]! & x;
          out[k]! |= x;
        }
      }
      for (let k = 0; k < out.length; k++) out[k]! &= ~twice[k]!;
      return;
    }
    default:
      throw new Error(`redstruct internal: bitop ${op} folded`);
  }
}
