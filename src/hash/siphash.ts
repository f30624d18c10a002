/**
 * SipHash (Aumasson & Bernstein, 2012): a keyed 64-bit PRF, the defence against hash flooding.
 *
 * With a secret random 128-bit key, an attacker who cannot see hash values cannot precompute a set
 * of keys that collide, so a hash table keyed this way keeps O(1) operations under hostile input.
 * Redis hashes dict keys with SipHash-1-3 (one compression round, three finalization rounds) and a
 * random seed per process; we offer 1-3 (default, as Redis) and the original 2-4.
 *
 * Computed on int32 halves held in locals during rounds: no BigInt, no allocation per call.
 * The 128-bit key is a `Uint32Array(4)` of little-endian words k0.lo, k0.hi, k1.lo, k1.hi, i.e. the
 * 16 key bytes read as four little-endian 32-bit words. Verified against the reference C
 * (test/vectors/generate.sh).
 */
import { checkBytes } from "../internal/bytes.js";
import { rangeError, typeError } from "../internal/errors.js";
import { checkOut } from "./args.js";
import {
  encodeScratch,
  type Item,
  type Source,
  scratchBytes,
  sourceOf,
  startWords,
  word4,
  wordN,
  wordsWereAscii,
} from "./element.js";
import { joinBigInt } from "./int64.js";

/** A SipHash key: 16 bytes as four little-endian 32-bit words. */
export type SipKey = Uint32Array;

// State v0..v3 as int32 (lo, hi) pairs: V[0]=v0.lo V[1]=v0.hi V[2]=v1.lo … V[7]=v3.hi. Rounds load
// it into locals, so the arithmetic runs on registers; int32 (not uint32) keeps V8 off heap numbers.
const V = new Int32Array(8);

/** XORs word m into v3, runs `count` SipRounds, XORs m into v0 (one compression step), or just
 * runs the rounds when called with m = 0 for finalization. */
function sipRounds(mLo: number, mHi: number, count: number): void {
  let v0l = V[0]!;
  let v0h = V[1]!;
  let v1l = V[2]!;
  let v1h = V[3]!;
  let v2l = V[4]!;
  let v2h = V[5]!;
  let v3l = V[6]! ^ mLo;
  let v3h = V[7]! ^ mHi;
  let t = 0;
  for (let c = 0; c < count; c++) {
    // v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
    t = (v0l + v1l) | 0;
    v0h = (v0h + v1h + (t >>> 0 < v0l >>> 0 ? 1 : 0)) | 0;
    v0l = t;
    t = (v1l << 13) | (v1h >>> 19);
    v1h = (v1h << 13) | (v1l >>> 19);
    v1l = t ^ v0l;
    v1h ^= v0h;
    t = v0l;
    v0l = v0h;
    v0h = t;
    // v2 += v3; v3 = rotl(v3, 16); v3 ^= v2
    t = (v2l + v3l) | 0;
    v2h = (v2h + v3h + (t >>> 0 < v2l >>> 0 ? 1 : 0)) | 0;
    v2l = t;
    t = (v3l << 16) | (v3h >>> 16);
    v3h = ((v3h << 16) | (v3l >>> 16)) ^ v2h;
    v3l = t ^ v2l;
    // v0 += v3; v3 = rotl(v3, 21); v3 ^= v0
    t = (v0l + v3l) | 0;
    v0h = (v0h + v3h + (t >>> 0 < v0l >>> 0 ? 1 : 0)) | 0;
    v0l = t;
    t = (v3l << 21) | (v3h >>> 11);
    v3h = ((v3h << 21) | (v3l >>> 11)) ^ v0h;
    v3l = t ^ v0l;
    // v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)
    t = (v2l + v1l) | 0;
    v2h = (v2h + v1h + (t >>> 0 < v2l >>> 0 ? 1 : 0)) | 0;
    v2l = t;
    t = (v1l << 17) | (v1h >>> 15);
    v1h = ((v1h << 17) | (v1l >>> 15)) ^ v2h;
    v1l = t ^ v2l;
    t = v2l;
    v2l = v2h;
    v2h = t;
  }
  V[0] = v0l ^ mLo;
  V[1] = v0h ^ mHi;
  V[2] = v1l;
  V[3] = v1h;
  V[4] = v2l;
  V[5] = v2h;
  V[6] = v3l;
  V[7] = v3h;
}

/**
 * Core over the first `len` bytes of `src`; writes the 64-bit result as `out[0]` (low) and `out[1]`
 * (high). Returns false, leaving `out` alone, when `src` is a string that is not ASCII.
 */
export function sipHashSource(
  src: Source,
  len: number,
  key: SipKey,
  cRounds: number,
  dRounds: number,
  out: Uint32Array,
): boolean {
  startWords();
  const k0lo = key[0]! | 0;
  const k0hi = key[1]! | 0;
  const k1lo = key[2]! | 0;
  const k1hi = key[3]! | 0;
  // "somepseudorandomlygeneratedbytes"
  V[0] = k0lo ^ 0x70736575;
  V[1] = k0hi ^ 0x736f6d65;
  V[2] = k1lo ^ 0x6e646f6d;
  V[3] = k1hi ^ 0x646f7261;
  V[4] = k0lo ^ 0x6e657261;
  V[5] = k0hi ^ 0x6c796765;
  V[6] = k1lo ^ 0x79746573;
  V[7] = k1hi ^ 0x74656462;
  const blocks = len - (len & 7);
  for (let i = 0; i < blocks; i += 8) sipRounds(word4(src, i), word4(src, i + 4), cRounds);
  // Last block: the remaining 0..7 bytes, with the length's low byte in the top byte.
  const rest = len & 7;
  const lo = wordN(src, blocks, Math.min(rest, 4));
  const hi = (rest > 4 ? wordN(src, blocks + 4, rest - 4) : 0) | ((len & 0xff) << 24);
  if (!wordsWereAscii()) return false;
  sipRounds(lo, hi, cRounds);
  V[4]! ^= 0xff;
  sipRounds(0, 0, dRounds);
  out[0] = V[0]! ^ V[2]! ^ V[4]! ^ V[6]!;
  out[1] = V[1]! ^ V[3]! ^ V[5]! ^ V[7]!;
  return true;
}

/**
 * SipHash-1-3 of an ASCII string into `out`, read in place with `charCodeAt` (an ASCII string's code
 * units are its UTF-8 bytes), with the whole state in locals and one inlined SipRound serving every
 * block and the three finalization rounds. The hot path of the dict's string keys, faster than the
 * general core above, which keeps its state in `V` between blocks (docs/hash.md). Returns false,
 * leaving `out` alone, when a code unit above 0x7f shows the string is not ASCII.
 */
export function sipHash13Ascii(s: string, key: SipKey, out: Uint32Array): boolean {
  const len = s.length;
  const k0lo = key[0]! | 0;
  const k0hi = key[1]! | 0;
  const k1lo = key[2]! | 0;
  const k1hi = key[3]! | 0;
  // "somepseudorandomlygeneratedbytes"
  let v0l = k0lo ^ 0x70736575;
  let v0h = k0hi ^ 0x736f6d65;
  let v1l = k1lo ^ 0x6e646f6d;
  let v1h = k1hi ^ 0x646f7261;
  let v2l = k0lo ^ 0x6e657261;
  let v2h = k0hi ^ 0x6c796765;
  let v3l = k1lo ^ 0x79746573;
  let v3h = k1hi ^ 0x74656462;
  const blocks = len >>> 3;
  let seen = 0; // OR of every code unit read: above 0x7f the string is not ASCII
  let t = 0;
  // Rounds 0..blocks-1 compress whole 8-byte blocks, round `blocks` the last partial block (with
  // the length's low byte on top), rounds blocks+1..blocks+3 are the finalization (m = 0).
  for (let r = 0; r <= blocks + 3; r++) {
    let mLo = 0;
    let mHi = 0;
    if (r < blocks) {
      const i = r << 3;
      const c0 = s.charCodeAt(i);
      const c1 = s.charCodeAt(i + 1);
      const c2 = s.charCodeAt(i + 2);
      const c3 = s.charCodeAt(i + 3);
      const c4 = s.charCodeAt(i + 4);
      const c5 = s.charCodeAt(i + 5);
      const c6 = s.charCodeAt(i + 6);
      const c7 = s.charCodeAt(i + 7);
      seen |= c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7;
      mLo = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
      mHi = c4 | (c5 << 8) | (c6 << 16) | (c7 << 24);
    } else if (r === blocks) {
      for (let j = len - 1; j >= (blocks << 3) + 4; j--) {
        const c = s.charCodeAt(j);
        seen |= c;
        mHi = (mHi << 8) | c;
      }
      for (let j = Math.min(len, (blocks << 3) + 4) - 1; j >= blocks << 3; j--) {
        const c = s.charCodeAt(j);
        seen |= c;
        mLo = (mLo << 8) | c;
      }
      mHi |= (len & 0xff) << 24;
    } else if (r === blocks + 1) {
      v2l ^= 0xff;
    }
    v3l ^= mLo;
    v3h ^= mHi;
    // One SipRound, as in sipRounds (the carry of each 64-bit add is the top bit of
    // (a & b) | ((a | b) & ~sum), branch-free).
    t = (v0l + v1l) | 0;
    v0h = (v0h + v1h + (((v0l & v1l) | ((v0l | v1l) & ~t)) >>> 31)) | 0;
    v0l = t;
    t = (v1l << 13) | (v1h >>> 19);
    v1h = (v1h << 13) | (v1l >>> 19);
    v1l = t ^ v0l;
    v1h ^= v0h;
    t = v0l;
    v0l = v0h;
    v0h = t;
    t = (v2l + v3l) | 0;
    v2h = (v2h + v3h + (((v2l & v3l) | ((v2l | v3l) & ~t)) >>> 31)) | 0;
    v2l = t;
    t = (v3l << 16) | (v3h >>> 16);
    v3h = ((v3h << 16) | (v3l >>> 16)) ^ v2h;
    v3l = t ^ v2l;
    t = (v0l + v3l) | 0;
    v0h = (v0h + v3h + (((v0l & v3l) | ((v0l | v3l) & ~t)) >>> 31)) | 0;
    v0l = t;
    t = (v3l << 21) | (v3h >>> 11);
    v3h = ((v3h << 21) | (v3l >>> 11)) ^ v0h;
    v3l = t ^ v0l;
    t = (v2l + v1l) | 0;
    v2h = (v2h + v1h + (((v2l & v1l) | ((v2l | v1l) & ~t)) >>> 31)) | 0;
    v2l = t;
    t = (v1l << 17) | (v1h >>> 15);
    v1h = ((v1h << 17) | (v1l >>> 15)) ^ v2h;
    v1l = t ^ v2l;
    t = v2l;
    v2l = v2h;
    v2h = t;
    v0l ^= mLo;
    v0h ^= mHi;
  }
  if (seen > 0x7f) return false;
  out[0] = v0l ^ v1l ^ v2l ^ v3l;
  out[1] = v0h ^ v1h ^ v2h ^ v3h;
  return true;
}

/** SipHash-c-d of an element into `out`, taking the UTF-8 slow path for non-ASCII strings. */
function sipHashInto(value: Item, key: SipKey, cRounds: number, dRounds: number, out: Uint32Array): void {
  const src = sourceOf(value);
  if (!sipHashSource(src, src.length, key, cRounds, dRounds, out)) {
    const len = encodeScratch(src as string); // first: it may replace the scratch buffer scratchBytes() returns
    sipHashSource(scratchBytes(), len, key, cRounds, dRounds, out);
  }
}

function checkKey(key: unknown): SipKey {
  if (!(key instanceof Uint32Array)) throw typeError("hash", "key", key, "a Uint32Array of 4 words (16 bytes)");
  if (key.length !== 4) throw rangeError("hash", "key.length", key.length, "4 (a 128-bit key)");
  return key;
}

/**
 * A fresh random 128-bit SipHash key from `crypto.getRandomValues` (Web Crypto: browsers,
 * Node ≥ 19, workers). O(1); takes no argument.
 */
export function randomSipKey(): SipKey {
  return crypto.getRandomValues(new Uint32Array(4));
}

/**
 * Builds a key from 16 bytes (the reference implementation's byte order). O(1); returns a new array.
 * @throws TypeError when `bytes` is not a Uint8Array or its buffer was detached, RangeError when it does
 *   not hold exactly 16 bytes.
 */
export function sipKeyFromBytes(bytes: Uint8Array): SipKey {
  if (!(bytes instanceof Uint8Array)) throw typeError("hash", "bytes", bytes, "a Uint8Array of exactly 16 bytes");
  checkBytes("hash", "bytes", bytes);
  if (bytes.length !== 16)
    throw rangeError("hash", "bytes.length", bytes.length, "16 (a 128-bit key is exactly 16 bytes)");
  const key = new Uint32Array(4);
  for (let i = 0; i < 4; i++) {
    key[i] = bytes[4 * i]! | (bytes[4 * i + 1]! << 8) | (bytes[4 * i + 2]! << 16) | (bytes[4 * i + 3]! << 24);
  }
  return key;
}

/**
 * Hot-path SipHash-1-3: writes the 64-bit hash of `value` under `key` into `out` (`out[0]` low,
 * `out[1]` high). No allocation, no BigInt. O(|value|). Build the key with {@link randomSipKey} or
 * {@link sipKeyFromBytes}.
 * @param out a Uint32Array of at least 2 words
 * @throws TypeError/RangeError naming `value`, `key` or `out` when one is not as described.
 */
export function siphash13Into(value: Item, key: SipKey, out: Uint32Array): void {
  siphash13Core(value, checkKey(key), checkOut(out, 2) as Uint32Array);
}

/**
 * @internal {@link siphash13Into} without checks of `key` and `out`, for callers that own both (the
 * dict's keyed hash). `value` is still type-checked.
 */
function siphash13Core(value: Item, key: SipKey, out: Uint32Array): void {
  if (typeof value !== "string" || !sipHash13Ascii(value, key, out)) sipHashInto(value, key, 1, 3, out);
}

const pair = new Uint32Array(2);

/**
 * SipHash-1-3 (Redis's dict hash) of an element's bytes under `key`, as an unsigned 64-bit bigint.
 * O(|value|); allocates the bigint.
 * @throws TypeError/RangeError naming `value` or `key` when one is not as described.
 */
export function siphash13(value: Item, key: SipKey): bigint {
  siphash13Core(value, checkKey(key), pair);
  return joinBigInt(pair[1]!, pair[0]!);
}

/**
 * SipHash-2-4 (the original parameters) of an element's bytes under `key`, as an unsigned 64-bit
 * bigint. O(|value|); allocates the bigint.
 * @throws TypeError/RangeError naming `value` or `key` when one is not as described.
 */
export function siphash24(value: Item, key: SipKey): bigint {
  sipHashInto(value, checkKey(key), 2, 4, pair);
  return joinBigInt(pair[1]!, pair[0]!);
}
