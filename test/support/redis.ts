/**
 * The one Redis API the compatibility tests use, in Node and in Chromium alike.
 *
 * In Node it starts `redis-server` itself; in the browser project it asks the vitest server (Node)
 * to do so through the `redis*` browser commands declared in vitest.config.ts, with byte strings
 * carried as base64. Each test file starts its own server on a random loopback port and stops it.
 *
 * Replies: integers as numbers, bulk and simple strings as Uint8Array (use {@link text}), arrays as
 * arrays, nil as null, errors as {@link RedisReplyError} values (not thrown; use {@link ok}).
 */
export type Arg = string | number | Uint8Array;
export type Reply = null | number | Uint8Array | RedisReplyError | Reply[];

export class RedisReplyError extends Error {}

export interface Redis {
  /** Sends one command and returns its reply. */
  call(...args: Arg[]): Promise<Reply>;
  /** Sends many commands in one round trip. */
  pipeline(commands: Arg[][]): Promise<Reply[]>;
  stop(): Promise<void>;
}

const isBrowser = typeof window !== "undefined" && typeof document !== "undefined";

// Wire form for the browser bridge: bytes ↔ { b64 }, errors ↔ { err }.
export type Wire = null | number | string | { b64: string } | { err: string } | Wire[];

function toB64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromB64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function argToWire(a: Arg): Wire {
  return a instanceof Uint8Array ? { b64: toB64(a) } : a;
}

export function wireToArg(w: Wire): Arg {
  return typeof w === "object" && w !== null && "b64" in w ? fromB64(w.b64) : (w as string | number);
}

export function replyToWire(r: unknown): Wire {
  if (r === null || typeof r === "number") return r;
  if (r instanceof Uint8Array) return { b64: toB64(r) };
  if (Array.isArray(r)) return r.map(replyToWire);
  if (r instanceof Error) return { err: r.message };
  throw new Error(`unexpected reply ${String(r)}`);
}

function wireToReply(w: Wire): Reply {
  if (w === null || typeof w === "number") return w;
  if (typeof w === "string") return new TextEncoder().encode(w);
  if (Array.isArray(w)) return w.map(wireToReply);
  if ("b64" in w) return fromB64(w.b64);
  return new RedisReplyError(w.err);
}

interface BridgeCommands {
  redisStart(): Promise<number>;
  redisPipeline(id: number, commands: Wire[][]): Promise<Wire[]>;
  redisStop(id: number): Promise<void>;
}

/** Starts a private redis-server for the calling test file. */
export async function startRedis(): Promise<Redis> {
  if (isBrowser) {
    const { commands } = (await import("vitest/browser")) as unknown as { commands: BridgeCommands };
    const id = await commands.redisStart();
    const pipeline = async (cmds: Arg[][]) =>
      (
        await commands.redisPipeline(
          id,
          cmds.map((c) => c.map(argToWire)),
        )
      ).map(wireToReply);
    return {
      pipeline,
      call: async (...args) => (await pipeline([args]))[0]!,
      stop: () => commands.redisStop(id),
    };
  }
  const { startRedisServer, RedisError } = await import("./resp.js");
  const server = await startRedisServer();
  const convert = (r: unknown): Reply =>
    r instanceof RedisError ? new RedisReplyError(r.message) : Array.isArray(r) ? r.map(convert) : (r as Reply);
  const pipeline = async (cmds: Arg[][]) => (await server.client.pipeline(cmds)).map(convert);
  return { pipeline, call: async (...args) => (await pipeline([args]))[0]!, stop: () => server.stop() };
}

/** A bulk/simple string reply as UTF-8 text (null stays null). */
export function text(r: Reply): string | null {
  if (r === null) return null;
  if (r instanceof Uint8Array) return new TextDecoder().decode(r);
  throw new Error(`expected a string reply, got ${r instanceof Error ? r.message : JSON.stringify(r)}`);
}

/** Throws when a reply is an error; returns it otherwise. */
export function ok<T extends Reply>(r: T): Exclude<T, RedisReplyError> {
  if (r instanceof RedisReplyError) throw r;
  return r as Exclude<T, RedisReplyError>;
}
