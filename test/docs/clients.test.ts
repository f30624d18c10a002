/**
 * The Redis client snippets of README.md and docs/*.md, run as written against a real redis-server
 * with the real clients (ioredis and node-redis), and the byte transport of every Redis-format
 * method through both clients.
 *
 * A ```ts redis block is a snippet for plain Redis: it runs here, pointed at a private server
 * (`new Redis()` and `createClient()` are given its port). A ```ts redisbloom block needs the
 * RedisBloom module, which Debian does not package: it is type-checked by the typecheck of this
 * file's imports only as far as its byte handling goes — the second part of this file sends every
 * format that block relies on (chunk lists, DUMP payloads) through both clients and checks that
 * the bytes come back unchanged, which is the part a client can get wrong.
 *
 * Node only: the clients need sockets (excluded from the browser project in vitest.config.ts).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Redis } from "ioredis";
import { createClient, RESP_TYPES } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HyperLogLog } from "../../src/hll/index.js";
import { TDigest } from "../../src/tdigest/index.js";
import { type RedisServer, startRedisServer } from "../support/resp.js";

const root = resolve(import.meta.dirname, "../..");
const scratch = join(root, "test", ".snippets");

/** Every fenced block of README.md and docs/*.md whose info string is `ts <kind>`. */
function snippets(kind: string): { where: string; code: string }[] {
  const pages = [
    "README.md",
    ...readdirSync(join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const out: { where: string; code: string }[] = [];
  for (const page of pages) {
    const text = readFileSync(join(root, page), "utf8");
    for (const m of text.matchAll(new RegExp(`\`\`\`ts ${kind}\\n([\\s\\S]*?)\`\`\``, "g"))) {
      out.push({ where: `${page}:${text.slice(0, m.index).split("\n").length}`, code: m[1]! });
    }
  }
  return out;
}

/**
 * A snippet as a module exporting `run()`: its imports hoisted, `redstruct[/sub]` pointed at src/,
 * and the two clients' default connections pointed at the test's server.
 */
function asModule(code: string, port: number): string {
  const imports: string[] = [];
  const body = code.replace(/^import\s[^;]*?from\s+"([^"]+)";?[ \t]*$/gm, (line, from: string) => {
    const sub = /^redstruct(\/[a-z]+)?$/.exec(from);
    imports.push(sub ? line.replace(from, `../../src${sub[1] ?? ""}/index.js`) : line);
    return "";
  });
  const pointed = body
    .replace(/new Redis\(\)/g, `new Redis(${port}, "127.0.0.1")`)
    .replace(/createClient\(\)/g, `createClient({ url: "redis://127.0.0.1:${port}" })`);
  return `${imports.join("\n")}\nexport async function run(): Promise<void> {\n${pointed}\n}\n`;
}

let server: RedisServer;

beforeAll(async () => {
  server = await startRedisServer();
  mkdirSync(scratch, { recursive: true });
});

afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("Redis client snippets in the docs, run against redis-server", () => {
  const found = snippets("redis");

  it("there are snippets for both clients", () => {
    expect(found.some((s) => s.code.includes("ioredis"))).toBe(true);
    expect(found.some((s) => s.code.includes('from "redis"'))).toBe(true);
  });

  found.forEach((snippet, i) => {
    it(`${snippet.where} runs`, async () => {
      const file = join(scratch, `snippet-${i}.ts`);
      writeFileSync(file, asModule(snippet.code, server.port));
      const mod = (await import(/* @vite-ignore */ file)) as { run: () => Promise<void> };
      await mod.run();
    });
  });
});

describe("Redis formats through both clients, byte for byte", () => {
  /** Bytes as the clients want them: ioredis and node-redis send a Buffer as bytes. */
  const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  /** Every byte value once, and lengths around the clients' internal buffer sizes. */
  const payloads = [
    new Uint8Array(0),
    Uint8Array.from({ length: 256 }, (_, i) => i),
    new Uint8Array(70_000).fill(0xff),
  ];

  it("ioredis: set(Buffer) / getBuffer give back the same bytes; a bare Uint8Array does not", async () => {
    const redis = new Redis(server.port, "127.0.0.1");
    try {
      for (const [i, p] of payloads.entries()) {
        await redis.set(`io:${i}`, asBuffer(p));
        expect(new Uint8Array((await redis.getBuffer(`io:${i}`)) as Buffer)).toEqual(p);
      }
      // What the docs warn about: ioredis writes a Uint8Array that is not a Buffer as its text.
      await redis.set("io:bare", Uint8Array.of(72, 89) as never);
      expect(await redis.get("io:bare")).toBe("72,89");
    } finally {
      await redis.quit();
    }
  });

  it("node-redis: set(Buffer) / get with the Buffer type mapping give back the same bytes", async () => {
    const client = createClient({ url: `redis://127.0.0.1:${server.port}` });
    await client.connect();
    try {
      const bytes = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
      for (const [i, p] of payloads.entries()) {
        await client.set(`nr:${i}`, asBuffer(p));
        expect(new Uint8Array((await bytes.get(`nr:${i}`)) as Buffer)).toEqual(p);
      }
    } finally {
      await client.quit();
    }
  });

  it("a TDigest's DUMP payload passes Redis's version and checksum through either client", async () => {
    // This Redis has no RedisBloom module, so RESTORE stops at the module type: "Bad data format".
    // A payload the client garbled would fail earlier, on its version or checksum.
    const payload = TDigest.from([1, 2, 3, 4.5]).toRedis();
    const garbled = payload.slice();
    garbled[3]! ^= 1;
    const redis = new Redis(server.port, "127.0.0.1");
    const client = createClient({ url: `redis://127.0.0.1:${server.port}` });
    await client.connect();
    try {
      await expect(redis.restore("td:io", 0, asBuffer(payload))).rejects.toThrow(/Bad data format/);
      await expect(client.restore("td:nr", 0, asBuffer(payload))).rejects.toThrow(/Bad data format/);
      await expect(redis.restore("td:bad", 0, asBuffer(garbled))).rejects.toThrow(/checksum/);
      // A bare Uint8Array reaches Redis as text, which no RESTORE accepts.
      await expect(redis.restore("td:bare", 0, payload as never)).rejects.toThrow(/checksum/);
    } finally {
      await redis.quit();
      await client.quit();
    }
  });

  it("a HyperLogLog set through either client is PFCOUNTed by Redis and read back equal", async () => {
    const hll = HyperLogLog.from(Array.from({ length: 5000 }, (_, i) => `u${i}`));
    const redis = new Redis(server.port, "127.0.0.1");
    const client = createClient({ url: `redis://127.0.0.1:${server.port}` });
    await client.connect();
    try {
      await redis.set("hll:io", asBuffer(hll.toRedis()));
      await client.set("hll:nr", asBuffer(hll.toRedis()));
      expect(await redis.pfcount("hll:io")).toBe(hll.count());
      expect(await client.pfCount("hll:nr")).toBe(hll.count());
      const back = HyperLogLog.fromRedis((await redis.getBuffer("hll:nr")) as Buffer);
      expect(back.equals(hll)).toBe(true);
      // A GET of a missing key answers null: fromRedis says so instead of a format error.
      const missing = await redis.getBuffer("missing");
      expect(missing).toBe(null);
      expect(() => HyperLogLog.fromRedis(missing as never)).toThrow(TypeError);
    } finally {
      await redis.quit();
      await client.quit();
    }
  });
});
