/**
 * TopK replays RedisBloom 2.4.23 (test/vectors/redisbloom/topk.json) with glibc rand() seeded 1:
 * every recorded TOPK.* reply, LIST, NUL bytes, increment 0 and argument errors; the recorded stream
 * regenerates from its description.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../src/internal/random.js";
import { glibcRandom, TopK } from "../../src/topk/index.js";
import { fromHex, itemOf, textOf } from "../support/redisbloom.js";
import vectors from "../vectors/redisbloom/topk.json" with { type: "json" };

type Step = { cmd: string; args: unknown[]; reply: unknown; note?: string };

/** The reply element for an item name: RESP simple strings are decoded as UTF-8, like a client would. */
function expectedName(e: unknown): string | null {
  if (e === null) return null;
  const o = e as { simple?: string; simple_hex?: string };
  if (typeof o.simple === "string") return o.simple;
  if (typeof o.simple_hex === "string") return new TextDecoder().decode(fromHex(o.simple_hex));
  throw new Error(`not a name reply: ${JSON.stringify(e)}`);
}

const keyspaceOrArity = /key does not exist|key already exists|WRONGTYPE|wrong number of arguments|keyword expected/;

/** Runs one recorded TOPK command and returns the reply decoded to plain values. */
function run(keys: Map<string, TopK>, step: Step): unknown {
  const [keyArg, ...rest] = step.args;
  const key = textOf(keyArg);
  const t = () => keys.get(key)!;
  const numArg = (e: unknown) => {
    const s = textOf(e);
    return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN;
  };
  switch (step.cmd) {
    case "TOPK.RESERVE": {
      const [k, width, depth, decay] = rest.map(numArg);
      const options =
        rest.length > 1 ? { k: k!, width, depth, decay, random: glibcRandom(1) } : { k: k!, random: glibcRandom(1) };
      keys.set(key, new TopK(options));
      return "OK";
    }
    case "TOPK.ADD":
      return rest.map((e) => t().add(itemOf(e)));
    case "TOPK.INCRBY": {
      const out: unknown[] = [];
      for (let i = 0; i < rest.length; i += 2) {
        try {
          out.push(t().incrBy(itemOf(rest[i]), numArg(rest[i + 1])));
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError);
          out.push("error");
        }
      }
      return out;
    }
    case "TOPK.QUERY":
      return rest.map((e) => (t().has(itemOf(e)) ? 1 : 0));
    case "TOPK.COUNT":
      return rest.map((e) => t().count(itemOf(e)));
    case "TOPK.LIST":
      return rest.length === 0 ? t().list() : t().list({ withCount: true }).flat();
    case "TOPK.INFO": {
      const i = t().info();
      return [i.k, i.width, i.depth, i.decay];
    }
    default:
      throw new Error(`unexpected ${step.cmd}`);
  }
}

/** The recorded reply in the same plain form as {@link run}'s. */
function expected(step: Step): unknown {
  const r = step.reply as unknown;
  switch (step.cmd) {
    case "TOPK.RESERVE":
      return "OK";
    case "TOPK.ADD":
      return (r as unknown[]).map(expectedName);
    case "TOPK.INCRBY":
      return (r as unknown[]).map((e) =>
        e !== null && typeof e === "object" && "error" in (e as object) ? "error" : expectedName(e),
      );
    case "TOPK.LIST":
      return (r as unknown[]).map((e) => (typeof e === "number" ? e : expectedName(e)));
    case "TOPK.INFO": {
      const a = r as unknown[];
      return [a[1], a[3], a[5], Number(textOf(a[7]))];
    }
    default:
      return r;
  }
}

function replay(steps: Step[], keys: Map<string, TopK>): number {
  let compared = 0;
  for (const step of steps) {
    const label = `${step.cmd} ${JSON.stringify(step.args).slice(0, 100)}`;
    const reply = step.reply as { error?: string } | null;
    if (reply !== null && typeof reply === "object" && "error" in reply && typeof reply.error === "string") {
      if (keyspaceOrArity.test(reply.error)) continue;
      expect(() => run(keys, step), label).toThrow(/redstruct\/TopK/);
    } else {
      expect(run(keys, step), label).toEqual(expected(step));
    }
    compared++;
  }
  for (const t of keys.values()) t.checkInvariants();
  return compared;
}

/** The topk.json stream: Zipf s = 1.07 over 1000 ranks, the named ranks as the vectors' README says. */
function zipfStream(next: () => number, length: number): string[] {
  const weights = Array.from({ length: 1000 }, (_, r) => (r + 1) ** -1.07);
  const total = weights.reduce((a, b) => a + b, 0);
  const cdf: number[] = [];
  let acc = 0;
  for (const w of weights) cdf.push((acc += w) / total);
  const names: Record<number, string> = { 3: "热门", 7: "🔥hot", 20: "naïve", 50: "x y" };
  const out: string[] = [];
  for (let i = 0; i < length; i++) {
    const u = next() / 2 ** 32;
    let r = cdf.findIndex((c) => c > u) + 1;
    if (r === 0) r = 1000;
    out.push(names[r] ?? `t${r}`);
  }
  return out;
}

describe("TopK replays RedisBloom 2.4.23 (topk.json) with glibc rand() seeded 1", () => {
  const stream = vectors.stream.map(itemOf);
  for (const c of vectors.cases) {
    it(`case ${c.name}`, () => {
      const keys = new Map<string, TopK>();
      replay(c.setup as Step[], keys);
      const t = keys.get(c.key)!;
      const replies = c.stream_add.replies_per_item.map(expectedName);
      expect(replies.length).toBe(stream.length);
      for (let i = 0; i < stream.length; i++) {
        const got = t.add(stream[i]!);
        if (got !== replies[i]) expect(got, `stream item ${i} (${String(stream[i])})`).toBe(replies[i]);
      }
      t.checkInvariants();
      expect(replay(c.after_stream as Step[], keys)).toBe(c.after_stream.length);
      expect(replay(c.incrby_phase as Step[], keys)).toBe(c.incrby_phase.length);
    });
  }

  it("misc: LIST, NUL bytes, increment 0, argument errors", () => {
    const keys = new Map<string, TopK>();
    expect(replay(vectors.misc as Step[], keys)).toBeGreaterThan(25);
  });

  it("the stream regenerates from its description", () => {
    // The vectors' README: mulberry32 seeded 0x20240601 drives the Zipf draws.
    const next = mulberry32(0x20240601);
    expect(zipfStream(next, 20000)).toEqual(vectors.stream.map((e) => textOf(e) && itemOf(e)));
  });
});
