/**
 * SipHash (Aumasson & Bernstein, 2012): a keyed 64-bit PRF, the defence against hash flooding.
 *
 * With a secret random 128-bit key, an attacker who cannot see hash values cannot precompute a set
 * of keys that collide, so a hash table keyed this way keeps O(1) operations under hostile input.
 * Redis hashes dict keys with SipHash-1-3 (one compression round, three finalization rounds) and a
 * random seed per process; we offer 1-3 (default, as Redis) and the original 2-4.
 *
 * Computed on 32-bit halves in a module-level Uint32Array state: no BigInt, no allocation per call.
 * The 128-bit key is a `Uint32Array(4)` of little-endian words k0.lo, k0.hi, k1.lo, k1.hi, i.e. the
 * 16 key bytes read as four little-endian 32-bit words. Verified against the reference C
 * (test/vectors/generate.sh).
 */
import { rangeError, typeError } from "../internal/errors.js";
import { type Element, loadElement, loaded } from "./element.js";
import { joinBigInt } from "./int64.js";

/** A SipHash key: 16 bytes as four little-endian 32-bit words. */
export type SipKey = Uint32Array;

// v0..v3 as (lo, hi) pairs: v[0]=v0.lo v[1]=v0.hi v[2]=v1.lo … v[7]=v3.hi
const v = new Uint32Array(8);

function add(dst: number, src: number): void {
  const lo = v[dst]! + v[src]!;
  v[dst] = lo;
  v[dst + 1] = v[dst + 1]! + v[src + 1]! + (lo > 0xffffffff ? 1 : 0);
}

function rotl(i: number, n: number): void {
  const lo = v[i]!;
  const hi = v[i + 1]!;
  if (n === 32) {
    v[i] = hi;
    v[i + 1] = lo;
  } else if (n < 32) {
    v[i] = (lo << n) | (hi >>> (32 - n));
    v[i + 1] = (hi << n) | (lo >>> (32 - n));
  } else {
    v[i] = (hi << (n - 32)) | (lo >>> (64 - n));
    v[i + 1] = (lo << (n - 32)) | (hi >>> (64 - n));
  }
}

function xor(dst: number, src: number): void {
  v[dst]! ^= v[src]!;
  v[dst + 1]! ^= v[src + 1]!;
}

function sipRounds(count: number): void {
  for (let c = 0; c < count; c++) {
    add(0, 2); // v0 += v1
    rotl(2, 13);
    xor(2, 0);
    rotl(0, 32);
    add(4, 6); // v2 += v3
    rotl(6, 16);
    xor(6, 4);
    add(0, 6); // v0 += v3
    rotl(6, 21);
    xor(6, 0);
    add(4, 2); // v2 += v1
    rotl(2, 17);
    xor(2, 4);
    rotl(4, 32);
  }
}

function absorb(lo: number, hi: number, cRounds: number): void {
  v[6]! ^= lo;
  v[7]! ^= hi;
  sipRounds(cRounds);
  v[0]! ^= lo;
  v[1]! ^= hi;
}

/** Core over `bytes[0 .. len)`; writes the 64-bit result as `out[0]` (low) and `out[1]` (high). */
export function sipHashBytes(
  bytes: Uint8Array,
  len: number,
  key: SipKey,
  cRounds: number,
  dRounds: number,
  out: Uint32Array,
): void {
  const k0lo = key[0]!;
  const k0hi = key[1]!;
  const k1lo = key[2]!;
  const k1hi = key[3]!;
  // "somepseudorandomlygeneratedbytes"
  v[0] = k0lo ^ 0x70736575;
  v[1] = k0hi ^ 0x736f6d65;
  v[2] = k1lo ^ 0x6e646f6d;
  v[3] = k1hi ^ 0x646f7261;
  v[4] = k0lo ^ 0x6e657261;
  v[5] = k0hi ^ 0x6c796765;
  v[6] = k1lo ^ 0x79746573;
  v[7] = k1hi ^ 0x74656462;
  const blocks = len - (len & 7);
  for (let i = 0; i < blocks; i += 8) {
    const lo = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    const hi = bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24);
    absorb(lo, hi, cRounds);
  }
  // Last block: the remaining 0..7 bytes, with the length's low byte in the top byte.
  let lo = 0;
  let hi = (len & 0xff) << 24;
  const rest = len & 7;
  for (let j = rest - 1; j >= 4; j--) hi |= bytes[blocks + j]! << ((j - 4) * 8);
  for (let j = Math.min(rest, 4) - 1; j >= 0; j--) lo |= bytes[blocks + j]! << (j * 8);
  absorb(lo, hi, cRounds);
  v[4]! ^= 0xff;
  sipRounds(dRounds);
  out[0] = v[0]! ^ v[2]! ^ v[4]! ^ v[6]!;
  out[1] = v[1]! ^ v[3]! ^ v[5]! ^ v[7]!;
}

function checkKey(key: unknown): SipKey {
  if (!(key instanceof Uint32Array)) throw typeError("hash", "key", key, "a Uint32Array of 4 words (16 bytes)");
  if (key.length !== 4) throw rangeError("hash", "key.length", key.length, "4 (a 128-bit key)");
  return key;
}

/**
 * A fresh random 128-bit SipHash key from `crypto.getRandomValues` (Web Crypto: browsers,
 * Node ≥ 19, workers).
 */
export function randomSipKey(): SipKey {
  return crypto.getRandomValues(new Uint32Array(4));
}

/** Builds a key from 16 bytes (the reference implementation's byte order). */
export function sipKeyFromBytes(bytes: Uint8Array): SipKey {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 16) {
    throw rangeError("hash", "key bytes", bytes, "a Uint8Array of exactly 16 bytes");
  }
  const key = new Uint32Array(4);
  for (let i = 0; i < 4; i++) {
    key[i] = bytes[4 * i]! | (bytes[4 * i + 1]! << 8) | (bytes[4 * i + 2]! << 16) | (bytes[4 * i + 3]! << 24);
  }
  return key;
}

/**
 * Hot-path SipHash-1-3: writes the 64-bit hash of `value` under `key` into `out` (`out[0]` low,
 * `out[1]` high). No allocation, no BigInt. The key is not validated here (hot path): build it with
 * {@link randomSipKey} or {@link sipKeyFromBytes}.
 */
export function siphash13Into(value: Element, key: SipKey, out: Uint32Array): void {
  const len = loadElement(value);
  sipHashBytes(loaded.bytes, len, key, 1, 3, out);
}

const pair = new Uint32Array(2);

/** SipHash-1-3 (Redis's dict hash) of an element's bytes, as an unsigned 64-bit bigint. */
export function siphash13(value: Element, key: SipKey): bigint {
  siphash13Into(value, checkKey(key), pair);
  return joinBigInt(pair[1]!, pair[0]!);
}

/** SipHash-2-4 (the original parameters) of an element's bytes, as an unsigned 64-bit bigint. */
export function siphash24(value: Element, key: SipKey): bigint {
  const len = loadElement(value);
  sipHashBytes(loaded.bytes, len, checkKey(key), 2, 4, pair);
  return joinBigInt(pair[1]!, pair[0]!);
}
