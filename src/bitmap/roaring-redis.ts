/**
 * A Roaring bitmap to and from a Redis string bitmap (the value `SETBIT` builds and `GET` / `SET`
 * move): member x is bit x of the string, which Redis numbers from the most significant bit of the
 * first byte — byte ⌊x / 8⌋, mask 0x80 >> (x mod 8). The string is as long as its highest set bit
 * needs (⌊max / 8⌋ + 1 bytes, as `SETBIT` grows it; the empty set is the empty string), so a
 * member near 2^32 makes a string of up to 512 MiB, as it would in Redis.
 *
 * Container k covers bytes [8192k, 8192k + 8192) of the string; a bitmap container's 32-bit word
 * holds bits least significant first, so each byte is bit-reversed on the way.
 *
 * @see ./roaring.ts
 * @internal
 */
import { checkBytes } from "../internal/bytes.js";
import { containersOf, type RoaringBitmap, wrapContainers } from "./roaring.js";
import { ARRAY, ARRAY_MAX, BITMAP, Containers, FULL, popcount, Scratch16, WORDS } from "./roaring-containers.js";

/** REVERSED[b] is the byte b with its bits in the opposite order. */
const REVERSED = (() => {
  const t = new Uint8Array(256);
  for (let b = 0; b < 256; b++) {
    let r = 0;
    for (let k = 0; k < 8; k++) if ((b & (1 << k)) !== 0) r |= 0x80 >>> k;
    t[b] = r;
  }
  return t;
})();

/** The Redis string whose set bits (SETBIT numbering) are the members of `r`. O(members + containers · 8 KiB of bitmaps). */
export function roaringToRedisString(r: RoaringBitmap): Uint8Array {
  const c = containersOf(r);
  if (c.n === 0) return new Uint8Array(0);
  const last = c.n - 1;
  const out = new Uint8Array(c.keys[last]! * 8192 + (c.maxOf(last) >>> 3) + 1);
  const a = c.arena;
  for (let i = 0; i < c.n; i++) {
    const base = c.keys[i]! * 8192;
    const kind = c.kind(i);
    const o = c.off(i);
    if (kind === ARRAY) {
      for (let k = o; k < o + c.cards[i]! + 1; k++) {
        const v = a[k]!;
        out[base + (v >>> 3)] = out[base + (v >>> 3)]! | (0x80 >>> (v & 7));
      }
    } else if (kind === BITMAP) {
      const w = c.words;
      const wo = o >>> 1;
      for (let k = 0; k < WORDS; k++) {
        const v = w[wo + k]!;
        if (v === 0) continue;
        for (let b = 0; b < 4; b++) {
          const byte = (v >>> (8 * b)) & 0xff;
          if (byte !== 0) out[base + 4 * k + b] = REVERSED[byte]!;
        }
      }
    } else {
      for (let q = 0; q < a[o]!; q++) {
        const s = a[o + 1 + 2 * q]!;
        const e = a[o + 2 + 2 * q]!;
        const lb = base + (s >>> 3);
        const hb = base + (e >>> 3);
        const head = 0xff >>> (s & 7);
        const tail = (0xff << (7 - (e & 7))) & 0xff;
        if (lb === hb) {
          out[lb] = out[lb]! | (head & tail);
        } else {
          out[lb] = out[lb]! | head;
          out.fill(0xff, lb + 1, hb);
          out[hb] = out[hb]! | tail;
        }
      }
    }
  }
  return out;
}

/**
 * The Roaring bitmap of the set bits of a Redis string (SETBIT numbering): per 8 KiB of string, an
 * array container up to 4096 set bits and a bitmap container above (the kinds adding the members one
 * by one gives). O(bytes).
 * @throws TypeError when `bytes` is not a Uint8Array.
 */
export function roaringFromRedisString(bytes: Uint8Array): RoaringBitmap {
  checkBytes("RoaringBitmap", "bytes", bytes);
  const chunks = Math.ceil(bytes.length / 8192);
  if (chunks > FULL) {
    throw new RangeError(
      `redstruct/RoaringBitmap: bytes must be a Redis string of at most 512 MiB, got ${bytes.length} bytes`,
    );
  }
  const c = new Containers();
  const w = new Int32Array(WORDS);
  const scratch = new Scratch16();
  for (let key = 0; key < chunks; key++) {
    const from = key * 8192;
    const to = Math.min(bytes.length, from + 8192);
    let card = 0;
    for (let k = 0; k < WORDS; k++) {
      const p = from + 4 * k;
      let v = 0;
      if (p + 4 <= to) {
        v =
          REVERSED[bytes[p]!]! |
          (REVERSED[bytes[p + 1]!]! << 8) |
          (REVERSED[bytes[p + 2]!]! << 16) |
          (REVERSED[bytes[p + 3]!]! << 24);
      } else {
        for (let b = 0; b < 4 && p + b < to; b++) v |= REVERSED[bytes[p + b]!]! << (8 * b);
      }
      w[k] = v;
      card += popcount(v);
    }
    if (card === 0) continue;
    if (card > ARRAY_MAX) c.pushBitmap(key, w, 0, card);
    else c.pushBitmapAs(ARRAY, key, w, 0, card, scratch);
  }
  c.trim();
  return wrapContainers(c);
}
