/**
 * Redis's order for sorted-set members, written independently of the library's compareMembers:
 * memcmp of their UTF-8 bytes, through TextEncoder. The tests' reference models sort by it.
 */
const encoder = new TextEncoder();

export function byteCompare(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
