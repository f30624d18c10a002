/**
 * Bitmap against a real redis-server 7.0, reply for reply: seeded random sequences of SETBIT, GETBIT,
 * BITCOUNT, BITPOS, BITOP, BITFIELD, BITFIELD_RO, STRLEN and GET over three keys, on dense bitmaps
 * (offsets below 256) and sparse ones (up to 2^22), with malformed arguments mixed in — every Redis
 * error must be a RangeError / TypeError here, and every reply equal. Then BITFIELD exhaustively: every
 * type i1…i64 and u1…u63 at unaligned offsets, SET and INCRBY of values at and beyond each bound, in
 * each OVERFLOW mode, compared with Redis and with the stored string after each step.
 *
 * The one documented difference: Redis answers BITCOUNT / BITPOS of a missing key before reading the
 * range arguments, so a malformed range on a missing key is a reply there and an error here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BitfieldOp, Bitmap } from "../../src/bitmap/index.js";
import { mulberry32 } from "../../src/internal/random.js";
import { type Arg, ok, type Redis, RedisReplyError, type Reply, startRedis } from "../support/redis.js";

/** The keys the sequences use (and whose strings are compared). */
let KEYS = ["a", "b", "c"];

/** What running a command here gave: a reply in Redis's shape, or the error thrown. */
type Ours = number | null | Uint8Array | (number | bigint | null)[] | Error;

interface Command {
  args: Arg[];
  /** Runs the command on the local bitmaps. */
  run(env: Map<string, Bitmap>): Ours;
  /** BITCOUNT / BITPOS with a malformed range: a missing key answers in Redis, throws here. */
  malformedRange?: { key: string };
}

const get = (env: Map<string, Bitmap>, k: string) => env.get(k) ?? new Bitmap();

/** The exact decimal of an integral number or bigint (String(2 ** 62 + …) would round); other numbers as they print. */
const dec = (x: number | bigint) => (typeof x === "bigint" || Number.isInteger(x) ? BigInt(x).toString() : String(x));

function attempt(f: () => Ours): Ours {
  try {
    return f();
  } catch (e) {
    return e as Error;
  }
}

/** Random generators over one seed; `sparse` picks the offset range. */
function generator(seed: number, sparse: boolean) {
  const next = mulberry32(seed);
  const int = (n: number) => next() % n;
  const chance = (p: number) => next() / 2 ** 32 < p;
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;

  const offset = (): number => {
    if (chance(0.03)) return pick([-1, 2 ** 32, 2 ** 32 + 9, 1.5, -(2 ** 40)]);
    if (!sparse) return int(256);
    return chance(0.5) ? int(1 << 16) : int(1 << 22);
  };
  const index = (): number => {
    if (chance(0.03)) return pick([2 ** 63, -(2 ** 64), 0.5]);
    const span = sparse ? (chance(0.5) ? 1 << 16 : 1 << 20) : 48;
    return int(2 * span) - span;
  };
  const unit = (): "byte" | "bit" | undefined => pick([undefined, "byte", "bit"] as const);

  const types: string[] = [];
  for (let b = 1; b <= 64; b++) types.push(`i${b}`);
  for (let b = 1; b <= 63; b++) types.push(`u${b}`);
  const badTypes = ["i65", "u64", "i0", "u0", "I8", "x8", "i08", "u-3", "i"];
  const type = (): string => (chance(0.04) ? pick(badTypes) : pick(types));

  const value = (t: string): number | bigint => {
    const n = Number(t.slice(1));
    const bits = Number.isInteger(n) && n >= 1 && n <= 64 ? n : 8;
    const signed = t.startsWith("i");
    const max = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n;
    const min = signed ? -(2n ** BigInt(bits - 1)) : 0n;
    const r = int(10);
    let v: bigint;
    if (r === 0) v = BigInt(int(600)) - 300n;
    else if (r === 1) v = max + BigInt(int(5)) - 2n;
    else if (r === 2) v = min + BigInt(int(5)) - 2n;
    else if (r === 3)
      v = pick([-(2n ** 63n), 2n ** 63n - 1n, -(2n ** 62n), 2n ** 62n, -(2n ** 63n) + max, -(2n ** 63n) + max + 1n]);
    else if (r === 4) v = (BigInt(next()) << 32n) | BigInt(next());
    else if (r === 5) v = -BigInt(int(2 ** 31)) * BigInt(int(2 ** 31));
    else v = min + (((BigInt(next()) << 32n) | BigInt(next())) % (max - min + 1n));
    v = BigInt.asIntN(64, v);
    if (chance(0.02)) return pick([1.5, 2 ** 63, -(2 ** 64)]); // not a 64-bit integer: an error on both sides
    // Numbers where exact (and some integral doubles beyond 2^53), bigints otherwise.
    if (v >= -(2n ** 53n) && v <= 2n ** 53n && chance(0.8)) return Number(v);
    if (chance(0.2) && Number(v) < 2 ** 63) return Number(v); // an integral double: Redis gets its exact decimal
    return v;
  };
  const at = (bits: number): number | string => {
    if (chance(0.03)) return pick(["#-1", "#", "#01", "#-0", "#+2", "#99999999999999999999"]);
    if (chance(0.3)) {
      const limit = sparse ? 1 << 22 : 256;
      return `#${int(Math.max(1, Math.floor(limit / Math.max(1, bits))))}`;
    }
    return offset();
  };
  const overflow = () => (chance(0.03) ? "FOO" : pick(["WRAP", "SAT", "FAIL"]));

  return { int, chance, pick, offset, index, unit, type, value, at, overflow };
}

type Gen = ReturnType<typeof generator>;

/** BITFIELD / BITFIELD_RO: Redis args and the matching ops. */
function bitfieldCommand(g: Gen, key: string, readOnly: boolean): Command {
  const args: Arg[] = [readOnly ? "BITFIELD_RO" : "BITFIELD", key];
  const ops: unknown[] = [];
  const n = 1 + g.int(4);
  for (let j = 0; j < n; j++) {
    const r = g.int(readOnly ? 8 : 10);
    if (r === 0) {
      const mode = g.overflow();
      args.push("OVERFLOW", mode);
      ops.push({ overflow: mode.toLowerCase() });
      continue;
    }
    const t = g.type();
    const bits = Number(t.slice(1)) || 1;
    const a = g.at(bits);
    const aArg = typeof a === "number" ? dec(a) : a;
    const sub = readOnly ? (r === 1 ? "set" : "get") : r < 4 ? "get" : r < 7 ? "set" : "incrBy";
    if (sub === "get") {
      args.push("GET", t, aArg);
      ops.push({ get: t, at: a });
    } else {
      const v = g.value(t);
      args.push(sub === "set" ? "SET" : "INCRBY", t, aArg, dec(v));
      ops.push(sub === "set" ? { set: t, at: a, value: v } : { incrBy: t, at: a, by: v });
    }
  }
  return {
    args,
    run: (env) => {
      const bm = get(env, key);
      const replies = bm.bitfield(ops as BitfieldOp[], readOnly ? { readOnly: true } : undefined);
      if (bm.byteLength > 0) env.set(key, bm);
      return replies;
    },
  };
}

/** One random command. */
function command(g: Gen): Command {
  const key = g.pick(KEYS);
  const r = g.int(100);
  if (r < 22) {
    const o = g.offset();
    const bit = g.chance(0.04) ? g.pick([2, -1]) : g.int(2);
    return {
      args: ["SETBIT", key, dec(o), dec(bit)],
      run: (env) => {
        const bm = get(env, key);
        const was = bm.setBit(o, bit as 0 | 1);
        env.set(key, bm);
        return was;
      },
    };
  }
  if (r < 32) {
    const o = g.chance(0.05) ? 2 ** 32 - 1 : g.offset();
    return { args: ["GETBIT", key, dec(o)], run: (env) => get(env, key).getBit(o) };
  }
  if (r < 47) {
    const form = g.int(6);
    const s = g.index();
    const e = g.index();
    const u = g.unit();
    if (form === 0) return { args: ["BITCOUNT", key], run: (env) => get(env, key).count() };
    if (form === 1) {
      // Malformed: a start alone.
      return { args: ["BITCOUNT", key, dec(s)], run: (env) => get(env, key).count(s), malformedRange: { key } };
    }
    const args: Arg[] = ["BITCOUNT", key, dec(s), dec(e)];
    if (u) args.push(u.toUpperCase());
    const malformed = !Number.isInteger(s) || !Number.isInteger(e) || Math.abs(s) >= 2 ** 63 || Math.abs(e) >= 2 ** 63;
    return {
      args,
      run: (env) => get(env, key).count(s, e, u ? { unit: u } : undefined),
      ...(malformed ? { malformedRange: { key } } : {}),
    };
  }
  if (r < 62) {
    const bit = g.chance(0.04) ? 2 : g.int(2);
    const form = g.int(4);
    const s = g.index();
    const e = g.index();
    const u = g.unit();
    const args: Arg[] = ["BITPOS", key, dec(bit)];
    let run: (bm: Bitmap) => number;
    if (form === 0) run = (bm) => bm.position(bit as 0 | 1);
    else if (form === 1) {
      args.push(dec(s));
      run = (bm) => bm.position(bit as 0 | 1, s);
    } else {
      args.push(dec(s), dec(e));
      if (u) args.push(u.toUpperCase());
      run = (bm) => bm.position(bit as 0 | 1, s, e, u ? { unit: u } : undefined);
    }
    const malformed =
      form > 0 &&
      (!Number.isInteger(s) ||
        Math.abs(s) >= 2 ** 63 ||
        (form > 1 && (!Number.isInteger(e) || Math.abs(e) >= 2 ** 63)));
    return { args, run: (env) => run(get(env, key)), ...(malformed && bit < 2 ? { malformedRange: { key } } : {}) };
  }
  if (r < 72) {
    const op = g.pick(["and", "or", "xor", "not"] as const);
    const n = op === "not" ? (g.chance(0.1) ? 2 : 1) : 1 + g.int(3);
    const srcs = Array.from({ length: n }, () => g.pick(KEYS));
    return {
      args: ["BITOP", op.toUpperCase(), key, ...srcs],
      run: (env) => {
        const out = Bitmap.op(
          op,
          srcs.map((k) => get(env, k)),
        );
        if (out.byteLength > 0) env.set(key, out);
        else env.delete(key);
        return out.byteLength;
      },
    };
  }
  if (r < 90) return bitfieldCommand(g, key, false);
  if (r < 95) return bitfieldCommand(g, key, true);
  return { args: ["STRLEN", key], run: (env) => get(env, key).byteLength };
}

/** Compares one reply; returns a description of the mismatch, or undefined. */
function mismatch(c: Command, theirs: Reply, ours: Ours, env: Map<string, Bitmap>): string | undefined {
  const show = (x: unknown) =>
    x instanceof Error
      ? `${x.name}: ${x.message}`
      : JSON.stringify(x, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
  if (ours instanceof Error) {
    if (!(ours instanceof RangeError || ours instanceof TypeError) || !ours.message.startsWith("redstruct/Bitmap:")) {
      return `threw ${show(ours)}, not a RangeError/TypeError of redstruct/Bitmap`;
    }
    if (theirs instanceof RedisReplyError) return undefined;
    if (c.malformedRange && get(env, c.malformedRange.key).byteLength === 0) return undefined;
    return `Redis replied ${show(theirs)}, we threw ${show(ours)}`;
  }
  if (theirs instanceof RedisReplyError) return `Redis errored (${theirs.message}), we replied ${show(ours)}`;
  // Redis's integers arrive as doubles: compare 64-bit replies as the doubles nearest them (the
  // string compared after every BITFIELD is exact).
  const norm = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(norm) : typeof x === "bigint" ? Number(x) : x instanceof Uint8Array ? Array.from(x) : x;
  const a = JSON.stringify(norm(theirs));
  const b = JSON.stringify(norm(ours));
  return a === b ? undefined : `Redis replied ${a}, we replied ${b}`;
}

/** The first index where two byte strings differ (a length counts), or −1. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

describe("Bitmap vs redis-server", () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** Runs `commands` on both sides (Redis in pipelines), checking every reply and, every `every` commands, every key's string. */
  async function replay(commands: Command[], every: number): Promise<{ errors: number; checked: number }> {
    ok(await redis.call("FLUSHALL"));
    const env = new Map<string, Bitmap>();
    let errors = 0;
    let checked = 0;
    for (let from = 0; from < commands.length; from += every) {
      const chunk = commands.slice(from, from + every);
      const replies = await redis.pipeline([...chunk.map((c) => c.args), ...KEYS.map((k) => ["GET", k])]);
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk[i]!;
        // A malformed range is judged against the key as it was before the command (it changes nothing).
        const ours = attempt(() => c.run(env));
        const bad = mismatch(c, replies[i]!, ours, env);
        if (bad) throw new Error(`command ${from + i}: ${c.args.map(String).join(" ")}: ${bad}`);
        if (ours instanceof Error) errors++;
        checked++;
      }
      for (let k = 0; k < KEYS.length; k++) {
        const theirs = replies[chunk.length + k]!;
        const bm = get(env, KEYS[k]!);
        bm.checkInvariants();
        if (theirs === null) expect(bm.byteLength, `${KEYS[k]} is missing in Redis`).toBe(0);
        else {
          const at = firstDifference(bm.toRedis(), theirs as Uint8Array);
          if (at >= 0)
            throw new Error(`the string of ${KEYS[k]} after command ${from + chunk.length - 1} differs at byte ${at}`);
        }
      }
    }
    return { errors, checked };
  }

  for (const sparse of [false, true]) {
    for (const seed of [1, 2, 3]) {
      it(`random command sequences, ${sparse ? "sparse" : "dense"} (seed ${seed}): every reply and string equal`, async () => {
        const g = generator(seed * 7919 + (sparse ? 1 : 0), sparse);
        const commands = Array.from({ length: 600 }, () => command(g));
        const { errors, checked } = await replay(commands, sparse ? 50 : 25);
        expect(checked).toBe(600);
        expect(errors).toBeGreaterThan(10); // malformed commands were exercised
        expect(errors).toBeLessThan(300);
      });
    }
  }

  it("chosen cases: #n offsets that wrap, BITPOS past the end, ranges at the edges", async () => {
    const bitfield = (key: string, args: Arg[], ops: unknown[]): Command => ({
      args: ["BITFIELD", key, ...args],
      run: (env) => {
        const bm = get(env, key);
        const r = bm.bitfield(ops as BitfieldOp[]);
        if (bm.byteLength > 0) env.set(key, bm);
        return r;
      },
    });
    const call = (args: Arg[], f: (env: Map<string, Bitmap>) => Ours): Command => ({ args, run: f });
    const big = (x: bigint) => `#${x}` as `#${number}`;
    const commands: Command[] = [
      bitfield("a", ["SET", "u8", big(2n ** 61n + 1n), "255"], [{ set: "u8", at: big(2n ** 61n + 1n), value: 255 }]),
      bitfield("b", ["SET", "u4", big(-(2n ** 62n)), "15"], [{ set: "u4", at: big(-(2n ** 62n)), value: 15 }]),
      bitfield("c", ["SET", "i64", big(2n ** 58n + 1n), "-1"], [{ set: "i64", at: big(2n ** 58n + 1n), value: -1 }]),
      bitfield("a", ["GET", "u8", big(2n ** 61n - 1n)], [{ get: "u8", at: big(2n ** 61n - 1n) }]),
      bitfield(
        "a",
        ["GET", "u8", "#536870911", "GET", "u8", "#536870912"],
        [
          { get: "u8", at: "#536870911" },
          { get: "u8", at: "#536870912" },
        ],
      ),
      bitfield(
        "a",
        ["OVERFLOW", "SAT", "SET", "i8", "0", "-9223372036854775681"],
        [{ overflow: "sat" }, { set: "i8", at: 0, value: -(2n ** 63n) + 127n }],
      ),
      bitfield(
        "a",
        ["OVERFLOW", "SAT", "SET", "i8", "0", "-9223372036854775680"],
        [{ overflow: "sat" }, { set: "i8", at: 0, value: -(2n ** 63n) + 128n }],
      ),
      bitfield(
        "a",
        ["OVERFLOW", "SAT", "SET", "u8", "0", "-5"],
        [{ overflow: "sat" }, { set: "u8", at: 0, value: -5 }],
      ),
      call(["SETBIT", "d", "23", "1"], (env) => {
        const bm = get(env, "d");
        const r = bm.setBit(23, 1);
        env.set("d", bm);
        return r;
      }),
      call(["BITPOS", "d", "0", "0", "-1", "BIT"], (env) => get(env, "d").position(0, 0, -1, { unit: "bit" })),
      call(["BITPOS", "d", "1", "-1", "-1", "BIT"], (env) => get(env, "d").position(1, -1, -1, { unit: "bit" })),
      call(["BITPOS", "d", "0", "-1"], (env) => get(env, "d").position(0, -1)),
      call(["BITPOS", "d", "1", "3"], (env) => get(env, "d").position(1, 3)),
      call(["BITPOS", "d", "0", "9", "20", "BIT"], (env) => get(env, "d").position(0, 9, 20, { unit: "bit" })),
      call(["BITCOUNT", "d", "-100", "-50"], (env) => get(env, "d").count(-100, -50)),
      call(["BITCOUNT", "d", "-5", "-100"], (env) => get(env, "d").count(-5, -100)),
      call(["BITCOUNT", "d", "23", "23", "BIT"], (env) => get(env, "d").count(23, 23, { unit: "bit" })),
      call(["BITCOUNT", "d", "22", "1000", "BIT"], (env) => get(env, "d").count(22, 1000, { unit: "bit" })),
      call(["BITOP", "NOT", "e", "d"], (env) => {
        const out = Bitmap.op("not", [get(env, "d")]);
        env.set("e", out);
        return out.byteLength;
      }),
      call(["BITPOS", "e", "0"], (env) => get(env, "e").position(0)),
      call(["BITPOS", "e", "1", "2"], (env) => get(env, "e").position(1, 2)),
    ];
    const keys = KEYS;
    KEYS = ["a", "b", "c", "d", "e"];
    try {
      const { errors } = await replay(commands, commands.length);
      expect(errors).toBe(2); // #(2^61 − 1)·8 wraps to −8, and #536870912·8 is 2^32: errors on both sides
    } finally {
      KEYS = keys;
    }
  });

  it("BITFIELD: every type, SET and INCRBY at and beyond its bounds, in every OVERFLOW mode", async () => {
    const commands: Command[] = [];
    const key = "a";
    const bitfield = (args: Arg[], ops: BitfieldOp[]): Command => ({
      args: ["BITFIELD", key, ...args],
      run: (env) => {
        const bm = get(env, key);
        const r = bm.bitfield(ops);
        env.set(key, bm);
        return r;
      },
    });
    let at = 3;
    for (const sign of ["i", "u"] as const) {
      for (let bits = 1; bits <= (sign === "i" ? 64 : 63); bits++) {
        const t = `${sign}${bits}` as const;
        const B = BigInt(bits);
        const max = sign === "i" ? 2n ** (B - 1n) - 1n : 2n ** B - 1n;
        const min = sign === "i" ? -(2n ** (B - 1n)) : 0n;
        const values = [0n, 1n, -1n, max, max + 1n, min, min - 1n, -(2n ** 63n), 2n ** 63n - 1n, -(2n ** 63n) + max];
        for (const mode of ["wrap", "sat", "fail"] as const) {
          for (const v of values) {
            const val = BigInt.asIntN(64, v);
            const vArg = bits <= 32 && val >= -(2n ** 53n) && val <= 2n ** 53n ? Number(val) : val;
            commands.push(
              bitfield(
                ["OVERFLOW", mode, "SET", t, at, String(val), "INCRBY", t, at, String(val), "GET", t, at],
                [{ overflow: mode }, { set: t, at, value: vArg }, { incrBy: t, at, by: vArg }, { get: t, at }],
              ),
            );
          }
        }
        at += bits + 5; // a new unaligned field for each type
      }
    }
    const { errors, checked } = await replay(commands, 60);
    expect(errors).toBe(0);
    expect(checked).toBe(127 * 3 * 10);
  });
});
