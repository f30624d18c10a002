/** Independent models of the hash functions, for the tests that check src/hash against them. */

/** An independent BigInt MurmurHash64A, straight from the algorithm's description. */
export function murmur64aModel(bytes: Uint8Array, seed: bigint): bigint {
  const m = 0xc6a4a7935bd1e995n;
  const mask = (1n << 64n) - 1n;
  let h = (seed ^ (BigInt(bytes.length) * m)) & mask;
  const blocks = bytes.length - (bytes.length % 8);
  for (let i = 0; i < blocks; i += 8) {
    let k = 0n;
    for (let j = 7; j >= 0; j--) k = (k << 8n) | BigInt(bytes[i + j]!);
    k = (k * m) & mask;
    k ^= k >> 47n;
    k = (k * m) & mask;
    h ^= k;
    h = (h * m) & mask;
  }
  if (bytes.length % 8) {
    for (let j = 0; j < bytes.length % 8; j++) h ^= BigInt(bytes[blocks + j]!) << BigInt(8 * j);
    h = (h * m) & mask;
  }
  h ^= h >> 47n;
  h = (h * m) & mask;
  h ^= h >> 47n;
  return h;
}
