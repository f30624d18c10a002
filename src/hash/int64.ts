/**
 * Conversions between a 64-bit bigint and the pair of 32-bit halves the hot paths carry, so the
 * bigint forms of the hashes (`murmur64a`, `siphash13`) take and return bigints while the cores
 * never touch BigInt.
 */

/** Joins halves into an unsigned 64-bit bigint. */
export function joinBigInt(hi: number, lo: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}
