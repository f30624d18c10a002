/**
 * One link of a {@link RedisBloomFilter} and the exact probe arithmetic (internal). See
 * redisbloom.ts for the algorithm; this file holds what the filter and its dump reader share: the
 * link record, RedisBloom's sizing rules, the hashing registers and the probe loop.
 */
import type { Item } from "../hash/element.js";
import { murmur2 } from "../hash/murmur2.js";
import { murmur64aCore } from "../hash/murmur64a.js";
import { wasmMurmur } from "../hash/murmur64a-wasm.js";
import { lnRounded } from "../internal/log.js";

/** RedisBloom's option flags (the dump header's options word). */
export const NOROUND = 1;
const ENTS_IS_BITS = 2;
export const FORCE64 = 4;
export const NO_SCALING = 8;
/** Every flag RedisBloom knows; a dump with any other bit set is refused. */
export const KNOWN_OPTIONS = NOROUND | ENTS_IS_BITS | FORCE64 | NO_SCALING;

/** ln 2 and (ln 2)², truncated to 15 decimals exactly as RedisBloom writes them. */
// biome-ignore lint/suspicious/noApproximativeNumericConstant: RedisBloom's truncated constant, one ulp-scale off ln 2 on purpose
export const LN2 = 0.693147180559945;
const LN2_SQUARED = 0.480453013918201;

/** Largest link accepted: a link's bytes must stay below 2^32 (4 GiB), the size field's useful range. */
export const MAX_LINK_BYTES = 2 ** 32 - 1;

/** Seeds: MurmurHash64A's multiplier (the 64-bit mode), and the legacy 32-bit mode's MurmurHash2 seed. */
const SEED_HI = 0xc6a4a793;
const SEED_LO = 0x5bd1e995;
const LEGACY_SEED = 0x9747b28c;

export const TWO32 = 2 ** 32;

/** One link of the chain: RedisBloom's per-link header record, its bits, and reduction constants. */
export class Link {
  /** Number of bits used for positions: `bits`, or 2^n2 when n2 > 0. */
  readonly mod: number;
  /** 1/mod, for the floating-point quotient estimate of the exact reductions. */
  readonly inv: number;
  /** 2^64 mod `mod`: what to take off a position when a + i·b wraps past 2^64. */
  readonly wrap: number;

  constructor(
    /** The bit array, `bytes` long. */
    readonly data: Uint8Array,
    /** The link's bit count field: always 8·bytes. */
    readonly bits: number,
    /** Items added to this link (the adds that returned true while it was the newest). */
    public items: number,
    /** The link's error rate. */
    readonly error: number,
    /** Bits per entry, −ln(error)/ln(2)² (stored, so a loaded value is kept as it was). */
    readonly bpe: number,
    /** Probes per item. */
    readonly hashes: number,
    /** Items the link is meant to hold before the chain grows ("capacity" in BF.DEBUG). */
    readonly entries: number,
    /** log2 of the size of a power-of-two sized link, else 0. */
    readonly n2: number,
  ) {
    const mod = n2 > 0 ? 2 ** n2 : bits;
    this.mod = mod;
    this.inv = 1 / mod;
    // 2^64 mod M = ((2^32 mod M)·2^32) mod M, by the same exact Horner steps as the hot path.
    this.wrap = reduce64(reduce64(1, 0, mod, this.inv), 0, mod, this.inv);
  }

  /** An independent copy of this link: its bits copied, or zeroed and its item count 0 when `empty`. */
  copy(empty: boolean): Link {
    const data = empty ? new Uint8Array(this.data.length) : this.data.slice();
    return new Link(data, this.bits, empty ? 0 : this.items, this.error, this.bpe, this.hashes, this.entries, this.n2);
  }
}

/** v mod m for an integer 0 ≤ v < 2^53 and v/m < 2^21: a float quotient estimate off by at most one, then fixed. */
function reduce(v: number, m: number, inv: number): number {
  const r = v - Math.floor(v * inv) * m;
  return r < 0 ? r + m : r >= m ? r - m : r;
}

/** (hi·2^32 + lo) mod m, exact for m < 2^37: hi first, then lo in two 16-bit limbs. */
export function reduce64(hi: number, lo: number, m: number, inv: number): number {
  let r = reduce(hi, m, inv);
  r = reduce(r * 65536 + (lo >>> 16), m, inv);
  return reduce(r * 65536 + (lo & 0xffff), m, inv);
}

// The last hashed item: [a low, a high, b low, b high], unsigned 32-bit halves (a typed array, not
// module variables: a double stored in a module variable is a fresh heap number each time).
const AB = new Uint32Array(4);
const H = new Uint32Array(2);
/** The WebAssembly hash, or undefined where WebAssembly cannot run. */
const wasm = wasmMurmur;
/** True when the last item went through the WebAssembly module (whose positions then apply). */
let viaWasm = false;

/**
 * Hashes `value` into the a/b registers, with MurmurHash64A (force64) or the legacy MurmurHash2.
 * MurmurHash64A runs in WebAssembly when it can, and in JavaScript where WebAssembly is unavailable
 * and for items over the module's 64 KiB bound (src/hash/murmur64a-wasm.ts): the same bits either way.
 */
export function hashItem(value: Item, force64: boolean): void {
  if (force64) {
    if (wasm?.chainInto(value, SEED_HI, SEED_LO, AB)) {
      viaWasm = true;
      return;
    }
    murmur64aCore(value, H, SEED_HI, SEED_LO);
    AB[0] = H[0]!;
    AB[1] = H[1]!;
    murmur64aCore(value, H, AB[1]!, AB[0]!);
    AB[2] = H[0]!;
    AB[3] = H[1]!;
  } else {
    const a = murmur2(value, LEGACY_SEED);
    AB[0] = a;
    AB[1] = 0;
    AB[2] = murmur2(value, a);
    AB[3] = 0;
  }
  viaWasm = false;
}

/**
 * True when every probe bit of the hashed item is set in `link`; with `set`, also sets them all
 * (returning whether they all were set before). Positions follow ((a + i·b) mod 2^64) mod M.
 */
export function probe(link: Link, set: boolean): boolean {
  const data = link.data;
  const m = link.mod;
  const k = link.hashes;
  if (viaWasm) {
    // Positions from the WebAssembly module (k ≤ MAX_POSITIONS: a link has at most 1075 hashes).
    const at = wasm!.positions(k, m, link.wrap);
    if (set) {
      // Branch-free: a branch on each loaded byte would be mispredicted half the time while the
      // filter fills, and would keep the k cache misses from overlapping.
      let missing = 0;
      for (let i = 0; i < k; i++) {
        const r = at[i]!;
        const byte = (r * 0.125) >>> 0; // r < 2^35: r/8 truncated; r & 7 is r mod 8 (2^32 is a multiple of 8)
        const mask = 1 << (r & 7);
        const old = data[byte]!;
        missing |= (old & mask) ^ mask;
        data[byte] = old | mask;
      }
      return missing === 0;
    }
    for (let i = 0; i < k; i++) {
      const r = at[i]!;
      if ((data[(r * 0.125) >>> 0]! & (1 << (r & 7))) === 0) return false;
    }
    return true;
  }
  const wrap = link.wrap;
  const aLo = AB[0]!;
  const aHi = AB[1]!;
  const bLo = AB[2]!;
  const bHi = AB[3]!;
  let r = reduce64(aHi, aLo, m, link.inv);
  const step = reduce64(bHi, bLo, m, link.inv);
  let xHi = aHi;
  let xLo = aLo;
  let all = true;
  for (let i = 0; ; ) {
    // r < 2^35: r·0.125 truncated is the byte, and r & 7 (r mod 2^32, a multiple of 8) its bit.
    const at = (r * 0.125) >>> 0;
    const mask = 1 << (r & 7);
    const byte = data[at]!;
    if ((byte & mask) === 0) {
      if (!set) return false;
      all = false;
      data[at] = byte | mask;
    }
    if (++i === k) return all;
    // x = a + i·b mod 2^64, tracked only to see when it wraps.
    xLo += bLo;
    let carry = 0;
    if (xLo >= TWO32) {
      xLo -= TWO32;
      carry = 1;
    }
    xHi += bHi + carry;
    r += step;
    if (r >= m) r -= m;
    if (xHi >= TWO32) {
      xHi -= TWO32;
      r -= wrap;
      if (r < 0) r += m;
    }
  }
}

/**
 * True when every probe bit of the hashed item is set in `link`: {@link probe} without `set`, for
 * `has`. On the WebAssembly path this is a few instructions around the bit tests, small enough for
 * the compiler to inline into the caller's loop (the general probe is not).
 */
export function contains(link: Link): boolean {
  if (!viaWasm) return probe(link, false);
  const data = link.data;
  const k = link.hashes;
  const at = wasm!.positions(k, link.mod, link.wrap);
  for (let i = 0; i < k; i++) {
    const r = at[i]!;
    if ((data[(r * 0.125) >>> 0]! & (1 << (r & 7))) === 0) return false;
  }
  return true;
}

/**
 * The shape of a new link for `capacity` items at `error`, as RedisBloom sizes it, or a string
 * saying why it cannot exist here.
 */
export function linkShape(
  capacity: number,
  error: number,
  options: number,
): { bytes: number; bits: number; bpe: number; hashes: number; entries: number; n2: number } | string {
  if (!(error > 0)) return "its error rate underflowed to 0 (the chain has too many links)";
  if (options & ENTS_IS_BITS) return "links sized in bits (the ENTS_IS_BITS option) are not created here";
  const bpe = -lnRounded(error) / LN2_SQUARED;
  const hashes = Math.ceil(LN2 * bpe);
  const want = capacity * bpe;
  let bits: number;
  let bytes: number;
  let n2 = 0;
  let entries = capacity;
  if (options & NOROUND) {
    bits = Math.max(1, Math.trunc(want));
    bytes = Math.ceil(bits / 64) * 8;
    bits = bytes * 8;
  } else {
    // Legacy power-of-two sizing: the capacity grows to what the rounded-up bits hold.
    if (!(want >= 8)) return `a power-of-two link for ${capacity} items would have under 8 bits`;
    n2 = Math.floor(Math.log2(want)) + 1;
    bits = 2 ** n2;
    bytes = bits / 8;
    entries = capacity + Math.trunc(Math.trunc(bits - want) / bpe);
  }
  if (bytes > MAX_LINK_BYTES)
    return `a link for ${capacity} items at error ${error} would need ${bytes} bytes (4 GiB or more)`;
  return { bytes, bits, bpe, hashes, entries, n2 };
}

/** A zeroed link of the given shape. */
export function newLink(
  shape: { bytes: number; bits: number; bpe: number; hashes: number; entries: number; n2: number },
  error: number,
): Link {
  return new Link(new Uint8Array(shape.bytes), shape.bits, 0, error, shape.bpe, shape.hashes, shape.entries, shape.n2);
}
