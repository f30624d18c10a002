/**
 * Replays of the RedisBloom 2.4.23 Bloom vectors (test/vectors/redisbloom: bloom.json, bloom-loadchunk.json,
 * bloom-params.json) against a RedisBloomFilter class: a small BF.* interpreter checks every reply, every
 * BF.INFO / BF.DEBUG field and every SCANDUMP byte. The class is a parameter so that the same replay runs on
 * the WebAssembly hashing path (test/bloom-redis.test.ts) and on the JavaScript one, in a module graph built
 * without WebAssembly (test/bloom-redis-nowasm.test.ts). Nothing here imports the WebAssembly hash.
 */
import { expect, it } from "vitest";
import type { RedisBloomFilter } from "../../src/bloom/index.js";
import type { Item } from "../../src/hash/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import bloom from "../vectors/redisbloom/bloom.json" with { type: "json" };
import loadchunk from "../vectors/redisbloom/bloom-loadchunk.json" with { type: "json" };
import params from "../vectors/redisbloom/bloom-params.json" with { type: "json" };

/** The RedisBloomFilter class under test. */
type Rbf = typeof RedisBloomFilter;

// ——— the vectors' encoding ——————————————————————————————————————————————————————————

type Arg = { utf8: string } | { hex: string };
type Reply = unknown;
interface Step {
  cmd: string;
  args: Arg[];
  reply: Reply;
  note?: string;
}

const hexBytes = (hex: string): Uint8Array => {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
};
const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const text = (a: Arg): string => ("utf8" in a ? a.utf8 : new TextDecoder().decode(hexBytes(a.hex)));
/** An argument as an item: text stays a string (so the UTF-8 paths run), hex becomes bytes. */
const item = (a: Arg): Item => ("utf8" in a ? a.utf8 : hexBytes(a.hex));
const sameBulk = (reply: Reply, bytes: Uint8Array): boolean => {
  const r = reply as Arg;
  return "hex" in r
    ? r.hex === toHex(bytes)
    : r.utf8 === new TextDecoder().decode(bytes) && bytes.length === new TextEncoder().encode(r.utf8).length;
};

/** C's printf("%g"): 6 significant digits, trailing zeros dropped, exponent form below 1e-4. */
function printfG(x: number): string {
  const [m, e] = x.toExponential(5).split("e") as [string, string];
  const exp = Number(e);
  const strip = (s: string) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
  if (exp < -4 || exp >= 6) return `${strip(m)}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return strip(x.toFixed(5 - exp));
}

/** The dump header decoded, for BF.DEBUG and the params rows. */
function decodeHeader(h: Uint8Array) {
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const u64 = (at: number) => v.getUint32(at, true) + v.getUint32(at + 4, true) * 2 ** 32;
  const n = v.getUint32(8, true);
  const links = [];
  for (let i = 0; i < n; i++) {
    const at = 20 + 53 * i;
    links.push({
      bytes: u64(at),
      bits: u64(at + 8),
      items: u64(at + 16),
      error: v.getFloat64(at + 24, true),
      bpe: v.getFloat64(at + 32, true),
      hashes: v.getUint32(at + 40, true),
      entries: u64(at + 44),
      n2: v.getUint8(at + 52),
    });
  }
  return { items: u64(0), n, options: v.getUint32(12, true), growth: v.getUint32(16, true), links };
}

// ——— a small BF.* interpreter over RedisBloomFilter ——————————————————————————————————

const ERR_FULL = "ERR non scaling filter is full";
/** Redis keyspace and argument-parser replies that have no counterpart in the API. */
const PARSER_ONLY = [
  "WRONGTYPE",
  "ERR item exists",
  "wrong number of arguments",
  "ERR no expansion",
  "Unknown argument received",
  "Invalid information value",
  "Second argument must be numeric",
];

/** Where redstruct refuses what RedisBloom accepts (each reason is documented in docs/bloom.md). */
const DIVERGENT: Record<string, RegExp> = {
  "d-error-nan": /error rate is NaN/,
  "d-link-size-huge": /item count is \d+, above/,
  "d-huge-consistent-4GiB": /byte count is 4294967296, above/,
  "d-huge-consistent-1PiB": /byte count is \d+, above/, // redis-server aborts
  "d-huge-wrapping-bits": /byte count is \d+, above/, // redis-server aborts
};

/** The sequence of LOADCHUNK pairs a key has received but not yet been read as a whole. */
interface Pending {
  pairs: Array<[number, Uint8Array]>;
}

class Interpreter {
  keys = new Map<string, RedisBloomFilter | Pending>();
  /** Set when a divergent load was refused: the case's remaining steps are not comparable. */
  stopped = false;
  /** Keys whose dump left bytes undelivered (loaded with zero chunks first, as RedisBloom does). */
  zeroFilled = 0;
  /** Keys BF.RESERVE created in Redis but the constructor refused (EXPANSION 0 or −1). */
  refused = new Set<string>();

  constructor(
    readonly RBF: Rbf,
    readonly caseName = "",
  ) {}

  filter(key: string): RedisBloomFilter | undefined {
    const v = this.keys.get(key);
    if (v === undefined || v instanceof this.RBF) return v;
    const divergent = DIVERGENT[this.caseName];
    if (divergent) {
      expect(() => this.RBF.fromRedis(v.pairs)).toThrow(RedstructFormatError);
      expect(() => this.RBF.fromRedis(v.pairs)).toThrow(divergent);
      this.stopped = true;
      return undefined;
    }
    let f: RedisBloomFilter;
    try {
      f = this.RBF.fromRedis(v.pairs);
    } catch (e) {
      // RedisBloom zeroes a link when the header arrives and lets chunks overwrite it; redstruct
      // wants every byte delivered. Zero chunks sent right after the header make the two agree.
      expect(String(e)).toMatch(/incomplete dump/);
      const header = v.pairs[0]!;
      const zeros: Array<[number, Uint8Array]> = [];
      let start = 0;
      for (const link of decodeHeader(header[1]).links) {
        zeros.push([start + link.bytes + 1, new Uint8Array(link.bytes)]);
        start += link.bytes;
      }
      f = this.RBF.fromRedis([header, ...zeros, ...v.pairs.slice(1)]);
      this.zeroFilled++;
    }
    f.checkInvariants();
    this.keys.set(key, f);
    return f;
  }

  /** Runs a step and checks its reply. */
  run(step: Step): void {
    if (this.stopped) return;
    const { cmd, args, reply } = step;
    const key = args[0] ? text(args[0]) : "";
    if (this.refused.has(key)) return;
    const error =
      reply !== null && typeof reply === "object" && "error" in reply ? (reply as { error: string }).error : undefined;
    if (error !== undefined && PARSER_ONLY.some((p) => error.includes(p))) return;
    if (["SET", "DEL", "MEMORY"].includes(cmd)) return;
    if (cmd === "BF.LOADCHUNK") {
      this.loadChunk(key, step, error);
      return;
    }
    switch (cmd) {
      case "EXISTS": {
        const f = this.filter(key);
        if (this.stopped) return;
        expect(f === undefined ? 0 : 1).toBe(reply);
        return;
      }
      case "BF.RESERVE": {
        const opts = this.parseReserve(args.slice(1));
        if (error !== undefined || opts.expansion === -1 || opts.expansion === 0) {
          // Redis takes EXPANSION 0 and −1; redstruct refuses both (see RedisBloomFilterOptions.expansion).
          expect(() => new this.RBF(opts)).toThrow(error === undefined ? RangeError : Error);
          if (error === undefined) this.refused.add(key);
          return;
        }
        this.keys.set(key, new this.RBF(opts));
        expect(reply).toEqual({ simple: "OK" });
        return;
      }
      case "BF.ADD": {
        let f = this.filter(key);
        if (this.stopped) return;
        if (f === undefined) this.keys.set(key, (f = new this.RBF()));
        if (error === ERR_FULL) {
          expect(() => f.add(item(args[1]!))).toThrow(/full/);
          return;
        }
        expect(f.add(item(args[1]!)) ? 1 : 0).toBe(reply);
        return;
      }
      case "BF.MADD":
        this.madd(key, args.slice(1), reply as Reply[], undefined);
        return;
      case "BF.INSERT": {
        const at = args.findIndex((a) => text(a) === "ITEMS");
        const opts = this.parseInsert(args.slice(1, at));
        if (error === "ERR not found") return; // NOCREATE: a keyspace matter
        if (error !== undefined) {
          expect(() => new this.RBF(opts)).toThrow(Error);
          return;
        }
        this.madd(key, args.slice(at + 1), reply as Reply[], opts);
        return;
      }
      case "BF.EXISTS": {
        const f = this.filter(key);
        if (this.stopped) return;
        expect(f?.has(item(args[1]!)) ? 1 : 0).toBe(reply);
        return;
      }
      case "BF.MEXISTS": {
        const f = this.filter(key);
        if (this.stopped) return;
        const items = args.slice(1).map(item);
        expect(f ? f.hasAll(items).map(Number) : items.map(() => 0)).toEqual(reply);
        return;
      }
      case "BF.CARD": {
        const f = this.filter(key);
        if (this.stopped) return;
        expect(f?.size ?? 0).toBe(reply);
        return;
      }
      case "BF.INFO": {
        const f = this.filter(key);
        if (this.stopped) return;
        if (f === undefined) {
          expect(error).toBe("ERR not found");
          return;
        }
        const info = f.info();
        const fields: Array<[string, string, number | null]> = [
          ["Capacity", "CAPACITY", info.capacity],
          ["Size", "SIZE", info.byteLength],
          ["Number of filters", "FILTERS", info.filters],
          ["Number of items inserted", "ITEMS", info.size],
          ["Expansion rate", "EXPANSION", info.expansion],
        ];
        if (args.length > 1) {
          const which = text(args[1]!).toUpperCase();
          expect([fields.find((x) => x[1] === which)![2]]).toEqual(reply);
          return;
        }
        expect(fields.flatMap(([name, , v]) => [{ simple: name }, v])).toEqual(reply);
        return;
      }
      case "BF.DEBUG": {
        const f = this.filter(key);
        if (this.stopped) return;
        if (f === undefined) {
          expect(error).toBe("ERR not found");
          return;
        }
        const header = f.toRedis()[0]![1];
        const h = decodeHeader(header);
        const width = h.options & 4 ? 64 : 32;
        const lines = [
          `size:${h.items}`,
          ...h.links.map(
            (l) =>
              `bytes:${l.bytes} bits:${l.bits} hashes:${l.hashes} hashwidth:${width} capacity:${l.entries} size:${l.items} ratio:${printfG(l.error)}`,
          ),
        ];
        expect(lines.map((s) => ({ utf8: s }))).toEqual(reply);
        return;
      }
      case "BF.SCANDUMP": {
        const f = this.filter(key);
        if (this.stopped) return;
        if (f === undefined) {
          expect(error).toBe("ERR not found");
          return;
        }
        const it = Number(text(args[1]!));
        const dump = f.toRedis();
        const pair = it === 0 ? dump[0] : dump.slice(1).find(([end, b]) => end - b.length === it);
        const [r0, r1] = reply as [number, Reply];
        if (pair === undefined) {
          expect(r0).toBe(0);
          expect(sameBulk(r1, new Uint8Array(0))).toBe(true);
          return;
        }
        expect(r0).toBe(pair[0]);
        expect(sameBulk(r1, pair[1]), `SCANDUMP ${it} bytes`).toBe(true);
        return;
      }
      default:
        throw new Error(`no interpreter for ${cmd}`);
    }
  }

  parseReserve(args: Arg[]): { errorRate: number; capacity: number; expansion?: number; nonScaling?: boolean } {
    const opts: { errorRate: number; capacity: number; expansion?: number; nonScaling?: boolean } = {
      errorRate: Number(text(args[0]!)),
      capacity: Number(text(args[1]!)),
    };
    for (let i = 2; i < args.length; i++) {
      const t = text(args[i]!).toUpperCase();
      if (t === "EXPANSION") opts.expansion = Number(text(args[++i]!));
      else if (t === "NONSCALING") opts.nonScaling = true;
    }
    if (Number.isNaN(opts.errorRate)) opts.errorRate = "x" as unknown as number;
    return opts;
  }

  parseInsert(args: Arg[]): { errorRate?: number; capacity?: number; expansion?: number; nonScaling?: boolean } {
    const opts: { errorRate?: number; capacity?: number; expansion?: number; nonScaling?: boolean } = {};
    for (let i = 0; i < args.length; i++) {
      const t = text(args[i]!).toUpperCase();
      if (t === "CAPACITY") opts.capacity = Number(text(args[++i]!));
      else if (t === "ERROR") opts.errorRate = Number(text(args[++i]!));
      else if (t === "EXPANSION") opts.expansion = Number(text(args[++i]!));
      else if (t === "NONSCALING") opts.nonScaling = true;
    }
    return opts;
  }

  madd(key: string, args: Arg[], reply: Reply[], create: ConstructorParameters<typeof RedisBloomFilter>[0]): void {
    let f = this.filter(key);
    if (this.stopped) return;
    if (f === undefined) this.keys.set(key, (f = new this.RBF(create)));
    const items = args.map(item);
    const last = reply[reply.length - 1] as { error?: string } | number;
    if (typeof last === "object" && last.error === ERR_FULL) {
      // BF.MADD stops at the first full error: the items before it are added, then addAll throws.
      const before = f.toRedis();
      const twin = this.RBF.fromRedis(before);
      expect(() => f.addAll(items)).toThrow(/full/);
      const expected = reply.slice(0, -1).map((r) => r === 1);
      for (let i = 0; i < expected.length; i++) expect(twin.add(items[i]!)).toBe(expected[i]);
      expect(f.toRedis()).toEqual(twin.toRedis());
      return;
    }
    expect(f.addAll(items).map(Number)).toEqual(reply);
  }

  loadChunk(key: string, step: Step, error: string | undefined): void {
    const iterator = Number(text(step.args[1]!));
    const data = "hex" in step.args[2]! ? hexBytes(step.args[2].hex) : new TextEncoder().encode(step.args[2]!.utf8);
    const v = this.keys.get(key);
    if (v instanceof this.RBF) throw new Error("LOADCHUNK onto a filter already read");
    if (error !== undefined) {
      if (error.includes("not found")) {
        // A chunk for a key that has no header: load() sees a first pair that is not the header.
        expect(v).toBeUndefined();
        expect(() => this.RBF.fromRedis([[iterator, data]])).toThrow(/header/);
        return;
      }
      // The bad pair must be refused for itself, not because the dump is incomplete.
      const pairs: Array<[number, Uint8Array]> = [...(v?.pairs ?? []), [iterator, data]];
      let thrown: unknown;
      try {
        this.RBF.fromRedis(pairs);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(RedstructFormatError);
      expect(String(thrown)).not.toMatch(/incomplete dump/);
      return; // Redis leaves the key as it was
    }
    if (step.reply === null) {
      // redis-server aborted on this header: redstruct refuses it.
      expect(() => this.RBF.fromRedis([[iterator, data]])).toThrow(DIVERGENT[this.caseName] ?? /never/);
      this.stopped = true;
      return;
    }
    expect(step.reply).toEqual({ simple: "OK" });
    if (v === undefined) {
      if (Number.isNaN(iterator)) return;
      this.keys.set(key, { pairs: [[iterator, data]] });
    } else {
      v.pairs.push([iterator, data]);
    }
  }

  /** At the end of a case, any key still pending must load (or be a documented divergence). */
  finish(): void {
    for (const key of this.keys.keys()) {
      if (this.stopped) return;
      this.filter(key)?.checkInvariants();
    }
  }
}

function replay(RBF: Rbf, name: string, steps: Step[]): Interpreter {
  const r = new Interpreter(RBF, name);
  for (const step of steps) r.run(step);
  r.finish();
  return r;
}

// ——— the vectors ——————————————————————————————————————————————————————————————————

/**
 * Registers one test per recorded case (bloom.json's scripted cases and errors, bloom-loadchunk.json's
 * dumps, bloom-params.json's header rows), each replayed on `RBF`. Call it inside a describe.
 */
export function replayVectors(RBF: Rbf): void {
  const cases = bloom.cases as unknown as Array<{ name: string; sections: Record<string, Step[]> }>;

  for (const c of cases) {
    it(`bloom.json ${c.name}: every reply, BF.INFO/DEBUG field and SCANDUMP byte`, () => {
      const steps = Object.values(c.sections).flat();
      if (c.name === "edge-expansion0") {
        // BF.RESERVE … EXPANSION 0 is refused by the constructor; a dump with growth 0 reproduces it.
        expect(() => new RBF({ errorRate: 0.01, capacity: 2, expansion: 0 })).toThrow(RangeError);
        const header = new RBF({ errorRate: 0.01, capacity: 2 }).toRedis();
        header[0]![1][16] = 0; // growth 0
        const r = new Interpreter(RBF, c.name);
        r.keys.set(text(steps[0]!.args[0]!), RBF.fromRedis(header));
        for (const step of steps.slice(1)) r.run(step);
        expect(r.stopped).toBe(false);
        return;
      }
      const r = replay(RBF, c.name, steps);
      expect(r.stopped).toBe(false);
    });
  }

  it("bloom.json errors: argument checks and missing keys", () => {
    const r = new Interpreter(RBF, "errors");
    for (const step of bloom.errors as unknown as Step[]) {
      r.stopped = false;
      r.run(step);
    }
  });

  const lc = loadchunk as unknown as {
    source_filters: Array<{ steps: Step[] }>;
    cases: Array<{ name: string; steps: Step[] }>;
  };
  it("bloom-loadchunk.json source filter", () => {
    for (const s of lc.source_filters) expect(replay(RBF, "source", s.steps).stopped).toBe(false);
  });
  for (const c of lc.cases) {
    it(`bloom-loadchunk.json ${c.name}`, () => {
      const r = replay(RBF, c.name, c.steps);
      // Only the documented divergences stop early.
      expect(r.stopped).toBe(c.name in DIVERGENT);
    });
  }

  it("bloom-params.json: every (error, capacity) header row; bpe to the byte except the two named rows", () => {
    const rows = params.rows as Array<Record<string, unknown>>;
    expect(rows.length).toBe(2254);
    let exact = 0;
    const off: string[] = [];
    for (const row of rows) {
      const errorRate = Number(row.error);
      const f = new RBF({ errorRate, capacity: row.capacity as number, nonScaling: true });
      const link = decodeHeader(f.toRedis()[0]![1]).links[0]!;
      expect(link.error).toBe(row.error_double);
      expect([link.hashes, link.bytes, link.bits, link.entries]).toEqual([
        row.hashes,
        row.bytes,
        row.bits,
        row.entries,
      ]);
      if (Object.is(link.bpe, row.bpe)) exact++;
      else {
        off.push(row.error as string);
        // one ulp, on the rows where glibc 2.36 itself is one ulp off the correctly rounded value
        const ulp = 2 ** (Math.floor(Math.log2(row.bpe as number)) - 52);
        expect(Math.abs(link.bpe - (row.bpe as number))).toBe(ulp);
      }
    }
    expect(off).toEqual(["0.691", "0.61997725241352397"]);
    expect(exact).toBe(2252);
  });
}
