/**
 * CountMinSketch replays RedisBloom 2.4.23 (test/vectors/redisbloom/cms.json): every recorded
 * CMS.* reply, argument errors included, and the 520-row INITBYPROB table of dimensions.
 */
import { describe, expect, it } from "vitest";
import { CMS_SATURATED, CountMinSketch, cmsDimensions } from "../../src/cms/index.js";
import { exactSize } from "../support/cms.js";
import { itemOf, textOf } from "../support/redisbloom.js";
import vectors from "../vectors/redisbloom/cms.json" with { type: "json" };

type Step = { cmd: string; args: unknown[]; reply: unknown; note?: string };

/** A numeric argument as the API takes it: a number, a bigint beyond 2^53, or NaN for non-integers. */
function num(e: unknown): number | bigint {
  const t = textOf(e);
  if (/^-?\d+$/.test(t)) {
    const b = BigInt(t);
    return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
  }
  return t === "" ? Number.NaN : Number(t);
}

const asNumber = (x: number | bigint) => (typeof x === "bigint" ? Number.NaN : x);

// Replies that come from Redis's keyspace or command arity, which a library object has no analogue for.
const keyspaceOrArity =
  /key does not exist|key already exists|WRONGTYPE|wrong number of arguments|wrong number of keys$|invalid numkeys/;

/**
 * Runs one recorded command against the sketches in `keys` and returns the reply in the vectors'
 * encoding; throws what the library throws.
 */
function run(keys: Map<string, CountMinSketch>, step: Step): unknown {
  const [keyArg, ...rest] = step.args;
  const key = textOf(keyArg);
  const sketch = () => {
    const s = keys.get(key);
    if (!s) throw new Error(`no sketch ${key}`);
    return s;
  };
  switch (step.cmd) {
    case "CMS.INITBYDIM":
      keys.set(key, new CountMinSketch({ width: asNumber(num(rest[0])), depth: asNumber(num(rest[1])) }));
      return { simple: "OK" };
    case "CMS.INITBYPROB":
      keys.set(key, new CountMinSketch({ error: Number(textOf(rest[0])), probability: Number(textOf(rest[1])) }));
      return { simple: "OK" };
    case "CMS.INFO": {
      const s = sketch();
      const info = s.info();
      const total = exactSize(s);
      expect(info.size).toBe(Number(total));
      expect(s.size).toBe(Number(total));
      const count = Number.isSafeInteger(Number(total)) ? Number(total) : { int: String(total) };
      return [{ simple: "width" }, info.width, { simple: "depth" }, info.depth, { simple: "count" }, count];
    }
    case "CMS.INCRBY": {
      const s = sketch();
      const pairs: [string | Uint8Array, number | bigint][] = [];
      for (let i = 0; i < rest.length; i += 2) pairs.push([itemOf(rest[i]), num(rest[i + 1])]);
      // RedisBloom parses every pair before applying any: check them all on a scratch sketch first.
      const probe = new CountMinSketch({ width: 1, depth: 1 });
      for (const [, n] of pairs) probe.incrBy("", n);
      return pairs.map(([item, n]) => {
        const v = s.incrBy(item, n);
        return v === CMS_SATURATED ? { error: "CMS: INCRBY overflow" } : v;
      });
    }
    case "CMS.QUERY": {
      const s = sketch();
      return rest.map((e) => s.count(itemOf(e)));
    }
    case "CMS.MERGE": {
      const numKeys = Number(textOf(rest[0]));
      const names = rest.slice(1, 1 + numKeys).map(textOf);
      const tail = rest.slice(1 + numKeys);
      let weights: number[] | undefined;
      if (tail.length > 0 && textOf(tail[0]).toUpperCase() === "WEIGHTS") {
        weights = tail.slice(1).map((e) => asNumber(num(e)));
      }
      const dest = sketch();
      const sources = names.map((n) => keys.get(n)!);
      // CMS.MERGE replaces dest with Σ weight·source: a union. dest joins with weight 0, which checks
      // its dimensions against the sources' (as RedisBloom does) and adds nothing.
      const merged =
        sources.length === 0
          ? CountMinSketch.union(sources) // no source: refused, as "Number of keys must be positive"
          : CountMinSketch.union([dest, ...sources], { weights: [0, ...(weights ?? sources.map(() => 1))] });
      if (names[0] === key && weights === undefined) {
        // CMS.MERGE d n d s… is merge(s…): the others added into d in place.
        expect(dest.clone().merge(sources.slice(1)).toBytes()).toEqual(merged.toBytes());
      }
      keys.set(key, merged);
      return { simple: "OK" };
    }
    default:
      throw new Error(`unexpected command ${step.cmd}`);
  }
}

/** Replays steps, checking every reply; returns how many were compared. */
function replay(steps: Step[], keys = new Map<string, CountMinSketch>()): number {
  let compared = 0;
  for (const step of steps) {
    const reply = step.reply as { error?: string } | null;
    if (reply !== null && typeof reply === "object" && "error" in reply && typeof reply.error === "string") {
      if (keyspaceOrArity.test(reply.error)) continue;
      expect(() => run(keys, step), `${step.cmd} ${JSON.stringify(step.args).slice(0, 120)}`).toThrow(
        /redstruct\/CountMinSketch/,
      );
    } else {
      expect(run(keys, step), `${step.cmd} ${JSON.stringify(step.args).slice(0, 120)}`).toEqual(step.reply);
    }
    for (const s of keys.values()) s.checkInvariants();
    compared++;
  }
  return compared;
}

describe("CountMinSketch replays RedisBloom 2.4.23 (cms.json)", () => {
  for (const c of vectors.cases) {
    it(`case ${c.name}`, () => {
      const steps = c.steps as Step[];
      expect(replay(steps)).toBeGreaterThan(steps.length * 0.8);
    });
  }

  it("argument errors", () => {
    const keys = new Map<string, CountMinSketch>();
    expect(replay(vectors.errors as Step[], keys)).toBeGreaterThanOrEqual(12);
  });

  it("the 520-row INITBYPROB table", () => {
    expect(vectors.initbyprob_table.length).toBe(520);
    for (const row of vectors.initbyprob_table) {
      const dims = cmsDimensions(Number(row.error), Number(row.prob));
      expect(dims, `${row.error} ${row.prob}`).toEqual({ width: row.width, depth: row.depth });
    }
  });
});
