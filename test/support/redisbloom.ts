/**
 * Decoding helpers for the RedisBloom golden vectors (test/vectors/redisbloom/, see its README):
 * arguments and bulk strings are `{ utf8 }` or `{ hex }`, dumps are hex, integers beyond ±2^53 are
 * `{ int }`.
 */

/** An argument or bulk string as the vectors encode it. */
export type Encoded = { utf8: string } | { hex: string };

/** Bytes of a lowercase hex string. */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** The item an encoded argument stands for: a string for `utf8`, bytes for `hex`. */
export function itemOf(e: unknown): string | Uint8Array {
  const o = e as Record<string, string>;
  if (typeof o.utf8 === "string") return o.utf8;
  if (typeof o.hex === "string") return fromHex(o.hex);
  throw new Error(`not an encoded argument: ${JSON.stringify(e)}`);
}

/** The text of an encoded argument (hex arguments decoded as latin-1 bytes, for keywords). */
export function textOf(e: unknown): string {
  const v = itemOf(e);
  return typeof v === "string" ? v : String.fromCharCode(...v);
}

/** The C string a reply carries for an item: its bytes up to the first NUL, as a JS string. */
export function replyText(e: unknown): string | null {
  if (e === null) return null;
  if (typeof e === "string") return e;
  const v = itemOf(e);
  return typeof v === "string" ? v : new TextDecoder().decode(v);
}
