import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CuckooFilter, RedstructFormatError } from "../src/cuckoo/index.js";
import { expectOnlyFormatErrors } from "./support/fuzz.js";
import { fromHex, itemOf, textOf, toHex } from "./support/redisbloom.js";
import vectors from "./vectors/redisbloom/cuckoo.json" with { type: "json" };

type Step = { cmd: string; args: unknown[]; reply: unknown; note?: string };

const INFO_LABELS = [
  "Size",
  "Number of buckets",
  "Number of filters",
  "Number of items inserted",
  "Number of items deleted",
  "Bucket size",
  "Expansion rate",
  "Max iterations",
];

/** Keyspace, arity and argument-syntax replies: Redis-server concerns with no library analogue. */
const notExpressible =
  /item exists|WRONGTYPE|not found|Not found|Invalid position|wrong number of arguments|Unknown argument|Couldn't load chunk|Invalid header|Couldn't create filter/;

/** A replayer of CF.* commands over CuckooFilter objects, with RedisBloom's auto-create. */
class Replayer {
  readonly filters = new Map<string, CuckooFilter>();
  readonly pending = new Map<string, [number, Uint8Array][]>();

  filter(key: string, create?: { capacity?: number }): CuckooFilter | undefined {
    const chunks = this.pending.get(key);
    if (chunks) {
      this.pending.delete(key);
      this.filters.set(key, CuckooFilter.load(chunks));
    }
    let f = this.filters.get(key);
    if (!f && create) {
      f = new CuckooFilter(create.capacity === undefined ? undefined : { capacity: create.capacity });
      this.filters.set(key, f);
    }
    return f;
  }

  run(step: Step): unknown {
    const [keyArg, ...rest] = step.args;
    const key = textOf(keyArg);
    const num = (e: unknown) => {
      const t = textOf(e);
      return /^-?\d+$/.test(t) ? Number(t) : Number.NaN;
    };
    const add = (f: CuckooFilter, item: Item, nx: boolean): number => {
      try {
        return (nx ? f.addNx(item) : f.add(item)) ? 1 : 0;
      } catch (e) {
        if (e instanceof RangeError && /Filter is full/.test(e.message)) return -1;
        throw e;
      }
    };
    switch (step.cmd) {
      case "CF.RESERVE": {
        const o: Record<string, number> = { capacity: num(rest[0]) };
        const names: Record<string, string> = {
          BUCKETSIZE: "bucketSize",
          MAXITERATIONS: "maxIterations",
          EXPANSION: "expansion",
        };
        for (let i = 1; i < rest.length; i += 2) o[names[textOf(rest[i]).toUpperCase()]!] = num(rest[i + 1]);
        this.filters.set(key, new CuckooFilter(o));
        return { simple: "OK" };
      }
      case "CF.ADD":
      case "CF.ADDNX": {
        const f = this.filter(key, {})!;
        const r = add(f, itemOf(rest[0]), step.cmd === "CF.ADDNX");
        if (r === -1) throw new RangeError("redstruct/CuckooFilter: Filter is full");
        return r;
      }
      case "CF.INSERT":
      case "CF.INSERTNX": {
        let capacity: number | undefined;
        let i = 0;
        for (; i < rest.length && textOf(rest[i]).toUpperCase() !== "ITEMS"; i++) {
          if (textOf(rest[i]).toUpperCase() === "CAPACITY") capacity = num(rest[++i]);
        }
        const f = this.filter(key, { capacity })!;
        return rest.slice(i + 1).map((e) => add(f, itemOf(e), step.cmd === "CF.INSERTNX"));
      }
      case "CF.EXISTS":
        return this.filter(key)!.has(itemOf(rest[0])) ? 1 : 0;
      case "CF.MEXISTS":
        return this.filter(key)!
          .hasAll(rest.map(itemOf))
          .map((b) => (b ? 1 : 0));
      case "CF.COUNT":
        return this.filter(key)!.count(itemOf(rest[0]));
      case "CF.DEL":
        return this.filter(key)!.remove(itemOf(rest[0])) ? 1 : 0;
      case "CF.COMPACT":
        this.filter(key)!.compact();
        return { simple: "OK" };
      case "CF.INFO": {
        const i = this.filter(key)!.info();
        const values = [i.size, i.buckets, i.filters, i.items, i.deleted, i.bucketSize, i.expansion, i.maxIterations];
        return INFO_LABELS.flatMap((l, j) => [{ simple: l }, values[j]]);
      }
      case "CF.DEBUG": {
        const i = this.filter(key)!.info();
        return {
          utf8: `bktsize:${i.bucketSize} buckets:${i.buckets} items:${i.items} deletes:${i.deleted} filters:${i.filters} max_iterations:${i.maxIterations} expansion:${i.expansion}`,
        };
      }
      case "CF.SCANDUMP": {
        const pos = num(rest[0]);
        const dump = this.filter(key)!.dump();
        if (pos === 0) return dump.length === 0 ? [0, null] : [1, { hex: toHex(dump[0]![1]) }];
        const hit = dump.find(([p, c], j) => j > 0 && p - c.length === pos);
        return hit ? [hit[0], { hex: toHex(hit[1]) }] : [0, null];
      }
      case "CF.LOADCHUNK": {
        const list = this.pending.get(key) ?? [];
        const data = itemOf(rest[1]);
        list.push([num(rest[0]), typeof data === "string" ? new TextEncoder().encode(data) : data]);
        this.pending.set(key, list);
        return { simple: "OK" };
      }
      default:
        throw new Error(`unexpected ${step.cmd}`);
    }
  }

  /** Replays steps, comparing every reply; returns how many were compared. */
  replay(steps: Step[]): number {
    let compared = 0;
    for (const step of steps) {
      const label = `${step.cmd} ${JSON.stringify(step.args).slice(0, 100)}`;
      const reply = step.reply as { error?: string } | null;
      if (reply !== null && typeof reply === "object" && "error" in reply && typeof reply.error === "string") {
        if (notExpressible.test(reply.error)) continue;
        expect(() => this.run(step), label).toThrow(/redstruct\/CuckooFilter/);
        if (/Filter is full|Maximum expansions/.test(reply.error))
          expect(() => this.run(step), label).toThrow(reply.error);
      } else {
        expect(this.run(step), label).toEqual(step.reply);
      }
      compared++;
    }
    for (const f of this.filters.values()) f.checkInvariants();
    return compared;
  }
}

type Item = string | Uint8Array;

describe("CuckooFilter replays RedisBloom 2.4.23 (cuckoo.json)", () => {
  for (const c of vectors.cases) {
    it(`case ${c.name}`, () => {
      const r = new Replayer();
      let total = 0;
      for (const [name, steps] of Object.entries(c.sections as unknown as Record<string, Step[]>)) {
        const n = r.replay(steps);
        expect(n, name).toBeGreaterThan(0);
        total += n;
      }
      expect(total).toBeGreaterThan(30);
      // The restored filter dumps exactly what was loaded (RedisBloom: roundtrip_rescandump_identical).
      const scandump = (c.sections as unknown as Record<string, Step[]>).scandump!;
      const restored = r.filter(`${c.key}:restored`);
      if (restored) {
        const recorded = scandump
          .filter((s) => (s.reply as unknown[])[0] !== 0)
          .map((s) => (s.reply as [number, { hex: string }])[1].hex);
        expect(restored.dump().map(([, bytes]) => toHex(bytes))).toEqual(recorded);
        expect(c.derived.roundtrip_rescandump_identical).toBe(true);
      }
    });
  }

  it("argument errors and the valid steps around them", () => {
    const r = new Replayer();
    // Commands on absent keys or on a string key are about Redis's keyspace; cf:lc is the LOADCHUNK test below.
    const steps = (vectors.errors as Step[]).filter(
      (s) => s.cmd !== "CF.LOADCHUNK" && !/^(cf:lc|cf:missing|plainstring)$/.test(textOf(s.args[0])),
    );
    expect(r.replay(steps)).toBeGreaterThan(15);
  });

  it("hand-edited LOADCHUNK headers that RedisBloom refuses throw RedstructFormatError", () => {
    for (const s of vectors.errors as Step[]) {
      if (s.cmd !== "CF.LOADCHUNK" || textOf(s.args[1]) !== "1") continue;
      const reply = s.reply as { error?: string };
      const data = itemOf(s.args[2]);
      if (reply.error) {
        expect(() => CuckooFilter.load([[1, data as Uint8Array]])).toThrow(RedstructFormatError);
      }
    }
    // Header alone: the data chunks never arrive.
    const header = fromHex("0100000000000000040000000000000000000000000000000100000000000000020014000100");
    expect(() => CuckooFilter.load([[1, header]])).toThrow(/delivered 0 of 8 bytes/);
    // RedisBloom takes data whose fingerprint count disagrees with the header; redstruct refuses it.
    expect(() =>
      CuckooFilter.load([
        [1, header],
        [9, fromHex("0102030405060708")],
      ]),
    ).toThrow(/header says 1 items/);
    expect(
      CuckooFilter.load([
        [1, header],
        [9, fromHex("0000000000000700")],
      ]).has("x"),
    ).toBe(false);
  });
});

describe("CuckooFilter behaviour", () => {
  it("validates its arguments", () => {
    expect(() => new CuckooFilter({ capacity: 3 })).toThrow(/capacity must be/);
    expect(() => new CuckooFilter({ capacity: -1 })).toThrow(RangeError);
    expect(() => new CuckooFilter({ bucketSize: 0 })).toThrow(/bucketSize must be/);
    expect(() => new CuckooFilter({ bucketSize: 256 })).toThrow(/bucketSize/);
    expect(() => new CuckooFilter({ maxIterations: 0 })).toThrow(/maxIterations/);
    expect(() => new CuckooFilter({ expansion: 32769 })).toThrow(/expansion/);
    expect(() => new CuckooFilter({ capacity: 2 ** 31 })).toThrow(/capacity/);
    expect(() => new CuckooFilter({ capacity: "10" as unknown as number })).toThrow(TypeError);
    expect(() => new CuckooFilter({ capacity: null as unknown as number })).toThrow(TypeError);
    expect(() => new CuckooFilter({ Capacity: 10 } as unknown as { capacity: number })).toThrow(/unknown option/);
    expect(() => new CuckooFilter(null as unknown as undefined)).toThrow(TypeError);
    const f = new CuckooFilter({ capacity: 10 });
    expect(() => f.add({} as unknown as string)).toThrow(TypeError);
    expect(() => f.hasAll("abc" as unknown as string[])).toThrow(TypeError);
    expect(new CuckooFilter({ expansion: 3 }).info().expansion).toBe(4);
    expect(new CuckooFilter().info()).toMatchObject({ buckets: 512, bucketSize: 2, maxIterations: 20, expansion: 1 });
  });

  it("a full filter with expansion 0 throws and stays unchanged", () => {
    const f = new CuckooFilter({ capacity: 4, bucketSize: 1, maxIterations: 1, expansion: 0 });
    let i = 0;
    let error: unknown;
    for (; i < 100; i++) {
      try {
        f.add(`x${i}`);
      } catch (e) {
        error = e;
        break;
      }
    }
    expect(error).toBeInstanceOf(RangeError);
    const before = f.dump();
    expect(() => f.add(`x${i}`)).toThrow(/Filter is full/);
    expect(f.dump()).toEqual(before);
    f.checkInvariants();
  });

  const ops = fc.array(
    fc.oneof(
      fc.record({ op: fc.constant("add" as const), item: fc.integer({ min: 0, max: 60 }) }),
      fc.record({ op: fc.constant("remove" as const), item: fc.integer({ min: 0, max: 60 }) }),
      fc.record({ op: fc.constant("compact" as const), item: fc.constant(0) }),
    ),
    { maxLength: 300 },
  );
  const params = fc.record({
    capacity: fc.integer({ min: 8, max: 64 }),
    bucketSize: fc.integer({ min: 1, max: 4 }),
    maxIterations: fc.integer({ min: 1, max: 30 }),
    expansion: fc.integer({ min: 1, max: 4 }),
  });

  it("never a false negative and matches a multiset model while only added items are removed (seeded)", () => {
    fc.assert(
      fc.property(params, ops, (p, list) => {
        fc.pre(p.capacity >= 2 * p.bucketSize);
        const f = new CuckooFilter(p);
        const model = new Map<number, number>();
        for (const { op, item } of list) {
          const key = `item:${item}`;
          if (op === "add") {
            try {
              f.add(key);
            } catch (e) {
              expect((e as Error).message).toMatch(/Maximum expansions|passes|pass /);
              continue;
            }
            model.set(item, (model.get(item) ?? 0) + 1);
          } else if (op === "remove") {
            if (!model.get(item)) continue; // only added items are removed
            expect(f.remove(key)).toBe(true);
            model.set(item, model.get(item)! - 1);
          } else {
            f.compact();
          }
          f.checkInvariants();
        }
        let stored = 0;
        for (const [item, n] of model) {
          stored += n;
          if (n > 0) {
            expect(f.has(`item:${item}`)).toBe(true);
            expect(f.count(`item:${item}`)).toBeGreaterThanOrEqual(n);
          }
        }
        expect(f.size).toBe(stored);
        expect(f.info().items).toBe(stored);
      }),
      { seed: 0xcf1, numRuns: 300 },
    );
  });

  it("dump / load round-trips, including across growth and deletes (seeded)", () => {
    fc.assert(
      fc.property(params, ops, (p, list) => {
        fc.pre(p.capacity >= 2 * p.bucketSize);
        const f = new CuckooFilter(p);
        for (const { op, item } of list) {
          if (op === "add") {
            try {
              f.add(`item:${item}`);
            } catch {}
          } else if (op === "remove") f.remove(`item:${item}`);
        }
        const dump = f.dump();
        if (f.size === 0) {
          expect(dump).toEqual([]);
          return;
        }
        const back = CuckooFilter.load(dump);
        back.checkInvariants();
        expect(back.info()).toEqual(f.info());
        expect(back.dump()).toEqual(dump);
        for (let i = 0; i <= 60; i++) expect(back.count(`item:${i}`)).toBe(f.count(`item:${i}`));
      }),
      { seed: 0xcf2, numRuns: 200 },
    );
  });

  it("load only throws RedstructFormatError on hostile chunks (10^4 seeded inputs)", () => {
    const f = new CuckooFilter({ capacity: 8, bucketSize: 2, maxIterations: 3, expansion: 2 });
    for (let i = 0; i < 30; i++) f.add(`v${i}`);
    const dump = f.dump();
    expect(dump.length).toBeGreaterThan(2);
    const flat = new Uint8Array(dump.reduce((a, [, c]) => a + c.length, 0));
    let at = 0;
    for (const [, c] of dump) {
      flat.set(c, at);
      at += c.length;
    }
    // The chunks re-cut from one flat buffer at the dump's own boundaries, so corrupting the buffer
    // corrupts headers and data alike; positions follow the (possibly shortened) buffer.
    const read = (bytes: Uint8Array) => {
      const chunks: [number, Uint8Array][] = [];
      let off = 0;
      for (const [, c] of dump) {
        const part = bytes.subarray(off, Math.min(bytes.length, off + c.length));
        off += c.length;
        if (part.length === 0) break;
        chunks.push([chunks.length === 0 ? 1 : off - 38 + 1 - (c.length - part.length), part]);
      }
      return CuckooFilter.load(chunks);
    };
    expect(read(flat).dump()).toEqual(dump);
    expectOnlyFormatErrors(read, flat, {
      seed: 0xcf3,
      randomRuns: 8000,
      use: (x) => {
        try {
          x.add("new"); // a loaded filter may be full (expansion 0) or at 32 sub-filters
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError);
        }
        x.remove("v1");
        x.has("v2");
      },
    });
    expect(() => CuckooFilter.load(null as unknown as [])).toThrow(RedstructFormatError);
    expect(() => CuckooFilter.load([[1, "x" as unknown as Uint8Array]])).toThrow(RedstructFormatError);
    expect(() => CuckooFilter.load([[0, dump[0]![1]]])).toThrow(RedstructFormatError);
    expect(() => CuckooFilter.load([dump[0]!, dump[2]!])).toThrow(/does not continue/);
  });

  it("refuses a huge header before allocating", () => {
    const header = new Uint8Array(38);
    const v = new DataView(header.buffer);
    v.setUint32(0, 1, true);
    v.setUint32(8, 2 ** 30, true); // buckets
    v.setUint32(24, 1, true); // one filter
    v.setUint16(32, 4, true);
    v.setUint16(34, 20, true);
    v.setUint16(36, 1, true);
    expect(() => CuckooFilter.load([[1, header]])).toThrow(/exceed/);
    v.setUint32(8, 2 ** 20, true);
    v.setUint32(24, 32, true);
    v.setUint16(36, 32768, true);
    expect(() => CuckooFilter.load([[1, header]])).toThrow(/exceeds/);
    v.setUint32(24, 1, true);
    expect(() => CuckooFilter.load([[1, header]])).toThrow(/delivered 0 of 4194304 bytes/);
  });
});
