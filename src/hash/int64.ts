/**
 * Conversions between a 64-bit bigint and the pair of 32-bit halves the hot paths carry, so the
 * bigint forms of the hashes (`murmur64a`, `siphash13`) take and return bigints while the cores
 * never touch BigInt.
 */

/** Splits a bigint (taken mod 2^64) into halves. */
export function splitBigInt(v: bigint): [hi: number, lo: number] {
  const u = BigInt.asUintN(64, v);
  return [Number(u >> 32n), Number(u & 0xffffffffn)];
}

/** Joins halves into an unsigned 64-bit bigint. */
export function joinBigInt(hi: number, lo: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}
