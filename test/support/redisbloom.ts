/**
 * Decoding helpers for the RedisBloom golden vectors (test/vectors/redisbloom/, see its README):
 * arguments and bulk strings are `{ utf8 }` or `{ hex }`, dumps are hex, integers beyond ±2^53 are
 * `{ int }`.
 */

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

// ---------------------------------------------------------------------------------------------
// Byte inputs in the forms callers hand them over (the byte-input tests of the RedisBloom structures)
// ---------------------------------------------------------------------------------------------

class Bytes extends Uint8Array {}

/**
 * The forms a byte input may come in: a plain array, a view into a larger buffer, a subclass, and
 * (in Node) a `Buffer`, whose `slice()` is a view of pooled memory rather than a copy.
 */
type ByteForm = "plain" | "view" | "subclass" | "buffer";
export const BYTE_FORMS: ByteForm[] = [
  "plain",
  "view",
  "subclass",
  ...(typeof Buffer === "function" ? (["buffer"] as const) : []),
];

/**
 * `content` in the given form, and `scramble()`, which changes every byte of it (and the memory
 * around a view) the way a caller reusing its buffer after the call would.
 */
export function inForm(content: Uint8Array, form: ByteForm): { value: Uint8Array; scramble(): void } {
  let value: Uint8Array;
  let backing: Uint8Array | undefined;
  switch (form) {
    case "plain":
      value = Uint8Array.from(content);
      break;
    case "view":
      backing = new Uint8Array(content.length + 6).fill(0xee);
      backing.set(content, 3);
      value = backing.subarray(3, 3 + content.length);
      break;
    case "subclass":
      value = Bytes.from(content);
      break;
    case "buffer":
      value = Buffer.from([0xee, ...content, 0xee]).slice(1, 1 + content.length);
      break;
  }
  return {
    value,
    scramble() {
      for (let i = 0; i < value.length; i++) value[i] = value[i]! ^ 0xff;
      backing?.fill(0x11, 0, 3);
    },
  };
}

/** A copy of `bytes` whose buffer has been transferred away (as to a worker): a detached view. */
export function detached(bytes: Uint8Array): Uint8Array {
  const copy = bytes.slice();
  structuredClone(copy.buffer, { transfer: [copy.buffer] });
  return copy;
}

/**
 * A streaming reader's chunks: every `[position, bytes]` pair yielded as a view of one reused buffer,
 * overwritten by the next chunk (as a socket reader or a file reader with one buffer does).
 */
export function* oneBuffer(chunks: Iterable<readonly [number, Uint8Array]>): Generator<[number, Uint8Array]> {
  const list = [...chunks];
  const buffer = new Uint8Array(Math.max(1, ...list.map(([, bytes]) => bytes.length)));
  for (const [position, bytes] of list) {
    buffer.fill(0xa5);
    buffer.set(bytes);
    yield [position, buffer.subarray(0, bytes.length)];
  }
}
