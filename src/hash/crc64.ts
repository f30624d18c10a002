/**
 * CRC-64-Jones, the checksum Redis appends to every `DUMP` payload and RDB file (src/crc64.c):
 * reflected, polynomial 0xad93d23594c935a9 (0x95ac9329ac4bc9b5 bit-reversed), initial value 0, no
 * final xor; crc64("123456789") = 0xe9c6d914c4b8d9ca.
 *
 * Byte-at-a-time over a 256-entry table, with the 64-bit register carried as two 32-bit halves
 * (no BigInt): O(n), no allocation after the table is built on first use.
 */

/** The table's low and high 32-bit halves, built on first use. */
let tableLo: Uint32Array | null = null;
let tableHi: Uint32Array | null = null;

function buildTable(): void {
  const lo = new Uint32Array(256);
  const hi = new Uint32Array(256);
  // The reflected polynomial 0x95ac9329ac4bc9b5 as halves.
  const polyLo = 0xac4bc9b5;
  const polyHi = 0x95ac9329;
  for (let i = 0; i < 256; i++) {
    let l = i;
    let h = 0;
    for (let bit = 0; bit < 8; bit++) {
      const odd = l & 1;
      l = ((l >>> 1) | (h << 31)) >>> 0;
      h = h >>> 1;
      if (odd) {
        l = (l ^ polyLo) >>> 0;
        h = (h ^ polyHi) >>> 0;
      }
    }
    lo[i] = l;
    hi[i] = h;
  }
  tableLo = lo;
  tableHi = hi;
}

/**
 * CRC-64-Jones of `bytes[from, to)`, written little-endian (as Redis appends it) into `out` at `at`.
 * O(to − from).
 */
export function crc64Into(bytes: Uint8Array, from: number, to: number, out: Uint8Array, at: number): void {
  if (tableLo === null) buildTable();
  const tlo = tableLo!;
  const thi = tableHi!;
  let lo = 0;
  let hi = 0;
  for (let i = from; i < to; i++) {
    const k = (lo ^ bytes[i]!) & 0xff;
    lo = ((lo >>> 8) | (hi << 24)) ^ tlo[k]!;
    hi = (hi >>> 8) ^ thi[k]!;
  }
  for (let b = 0; b < 4; b++) {
    out[at + b] = (lo >>> (8 * b)) & 0xff;
    out[at + 4 + b] = (hi >>> (8 * b)) & 0xff;
  }
}
