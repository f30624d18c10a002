/**
 * Element sets and PFADD for the tests that compare the HyperLogLog family with a real redis-server:
 * deterministic for a seed, commands pipelined in chunks so the browser project, which proxies Redis
 * over a websocket, stays fast.
 */
import { mulberry32 } from "../../src/internal/random.js";
import { type Arg, ok, type Redis } from "./redis.js";

type El = string | number | bigint | Uint8Array;
const CHUNK = 5000;

/** Element generators, deterministic for a seed. */
export function makeElements(kind: string, n: number, seed: number): El[] {
  const rand = mulberry32(seed);
  const out: El[] = [];
  const push = (e: El) => out.push(e);
  while (out.length < n) {
    const k = kind === "mixed" ? ["ascii", "utf8", "number", "binary"][rand() % 4]! : kind;
    if (k === "ascii") {
      const len = rand() % 24;
      let s = "";
      for (let i = 0; i < len; i++) s += String.fromCharCode(32 + (rand() % 95));
      push(s);
    } else if (k === "utf8") {
      const len = 1 + (rand() % 8);
      let s = "";
      for (let i = 0; i < len; i++) {
        const pick = rand() % 4;
        // ASCII, Latin/Greek/Cyrillic, CJK, astral (emoji) — never lone surrogates.
        const cp =
          pick === 0
            ? 32 + (rand() % 95)
            : pick === 1
              ? 0xa0 + (rand() % 0x500)
              : pick === 2
                ? 0x4e00 + (rand() % 0x5000)
                : 0x1f300 + (rand() % 0x300);
        s += String.fromCodePoint(cp);
      }
      push(s);
    } else if (k === "number") {
      const pick = rand() % 3;
      push(pick === 0 ? rand() - 0x80000000 : pick === 1 ? (rand() % 100000) / 8 : BigInt(rand()) * 0x100000000n);
    } else {
      const len = rand() % 16;
      const b = new Uint8Array(len);
      for (let i = 0; i < len; i++) b[i] = rand() & 0xff;
      push(b);
    }
  }
  return out;
}

export const toArg = (e: El): Arg => (typeof e === "number" || typeof e === "bigint" ? String(e) : e);

export async function pfaddAll(redis: Redis, key: string, elements: El[]): Promise<void> {
  const cmds: Arg[][] = [];
  for (let i = 0; i < elements.length; i += CHUNK) {
    cmds.push(["PFADD", key, ...elements.slice(i, i + CHUNK).map(toArg)]);
  }
  for (let i = 0; i < cmds.length; i += 8) {
    for (const r of await redis.pipeline(cmds.slice(i, i + 8))) ok(r);
  }
  if (elements.length === 0) ok(await redis.call("PFADD", key)); // creates the empty key
}
