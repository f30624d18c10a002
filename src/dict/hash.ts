/**
 * Key hashing and key equality for the dict.
 *
 * Every key is hashed with a secret per-instance key so that nobody can precompute a set of keys
 * that collide (hash flooding):
 *
 * - strings: SipHash-1-3 (Redis's dict hash, from `redstruct/hash`, whose ASCII-string path keeps
 *   the whole state in locals for this hot path) of their WTF-8 bytes under the instance's 128-bit
 *   key. WTF-8 is UTF-8 extended to lone surrogates, each encoded as its own 3-byte sequence
 *   (ED A0 80 – ED BF BF), so distinct strings always give distinct bytes. Plain UTF-8 would not do:
 *   it turns every lone surrogate into U+FFFD, so `"\uD800"`, `"\uD801"`, … all hash alike and a set
 *   of such keys — chosen with no knowledge of the secret key — piles onto one chain. A well-formed
 *   string's WTF-8 is its UTF-8. ASCII strings are hashed in place; others are encoded into a
 *   reused scratch buffer first (no allocation up to 64 KiB of bytes);
 * - bigints and `Uint8Array`s: SipHash-1-3 of their bytes (a bigint's decimal digits);
 * - numbers that are not 32-bit integers: SipHash-1-3 of their IEEE-754 bytes (NaN canonicalised),
 *   so no string is built;
 * - 32-bit integers: simple tabulation (Carter & Wegman; Pătraşcu & Thorup, "The Power of Simple
 *   Tabulation Hashing", 2012): `T0[x₀] ⊕ T1[x₁] ⊕ T2[x₂] ⊕ T3[x₃]` over the four bytes of `x`, with
 *   four secret tables of 256 random words. The family is 3-independent, so for any key set chosen
 *   without knowing the tables the expected chain length stays O(1) — flooding needs the secret —
 *   and, beyond that, chaining with it has the concentration of fully random hashing (max chain
 *   O(log n / log log n) with high probability) for every key set, structured ones included. It
 *   is not a PRF (it is linear over GF(2): an attacker who could observe hash values or timing
 *   adaptively learns more than from SipHash), which is the price of four L1 loads instead of five
 *   SipRounds on the integer hot path. The tables are made on the first integer key: from
 *   `crypto.getRandomValues` when the dict drew its own random key, else from SipHash-1-3 of fixed
 *   labels under the given key (reproducible).
 *   Multiply-add-shift hashing would need a 64-bit product (doubles, or BigInt) on this path, and
 *   its low bits form a lattice on strided keys whose quality depends on the random multiplier
 *   (docs/dict.md, "Design").
 *
 * Only the low 32 bits of a hash are kept (tables never exceed 2^31 buckets).
 *
 * Equality is Map's SameValueZero with two twists: `1`, `"1"` and `1n` are three different keys
 * (their hashes may collide; equality compares type and value), and `Uint8Array` keys compare by
 * content. Within one type the byte forms above are injective, so a hash value is shared across
 * types by at most one string, one bigint, one byte array and one number: a constant factor on a
 * chain, never a way to flood it.
 */

import { sipHash13Ascii, sipHashSource } from "../hash/siphash.js";
import { refuseDetached } from "../internal/bytes.js";
import { encodeWtf8Into } from "../internal/wtf8.js";

/** What a dict accepts as a key. */
export type DictKey = string | number | bigint | Uint8Array;

const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

/** Largest WTF-8 scratch kept between calls; a longer key encodes into a buffer of its own. */
const SCRATCH_KEEP = 1 << 16;
let scratch = new Uint8Array(256);

/** Words of the four tabulation tables (256 each, one after the other). */
const TABLE_WORDS = 1024;

/**
 * The tabulation tables derived from a SipHash key: word pair `i` is SipHash-1-3 of the label
 * `redstruct/dict tab i` under the key (low word first).
 */
function tablesFromKey(sipKey: Uint32Array): Int32Array {
  const tables = new Int32Array(TABLE_WORDS);
  const out = new Uint32Array(2);
  for (let i = 0; i < TABLE_WORDS / 2; i++) {
    sipHash13Ascii(`redstruct/dict tab ${i}`, sipKey, out);
    tables[2 * i] = out[0]!;
    tables[2 * i + 1] = out[1]!;
  }
  return tables;
}

/** The per-instance hashing state: the SipHash key and the integer tabulation tables. */
export class KeyHasher {
  readonly sipKey: Uint32Array;
  /** Whether the tables come from `crypto.getRandomValues` rather than from the key. */
  readonly #randomTables: boolean;
  /** The tabulation tables, made on the first integer key (a string-keyed dict never needs them). */
  #tables: Int32Array | null = null;
  readonly #out = new Uint32Array(2);

  /**
   * @param randomTables draw the integer tables from `crypto.getRandomValues` (for a dict that drew
   *   its own random SipHash key: as secret, and one call instead of the 512 SipHash calls of the
   *   derivation) instead of from `sipKey`.
   */
  constructor(sipKey: Uint32Array, randomTables = false) {
    this.sipKey = sipKey;
    this.#randomTables = randomTables;
  }

  /**
   * The 32-bit hash (as an int32) of a valid key (checked by the caller: see {@link isDictKey}).
   * No allocation for strings, numbers and byte arrays (a bigint builds its decimal string).
   */
  hash(key: DictKey): number {
    if (typeof key === "number") {
      if ((key | 0) === key) return this.intHash(key);
      f64[0] = Number.isNaN(key) ? Number.NaN : key;
      sipHashSource(f64Bytes, 8, this.sipKey, 1, 3, this.#out);
      return this.#out[0]! | 0;
    }
    if (typeof key === "string") return this.stringHash(key);
    if (typeof key === "bigint") return this.stringHash(String(key));
    // A detached view reads as no bytes: it would silently stand for the empty byte key.
    if (key.length === 0) refuseDetached("Dict", "key", key);
    sipHashSource(key, key.length, this.sipKey, 1, 3, this.#out);
    return this.#out[0]! | 0;
  }

  /** The low 32 bits of SipHash-1-3 of a string's WTF-8 bytes under the instance key, as an int32. */
  stringHash(key: string): number {
    // ASCII (the common case) is hashed in place; anything else is encoded first. Not the shared
    // hash's UTF-8 slow path: UTF-8 maps every lone surrogate to U+FFFD.
    if (!sipHash13Ascii(key, this.sipKey, this.#out)) {
      const need = 3 * key.length;
      let buf = scratch;
      if (buf.length < need) {
        let size = buf.length;
        while (size < need) size *= 2;
        buf = new Uint8Array(size);
        if (size <= SCRATCH_KEEP) scratch = buf;
      }
      sipHashSource(buf, encodeWtf8Into(key, buf), this.sipKey, 1, 3, this.#out);
    }
    return this.#out[0]! | 0;
  }

  /** The simple-tabulation hash of a 32-bit integer (its two's-complement bytes), as an int32. */
  intHash(x: number): number {
    const t = this.#tables ?? this.#makeTables();
    return t[x & 0xff]! ^ t[256 | ((x >>> 8) & 0xff)]! ^ t[512 | ((x >>> 16) & 0xff)]! ^ t[768 | (x >>> 24)]!;
  }

  #makeTables(): Int32Array {
    this.#tables = this.#randomTables
      ? crypto.getRandomValues(new Int32Array(TABLE_WORDS))
      : tablesFromKey(this.sipKey);
    return this.#tables;
  }
}

/** True when `key` is a type the dict accepts. */
export function isDictKey(key: unknown): key is DictKey {
  const t = typeof key;
  return t === "string" || t === "number" || t === "bigint" || key instanceof Uint8Array;
}

/**
 * SameValueZero for the dict's keys, called only after `===` failed and the hashes matched: NaN
 * equals NaN, and byte arrays compare by content. `stored` is a key held by the dict.
 */
export function slowKeyEquals(stored: unknown, key: DictKey): boolean {
  if (typeof key === "number") return Number.isNaN(key) && typeof stored === "number" && Number.isNaN(stored);
  if (key instanceof Uint8Array) {
    if (!(stored instanceof Uint8Array) || stored.length !== key.length) return false;
    for (let i = 0; i < key.length; i++) if (stored[i] !== key[i]) return false;
    return true;
  }
  return false;
}
