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

/**
 * ExaLogLog's register index and update value of a 64-bit hash at precision p and parameter t, from
 * the definition with BigInt (independent of src/hll's 32-bit-halves code): x = hash >> p; the run's
 * group j is the trailing zeros of x's low 64 − p − t bits (64 − p − t when they are all zero); below
 * the top group the refining bits f are the t bits of x above its lowest one, in the top group they
 * are (2^t − 1) XOR (the top t hash bits reversed); the value is j·2^t + f + 1.
 */
export function indexAndValue(h: bigint, p: number, t: number): [number, number] {
  const index = Number(h & ((1n << BigInt(p)) - 1n));
  const x = h >> BigInt(p);
  const width = 64 - p - t;
  let j = 0;
  while (j < width && ((x >> BigInt(j)) & 1n) === 0n) j++;
  let f: number;
  if (j < width) {
    f = Number((x >> BigInt(j + 1)) & ((1n << BigInt(t)) - 1n));
  } else {
    const v = Number(h >> BigInt(64 - t));
    let reversed = 0;
    for (let b = 0; b < t; b++) if ((v >> b) & 1) reversed |= 1 << (t - 1 - b);
    f = ((1 << t) - 1) ^ reversed;
  }
  return [index, j * 2 ** t + f + 1];
}
