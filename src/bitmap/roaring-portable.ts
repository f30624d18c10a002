/**
 * The Roaring portable serialization format (RoaringFormatSpec, github.com/RoaringBitmap/
 * RoaringFormatSpec), read and written byte for byte as CRoaring's `roaring_bitmap_portable_serialize`
 * writes it — the format CRoaring, the Java RoaringBitmap and Go's roaring exchange. All words are
 * little-endian:
 *
 * 1. Cookie. Without run containers: the 32-bit 12346 (SERIAL_COOKIE_NO_RUNCONTAINER) and the
 *    32-bit number of containers (an empty bitmap is these 8 bytes). With at least one: the 32-bit
 *    `12347 | (containers − 1) << 16` (SERIAL_COOKIE), then ⌈containers / 8⌉ bytes of a bitset whose
 *    bit k (least significant first) says container k is a run container.
 * 2. Descriptive header: per container, its 16-bit key and its cardinality − 1.
 * 3. Offset header, when there are no run containers or at least 4 containers (NO_OFFSET_THRESHOLD):
 *    per container, the 32-bit byte offset of its data from the start of the cookie.
 * 4. Containers, one after the other: a run container is its 16-bit number of runs then (start,
 *    length − 1) per run; otherwise a cardinality up to 4096 is an array of sorted 16-bit values and
 *    above 4096 a bitmap of 1024 64-bit words (value v is bit v % 64 of word v / 64).
 *
 * Containers are written with the kinds they have in memory, as CRoaring writes its own: the same
 * operations on both sides, or runOptimize() on both, give the same bytes.
 *
 * Reading checks what the format cannot express and CRoaring's validator refuses, before anything
 * is allocated that the input does not pay for: a cookie of neither kind, more than 65536 containers,
 * keys not strictly increasing, an offset that is not where its container starts, a truncated or
 * over-long input, array values not strictly increasing, a bitmap whose set bits are not its
 * cardinality, runs that overlap, touch, are out of order, pass 65535 or do not add up to the
 * cardinality, and a run container without runs.
 *
 * @see ./roaring.ts
 * @internal
 */
import { ByteReader } from "../internal/bytes.js";
import { formatError } from "../internal/errors.js";
import {
  ARRAY_MAX,
  BITMAP,
  BITMAP_UNITS,
  Containers,
  capFor,
  countWords,
  FULL,
  RUN,
  WORDS,
} from "./roaring-containers.js";

const WHERE = "RoaringBitmap";
/** SERIAL_COOKIE_NO_RUNCONTAINER: the cookie of a bitmap with no run container. */
export const COOKIE_NO_RUNS = 12346;
/** SERIAL_COOKIE: the low 16 bits of the cookie of a bitmap with run containers. */
export const COOKIE_RUNS = 12347;
/** NO_OFFSET_THRESHOLD: with run containers, the offset header is written from this many containers. */
const NO_OFFSET_THRESHOLD = 4;

/** Whether this platform stores typed-array elements little-endian (every mainstream one does). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Bytes the data of container i takes in the format. */
function dataBytes(c: Containers, i: number): number {
  const kind = c.kind(i);
  if (kind === RUN) return 2 + 4 * c.arena[c.off(i)]!;
  if (kind === BITMAP) return 8192;
  return 2 * (c.cards[i]! + 1);
}

/** Whether any container is a run container. */
function hasRuns(c: Containers): boolean {
  for (let i = 0; i < c.n; i++) if (c.offs[i]! < 0) return true;
  return false;
}

/** Bytes of the headers (cookie, run bitset, descriptive and offset headers). */
function headerBytes(n: number, runs: boolean): number {
  if (!runs) return 8 + 8 * n;
  return 4 + ((n + 7) >>> 3) + 4 * n + (n >= NO_OFFSET_THRESHOLD ? 4 * n : 0);
}

/** Size of the portable serialization of `c` in bytes (CRoaring's `roaring_bitmap_portable_size_in_bytes`). */
export function portableSize(c: Containers): number {
  let size = headerBytes(c.n, hasRuns(c));
  for (let i = 0; i < c.n; i++) size += dataBytes(c, i);
  return size;
}

/** The portable serialization of `c`, into `out` from `at` when given (it must have room), else a new array. */
export function writePortable(c: Containers, out?: Uint8Array, at = 0): Uint8Array {
  const n = c.n;
  const runs = hasRuns(c);
  const size = portableSize(c);
  const bytes = out ?? new Uint8Array(size);
  let p = at;
  if (runs) {
    p = put32(bytes, p, (COOKIE_RUNS | ((n - 1) << 16)) >>> 0);
    for (let i = 0; i < n; i++) if (c.offs[i]! < 0) bytes[p + (i >>> 3)] = bytes[p + (i >>> 3)]! | (1 << (i & 7));
    p += (n + 7) >>> 3;
  } else {
    p = put32(bytes, p, COOKIE_NO_RUNS);
    p = put32(bytes, p, n);
  }
  const keys = c.keys;
  const cards = c.cards;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    const d = cards[i]!;
    bytes[p] = k & 0xff;
    bytes[p + 1] = k >>> 8;
    bytes[p + 2] = d & 0xff;
    bytes[p + 3] = d >>> 8;
    p += 4;
  }
  if (!runs || n >= NO_OFFSET_THRESHOLD) {
    let offset = headerBytes(n, runs);
    for (let i = 0; i < n; i++) {
      p = put32(bytes, p, offset);
      offset += dataBytes(c, i);
    }
  }
  const a = c.arena;
  // Every container's data has an even length, so all of them start at the parity of the first:
  // when even (and the platform little-endian), 16-bit values are stored through a 16-bit view.
  const view =
    LITTLE_ENDIAN && (bytes.byteOffset & 1) === 0 && (p & 1) === 0
      ? new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 1)
      : null;
  for (let i = 0; i < n; i++) {
    const e = c.offs[i]!;
    if (e < 0) {
      const o = ~e;
      const nr = a[o]!;
      if (view !== null) {
        let q = (p >>> 1) + 1;
        view[q - 1] = nr;
        for (let r = 0; r < nr; r++, q += 2) {
          const s = a[o + 1 + 2 * r]!;
          view[q] = s;
          view[q + 1] = a[o + 2 + 2 * r]! - s;
        }
      } else {
        bytes[p] = nr & 0xff;
        bytes[p + 1] = nr >>> 8;
        for (let r = 0; r < nr; r++) {
          const s = a[o + 1 + 2 * r]!;
          const len = a[o + 2 + 2 * r]! - s;
          const q = p + 2 + 4 * r;
          bytes[q] = s & 0xff;
          bytes[q + 1] = s >>> 8;
          bytes[q + 2] = len & 0xff;
          bytes[q + 3] = len >>> 8;
        }
      }
      p += 2 + 4 * nr;
      continue;
    }
    const card = cards[i]! + 1;
    if (card > ARRAY_MAX) {
      if (LITTLE_ENDIAN) {
        bytes.set(new Uint8Array(a.buffer, a.byteOffset + 2 * e, 8192), p);
      } else {
        const w = c.words;
        for (let k = 0; k < WORDS; k++) put32(bytes, p + 4 * k, w[(e >>> 1) + k]! >>> 0);
      }
      p += 8192;
    } else if (view !== null) {
      if (card >= 64) view.set(a.subarray(e, e + card), p >>> 1);
      else for (let k = 0, q = p >>> 1; k < card; k++) view[q + k] = a[e + k]!;
      p += 2 * card;
    } else {
      for (let k = 0; k < card; k++) {
        const v = a[e + k]!;
        bytes[p + 2 * k] = v & 0xff;
        bytes[p + 2 * k + 1] = v >>> 8;
      }
      p += 2 * card;
    }
  }
  if (p !== at + size) throw new Error(`redstruct internal: wrote ${p - at} of ${size} portable bytes`);
  return bytes;
}

/** Writes v as 32 bits little-endian at bytes[p]; returns p + 4. */
function put32(bytes: Uint8Array, p: number, v: number): number {
  bytes[p] = v & 0xff;
  bytes[p + 1] = (v >>> 8) & 0xff;
  bytes[p + 2] = (v >>> 16) & 0xff;
  bytes[p + 3] = v >>> 24;
  return p + 4;
}

/**
 * Reads a portable serialization that spans all of `bytes` (trailing bytes are refused).
 * @throws RedstructFormatError for anything but one well-formed bitmap (see the file header).
 */
export function readPortable(bytes: Uint8Array, where = WHERE): Containers {
  const r = new ByteReader(bytes, where);
  const bad = (message: string) => formatError(where, message);
  if (bytes.length < 4) {
    throw bad(`truncated input: a Roaring portable bitmap opens with a 4-byte cookie, got ${bytes.length} bytes`);
  }
  const cookie = r.u32("the cookie");
  let runs: boolean;
  let n: number;
  if ((cookie & 0xffff) === COOKIE_RUNS) {
    runs = true;
    n = (cookie >>> 16) + 1;
  } else if (cookie === COOKIE_NO_RUNS) {
    runs = false;
    n = r.u32("the container count");
    if (n > FULL) throw bad(`the container count ${n} exceeds 65536 (one container per 16-bit key)`);
  } else {
    throw bad(
      `not a Roaring portable bitmap: the cookie 0x${cookie.toString(16).padStart(8, "0")} is neither ` +
        `${COOKIE_NO_RUNS} nor ${COOKIE_RUNS} | (containers − 1) << 16`,
    );
  }
  const flagsAt = r.offset;
  const withOffsets = !runs || n >= NO_OFFSET_THRESHOLD;
  // Every container costs at least 4 descriptive bytes, 4 offset bytes when they are written, and
  // 2 data bytes: refuse a count the input cannot hold before allocating anything for it.
  const least = (runs ? (n + 7) >>> 3 : 0) + n * (withOffsets ? 10 : 6);
  if (r.remaining < least) {
    throw bad(
      `truncated input: ${n} containers need at least ${least} more bytes at offset ${r.offset}, ${r.remaining} left`,
    );
  }
  const descAt = flagsAt + (runs ? (n + 7) >>> 3 : 0);
  const offsAt = descAt + 4 * n;
  const dataAt = offsAt + (withOffsets ? 4 * n : 0);
  const u16at = (p: number) => bytes[p]! | (bytes[p + 1]! << 8);
  const u32at = (p: number) => (bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24)) >>> 0;
  const isRun = (k: number) => runs && (bytes[flagsAt + (k >>> 3)]! & (1 << (k & 7))) !== 0;

  // First pass: the layout (keys, kinds, where each container starts and ends) and the arena size.
  let p = dataAt;
  let units = 0;
  let prevKey = -1;
  for (let k = 0; k < n; k++) {
    const key = u16at(descAt + 4 * k);
    if (key <= prevKey) {
      throw bad(`container keys must be strictly increasing: key ${key} of container ${k} follows key ${prevKey}`);
    }
    prevKey = key;
    if (withOffsets) {
      const offset = u32at(offsAt + 4 * k);
      if (offset !== p) {
        throw bad(
          `the offset header says container ${k} starts at byte ${offset}, but it starts at byte ${p}` +
            (offset >= bytes.length ? ` (beyond the end of the ${bytes.length} bytes)` : ""),
        );
      }
    }
    const card = u16at(descAt + 4 * k + 2) + 1;
    let size: number;
    if (isRun(k)) {
      if (p + 2 > bytes.length) throw bad(`truncated input: run container ${k} needs its run count at offset ${p}`);
      const nr = u16at(p);
      if (nr === 0) throw bad(`run container ${k} has no runs`);
      if (nr > FULL / 2) throw bad(`run container ${k} claims ${nr} runs: at most 32768 fit in 65536 values`);
      size = 2 + 4 * nr;
      units += capFor(1 + 2 * nr);
    } else if (card > ARRAY_MAX) {
      size = 8192;
      units += (units & 1) + BITMAP_UNITS;
    } else {
      size = 2 * card;
      units += capFor(card);
    }
    if (p + size > bytes.length) {
      throw bad(`truncated input: container ${k} needs ${size} bytes at offset ${p}, ${bytes.length - p} left`);
    }
    p += size;
  }
  if (p !== bytes.length) throw bad(`${bytes.length - p} unexpected trailing bytes at offset ${p}`);

  // Second pass: copy and check each container's data.
  const c = new Containers();
  c.reserve(n, units);
  p = dataAt;
  const arena = c.arena;
  const words = c.words;
  let total = 0;
  for (let k = 0; k < n; k++) {
    const key = u16at(descAt + 4 * k);
    const card = u16at(descAt + 4 * k + 2) + 1;
    if (isRun(k)) {
      const nr = u16at(p);
      const o = c.alloc(capFor(1 + 2 * nr), false);
      arena[o] = nr;
      let sum = 0;
      let prevEnd = -2;
      for (let q = 0; q < nr; q++) {
        const start = u16at(p + 2 + 4 * q);
        const last = start + u16at(p + 4 + 4 * q);
        if (last > 0xffff) throw bad(`run ${q} of container ${k} runs from ${start} past 65535 (to ${last})`);
        if (start <= prevEnd + 1) {
          throw bad(
            `runs of container ${k} must be sorted and apart: run ${q} starts at ${start}, ` +
              `the one before ends at ${prevEnd}`,
          );
        }
        arena[o + 1 + 2 * q] = start;
        arena[o + 2 + 2 * q] = last;
        sum += last - start + 1;
        prevEnd = last;
      }
      if (sum !== card) throw bad(`run container ${k} holds ${sum} values but its header says ${card}`);
      c.insertRow(k, key, card - 1, ~o);
      p += 2 + 4 * nr;
    } else if (card > ARRAY_MAX) {
      const o = c.alloc(BITMAP_UNITS, true);
      const wo = o >>> 1;
      for (let q = 0; q < WORDS; q++) words[wo + q] = u32at(p + 4 * q) | 0;
      const bits = countWords(words, wo);
      if (bits !== card) throw bad(`bitmap container ${k} has ${bits} bits set but its header says ${card}`);
      c.insertRow(k, key, card - 1, o);
      p += 8192;
    } else {
      const o = c.alloc(capFor(card), false);
      let prev = -1;
      for (let q = 0; q < card; q++) {
        const v = u16at(p + 2 * q);
        if (v <= prev) {
          throw bad(`array container ${k} must hold strictly increasing values: ${v} follows ${prev}`);
        }
        arena[o + q] = v;
        prev = v;
      }
      c.insertRow(k, key, card - 1, o);
      p += 2 * card;
    }
    total += card;
  }
  c.size = total;
  return c;
}
