/**
 * The reference the HyperLogLog and UltraLogLog models share, written from Redis's C with BigInt
 * (independent of src/hll's 32-bit-halves code): a 64-bit hash's register index and run at precision p.
 */
export function indexAndRun(h: bigint, p: number): [number, number] {
  const index = Number(h & ((1n << BigInt(p)) - 1n));
  let rest = (h >> BigInt(p)) | (1n << BigInt(64 - p));
  let run = 1;
  while ((rest & 1n) === 0n) {
    rest >>= 1n;
    run++;
  }
  return [index, run];
}
