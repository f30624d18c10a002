/**
 * 64-bit arithmetic on pairs of 32-bit halves, for hashes that must not touch BigInt per call.
 *
 * A 64-bit value is carried as `hi`, `lo` (both unsigned 32-bit numbers). Multiplication splits
 * into 16-bit pieces where `Math.imul` would lose the high word (the approach bloomfilter.js uses).
 * Results are written to the module-level `r` pair to avoid allocating a tuple per operation.
 */

/** Result registers of the last {@link mul64}. */
export const r = { hi: 0, lo: 0 };

/** (aHi:aLo) × (bHi:bLo) mod 2^64 → `r`. */
export function mul64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  r.lo = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  const carry = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  r.hi = (carry + Math.imul(aLo, bHi) + Math.imul(aHi, bLo)) >>> 0;
}

/** Splits a bigint (taken mod 2^64) into halves. */
export function splitBigInt(v: bigint): [hi: number, lo: number] {
  const u = BigInt.asUintN(64, v);
  return [Number(u >> 32n), Number(u & 0xffffffffn)];
}

/** Joins halves into an unsigned 64-bit bigint. */
export function joinBigInt(hi: number, lo: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}
