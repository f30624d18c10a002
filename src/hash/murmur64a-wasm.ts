/**
 * MurmurHash64A chained twice — h1 = H(item, seed), h2 = H(item, h1), RedisBloom's Bloom-filter
 * hashing — in a 400-byte WebAssembly module, with the reductions h1 mod m and h2 mod m.
 *
 * Why WebAssembly: MurmurHash64A multiplies 64-bit words, which plain JavaScript has to assemble
 * from 16-bit limbs (src/hash/murmur64a.ts); WebAssembly has `i64.mul` and `i64.rem_u`. For the two
 * passes RedisBloom makes per item this is the difference between trailing and matching the
 * fastest 32-bit-hash Bloom filters. Where WebAssembly is unavailable (a Content-Security-Policy
 * without 'wasm-unsafe-eval', an engine built without it) {@link wasmMurmur} is undefined and the
 * callers use the JavaScript implementation, which gives the same bits.
 *
 * The module is assembled below from its instructions (no build step, no binary blob): one page of
 * memory; bytes 0–7 hold the seed and then h1, 8–15 h2, 16–23 and 24–31 the two remainders as
 * float64, and the item's bytes start at 32. `chain(len, m)` runs the two passes over them and
 * then `rem(m)`, which reduces h1 and h2 modulo m (an integer below 2^53). Items are copied in:
 * ASCII strings by a loop of int32 stores, other strings with `TextEncoder.encodeInto` (the same
 * UTF-8 as everywhere else), byte arrays with `set`, numbers and bigints as their decimal strings.
 *
 * Memory bound: a WebAssembly memory can grow but never shrink, so it only takes items of at most
 * {@link MAX_ITEM_BYTES} (64 KiB) bytes — UTF-8 bytes for strings. {@link WasmMurmur.chainInto}
 * returns false for a longer item, which the caller then hashes with the JavaScript MurmurHash64A
 * (src/hash/murmur64a.ts; the same bits). The memory therefore never passes two 64 KiB pages,
 * whatever was hashed.
 */
import { type Item, sourceOf } from "./element.js";

const encoder = new TextEncoder();

/** Largest item, in bytes, the module hashes: a longer one is left to the JavaScript hash. */
export const MAX_ITEM_BYTES = 1 << 16;
/** Most positions one {@link WasmMurmur.positions} call computes (RedisBloom's largest k is 1075). */
const MAX_POSITIONS = 1100;
/** Byte offset of the positions, then of the item, in the module's memory. */
const POSITIONS = 32;
const DATA = POSITIONS + 8 * MAX_POSITIONS;

// ——— a small WebAssembly assembler ——————————————————————————————————————————————

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of a 64-bit constant (BigInt here only: this runs once, at load). */
function sleb64(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** Signed LEB128 of an i32 constant (i32.const takes signed immediates). */
const sleb = (n: number): number[] => sleb64(BigInt(n));

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

// Opcodes used.
const I32 = 0x7f;
const I64 = 0x7e;
const F64 = 0x7c;
// An enum, not an object: the bundler inlines the values and drops the names.
enum op {
  block = 0x02,
  loop = 0x03,
  if = 0x04,
  end = 0x0b,
  br = 0x0c,
  brIf = 0x0d,
  call = 0x10,
  get = 0x20,
  set = 0x21,
  tee = 0x22,
  i64Load = 0x29,
  i64Store = 0x37,
  f64Store = 0x39,
  i32Const = 0x41,
  i64Const = 0x42,
  select = 0x1b,
  i32GeU = 0x4f,
  i32Shl = 0x74,
  i64LtS = 0x53,
  i64LtU = 0x54,
  i64GeS = 0x59,
  i64GeU = 0x5a,
  i32Add = 0x6a,
  i32Mul = 0x6c,
  i32And = 0x71,
  i64Add = 0x7c,
  i64Sub = 0x7d,
  i64Mul = 0x7e,
  i64RemU = 0x82,
  i64And = 0x83,
  i64Xor = 0x85,
  i64Shl = 0x86,
  i64ShrU = 0x88,
  i64ExtendI32U = 0xad,
  i64TruncF64U = 0xb1,
  f64ConvertI64S = 0xb9,
  f64ConvertI64U = 0xba,
}
const VOID = 0x40;
const mem = (offset: number) => [3, ...uleb(offset)]; // alignment 2^3, offset

const M = sleb64(0xc6a4a7935bd1e995n - (1n << 64n));

/** murmur(seed: i64, len: i32) → i64 over memory[DATA, DATA + len). Locals: h, k (i64), p, end (i32). */
// biome-ignore format: instructions grouped one source line per step, as in an assembly listing
const murmurBody = [
  ...vec([[2, I64], [2, I32]]),
  // h = seed ^ (len · M)
  op.get, 0, op.get, 1, op.i64ExtendI32U, op.i64Const, ...M, op.i64Mul, op.i64Xor, op.set, 2,
  // p = DATA; end = DATA + (len & ~7)
  op.i32Const, ...sleb(DATA), op.set, 4,
  op.get, 1, op.i32Const, 0x78 /* -8 */, op.i32And, op.i32Const, ...sleb(DATA), op.i32Add, op.set, 5,
  op.block, VOID,
  op.loop, VOID,
  op.get, 4, op.get, 5, op.i32GeU, op.brIf, 1,
  // k = load(p) · M; k ^= k >> 47; k *= M
  op.get, 4, op.i64Load, ...mem(0), op.i64Const, ...M, op.i64Mul, op.tee, 3,
  op.get, 3, op.i64Const, 47, op.i64ShrU, op.i64Xor, op.i64Const, ...M, op.i64Mul,
  // h = (h ^ k) · M
  op.get, 2, op.i64Xor, op.i64Const, ...M, op.i64Mul, op.set, 2,
  op.get, 4, op.i32Const, 8, op.i32Add, op.set, 4,
  op.br, 0,
  op.end,
  op.end,
  // tail: h = (h ^ (load(p) & (2^(8·(len & 7)) − 1))) · M when len & 7 ≠ 0
  op.get, 1, op.i32Const, 7, op.i32And, op.if, VOID,
  op.get, 2,
  op.get, 4, op.i64Load, ...mem(0),
  op.i64Const, 1, op.get, 1, op.i32Const, 7, op.i32And, op.i32Const, 8, op.i32Mul, op.i64ExtendI32U, op.i64Shl,
  op.i64Const, 1, op.i64Sub, op.i64And,
  op.i64Xor, op.i64Const, ...M, op.i64Mul, op.set, 2,
  op.end,
  // h ^= h >> 47; h *= M; h ^= h >> 47
  op.get, 2, op.get, 2, op.i64Const, 47, op.i64ShrU, op.i64Xor, op.i64Const, ...M, op.i64Mul, op.tee, 2,
  op.get, 2, op.i64Const, 47, op.i64ShrU, op.i64Xor,
  op.end,
];

/** chain(len: i32): memory[0] = murmur(memory[0], len); memory[8] = murmur(memory[0], len). */
// biome-ignore format: as above
const chainBody = [
  ...vec([]),
  op.i32Const, 0, op.i32Const, 0, op.i64Load, ...mem(0), op.get, 0, op.call, 0, op.i64Store, ...mem(0),
  op.i32Const, 0, op.i32Const, 0, op.i64Load, ...mem(0), op.get, 0, op.call, 0, op.i64Store, ...mem(8),
  op.end,
];

/** rem(m: f64): memory[16] = f64(memory[0] mod m); memory[24] = f64(memory[8] mod m). Local: mm (i64). */
// biome-ignore format: as above
const remBody = [
  ...vec([[1, I64]]),
  op.get, 0, op.i64TruncF64U, op.set, 1,
  op.i32Const, 0, op.i32Const, 0, op.i64Load, ...mem(0), op.get, 1, op.i64RemU, op.f64ConvertI64U, op.f64Store, ...mem(16),
  op.i32Const, 0, op.i32Const, 0, op.i64Load, ...mem(8), op.get, 1, op.i64RemU, op.f64ConvertI64U, op.f64Store, ...mem(24),
  op.end,
];

/**
 * positions(k: i32, m: f64, w: f64): float64 positions at POSITIONS. Locals: mm, ww, x, b, r, step,
 * t (i64), p, end, wrapped (i32). r tracks (h1 + i·h2 mod 2^64) mod m: each step adds step − w when
 * x wraps (the new x below the old), else step, and brings the sum, in (−m, 2m), back into [0, m)
 * with one signed correction — all with `select`. The wrap test and step − w stay off r's chain of
 * dependent instructions, which is the loop's latency; r < m < 2^53 converts to f64 as a signed
 * integer (one instruction, where an unsigned conversion is several).
 */
// biome-ignore format: as above
const positionsBody = [
  ...vec([[7, I64], [3, I32]]),
  op.get, 1, op.i64TruncF64U, op.set, 3, // mm
  op.get, 2, op.i64TruncF64U, op.set, 4, // ww
  op.i32Const, 0, op.i64Load, ...mem(0), op.tee, 5, op.get, 3, op.i64RemU, op.set, 7, // x = h1; r = x mod mm
  op.i32Const, 0, op.i64Load, ...mem(8), op.tee, 6, op.get, 3, op.i64RemU, op.set, 8, // b = h2; step = b mod mm
  op.i32Const, ...sleb(POSITIONS), op.tee, 10, // p
  op.get, 0, op.i32Const, 3, op.i32Shl, op.i32Add, op.set, 11, // end = p + 8k
  op.block, VOID,
  op.loop, VOID,
  op.get, 10, op.get, 7, op.f64ConvertI64S, op.f64Store, ...mem(0), // store r
  op.get, 10, op.i32Const, 8, op.i32Add, op.tee, 10, op.get, 11, op.i32GeU, op.brIf, 1,
  // x' = x + b; wrapped = x' < x; x = x'
  op.get, 5, op.get, 6, op.i64Add, op.tee, 9, op.get, 5, op.i64LtU, op.set, 12,
  op.get, 9, op.set, 5,
  // r += step − (wrapped ? ww : 0), now in (−mm, 2·mm): one correction, signed (mm < 2^53)
  op.get, 7, op.get, 8, op.get, 4, op.i64Const, 0, op.get, 12, op.select, op.i64Sub, op.i64Add, op.set, 7,
  op.get, 7, op.get, 3, op.i64Sub,
  op.get, 7, op.get, 3, op.i64Add, op.get, 7, op.get, 7, op.i64Const, 0, op.i64LtS, op.select,
  op.get, 7, op.get, 3, op.i64GeS, op.select, op.set, 7,
  op.br, 0,
  op.end,
  op.end,
  op.end,
];

// biome-ignore format: the module's sections, one per line
const moduleBytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  ...section(1, vec([
    [0x60, ...vec([[I64], [I32]]), ...vec([[I64]])], // murmur: (i64, i32) → i64
    [0x60, ...vec([[I32]]), ...vec([])], // chain: (i32) → ()
    [0x60, ...vec([[F64]]), ...vec([])], // rem: (f64) → ()
    [0x60, ...vec([[I32], [F64], [F64]]), ...vec([])], // positions: (i32, f64, f64) → ()
  ])),
  ...section(3, vec([[0], [1], [2], [3]])), // functions and their types
  ...section(5, vec([[0x00, 1]])), // one memory, one page to start
  ...section(7, vec([
    [...name("memory"), 0x02, 0],
    [...name("chain"), 0x00, 1],
    [...name("rem"), 0x00, 2],
    [...name("positions"), 0x00, 3],
  ])),
  ...section(10, vec([
    [...uleb(murmurBody.length), ...murmurBody],
    [...uleb(chainBody.length), ...chainBody],
    [...uleb(remBody.length), ...remBody],
    [...uleb(positionsBody.length), ...positionsBody],
  ])),
]);

// ——— the JavaScript side ——————————————————————————————————————————————————————————

interface Exports {
  memory: WebAssembly.Memory;
  chain(len: number): void;
  positions(k: number, m: number, w: number): void;
  rem(m: number): void;
}

/** The chained MurmurHash64A in WebAssembly; see the module comment. */
class WasmMurmur {
  readonly #exports: Exports;
  #bytes: Uint8Array;
  #words: Uint32Array;
  #floats: Float64Array;
  /** The memory from the item's offset on, at most MAX_ITEM_BYTES long: where encodeInto and set write. */
  #input: Uint8Array;
  /** Where {@link positions} writes. */
  #positions: Float64Array;
  /** The whole memory as int32s, for {@link #copyAscii}. */
  #ints: Int32Array;

  constructor(exports: Exports) {
    this.#exports = exports;
    this.#bytes = new Uint8Array(exports.memory.buffer);
    this.#words = new Uint32Array(exports.memory.buffer, 0, 4);
    this.#floats = new Float64Array(exports.memory.buffer, 16, 2);
    this.#input = inputView(exports.memory.buffer);
    this.#ints = new Int32Array(exports.memory.buffer);
    this.#positions = new Float64Array(exports.memory.buffer, POSITIONS, MAX_POSITIONS);
  }

  /** Makes room for `n` item bytes (plus the 8 the tail read may touch). */
  #room(n: number): void {
    const need = DATA + n + 8;
    const have = this.#bytes.length;
    if (need <= have) return;
    this.#exports.memory.grow(Math.ceil((need - have) / 65536));
    const buffer = this.#exports.memory.buffer;
    this.#bytes = new Uint8Array(buffer);
    this.#words = new Uint32Array(buffer, 0, 4);
    this.#floats = new Float64Array(buffer, 16, 2);
    this.#input = inputView(buffer);
    this.#ints = new Int32Array(buffer);
    this.#positions = new Float64Array(buffer, POSITIONS, MAX_POSITIONS);
  }

  /**
   * Copies an ASCII string's code units (its UTF-8 bytes) into the module's memory, 8 to two int32
   * stores, and returns its length; -1 when a unit above 0x7f shows it is not ASCII. A loop rather
   * than `TextEncoder.encodeInto`, which is faster in Node but returns a fresh result object per
   * call in browsers: this keeps the hot path free of allocation everywhere.
   */
  #copyAscii(src: string): number {
    const len = src.length;
    this.#room(len + 8);
    const w = this.#ints;
    let j = DATA >> 2;
    let seen = 0;
    let i = 0;
    for (const blocks = len & ~7; i < blocks; i += 8) {
      const c0 = src.charCodeAt(i);
      const c1 = src.charCodeAt(i + 1);
      const c2 = src.charCodeAt(i + 2);
      const c3 = src.charCodeAt(i + 3);
      const c4 = src.charCodeAt(i + 4);
      const c5 = src.charCodeAt(i + 5);
      const c6 = src.charCodeAt(i + 6);
      const c7 = src.charCodeAt(i + 7);
      seen |= c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7;
      w[j] = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
      w[j + 1] = c4 | (c5 << 8) | (c6 << 16) | (c7 << 24);
      j += 2;
    }
    let lo = 0;
    let hi = 0;
    for (let shift = 0; i < len; i++, shift += 8) {
      const c = src.charCodeAt(i);
      seen |= c;
      if (shift < 32) lo |= c << shift;
      else hi |= c << (shift - 32);
    }
    w[j] = lo;
    w[j + 1] = hi;
    return seen > 0x7f ? -1 : len;
  }

  /**
   * h1 = MurmurHash64A(value, seed), h2 = MurmurHash64A(value, h1) into `out` as [h1 low, h1 high,
   * h2 low, h2 high], and true; false, with `out` untouched, when the item's bytes (UTF-8 for a
   * string) exceed {@link MAX_ITEM_BYTES} — hash it in JavaScript then.
   * O(|value|); no allocation for ASCII strings and byte arrays.
   */
  chainInto(value: Item, seedHi: number, seedLo: number, out: Uint32Array): boolean {
    const src = sourceOf(value);
    let len: number;
    // A string of n UTF-16 units has at least n UTF-8 bytes: longer than the bound, it cannot fit.
    if (src.length > MAX_ITEM_BYTES) return false;
    if (typeof src === "string") {
      len = this.#copyAscii(src);
      if (len < 0) {
        // Not ASCII: its UTF-8 bytes (at most 3 per UTF-16 unit), the same as everywhere else.
        // #input holds at most MAX_ITEM_BYTES: a string that does not fit is only partly read.
        this.#room(Math.min(3 * src.length, MAX_ITEM_BYTES));
        const done = encoder.encodeInto(src, this.#input);
        if (done.read < src.length) return false;
        len = done.written;
      }
    } else {
      len = src.length;
      this.#room(len);
      this.#input.set(src);
    }
    const words = this.#words;
    words[0] = seedLo;
    words[1] = seedHi;
    this.#exports.chain(len);
    out[0] = words[0]!;
    out[1] = words[1]!;
    out[2] = words[2]!;
    out[3] = words[3]!;
    return true;
  }

  /**
   * @internal After {@link chainInto}: the double-hashing positions ((h1 + i·h2) mod 2^64) mod m
   * for i = 0 … k−1 (RedisBloom's probe sequence), as float64s in the returned view, which the next
   * call overwrites — never hand it to a caller. `w` must be 2^64 mod m; k ≤ {@link MAX_POSITIONS},
   * m an integer in [1, 2^53). Branch-free: 64-bit adds wrap natively, and each step adds h2 mod m
   * and takes w off on a wrap with `select`s instead of branches the CPU would mispredict.
   */
  positions(k: number, m: number, w: number): Float64Array {
    this.#exports.positions(k, m, w);
    return this.#positions;
  }

  /** After {@link chainInto}: h1 mod m and h2 mod m (m an integer in [1, 2^53)) into `out`. */
  remaindersInto(m: number, out: Float64Array): void {
    this.#exports.rem(m);
    out[0] = this.#floats[0]!;
    out[1] = this.#floats[1]!;
  }
}

/** The module's memory from the item's offset on, at most {@link MAX_ITEM_BYTES} long. */
function inputView(buffer: ArrayBuffer): Uint8Array {
  return new Uint8Array(buffer, DATA, Math.min(buffer.byteLength - DATA, MAX_ITEM_BYTES));
}

function instantiate(): WasmMurmur | undefined {
  try {
    if (typeof WebAssembly !== "object") return undefined;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes), {});
    return new WasmMurmur(instance.exports as unknown as Exports);
  } catch {
    return undefined; // no WebAssembly here (CSP, engine): callers fall back to JavaScript
  }
}

/** The WebAssembly chained hash, or undefined where WebAssembly cannot run. */
export const wasmMurmur: WasmMurmur | undefined = instantiate();
