import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RedisBloomFilter } from "../src/bloom/index.js";
import { MAX_DUMP_HASHES } from "../src/bloom/redisbloom-dump.js";
import { _useWasm, reduce64 } from "../src/bloom/redisbloom-link.js";
import type { Item } from "../src/hash/index.js";
import { murmur64a } from "../src/hash/index.js";
import { murmur2 } from "../src/hash/murmur2.js";
import { wasmMurmur } from "../src/hash/murmur64a-wasm.js";
import { RedstructFormatError } from "../src/internal/errors.js";
import { lnRounded } from "../src/internal/log.js";
import { addAgainstSetModel } from "./support/membership.js";
import bloom from "./vectors/redisbloom/bloom.json" with { type: "json" };
import loadchunk from "./vectors/redisbloom/bloom-loadchunk.json" with { type: "json" };
import params from "./vectors/redisbloom/bloom-params.json" with { type: "json" };
import hashes from "./vectors/redisbloom/hashes.json" with { type: "json" };

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

  constructor(readonly caseName = "") {}

  filter(key: string): RedisBloomFilter | undefined {
    const v = this.keys.get(key);
    if (v === undefined || v instanceof RedisBloomFilter) return v;
    const divergent = DIVERGENT[this.caseName];
    if (divergent) {
      expect(() => RedisBloomFilter.load(v.pairs)).toThrow(RedstructFormatError);
      expect(() => RedisBloomFilter.load(v.pairs)).toThrow(divergent);
      this.stopped = true;
      return undefined;
    }
    let f: RedisBloomFilter;
    try {
      f = RedisBloomFilter.load(v.pairs);
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
      f = RedisBloomFilter.load([header, ...zeros, ...v.pairs.slice(1)]);
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
          expect(() => new RedisBloomFilter(opts)).toThrow(error === undefined ? RangeError : Error);
          if (error === undefined) this.refused.add(key);
          return;
        }
        this.keys.set(key, new RedisBloomFilter(opts));
        expect(reply).toEqual({ simple: "OK" });
        return;
      }
      case "BF.ADD": {
        let f = this.filter(key);
        if (this.stopped) return;
        if (f === undefined) this.keys.set(key, (f = new RedisBloomFilter()));
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
          expect(() => new RedisBloomFilter(opts)).toThrow(Error);
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
        expect(f?.card() ?? 0).toBe(reply);
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
          ["Size", "SIZE", info.size],
          ["Number of filters", "FILTERS", info.filters],
          ["Number of items inserted", "ITEMS", info.items],
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
        const header = f.dump()[0]![1];
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
        const dump = f.dump();
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
    if (f === undefined) this.keys.set(key, (f = new RedisBloomFilter(create)));
    const items = args.map(item);
    const last = reply[reply.length - 1] as { error?: string } | number;
    if (typeof last === "object" && last.error === ERR_FULL) {
      // BF.MADD stops at the first full error: the items before it are added, then addAll throws.
      const before = f.dump();
      const twin = RedisBloomFilter.load(before);
      expect(() => f.addAll(items)).toThrow(/full/);
      const expected = reply.slice(0, -1).map((r) => r === 1);
      for (let i = 0; i < expected.length; i++) expect(twin.add(items[i]!)).toBe(expected[i]);
      expect(f.dump()).toEqual(twin.dump());
      return;
    }
    expect(f.addAll(items).map(Number)).toEqual(reply);
  }

  loadChunk(key: string, step: Step, error: string | undefined): void {
    const iterator = Number(text(step.args[1]!));
    const data = "hex" in step.args[2]! ? hexBytes(step.args[2].hex) : new TextEncoder().encode(step.args[2]!.utf8);
    const v = this.keys.get(key);
    if (v instanceof RedisBloomFilter) throw new Error("LOADCHUNK onto a filter already read");
    if (error !== undefined) {
      if (error.includes("not found")) {
        // A chunk for a key that has no header: load() sees a first pair that is not the header.
        expect(v).toBeUndefined();
        expect(() => RedisBloomFilter.load([[iterator, data]])).toThrow(/header/);
        return;
      }
      // The bad pair must be refused for itself, not because the dump is incomplete.
      const pairs: Array<[number, Uint8Array]> = [...(v?.pairs ?? []), [iterator, data]];
      let thrown: unknown;
      try {
        RedisBloomFilter.load(pairs);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(RedstructFormatError);
      expect(String(thrown)).not.toMatch(/incomplete dump/);
      return; // Redis leaves the key as it was
    }
    if (step.reply === null) {
      // redis-server aborted on this header: redstruct refuses it.
      expect(() => RedisBloomFilter.load([[iterator, data]])).toThrow(DIVERGENT[this.caseName] ?? /never/);
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

function replay(name: string, steps: Step[]): Interpreter {
  const r = new Interpreter(name);
  for (const step of steps) r.run(step);
  r.finish();
  return r;
}

// ——— the vectors ——————————————————————————————————————————————————————————————————

describe("RedisBloomFilter replays RedisBloom 2.4.23", () => {
  const cases = bloom.cases as unknown as Array<{ name: string; sections: Record<string, Step[]> }>;

  for (const c of cases) {
    it(`bloom.json ${c.name}: every reply, BF.INFO/DEBUG field and SCANDUMP byte`, () => {
      const steps = Object.values(c.sections).flat();
      if (c.name === "edge-expansion0") {
        // BF.RESERVE … EXPANSION 0 is refused by the constructor; a dump with growth 0 reproduces it.
        expect(() => new RedisBloomFilter({ errorRate: 0.01, capacity: 2, expansion: 0 })).toThrow(RangeError);
        const header = new RedisBloomFilter({ errorRate: 0.01, capacity: 2 }).dump();
        header[0]![1][16] = 0; // growth 0
        const r = new Interpreter(c.name);
        r.keys.set(text(steps[0]!.args[0]!), RedisBloomFilter.load(header));
        for (const step of steps.slice(1)) r.run(step);
        expect(r.stopped).toBe(false);
        return;
      }
      const r = replay(c.name, steps);
      expect(r.stopped).toBe(false);
    });
  }

  it("bloom.json, every scripted case again on the JavaScript fallback (no WebAssembly)", () => {
    expect(_useWasm(false)).toBe(false);
    try {
      for (const c of cases) {
        if (c.name === "edge-expansion0") continue;
        expect(replay(c.name, Object.values(c.sections).flat()).stopped).toBe(false);
      }
    } finally {
      _useWasm(true);
    }
  });

  it("bloom.json errors: argument checks and missing keys", () => {
    const r = new Interpreter("errors");
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
    for (const s of lc.source_filters) expect(replay("source", s.steps).stopped).toBe(false);
  });
  for (const c of lc.cases) {
    it(`bloom-loadchunk.json ${c.name}`, () => {
      const r = replay(c.name, c.steps);
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
      const f = new RedisBloomFilter({ errorRate, capacity: row.capacity as number, nonScaling: true });
      const link = decodeHeader(f.dump()[0]![1]).links[0]!;
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

  it("hashes.json: MurmurHash64A with the Bloom seeds, MurmurHash2 with the legacy seeds", () => {
    for (const row of hashes.rows as Array<Record<string, unknown>>) {
      const v = item(row.item as Arg);
      const a = murmur64a(v, 0xc6a4a7935bd1e995n);
      expect(a.toString(16).padStart(16, "0")).toBe(row.m64a_c6a4);
      expect(murmur64a(v, a).toString(16).padStart(16, "0")).toBe(row.m64a_chain);
      const a32 = murmur2(v, 0x9747b28c);
      expect(a32).toBe(row.m2_9747b28c);
      expect(murmur2(v, a32)).toBe(row.m2_chain);
    }
  });
});

// ——— arithmetic ——————————————————————————————————————————————————————————————————

describe("RedisBloomFilter arithmetic", () => {
  it("reduce64 is (hi·2^32 + lo) mod m exactly for every m < 2^37", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.oneof(fc.bigInt({ min: 1n, max: 1n << 12n }), fc.bigInt({ min: 1n, max: (1n << 37n) - 1n })),
        (x, m) => {
          const r = reduce64(Number(x >> 32n), Number(x & 0xffffffffn), Number(m), 1 / Number(m));
          expect(r).toBe(Number(x % m));
        },
      ),
      { seed: 1301, numRuns: 5000 },
    );
  });

  it("positions follow ((a + i·b) mod 2^64) mod bits, checked against BigInt", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.integer({ min: 1, max: 300_000 }),
        fc.double({ min: 1e-6, max: 0.5, noNaN: true }),
        (v, capacity, errorRate) => {
          const f = new RedisBloomFilter({ capacity, errorRate, nonScaling: true });
          f.add(v);
          const link = decodeHeader(f.dump()[0]![1]).links[0]!;
          const a = murmur64a(v, 0xc6a4a7935bd1e995n);
          const b = murmur64a(v, a);
          const want = new Set<number>();
          for (let i = 0n; i < BigInt(link.hashes); i++)
            want.add(Number(((a + i * b) & ((1n << 64n) - 1n)) % BigInt(link.bits)));
          const got = new Set<number>();
          for (const [end, chunk] of f.dump().slice(1)) {
            const start = end - chunk.length - 1;
            chunk.forEach((byte, j) => {
              for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) got.add((start + j) * 8 + bit);
            });
          }
          expect(got).toEqual(want);
        },
      ),
      { seed: 1302, numRuns: 60 },
    );
  });

  it("the WebAssembly chained hash equals MurmurHash64A, long items (memory growth) included", () => {
    expect(wasmMurmur).toBeDefined(); // Node and Chromium both run WebAssembly
    const out = new Uint32Array(4);
    const rem = new Float64Array(2);
    const check = (v: Item) => {
      wasmMurmur!.chainInto(v, 0xc6a4a793, 0x5bd1e995, out);
      const a = murmur64a(v, 0xc6a4a7935bd1e995n);
      const b = murmur64a(v, a);
      expect((BigInt(out[1]!) << 32n) | BigInt(out[0]!)).toBe(a);
      expect((BigInt(out[3]!) << 32n) | BigInt(out[2]!)).toBe(b);
      wasmMurmur!.remaindersInto(1_000_003, rem);
      expect([rem[0], rem[1]]).toEqual([Number(a % 1_000_003n), Number(b % 1_000_003n)]);
    };
    for (const row of hashes.rows as Array<Record<string, unknown>>) check(item(row.item as Arg));
    check("é".repeat(70_000)); // 140,000 UTF-8 bytes: the module's memory grows
    check(new Uint8Array(200_000).fill(7));
    check("a".repeat(300_001)); // an ASCII string that grows it again
    check(`${"b".repeat(99)}é`); // ASCII until the last unit
    check(12345);
    check(-(2n ** 70n));
    fc.assert(
      fc.property(anyItem, (v) => check(v)),
      { seed: 1307, numRuns: 500 },
    );
  });

  it("WebAssembly positions are ((h1 + i·h2) mod 2^64) mod m, for m up to 2^35 and k up to 1075", () => {
    const out = new Uint32Array(4);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.oneof(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 2 ** 35 - 8 }), fc.constant(2 ** 32)),
        fc.integer({ min: 1, max: 1075 }),
        (v, m, k) => {
          wasmMurmur!.chainInto(v, 0xc6a4a793, 0x5bd1e995, out);
          const a = (BigInt(out[1]!) << 32n) | BigInt(out[0]!);
          const b = (BigInt(out[3]!) << 32n) | BigInt(out[2]!);
          const at = wasmMurmur!.positions(k, m, Number((1n << 64n) % BigInt(m)));
          for (let i = 0; i < k; i++) {
            expect(at[i]).toBe(Number(((a + BigInt(i) * b) & ((1n << 64n) - 1n)) % BigInt(m)));
          }
        },
      ),
      { seed: 1309, numRuns: 300 },
    );
  });

  it("the JavaScript fallback gives the same filters as WebAssembly", () => {
    fc.assert(
      fc.property(anyOptions, fc.array(anyItem, { maxLength: 100 }), (opts, values) => {
        const viaWasm = new RedisBloomFilter(opts);
        addUntilFull(viaWasm, values);
        expect(_useWasm(false)).toBe(false);
        try {
          const viaJs = new RedisBloomFilter(opts);
          const done = addUntilFull(viaJs, values);
          expect(viaJs.dump()).toEqual(viaWasm.dump());
          expect(viaJs.hasAll(done)).toEqual(done.map(() => true));
          expect(viaJs.hasAll(values)).toEqual(values.map((v) => viaWasm.has(v)));
        } finally {
          _useWasm(true);
        }
      }),
      { seed: 1308, numRuns: 100 },
    );
  });

  it("lnRounded is correctly rounded where Math.log may not be (spot values)", () => {
    expect(lnRounded(0.5)).toBe(-Math.LN2);
    expect(lnRounded(1)).toBe(0);
    expect(lnRounded(Number.MIN_VALUE)).toBe(-744.4400719213812);
    expect(lnRounded(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(lnRounded(-1)).toBeNaN();
    expect(MAX_DUMP_HASHES).toBe(1075);
  });
});

// ——— properties ——————————————————————————————————————————————————————————————————

const anyItem = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.uint8Array({ maxLength: 20 }),
  fc.integer(),
);
const anyOptions = fc.oneof(
  fc.record({
    errorRate: fc.double({ min: 1e-4, max: 0.9, noNaN: true }),
    capacity: fc.integer({ min: 1, max: 40 }),
    expansion: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    errorRate: fc.double({ min: 1e-4, max: 0.9, noNaN: true }),
    capacity: fc.integer({ min: 1, max: 60 }),
    nonScaling: fc.constant(true),
  }),
);

/** Adds until the first "full" error; returns the items that went in (or were already in). */
function addUntilFull(f: RedisBloomFilter, items: readonly Item[]): Item[] {
  const done: Item[] = [];
  for (const v of items) {
    try {
      f.add(v);
    } catch (e) {
      expect(String(e)).toMatch(/full/);
      expect(f.has(v)).toBe(false);
      break;
    }
    done.push(v);
  }
  return done;
}

describe("RedisBloomFilter properties", () => {
  it("never a false negative; add() is !has() before it; links grow as RedisBloom's", () => {
    fc.assert(
      fc.property(anyOptions, fc.array(anyItem, { maxLength: 300 }), (opts, values) => {
        const f = new RedisBloomFilter(opts);
        const done = addUntilFull(new RedisBloomFilter(opts), values);
        const added = addAgainstSetModel(f, done);
        f.checkInvariants();
        for (const v of done) expect(f.has(v)).toBe(true);
        const info = f.info();
        expect(info.items).toBe(added);
        expect(f.card()).toBe(added);
        let links = 1;
        let room = opts.capacity;
        let capacity = room;
        let left = added;
        while (left > room) {
          left -= room;
          room *= "expansion" in opts ? opts.expansion : 0;
          capacity += room;
          links++;
        }
        expect(info).toMatchObject({
          filters: links,
          capacity,
          expansion: "expansion" in opts ? opts.expansion : null,
        });
      }),
      { seed: 1303, numRuns: 150 },
    );
  });

  it("addAll is successive adds, also when a non-scaling filter fills up mid-batch", () => {
    fc.assert(
      fc.property(anyOptions, fc.array(anyItem, { maxLength: 200 }), (opts, values) => {
        const one = new RedisBloomFilter(opts);
        const many = new RedisBloomFilter(opts);
        const singles: boolean[] = [];
        let full = false;
        for (const v of values) {
          try {
            singles.push(one.add(v));
          } catch {
            full = true;
            break;
          }
        }
        if (full) expect(() => many.addAll(values)).toThrow(/full/);
        else expect(many.addAll(values)).toEqual(singles);
        expect(many.dump()).toEqual(one.dump());
        expect(many.hasAll(values)).toEqual(values.map((v) => one.has(v)));
      }),
      { seed: 1304, numRuns: 150 },
    );
  });

  it("load(dump()) is the same filter and dumps the same bytes", () => {
    fc.assert(
      fc.property(
        anyOptions,
        fc.array(anyItem, { maxLength: 200 }),
        fc.array(anyItem, { maxLength: 50 }),
        (opts, values, probes) => {
          const f = new RedisBloomFilter(opts);
          addUntilFull(f, values);
          const dump = f.dump();
          const back = RedisBloomFilter.load(dump);
          back.checkInvariants();
          expect(back.dump()).toEqual(dump);
          expect(back.info()).toEqual(f.info());
          expect(back.hasAll([...values, ...probes])).toEqual(f.hasAll([...values, ...probes]));
          // and both keep evolving identically
          const more = probes.slice(0, 20);
          expect(addUntilFull(back, more)).toEqual(addUntilFull(f, more));
          expect(back.dump()).toEqual(f.dump());
        },
      ),
      { seed: 1305, numRuns: 120 },
    );
  });

  it("10^4 mutated dumps either load to a consistent filter or throw RedstructFormatError", () => {
    const f = new RedisBloomFilter({ errorRate: 0.05, capacity: 3, expansion: 2 });
    for (let i = 0; i < 20; i++) f.add(`x${i}`);
    const valid = f.dump();
    expect(valid.length).toBeGreaterThan(3);
    const mutation = fc.oneof(
      // overwrite 1–4 bytes of one chunk (the header most of the time)
      fc.record({
        kind: fc.constant("bytes" as const),
        chunk: fc.oneof(fc.constant(0), fc.nat(valid.length - 1)),
        edits: fc.array(fc.tuple(fc.nat(2000), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({
        kind: fc.constant("iterator" as const),
        chunk: fc.nat(valid.length - 1),
        delta: fc.integer({ min: -40, max: 40 }),
      }),
      fc.record({ kind: fc.constant("drop" as const), chunk: fc.nat(valid.length - 1) }),
      fc.record({
        kind: fc.constant("swap" as const),
        chunk: fc.nat(valid.length - 1),
        other: fc.nat(valid.length - 1),
      }),
      fc.record({ kind: fc.constant("cut" as const), chunk: fc.nat(valid.length - 1), keep: fc.nat(300) }),
      fc.record({
        kind: fc.constant("extra" as const),
        iterator: fc.integer({ min: -3, max: 400 }),
        bytes: fc.uint8Array({ maxLength: 40 }),
      }),
    );
    let loaded = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        let pairs: Array<[number, Uint8Array]> = valid.map(([i, b]) => [i, b.slice()]);
        for (const m of mutations) {
          const at = "chunk" in m ? m.chunk % Math.max(1, pairs.length) : 0;
          if (pairs.length === 0) break;
          if (m.kind === "bytes") for (const [i, b] of m.edits) pairs[at]![1][i % pairs[at]![1].length] = b;
          else if (m.kind === "iterator") pairs[at]![0] += m.delta;
          else if (m.kind === "drop") pairs.splice(at, 1);
          else if (m.kind === "swap") {
            const o = m.other % pairs.length;
            [pairs[at], pairs[o]] = [pairs[o]!, pairs[at]!];
          } else if (m.kind === "cut") pairs[at]![1] = pairs[at]![1].slice(0, m.keep % (pairs[at]![1].length + 1));
          else pairs = [...pairs, [m.iterator, m.bytes]];
        }
        let g: RedisBloomFilter;
        try {
          g = RedisBloomFilter.load(pairs);
        } catch (e) {
          expect(e).toBeInstanceOf(RedstructFormatError);
          refused++;
          return;
        }
        loaded++;
        g.checkInvariants();
        const again = RedisBloomFilter.load(g.dump());
        expect(again.dump()).toEqual(g.dump());
        expect(again.info()).toEqual(g.info());
        for (let i = 0; i < 5; i++) {
          expect(again.has(`x${i}`)).toBe(g.has(`x${i}`));
          try {
            g.add(`y${i}`);
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError); // a hostile capacity may leave no room to grow
          }
        }
        g.checkInvariants();
      }),
      { seed: 1306, numRuns: 10_000 },
    );
    expect(loaded).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
  });
});

// ——— arguments and hostile input ———————————————————————————————————————————————————

describe("RedisBloomFilter arguments", () => {
  it("defaults are BF.ADD's auto-created filter", () => {
    expect(new RedisBloomFilter().info()).toEqual({ capacity: 100, size: 240, filters: 1, items: 0, expansion: 2 });
  });

  it("refuses bad options with errors naming them", () => {
    expect(() => new RedisBloomFilter(null as never)).toThrow(TypeError);
    expect(() => new RedisBloomFilter({ errorrate: 0.1 } as never)).toThrow(/unknown option "errorrate".*errorRate/);
    for (const errorRate of [0, 1, -0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new RedisBloomFilter({ errorRate })).toThrow(/errorRate/);
    }
    expect(() => new RedisBloomFilter({ errorRate: "0.1" as never })).toThrow(TypeError);
    for (const capacity of [0, -5, 1.5, 2 ** 53]) expect(() => new RedisBloomFilter({ capacity })).toThrow(/capacity/);
    for (const expansion of [0, -1, 1.5, 2 ** 32])
      expect(() => new RedisBloomFilter({ expansion })).toThrow(/expansion/);
    expect(() => new RedisBloomFilter({ expansion: 2 ** 32 - 1 })).not.toThrow();
    expect(() => new RedisBloomFilter({ nonScaling: true, expansion: 2 })).toThrow(/expansion.*nonScaling/);
    expect(() => new RedisBloomFilter({ nonScaling: 1 as never })).toThrow(/nonScaling/);
    expect(() => new RedisBloomFilter({ nonScaling: null as never })).toThrow(/nonScaling/);
    expect(() => new RedisBloomFilter({ capacity: 2 ** 40, errorRate: 1e-9 })).toThrow(/capacity.*4 GiB/);
    const f = new RedisBloomFilter();
    expect(() => f.add({} as never)).toThrow(TypeError);
    expect(() => f.addAll("abc" as never)).toThrow(/iterable/);
    expect(() => f.hasAll(null as never)).toThrow(TypeError);
  });

  it("a full non-scaling filter: re-adds reply false, new items throw, addAll keeps the items before", () => {
    const f = new RedisBloomFilter({ capacity: 3, nonScaling: true });
    expect(f.addAll(["a", "b", "c"])).toEqual([true, true, true]);
    expect(f.add("a")).toBe(false);
    expect(() => f.add("d")).toThrow(/full.*capacity 3/);
    expect(() => f.addAll(["b", "d", "e"])).toThrow(/after 1 of the items/);
    expect(f.card()).toBe(3);
    f.checkInvariants();
  });

  it("a chain that cannot grow further throws RangeError and stays consistent", () => {
    // growth 2^32 − 1 from capacity 2: the second link would need more than 4 GiB
    const f = new RedisBloomFilter({ capacity: 2, expansion: 2 ** 32 - 1, errorRate: 0.5 });
    expect(() => {
      for (let i = 0; i < 100; i++) f.add(`k${i}`);
    }).toThrow(/cannot add link 2.*4 GiB/);
    expect(f.card()).toBe(2);
    f.checkInvariants();
  });

  it("a loaded ENTS_IS_BITS chain answers and adds, and refuses to grow with a RangeError", () => {
    const dump = new RedisBloomFilter({ capacity: 2, errorRate: 0.1 }).dump();
    dump[0]![1][12]! |= 2; // options 5 → 7
    const f = RedisBloomFilter.load(dump);
    expect(f.addAll(["a", "b"])).toEqual([true, true]);
    expect(() => {
      for (let i = 0; i < 50; i++) f.add(`n${i}`);
    }).toThrow(/ENTS_IS_BITS/);
    expect(f.has("a")).toBe(true);
    f.checkInvariants();
  });

  it("load refuses what is not a dump with clear errors", () => {
    const dump = new RedisBloomFilter({ capacity: 10 }).dump();
    expect(() => RedisBloomFilter.load([])).toThrow(/no header/);
    expect(() => RedisBloomFilter.load(null as never)).toThrow(TypeError);
    expect(() => RedisBloomFilter.load([[1, "text" as never]])).toThrow(/Uint8Array.*callBuffer/);
    expect(() => RedisBloomFilter.load([["1" as never, dump[0]![1]]])).toThrow(/iterator must be a number/);
    expect(() => RedisBloomFilter.load([dump[1]!, dump[0]!])).toThrow(RedstructFormatError);
    expect(() => RedisBloomFilter.load([dump[0]!])).toThrow(/incomplete dump/);
    expect(() => RedisBloomFilter.load([dump[0]!, dump[0]!, dump[1]!])).toThrow(/second header/);
    expect(() => RedisBloomFilter.load([dump[0]!, [1.5, new Uint8Array(0)]])).toThrow(/positive integer/);
    // a header claiming a 4 GiB − 1 link allocates nothing until its bytes arrive
    const h = dump[0]![1].slice();
    const v = new DataView(h.buffer);
    v.setUint32(20, 2 ** 32 - 1, true);
    v.setUint32(28, 2 ** 32 - 8, true);
    v.setUint32(32, 7, true);
    expect(() => RedisBloomFilter.load([[1, h]])).toThrow(/incomplete dump/);
  });
});
