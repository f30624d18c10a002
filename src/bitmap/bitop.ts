/**
 * BITOP's word loops (Redis 7.0, src/bitops.c `bitopCommand`; DIFF, DIFF1, ANDOR and ONE as Redis
 * 8.2 documents them). Every source reads as zeros past its end, so the result is as long as the
 * longest source; a source's bytes past its length are zero by the Bitmap's invariant, which lets
 * the loops run over whole words without masking (only NOT, which turns those zeros into ones, clears
 * its tail afterwards).
 *
 * Two sources — the common case — take one pass, eight words per step; more sources fold into the
 * output one source at a time. The result's set bits are not counted here: the Bitmap counts them
 * when first asked.
 */

/** A BITOP operation; the last four as Redis 8.2 defines them. */
export type BitmapOp = "and" | "or" | "xor" | "not" | "diff" | "diff1" | "andor" | "one";

/** Every {@link BitmapOp}, for checks and messages. */
export const BITMAP_OPS: readonly BitmapOp[] = ["and", "or", "xor", "not", "diff", "diff1", "andor", "one"];

/**
 * Writes `op` of `sources` (each source's words, zero past its length) into `out` (zeroed, as many
 * words as the result's capacity; `outBytes` views the same buffer, `length` is the result's length
 * in bytes). The caller has checked the number of sources for `op`.
 */
export function bitop(
  op: BitmapOp,
  sources: readonly Int32Array[],
  out: Int32Array,
  outBytes: Uint8Array,
  length: number,
): void {
  if (op === "not") {
    const x = sources[0]!;
    for (let k = 0; k < out.length; k++) out[k] = ~x[k]!;
    outBytes.fill(0, length);
  } else if (sources.length === 2) two(op, sources[0]!, sources[1]!, out);
  else fold(op, sources, out);
}

/** Words of `w` the result reads: the rest are zero or past the result's capacity. */
function span(w: Int32Array, out: Int32Array): number {
  return Math.min(w.length, out.length);
}

/** `op` of two sources, X = a and Y = b. */
function two(op: BitmapOp, a: Int32Array, b: Int32Array, out: Int32Array): void {
  const na = span(a, out);
  const nb = span(b, out);
  const n = Math.min(na, nb);
  switch (op) {
    case "and":
    case "andor": // X ∧ (Y): with one Y, an AND
      and(a, b, out, n);
      return;
    case "or":
      or(a, b, out, n);
      break;
    case "xor":
    case "one": // exactly one of two: XOR
      xor(a, b, out, n);
      break;
    case "diff": // X ∧ ¬Y
      for (let k = 0; k < n; k++) out[k] = a[k]! & ~b[k]!;
      break;
    case "diff1": // ¬X ∧ Y
      for (let k = 0; k < n; k++) out[k] = ~a[k]! & b[k]!;
      break;
    default:
      throw new Error(`redstruct internal: bitop ${op} of two sources`);
  }
  // Past the shorter source, what the longer one keeps: OR, XOR and ONE keep either; DIFF keeps X;
  // DIFF1 keeps Y.
  if (na > n && op !== "diff1") out.set(a.subarray(n, na), n);
  if (nb > n && op !== "diff") out.set(b.subarray(n, nb), n);
}

/** out[0, n) = a ∧ b, eight words per step. */
function and(a: Int32Array, b: Int32Array, out: Int32Array, n: number): void {
  let k = 0;
  for (; k + 8 <= n; k += 8) {
    out[k] = a[k]! & b[k]!;
    out[k + 1] = a[k + 1]! & b[k + 1]!;
    out[k + 2] = a[k + 2]! & b[k + 2]!;
    out[k + 3] = a[k + 3]! & b[k + 3]!;
    out[k + 4] = a[k + 4]! & b[k + 4]!;
    out[k + 5] = a[k + 5]! & b[k + 5]!;
    out[k + 6] = a[k + 6]! & b[k + 6]!;
    out[k + 7] = a[k + 7]! & b[k + 7]!;
  }
  for (; k < n; k++) out[k] = a[k]! & b[k]!;
}

/** out[0, n) = a ∨ b, eight words per step. */
function or(a: Int32Array, b: Int32Array, out: Int32Array, n: number): void {
  let k = 0;
  for (; k + 8 <= n; k += 8) {
    out[k] = a[k]! | b[k]!;
    out[k + 1] = a[k + 1]! | b[k + 1]!;
    out[k + 2] = a[k + 2]! | b[k + 2]!;
    out[k + 3] = a[k + 3]! | b[k + 3]!;
    out[k + 4] = a[k + 4]! | b[k + 4]!;
    out[k + 5] = a[k + 5]! | b[k + 5]!;
    out[k + 6] = a[k + 6]! | b[k + 6]!;
    out[k + 7] = a[k + 7]! | b[k + 7]!;
  }
  for (; k < n; k++) out[k] = a[k]! | b[k]!;
}

/** out[0, n) = a ⊕ b, eight words per step. */
function xor(a: Int32Array, b: Int32Array, out: Int32Array, n: number): void {
  let k = 0;
  for (; k + 8 <= n; k += 8) {
    out[k] = a[k]! ^ b[k]!;
    out[k + 1] = a[k + 1]! ^ b[k + 1]!;
    out[k + 2] = a[k + 2]! ^ b[k + 2]!;
    out[k + 3] = a[k + 3]! ^ b[k + 3]!;
    out[k + 4] = a[k + 4]! ^ b[k + 4]!;
    out[k + 5] = a[k + 5]! ^ b[k + 5]!;
    out[k + 6] = a[k + 6]! ^ b[k + 6]!;
    out[k + 7] = a[k + 7]! ^ b[k + 7]!;
  }
  for (; k < n; k++) out[k] = a[k]! ^ b[k]!;
}

/** `op` of any number of sources, folded into `out` one source at a time. */
function fold(op: BitmapOp, sources: readonly Int32Array[], out: Int32Array): void {
  const first = sources[0]!;
  switch (op) {
    case "and": {
      out.set(first.subarray(0, span(first, out)));
      for (let j = 1; j < sources.length; j++) {
        const w = sources[j]!;
        const n = span(w, out);
        for (let k = 0; k < n; k++) out[k]! &= w[k]!;
        out.fill(0, n); // past a source's end it reads as zeros
      }
      return;
    }
    case "or":
    case "xor": {
      for (const w of sources) {
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
        const w = sources[j]!;
        const n = span(w, out);
        for (let k = 0; k < n; k++) out[k]! &= ~w[k]!;
      }
      return;
    }
    case "diff1":
    case "andor": {
      // (Y1 ∨ Y2 …), then ∧ ¬X (DIFF1) or ∧ X (ANDOR); past X's end it reads as zeros.
      for (let j = 1; j < sources.length; j++) {
        const w = sources[j]!;
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
      for (const w of sources) {
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
