/**
 * A minimal, binary-safe RESP2 client and a throwaway `redis-server` launcher, for the
 * compatibility tests. Node only: the browser project reaches it through vitest browser commands
 * (see vitest.config.ts and redis.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect, type Socket } from "node:net";

type RedisArg = string | number | Uint8Array;
type RedisReply = null | number | Uint8Array | RedisError | RedisReply[];

export class RedisError extends Error {}

const CRLF = Buffer.from("\r\n");

function encode(args: RedisArg[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const a of args) {
    const b = a instanceof Uint8Array ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : Buffer.from(String(a));
    parts.push(Buffer.from(`$${b.length}\r\n`), b, CRLF);
  }
  return Buffer.concat(parts);
}

/** Parses one reply at `pos`; returns [reply, next position] or undefined when more data is needed. */
function parse(buf: Buffer, pos: number): [RedisReply, number] | undefined {
  const eol = buf.indexOf(CRLF, pos);
  if (eol < 0) return undefined;
  const type = String.fromCharCode(buf[pos]!);
  const line = buf.toString("utf8", pos + 1, eol);
  const next = eol + 2;
  switch (type) {
    case "+":
      return [new Uint8Array(Buffer.from(line)), next];
    case "-":
      return [new RedisError(line), next];
    case ":":
      return [Number(line), next];
    case "$": {
      const n = Number(line);
      if (n < 0) return [null, next];
      if (buf.length < next + n + 2) return undefined;
      return [new Uint8Array(buf.subarray(next, next + n)), next + n + 2];
    }
    case "*": {
      const n = Number(line);
      if (n < 0) return [null, next];
      const items: RedisReply[] = [];
      let p = next;
      for (let i = 0; i < n; i++) {
        const r = parse(buf, p);
        if (!r) return undefined;
        items.push(r[0]);
        p = r[1];
      }
      return [items, p];
    }
    default:
      throw new Error(`RESP: unexpected type byte ${JSON.stringify(type)}`);
  }
}

/**
 * Where the first complete reply in `buf[start, end)` ends, resuming a scan that reached `scan`
 * with `open` elements still owed per enclosing array; -1 when more bytes are needed. Each byte is
 * looked at once over the arrival of a reply, however many chunks it comes in (re-parsing the whole
 * buffer on every chunk made large replies quadratic).
 */
function scanReply(buf: Buffer, end: number, state: { scan: number; open: number[] }): number {
  let pos = state.scan;
  const open = state.open;
  for (;;) {
    const eol = buf.indexOf(CRLF, pos);
    if (eol < 0 || eol + 2 > end) break;
    const type = buf[pos]!;
    let next = eol + 2;
    let children = 0;
    if (type === 0x24 /* $ */) {
      const n = Number(buf.toString("latin1", pos + 1, eol));
      if (n >= 0) {
        if (next + n + 2 > end) break;
        next += n + 2;
      }
    } else if (type === 0x2a /* * */) {
      children = Math.max(0, Number(buf.toString("latin1", pos + 1, eol)));
    }
    pos = next;
    if (children > 0) {
      open.push(children);
      continue;
    }
    // One element done: close every array it completes.
    while (open.length > 0 && --open[open.length - 1]! === 0) open.pop();
    if (open.length === 0) {
      state.scan = pos;
      return pos;
    }
  }
  state.scan = pos;
  return -1;
}

class RespClient {
  #socket: Socket;
  /** Received bytes [#start, #end) of #buf, which grows by doubling. */
  #buf = Buffer.alloc(1 << 16);
  #start = 0;
  #end = 0;
  #scan = { scan: 0, open: [] as number[] };
  #waiting: { n: number; replies: RedisReply[]; resolve: (r: RedisReply[]) => void; reject: (e: Error) => void }[] = [];

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.#append(chunk);
      for (;;) {
        if (this.#scan.scan < this.#start) this.#scan.scan = this.#start;
        const end = scanReply(this.#buf, this.#end, this.#scan);
        if (end < 0) break;
        const r = parse(this.#buf.subarray(0, end), this.#start);
        if (!r) throw new Error("RESP: a reply the scanner found complete did not parse");
        this.#start = end;
        const w = this.#waiting[0];
        if (!w) continue;
        w.replies.push(r[0]);
        if (w.replies.length === w.n) {
          this.#waiting.shift();
          w.resolve(w.replies);
        }
      }
    });
    socket.on("error", (e) => {
      for (const w of this.#waiting.splice(0)) w.reject(e);
    });
  }

  #append(chunk: Buffer): void {
    if (this.#start > 0 && this.#start >= this.#end - this.#start) {
      // Drop what was read once it is at least half of what is held.
      this.#buf.copy(this.#buf, 0, this.#start, this.#end);
      this.#end -= this.#start;
      this.#scan.scan -= this.#start;
      this.#start = 0;
    }
    if (this.#end + chunk.length > this.#buf.length) {
      let size = this.#buf.length;
      while (size < this.#end + chunk.length) size *= 2;
      const grown = Buffer.alloc(size);
      this.#buf.copy(grown, 0, 0, this.#end);
      this.#buf = grown;
    }
    chunk.copy(this.#buf, this.#end);
    this.#end += chunk.length;
  }

  static connect(port: number): Promise<RespClient> {
    return new Promise((resolve, reject) => {
      const s = connect({ host: "127.0.0.1", port }, () => resolve(new RespClient(s)));
      s.once("error", reject);
    });
  }

  /** Sends every command in one write and resolves with the replies in order. */
  pipeline(commands: RedisArg[][]): Promise<RedisReply[]> {
    if (commands.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.#waiting.push({ n: commands.length, replies: [], resolve, reject });
      this.#socket.write(Buffer.concat(commands.map(encode)));
    });
  }

  close(): void {
    this.#socket.destroy();
  }
}

export interface RedisServer {
  port: number;
  client: RespClient;
  stop(): Promise<void>;
}

/** Starts `redis-server` on a random loopback port with persistence off; retries on a busy port. */
export async function startRedisServer(): Promise<RedisServer> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 40000);
    const proc: ChildProcess = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const ready = await new Promise<boolean>((resolve) => {
      let out = "";
      const timer = setTimeout(() => resolve(false), 5000);
      proc.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      proc.once("exit", () => {
        clearTimeout(timer);
        resolve(false);
      });
      proc.once("error", (e) => {
        clearTimeout(timer);
        if ((e as NodeJS.ErrnoException).code === "ENOENT") {
          throw new Error("redis-server not found: install it (apt-get install -y redis-server); .ci/run does");
        }
        resolve(false);
      });
    });
    if (!ready) {
      proc.kill("SIGKILL");
      continue;
    }
    const client = await RespClient.connect(port);
    return {
      port,
      client,
      stop: () =>
        new Promise<void>((resolve) => {
          client.close();
          if (proc.exitCode !== null) return resolve();
          proc.once("exit", () => resolve());
          proc.kill("SIGTERM");
        }),
    };
  }
  throw new Error("could not start redis-server on a loopback port after 8 attempts");
}
