/**
 * A trivial reference for the Bitmap tests: a Redis string as a `number[]` of bytes, every command
 * written the plainest way from Redis 7.0's src/bitops.c — bit by bit, BigInt everywhere, the
 * overflow checks transcribed with C's 64-bit casts (BigInt.asIntN / asUintN) rather than reasoned
 * about. Slow and obviously right is the point: the Bitmap under test is word-wise and double-based.
 */

export type Unit = "byte" | "bit";
export type RefOp = "and" | "or" | "xor" | "not" | "diff" | "diff1" | "andor" | "one";

/** One BITFIELD subcommand, already valid (the reference does not check arguments). */
export type RefField =
  | { kind: "get"; signed: boolean; bits: number; offset: number }
  | { kind: "set" | "incrby"; signed: boolean; bits: number; offset: number; value: bigint; overflow: 0 | 1 | 2 };

const WRAP = 0;
const SAT = 1;
const FAIL = 2;
const u64 = (x: bigint) => BigInt.asUintN(64, x);
const i64 = (x: bigint) => BigInt.asIntN(64, x);

export class RefBitmap {
  bytes: number[] = [];

  static of(bytes: ArrayLike<number>): RefBitmap {
    const r = new RefBitmap();
    r.bytes = Array.from(bytes);
    return r;
  }

  #grow(bit: number): void {
    const need = Math.floor(bit / 8) + 1;
    while (this.bytes.length < need) this.bytes.push(0);
  }

  bit(o: number): number {
    const i = Math.floor(o / 8);
    return i < this.bytes.length ? (this.bytes[i]! >> (7 - (o % 8))) & 1 : 0;
  }

  #put(o: number, v: number): void {
    const i = Math.floor(o / 8);
    const m = 1 << (7 - (o % 8));
    this.bytes[i] = v ? this.bytes[i]! | m : this.bytes[i]! & ~m;
  }

  setBit(o: number, v: number): number {
    this.#grow(o);
    const was = this.bit(o);
    this.#put(o, v);
    return was;
  }

  popcount(): number {
    let n = 0;
    for (let o = 0; o < this.bytes.length * 8; o++) n += this.bit(o);
    return n;
  }

  offsets(): number[] {
    const out: number[] = [];
    for (let o = 0; o < this.bytes.length * 8; o++) if (this.bit(o)) out.push(o);
    return out;
  }

  /** BITCOUNT on an existing key (or 0 for a missing one: no bytes). */
  count(start?: number, end?: number, unit: Unit = "byte"): number {
    const len = this.bytes.length;
    if (len === 0) return 0;
    if (start === undefined || end === undefined) return this.popcount();
    if (start < 0 && end < 0 && start > end) return 0;
    const total = unit === "bit" ? len * 8 : len;
    if (start < 0) start += total;
    if (end < 0) end += total;
    if (start < 0) start = 0;
    if (end < 0) end = 0;
    if (end >= total) end = total - 1;
    if (start > end) return 0;
    const [a, b] = unit === "bit" ? [start, end] : [start * 8, end * 8 + 7];
    let n = 0;
    for (let o = a; o <= b; o++) n += this.bit(o);
    return n;
  }

  /** BITPOS. */
  position(bit: number, start?: number, end?: number, unit: Unit = "byte"): number {
    const len = this.bytes.length;
    if (len === 0) return bit ? -1 : 0;
    let a = 0;
    let b = len * 8 - 1;
    if (start !== undefined) {
      const total = unit === "bit" ? len * 8 : len;
      let s = start;
      let e = end ?? total - 1;
      if (s < 0) s += total;
      if (e < 0) e += total;
      if (s < 0) s = 0;
      if (e < 0) e = 0;
      if (e >= total) e = total - 1;
      if (s > e) return -1;
      [a, b] = unit === "bit" ? [s, e] : [s * 8, e * 8 + 7];
    }
    for (let o = a; o <= b; o++) if (this.bit(o) === bit) return o;
    if (bit === 1 || end !== undefined) return -1;
    return b + 1;
  }

  /** BITOP, byte by byte (Redis's fallback loop for the first four; the 8.2 definitions for the rest). */
  static op(op: RefOp, srcs: RefBitmap[]): RefBitmap {
    const max = Math.max(0, ...srcs.map((s) => s.bytes.length));
    const at = (s: RefBitmap, j: number) => (j < s.bytes.length ? s.bytes[j]! : 0);
    const out = new RefBitmap();
    for (let j = 0; j < max; j++) {
      const xs = srcs.map((s) => at(s, j));
      let r = 0;
      for (let k = 0; k < 8; k++) {
        const bits = xs.map((x) => (x >> k) & 1);
        const ys = bits.slice(1);
        const anyY = ys.some((y) => y === 1) ? 1 : 0;
        let v: number;
        switch (op) {
          case "and":
            v = bits.every((y) => y === 1) ? 1 : 0;
            break;
          case "or":
            v = bits.some((y) => y === 1) ? 1 : 0;
            break;
          case "xor":
            v = bits.reduce((p, y) => p ^ y, 0);
            break;
          case "not":
            v = 1 - bits[0]!;
            break;
          case "diff":
            v = bits[0]! & (1 - anyY);
            break;
          case "diff1":
            v = (1 - bits[0]!) & anyY;
            break;
          case "andor":
            v = bits[0]! & anyY;
            break;
          case "one":
            v = bits.filter((y) => y === 1).length === 1 ? 1 : 0;
            break;
        }
        r |= v << k;
      }
      out.bytes.push(r);
    }
    return out;
  }

  #getUnsigned(offset: number, bits: number): bigint {
    let v = 0n;
    for (let j = 0; j < bits; j++) v = (v << 1n) | BigInt(this.bit(offset + j));
    return v;
  }

  #getSigned(offset: number, bits: number): bigint {
    return BigInt.asIntN(bits, this.#getUnsigned(offset, bits));
  }

  #setUnsigned(offset: number, bits: number, value: bigint): void {
    for (let j = 0; j < bits; j++) this.#put(offset + j, Number((value >> BigInt(bits - 1 - j)) & 1n));
  }

  /** BITFIELD on already-parsed ops: replies as bigint (or null). */
  bitfield(ops: RefField[]): (bigint | null)[] {
    let far = -1;
    for (const op of ops) if (op.kind !== "get" && op.offset + op.bits - 1 > far) far = op.offset + op.bits - 1;
    if (far >= 0) this.#grow(far);
    const replies: (bigint | null)[] = [];
    for (const op of ops) {
      if (op.kind === "get") {
        replies.push(op.signed ? this.#getSigned(op.offset, op.bits) : this.#getUnsigned(op.offset, op.bits));
        continue;
      }
      const B = BigInt(op.bits);
      if (op.signed) {
        const old = this.#getSigned(op.offset, op.bits);
        let next: bigint;
        let ret: bigint;
        let of: number;
        if (op.kind === "incrby") {
          const [o, w] = checkSigned(old, op.value, B, op.overflow);
          of = o;
          next = o ? w : i64(old + op.value);
          ret = next;
        } else {
          const [o, w] = checkSigned(op.value, 0n, B, op.overflow);
          of = o;
          next = o ? w : op.value;
          ret = old;
        }
        if (of && op.overflow === FAIL) replies.push(null);
        else {
          replies.push(ret);
          this.#setUnsigned(op.offset, op.bits, u64(next));
        }
      } else {
        const old = this.#getUnsigned(op.offset, op.bits);
        let next: bigint;
        let ret: bigint;
        let of: number;
        if (op.kind === "incrby") {
          next = u64(old + op.value);
          const [o, w] = checkUnsigned(old, op.value, B, op.overflow);
          of = o;
          if (o) next = w;
          ret = next;
        } else {
          next = u64(op.value);
          const [o, w] = checkUnsigned(next, 0n, B, op.overflow);
          of = o;
          if (o) next = w;
          ret = old;
        }
        if (of && op.overflow === FAIL) replies.push(null);
        else {
          replies.push(ret);
          this.#setUnsigned(op.offset, op.bits, next);
        }
      }
    }
    return replies;
  }
}

/** checkUnsignedBitfieldOverflow, transcribed: value is a uint64, incr an int64. */
function checkUnsigned(value: bigint, incr: bigint, bits: bigint, ow: number): [number, bigint] {
  const max = bits === 64n ? u64(-1n) : (1n << bits) - 1n;
  const maxincr = i64(max - value);
  const minincr = i64(-value);
  const wrap = (): bigint => u64(value + incr) & ~u64(u64(-1n) << bits);
  if (value > max || (incr > 0n && incr > maxincr)) {
    return [1, ow === WRAP ? wrap() : ow === SAT ? max : 0n];
  }
  if (incr < 0n && incr < minincr) {
    return [-1, ow === WRAP ? wrap() : ow === SAT ? 0n : 0n];
  }
  return [0, 0n];
}

/** checkSignedBitfieldOverflow, transcribed: value and incr are int64s. */
function checkSigned(value: bigint, incr: bigint, bits: bigint, ow: number): [number, bigint] {
  const max = bits === 64n ? (1n << 63n) - 1n : (1n << (bits - 1n)) - 1n;
  const min = -max - 1n;
  const maxincr = i64(u64(max) - u64(value));
  const minincr = i64(min - value);
  const wrap = (): bigint => {
    const msb = 1n << (bits - 1n);
    let c = u64(u64(value) + u64(incr));
    if (bits < 64n) {
      const mask = u64(u64(-1n) << bits);
      c = c & msb ? c | mask : c & ~mask & u64(-1n);
    }
    return i64(c);
  };
  if (value > max || (bits !== 64n && incr > maxincr) || (value >= 0n && incr > 0n && incr > maxincr)) {
    return [1, ow === WRAP ? wrap() : ow === SAT ? max : 0n];
  }
  if (value < min || (bits !== 64n && incr < minincr) || (value < 0n && incr < 0n && incr < minincr)) {
    return [-1, ow === WRAP ? wrap() : ow === SAT ? min : 0n];
  }
  return [0, 0n];
}
