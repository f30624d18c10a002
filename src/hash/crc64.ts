/**
 * CRC-64-Jones, the checksum Redis appends to every `DUMP` payload and RDB file (src/crc64.c):
 * reflected, polynomial 0xad93d23594c935a9 (0x95ac9329ac4bc9b5 bit-reversed), initial value 0, no
 * final xor; crc64("123456789") = 0xe9c6d914c4b8d9ca.
 *
 * Slicing-by-8 (as Redis's own crcspeed.c): eight 256-entry tables, the first the byte-at-a-time
 * table, the k-th advancing a byte's contribution by k more bytes, so that eight bytes take sixteen
 * lookups instead of eight dependent steps. The 64-bit register is carried as two 32-bit halves (no
 * BigInt). O(n), no allocation after the tables (16 KiB) are built on first use.
 */

/** Low and high 32-bit halves of table k's entry i at index 256·k + i, built on first use. */
let tableLo: Int32Array | null = null;
let tableHi: Int32Array | null = null;

function buildTables(): void {
  const lo = new Int32Array(8 * 256);
  const hi = new Int32Array(8 * 256);
  // The reflected polynomial 0x95ac9329ac4bc9b5 as halves.
  const polyLo = 0xac4bc9b5 | 0;
  const polyHi = 0x95ac9329 | 0;
  for (let i = 0; i < 256; i++) {
    let l = i;
    let h = 0;
    for (let bit = 0; bit < 8; bit++) {
      const odd = l & 1;
      l = (l >>> 1) | (h << 31);
      h = h >>> 1;
      if (odd) {
        l ^= polyLo;
        h ^= polyHi;
      }
    }
    lo[i] = l;
    hi[i] = h;
  }
  // Table k: the CRC of byte i followed by k zero bytes.
  for (let k = 1; k < 8; k++) {
    for (let i = 0; i < 256; i++) {
      const l = lo[256 * (k - 1) + i]!;
      const h = hi[256 * (k - 1) + i]!;
      const j = l & 0xff;
      lo[256 * k + i] = ((l >>> 8) | (h << 24)) ^ lo[j]!;
      hi[256 * k + i] = (h >>> 8) ^ hi[j]!;
    }
  }
  tableLo = lo;
  tableHi = hi;
}

/**
 * CRC-64-Jones of `bytes[from, to)`, written little-endian (as Redis appends it) into `out` at `at`.
 * O(to − from).
 */
export function crc64Into(bytes: Uint8Array, from: number, to: number, out: Uint8Array, at: number): void {
  if (tableLo === null) buildTables();
  const tlo = tableLo!;
  const thi = tableHi!;
  let lo = 0;
  let hi = 0;
  let i = from;
  // Single bytes up to a 4-byte boundary of the buffer, then 8 bytes at a time read as two words
  // (on a little-endian machine; elsewhere the bytes are assembled).
  if (to - from >= 64) {
    for (; (bytes.byteOffset + i) & 3; i++) {
      const k = (lo ^ bytes[i]!) & 0xff;
      lo = ((lo >>> 8) | (hi << 24)) ^ tlo[k]!;
      hi = (hi >>> 8) ^ thi[k]!;
    }
  }
  const words =
    LITTLE_ENDIAN && ((bytes.byteOffset + i) & 3) === 0
      ? new Int32Array(bytes.buffer, bytes.byteOffset + i, (to - i) >>> 2)
      : null;
  for (let w = 0, end8 = to - 7; i < end8; i += 8, w += 2) {
    const a =
      lo ^
      (words !== null ? words[w]! : bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    const b =
      hi ^
      (words !== null
        ? words[w + 1]!
        : bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24));
    const a0 = 1792 + (a & 0xff);
    const a1 = 1536 + ((a >>> 8) & 0xff);
    const a2 = 1280 + ((a >>> 16) & 0xff);
    const a3 = 1024 + (a >>> 24);
    const b0 = 768 + (b & 0xff);
    const b1 = 512 + ((b >>> 8) & 0xff);
    const b2 = 256 + ((b >>> 16) & 0xff);
    const b3 = b >>> 24;
    lo = tlo[a0]! ^ tlo[a1]! ^ tlo[a2]! ^ tlo[a3]! ^ tlo[b0]! ^ tlo[b1]! ^ tlo[b2]! ^ tlo[b3]!;
    hi = thi[a0]! ^ thi[a1]! ^ thi[a2]! ^ thi[a3]! ^ thi[b0]! ^ thi[b1]! ^ thi[b2]! ^ thi[b3]!;
  }
  for (; i < to; i++) {
    const k = (lo ^ bytes[i]!) & 0xff;
    lo = ((lo >>> 8) | (hi << 24)) ^ tlo[k]!;
    hi = (hi >>> 8) ^ thi[k]!;
  }
  for (let b = 0; b < 4; b++) {
    out[at + b] = (lo >>> (8 * b)) & 0xff;
    out[at + 4 + b] = (hi >>> (8 * b)) & 0xff;
  }
}

/** Whether typed arrays read words little-endian (every engine redstruct runs on, in practice). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
