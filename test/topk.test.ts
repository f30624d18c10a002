import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../src/internal/random.js";
import { glibcRandom, RedstructFormatError, TopK } from "../src/topk/index.js";
import { expectOnlyFormatErrors } from "./support/fuzz.js";
import { fromHex, itemOf, textOf } from "./support/redisbloom.js";
import vectors from "./vectors/redisbloom/topk.json" with { type: "json" };

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
      return rest.map((e) => (t().query(itemOf(e)) ? 1 : 0));
    case "TOPK.COUNT":
      return rest.map((e) => t().count(itemOf(e)));
    case "TOPK.LIST":
      return rest.length === 0 ? t().list() : t().listWithCount().flat();
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

describe("glibcRandom", () => {
  it("equals glibc rand() after srand(1)", () => {
    const g = glibcRandom();
    expect(Array.from({ length: 32 }, g)).toEqual(vectors.glibc_rand_after_srand_1_first_32);
    const h = glibcRandom(0); // glibc treats seed 0 as 1
    expect(h()).toBe(1804289383);
    expect(() => glibcRandom(-1)).toThrow(RangeError);
    expect(() => glibcRandom(1.5)).toThrow(RangeError);
  });

  it("draws in [0, 2^31 − 1] for other seeds", () => {
    for (const seed of [2, 12345, 0x7fffffff, 0x80000000, 0xffffffff]) {
      const g = glibcRandom(seed);
      for (let i = 0; i < 1000; i++) {
        const v = g();
        expect(Number.isInteger(v) && v >= 0 && v <= 0x7fffffff).toBe(true);
      }
    }
  });
});

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

describe("TopK behaviour", () => {
  it("validates its arguments", () => {
    expect(() => new TopK(undefined as unknown as { k: number })).toThrow(TypeError);
    expect(() => new TopK(null as unknown as { k: number })).toThrow(TypeError);
    expect(() => new TopK({} as { k: number })).toThrow(/k must be/);
    expect(() => new TopK({ k: 0 })).toThrow(/k must be/);
    expect(() => new TopK({ k: 2, width: 0 })).toThrow(/width must be/);
    expect(() => new TopK({ k: 2, depth: 1.5 })).toThrow(/depth must be/);
    expect(() => new TopK({ k: 2, decay: 0 })).toThrow(/decay must be/);
    expect(() => new TopK({ k: 2, decay: 1.0000001 })).toThrow(/decay must be/);
    expect(() => new TopK({ k: 2, decay: Number.NaN })).toThrow(/decay must be/);
    expect(() => new TopK({ k: 2, width: 2 ** 14, depth: 2 ** 13 })).toThrow(/width·depth/);
    expect(() => new TopK({ k: 2, random: 5 as unknown as () => number })).toThrow(/random must be/);
    expect(() => new TopK({ k: 2, Width: 4 } as unknown as { k: number })).toThrow(/unknown option "Width"/);
    expect(() => new TopK({ k: 2, width: null } as unknown as { k: number })).toThrow(TypeError);
    const t = new TopK({ k: 2 });
    expect(() => t.incrBy("a", 100_001)).toThrow(/n must be/);
    expect(() => t.incrBy("a", -1)).toThrow(RangeError);
    expect(() => t.add({} as unknown as string)).toThrow(TypeError);
    expect(() => t.addAll("abc" as unknown as string[])).toThrow(TypeError);
    expect(() => TopK.fromBytes(t.toBytes(), { seed: 1 } as unknown as { random: () => number })).toThrow(TypeError);
  });

  it("finds a long non-ASCII item whose query is the first to grow the shared UTF-8 scratch buffer", () => {
    const long = `${"é".repeat(120_000)}!`;
    const t = new TopK({ k: 2, random: glibcRandom(1) });
    t.add(new TextEncoder().encode(long)); // bytes: no scratch use
    expect(t.query(long)).toBe(true);
    expect(t.count(long)).toBe(1);
    expect(t.list()).toEqual([long]);
  });

  it("an item is one item whether given as a string or as its UTF-8 bytes", () => {
    for (const word of ["é", "热门", "🔥hot", "naïve", "ascii"]) {
      const t = new TopK({ k: 3, random: glibcRandom(1) });
      t.add(new TextEncoder().encode(word));
      t.add(word);
      t.add(word);
      t.checkInvariants();
      expect(t.listWithCount()).toEqual([[word, 3]]);
      expect(t.query(new TextEncoder().encode(word))).toBe(true);
    }
  });

  it("behaves the same fed strings or their UTF-8 bytes (seeded)", () => {
    const word = fc.oneof(
      fc.constantFrom("a", "é", "热门", "🔥", "\uD800", "\uDC00", "x\u0000y"),
      fc.string({ unit: "binary", maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 200 }), (words) => {
        const asText = new TopK({ k: 4, width: 6, depth: 3, random: glibcRandom(5) });
        const asBytes = new TopK({ k: 4, width: 6, depth: 3, random: glibcRandom(5) });
        const encoder = new TextEncoder();
        expect(asText.addAll(words)).toEqual(asBytes.addAll(words.map((w) => encoder.encode(w))));
        asText.checkInvariants();
        expect(asText.toBytes()).toEqual(asBytes.toBytes());
        for (const w of words.slice(0, 10)) {
          expect(asText.query(w)).toBe(asBytes.query(encoder.encode(w)));
          expect(asText.count(w)).toBe(asBytes.count(encoder.encode(w)));
        }
      }),
      { seed: 0x70e, numRuns: 200 },
    );
  });

  it("addAll equals adds one by one", () => {
    const a = new TopK({ k: 3, width: 4, depth: 2, random: glibcRandom(7) });
    const b = new TopK({ k: 3, width: 4, depth: 2, random: glibcRandom(7) });
    const items = Array.from({ length: 300 }, (_, i) => `x${(i * 7919) % 23}`);
    expect(a.addAll(items)).toEqual(items.map((x) => b.add(x)));
    expect(a.toBytes()).toEqual(b.toBytes());
  });

  it("lists exactly the true top k on a well-separated stream (seeded)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (k, seed) => {
        // k heavy items with counts 400, 350, … well above 40 light items of count ≤ 5, shuffled.
        const heavy = Array.from({ length: k }, (_, i) => [`heavy${i}`, 400 - 40 * i] as const);
        const light = Array.from({ length: 40 }, (_, i) => [`light${i}`, 1 + (i % 5)] as const);
        const items: string[] = [];
        for (const [name, n] of [...heavy, ...light]) for (let j = 0; j < n; j++) items.push(name);
        const rand = glibcRandom(seed);
        for (let i = items.length - 1; i > 0; i--) {
          const j = rand() % (i + 1);
          [items[i], items[j]] = [items[j]!, items[i]!];
        }
        const t = new TopK({ k, width: 64, depth: 4, random: glibcRandom((seed ^ 0x5555) >>> 0) });
        t.addAll(items);
        t.checkInvariants();
        expect(t.list()).toEqual(heavy.map(([name]) => name));
        for (const [name] of heavy) expect(t.query(name)).toBe(true);
      }),
      { seed: 0x70b, numRuns: 40 },
    );
  });

  it("round-trips through toBytes / fromBytes, replaying the same draws afterwards (seeded)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.uint8Array({ maxLength: 4 })), { maxLength: 300 }),
        fc.integer({ min: 1, max: 6 }),
        (items, k) => {
          const t = new TopK({ k, width: 6, depth: 3, decay: 0.8, random: glibcRandom(3) });
          t.addAll(items);
          const back = TopK.fromBytes(t.toBytes(), { random: glibcRandom(3) });
          back.checkInvariants();
          expect(back.toBytes()).toEqual(t.toBytes());
          expect(back.listWithCount()).toEqual(t.listWithCount());
          expect(back.info()).toEqual(t.info());
          for (const x of items.slice(0, 20)) {
            expect(back.count(x)).toBe(t.count(x));
            expect(back.query(x)).toBe(t.query(x));
          }
          // Same draws from here on: the same future.
          const more = items.slice(0, 30);
          const t2 = TopK.fromBytes(t.toBytes(), { random: glibcRandom(9) });
          const b2 = TopK.fromBytes(t.toBytes(), { random: glibcRandom(9) });
          expect(b2.addAll(more)).toEqual(t2.addAll(more));
          t.clear();
          expect(t.list()).toEqual([]);
          expect(t.toBytes()).toEqual(new TopK({ k, width: 6, depth: 3, decay: 0.8 }).toBytes());
        },
      ),
      { seed: 0x70c, numRuns: 150 },
    );
  });

  it("fromBytes only throws RedstructFormatError on hostile input (10^4 seeded inputs)", () => {
    const t = new TopK({ k: 4, width: 5, depth: 3, random: glibcRandom(1) });
    t.addAll(["a", "b", "a", "c", "d", "e", "a", "b", "f", new Uint8Array([0, 1, 2])]);
    expectOnlyFormatErrors((b) => TopK.fromBytes(b, { random: glibcRandom(1) }), t.toBytes(), {
      seed: 0x70d,
      randomRuns: 8000,
      use: (x) => {
        x.add("a");
        x.list();
        x.checkInvariants();
      },
    });
  });

  it("refuses a huge header before allocating", () => {
    const bytes = new TopK({ k: 1, width: 1, depth: 1 }).toBytes();
    const view = new DataView(bytes.buffer);
    view.setUint32(5, 2 ** 20, true); // k
    expect(() => TopK.fromBytes(bytes)).toThrow(/need more than/);
    view.setUint32(5, 1, true);
    view.setUint32(9, 2 ** 13, true);
    view.setUint32(13, 2 ** 13, true);
    expect(() => TopK.fromBytes(bytes)).toThrow(RedstructFormatError);
  });
});
