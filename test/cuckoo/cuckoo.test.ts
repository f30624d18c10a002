import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CUCKOO_MAX_SLOTS, CuckooFilter, RedstructFormatError } from "../../src/cuckoo/index.js";
import { expectOnlyFormatErrors, fuzzDeserializer } from "../support/fuzz.js";
import { BYTE_FORMS, detached, fromHex, inForm, itemOf, oneBuffer, textOf, toHex } from "../support/redisbloom.js";
import vectors from "../vectors/redisbloom/cuckoo.json" with { type: "json" };

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
      const loaded = CuckooFilter.fromRedis(chunks);
      // CF.LOADCHUNK restores the data chunks in any order: the recorded ones, reversed, load the same filter.
      const reversed = CuckooFilter.fromRedis([chunks[0]!, ...chunks.slice(1).reverse()]);
      expect(reversed.toBytes()).toEqual(loaded.toBytes());
      this.filters.set(key, loaded);
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
        return (nx ? f.add(item, { nx: true }) : f.add(item)) ? 1 : 0;
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
        return this.filter(key)!.delete(itemOf(rest[0])) ? 1 : 0;
      case "CF.COMPACT":
        this.filter(key)!.compact();
        return { simple: "OK" };
      case "CF.INFO": {
        const i = this.filter(key)!.info();
        const values = [
          i.byteLength,
          i.buckets,
          i.filters,
          i.size,
          i.deleted,
          i.bucketSize,
          i.expansion,
          i.maxIterations,
        ];
        return INFO_LABELS.flatMap((l, j) => [{ simple: l }, values[j]]);
      }
      case "CF.DEBUG": {
        const i = this.filter(key)!.info();
        return {
          utf8: `bktsize:${i.bucketSize} buckets:${i.buckets} items:${i.size} deletes:${i.deleted} filters:${i.filters} max_iterations:${i.maxIterations} expansion:${i.expansion}`,
        };
      }
      case "CF.SCANDUMP": {
        const pos = num(rest[0]);
        const dump = this.filter(key)!.toRedis();
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
        expect(restored.toRedis().map(([, bytes]) => toHex(bytes))).toEqual(recorded);
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
      const arg = itemOf(s.args[2]);
      const data = typeof arg === "string" ? new TextEncoder().encode(arg) : arg;
      if (reply.error) {
        expect(() => CuckooFilter.fromRedis([[1, data]])).toThrow(RedstructFormatError);
      }
    }
    // Header alone: the data chunks never arrive.
    const header = fromHex("0100000000000000040000000000000000000000000000000100000000000000020014000100");
    expect(() => CuckooFilter.fromRedis([[1, header]])).toThrow(/delivered 0 of 8 bytes/);
    // RedisBloom takes data whose fingerprint count disagrees with the header; redstruct refuses it.
    expect(() =>
      CuckooFilter.fromRedis([
        [1, header],
        [9, fromHex("0102030405060708")],
      ]),
    ).toThrow(/header says 1 items/);
    expect(
      CuckooFilter.fromRedis([
        [1, header],
        [9, fromHex("0000000000000700")],
      ]).has("x"),
    ).toBe(false);
  });
});

describe("CuckooFilter behaviour", () => {
  it("validates its arguments, naming the structure and the parameter", () => {
    expect(() => new CuckooFilter({ capacity: 3 })).toThrow(/capacity must be/);
    expect(() => new CuckooFilter({ capacity: -1 })).toThrow(RangeError);
    expect(() => new CuckooFilter({ bucketSize: 0 })).toThrow(/bucketSize must be/);
    expect(() => new CuckooFilter({ bucketSize: 256 })).toThrow(/bucketSize/);
    expect(() => new CuckooFilter({ maxIterations: 0 })).toThrow(/maxIterations/);
    expect(() => new CuckooFilter({ expansion: 32769 })).toThrow(/expansion/);
    expect(() => new CuckooFilter({ capacity: 2 ** 31 })).toThrow(/capacity/);
    expect(() => new CuckooFilter({ capacity: "10" as unknown as number })).toThrow(TypeError);
    expect(() => new CuckooFilter({ capacity: null as unknown as number })).toThrow(TypeError);
    expect(() => new CuckooFilter({ Capacity: 10 } as unknown as { capacity: number })).toThrow(
      /unknown option "Capacity".*did you mean "capacity"/,
    );
    expect(() => new CuckooFilter(null as unknown as undefined)).toThrow(TypeError);
    const f = new CuckooFilter({ capacity: 10 });
    for (const bad of [null, undefined, {}, [1], true]) {
      for (const call of [
        () => f.add(bad as never),
        () => f.has(bad as never),
        () => f.count(bad as never),
        () => f.delete(bad as never),
      ]) {
        expect(call).toThrow(TypeError);
        expect(call).toThrow(/^redstruct\/CuckooFilter: item must be a string, number, bigint or Uint8Array, got/);
      }
    }
    expect(() => f.hasAll(["a", null as never])).toThrow(/CuckooFilter: items\[1\] must be/);
    expect(() => f.addAll(["a", {} as never])).toThrow(/CuckooFilter: items\[1\] must be/);
    expect(f.size).toBe(1); // addAll added "a" before it met the bad item
    expect(() => f.hasAll("abc" as unknown as string[])).toThrow(TypeError);
    expect(() => f.add("x", { NX: true } as never)).toThrow(/unknown option "NX".*did you mean "nx"/);
    expect(() => f.add("x", { nx: 1 } as never)).toThrow(/nx must be a boolean/);
    expect(() => f.add("x", null as never)).toThrow(TypeError);
    expect(f.size).toBe(1);
    expect(new CuckooFilter({ expansion: 3 }).info().expansion).toBe(4);
    expect(new CuckooFilter().info()).toMatchObject({ buckets: 512, bucketSize: 2, maxIterations: 20, expansion: 1 });
    expect(() => JSON.stringify(f)).toThrow(/not JSON.*toBytes\(\)/);
  });

  it("add({ nx: true }) and addAll({ nx: true }) are CF.ADDNX / CF.INSERTNX", () => {
    const f = new CuckooFilter({ capacity: 100 });
    expect(f.add("a", { nx: true })).toBe(true);
    expect(f.add("a", { nx: true })).toBe(false);
    expect(f.add("a", { nx: false })).toBe(true);
    expect(f.count("a")).toBe(2);
    expect(f.addAll(["b", "b", "a", "c"], { nx: true })).toEqual([true, false, false, true]);
    expect(f.addAll(["b", "b"])).toEqual([true, true]);
    expect(f.size).toBe(6);
    f.checkInvariants();
  });

  it("a full filter with expansion 0 throws and stays unchanged; addAll keeps the items before", () => {
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
    const before = f.toBytes();
    expect(() => f.add(`x${i}`)).toThrow(/Filter is full/);
    expect(f.toBytes()).toEqual(before);
    f.checkInvariants();
    const g = new CuckooFilter({ capacity: 4, bucketSize: 1, maxIterations: 1, expansion: 0 });
    const items = Array.from({ length: i + 1 }, (_, j) => `x${j}`);
    expect(() => g.addAll(items)).toThrow(
      new RegExp(`Filter is full.*items\\[${i}\\].*${i} items before it were added`),
    );
    expect(g.toBytes()).toEqual(before);
  });

  it("growth stops at CUCKOO_MAX_SLOTS in all sub-filters, with a RangeError before allocating", () => {
    // Re-adding one item fills only its two buckets, so each 2·bucketSize copies force a new
    // sub-filter, expansion times larger than the last: the total, not just each one, is bounded.
    for (const [options, filters] of [
      [{ capacity: 2, bucketSize: 1, maxIterations: 1, expansion: 32768 }, 2],
      [{ capacity: 4, bucketSize: 2, maxIterations: 3, expansion: 16384 }, 2],
      [{ capacity: 8, bucketSize: 4, maxIterations: 2, expansion: 1024 }, 3],
    ] as const) {
      const f = new CuckooFilter(options);
      let error: unknown;
      for (let i = 0; i < 1000 && error === undefined; i++) {
        const before = f.info();
        try {
          f.add("same-key");
        } catch (e) {
          error = e;
          expect(f.info()).toEqual(before);
        }
      }
      expect(error).toBeInstanceOf(RangeError);
      expect((error as Error).message).toMatch(/past the 1073741824 allowed/);
      expect(f.info().filters).toBe(filters);
      expect(f.info().byteLength - 40 - 16 * filters).toBeLessThanOrEqual(CUCKOO_MAX_SLOTS);
      expect(f.count("same-key")).toBeGreaterThanOrEqual(f.size);
      f.checkInvariants();
    }
  });

  const ops = fc.array(
    fc.oneof(
      fc.record({ op: fc.constant("add" as const), item: fc.integer({ min: 0, max: 60 }) }),
      fc.record({ op: fc.constant("delete" as const), item: fc.integer({ min: 0, max: 60 }) }),
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
  /** A filter after a list of operations (adds that do not fit are skipped). */
  const build = (p: { capacity: number; bucketSize: number }, list: { op: string; item: number }[]) => {
    const f = new CuckooFilter(p);
    for (const { op, item } of list) {
      if (op === "add") {
        try {
          f.add(`item:${item}`);
        } catch {}
      } else if (op === "delete") f.delete(`item:${item}`);
      else f.compact();
    }
    return f;
  };

  it("never a false negative and matches a multiset model while only added items are deleted (seeded)", () => {
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
              expect((e as Error).message).toMatch(/Maximum expansions|past the/);
              continue;
            }
            model.set(item, (model.get(item) ?? 0) + 1);
          } else if (op === "delete") {
            if (!model.get(item)) continue; // only added items are deleted
            expect(f.delete(key)).toBe(true);
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
        expect(f.info().size).toBe(stored);
      }),
      { seed: 0xcf1, numRuns: 300 },
    );
  });

  it("toRedis / fromRedis and toBytes / fromBytes round-trip, across growth and deletes (seeded)", () => {
    fc.assert(
      fc.property(params, ops, (p, list) => {
        fc.pre(p.capacity >= 2 * p.bucketSize);
        const f = build(p, list);
        const bytes = f.toBytes();
        const fromBytes = CuckooFilter.fromBytes(bytes);
        fromBytes.checkInvariants();
        expect(fromBytes.info()).toEqual(f.info());
        expect(fromBytes.toBytes()).toEqual(bytes);
        const dump = f.toRedis();
        if (f.size === 0) {
          expect(dump).toEqual([]);
          return;
        }
        const back = CuckooFilter.fromRedis(dump);
        back.checkInvariants();
        expect(back.info()).toEqual(f.info());
        expect(back.toRedis()).toEqual(dump);
        expect(back.toBytes()).toEqual(bytes);
        for (let i = 0; i <= 60; i++) expect(back.count(`item:${i}`)).toBe(f.count(`item:${i}`));
      }),
      { seed: 0xcf2, numRuns: 200 },
    );
  });

  it("clone is independent; from(items) adds each once; byteLength counts the slots (seeded)", () => {
    fc.assert(
      fc.property(params, ops, fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }), (p, list, more) => {
        fc.pre(p.capacity >= 2 * p.bucketSize);
        const f = build(p, list);
        const c = f.clone();
        c.checkInvariants();
        expect(c.toBytes()).toEqual(f.toBytes());
        const before = f.toBytes();
        for (const i of more) {
          try {
            c.add(`more:${i}`);
          } catch {}
          c.delete(`item:${i}`);
        }
        c.checkInvariants();
        expect(f.toBytes()).toEqual(before);
        const slots = f.info().byteLength - 40 - 16 * f.info().filters;
        expect(f.byteLength).toBe(slots + 4 * 32 + 4 * p.maxIterations);
        const items = more.map((i) => `more:${i}`);
        const g = new CuckooFilter(p);
        for (const x of items) g.add(x);
        expect(CuckooFilter.from(items, p).toBytes()).toEqual(g.toBytes());
      }),
      { seed: 0xcf4, numRuns: 150 },
    );
    expect(() => CuckooFilter.from("abc" as never)).toThrow(/items must be an iterable/);
    expect(CuckooFilter.from([]).size).toBe(0);
  });

  it("fromRedis accepts the data chunks in any order that delivers every byte once (seeded)", () => {
    // Several chunks per sub-filter: the dump's own chunks cut into pieces, positions recomputed.
    const pieces = (dump: [number, Uint8Array][], cuts: number[]): [number, Uint8Array][] => {
      const out: [number, Uint8Array][] = [dump[0]!];
      let offset = 0;
      for (const [, chunk] of dump.slice(1)) {
        let at = 0;
        for (const cut of cuts) {
          const end = Math.min(chunk.length, at + cut);
          if (end > at) {
            out.push([offset + end + 1, chunk.subarray(at, end)]);
            at = end;
          }
        }
        if (at < chunk.length) out.push([offset + chunk.length + 1, chunk.subarray(at)]);
        offset += chunk.length;
      }
      return out;
    };
    fc.assert(
      fc.property(
        params,
        ops,
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }),
        fc.infiniteStream(fc.nat()),
        (p, list, cuts, rand) => {
          fc.pre(p.capacity >= 2 * p.bucketSize);
          const f = build(p, list);
          fc.pre(f.size > 0);
          const chunks = pieces(f.toRedis(), cuts);
          const data = chunks.slice(1);
          const r = rand[Symbol.iterator]();
          for (let i = data.length - 1; i > 0; i--) {
            const j = r.next().value % (i + 1);
            [data[i], data[j]] = [data[j]!, data[i]!];
          }
          const shuffled = [chunks[0]!, ...data];
          expect(CuckooFilter.fromRedis(shuffled).toBytes()).toEqual(f.toBytes());
          if (data.length > 1) {
            // A chunk delivered twice (in place of another) or left out is refused.
            const twice = [chunks[0]!, ...data.slice(0, -1), data[0]!];
            expect(() => CuckooFilter.fromRedis(twice)).toThrow(RedstructFormatError);
            expect(() => CuckooFilter.fromRedis([chunks[0]!, ...data.slice(1)])).toThrow(/delivered/);
          }
          expect(() => CuckooFilter.fromRedis([...shuffled, data[0]!])).toThrow(/more than/);
          expect(() => CuckooFilter.fromRedis([data[0]!, chunks[0]!])).toThrow(/first chunk must be the header/);
        },
      ),
      { seed: 0xcf5, numRuns: 150 },
    );
  });

  it("byte inputs are copied or consumed when read: reused-buffer readers, views, Buffers (seeded)", () => {
    // The case: a reader yielding every chunk from one reused buffer.
    const small = new CuckooFilter({ capacity: 4, bucketSize: 1, expansion: 1 });
    for (let i = 0; i < 6; i++) small.add(`i${i}`);
    expect(small.info().filters).toBeGreaterThan(1);
    const loaded = CuckooFilter.fromRedis(oneBuffer(small.toRedis()));
    for (let i = 0; i < 6; i++) expect(loaded.has(`i${i}`)).toBe(true);
    fc.assert(
      fc.property(
        params,
        ops,
        fc.constantFrom(...BYTE_FORMS),
        fc.array(fc.uint8Array({ maxLength: 6 })),
        (p, list, form, items) => {
          fc.pre(p.capacity >= 2 * p.bucketSize);
          const f = build(p, list);
          const expected = f.toBytes();
          if (f.size > 0) {
            expect(CuckooFilter.fromRedis(oneBuffer(f.toRedis())).toBytes()).toEqual(expected);
            const chunks = f.toRedis().map(([pos, c]) => [pos, inForm(c, form)] as const);
            const g = CuckooFilter.fromRedis(chunks.map(([pos, c]) => [pos, c.value]));
            for (const [, c] of chunks) c.scramble();
            expect(g.toBytes()).toEqual(expected);
          }
          const b = inForm(expected, form);
          const h = CuckooFilter.fromBytes(b.value);
          b.scramble();
          expect(h.toBytes()).toEqual(expected);
          // Items: the filter keeps fingerprints, so a byte item changed after add is still the item added.
          for (const item of items) {
            const x = inForm(item, form);
            try {
              h.add(x.value);
            } catch {
              continue;
            }
            x.scramble();
            expect(h.has(item)).toBe(true);
          }
          h.checkInvariants();
        },
      ),
      { seed: 0xcf6, numRuns: 150 },
    );
  });

  it("an iterator that re-enters the filter between items works: each item is taken in turn", () => {
    const f = new CuckooFilter({ capacity: 64 });
    const plain = new CuckooFilter({ capacity: 64 });
    function* items(): Generator<string> {
      for (let i = 0; i < 40; i++) {
        f.add(`side${i}`);
        if (i % 3 === 0) f.delete(`x${i - 3}`);
        f.count("x0");
        yield `x${i}`;
      }
    }
    const replies = f.addAll(items());
    const expected: boolean[] = [];
    for (let i = 0; i < 40; i++) {
      plain.add(`side${i}`);
      if (i % 3 === 0) plain.delete(`x${i - 3}`);
      expected.push(plain.add(`x${i}`));
    }
    expect(replies).toEqual(expected);
    expect(f.toBytes()).toEqual(plain.toBytes());
    function* probes(): Generator<string> {
      yield "late";
      f.add("late");
      yield "late";
    }
    expect(f.hasAll(probes())).toEqual([false, true]);
    f.checkInvariants();
  });

  it("detached views are a TypeError naming the parameter, before anything changes", () => {
    const f = CuckooFilter.from(["a", "b"], { capacity: 16 });
    const before = f.toBytes();
    const gone = detached(new Uint8Array([1, 2, 3]));
    for (const call of [() => f.add(gone), () => f.has(gone), () => f.count(gone), () => f.delete(gone)]) {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(/CuckooFilter: item is a Uint8Array whose buffer was detached/);
    }
    expect(f.toBytes()).toEqual(before);
    expect(() => f.addAll(["c", gone])).toThrow(/items\[1\] is a Uint8Array whose buffer was detached/);
    expect(f.toBytes()).toEqual(CuckooFilter.from(["a", "b", "c"], { capacity: 16 }).toBytes());
    expect(() => CuckooFilter.fromBytes(detached(before))).toThrow(/bytes is a Uint8Array whose buffer was detached/);
    const dump = f.toRedis();
    expect(() => CuckooFilter.fromRedis([dump[0]!, [dump[1]![0], detached(dump[1]![1])]])).toThrow(
      /chunks\[1\]\[1\] is a Uint8Array whose buffer was detached/,
    );
  });

  it("fromRedis only throws RedstructFormatError on hostile chunks (10^4 seeded inputs)", () => {
    const f = new CuckooFilter({ capacity: 8, bucketSize: 2, maxIterations: 3, expansion: 2 });
    for (let i = 0; i < 30; i++) f.add(`v${i}`);
    const dump = f.toRedis();
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
      return CuckooFilter.fromRedis(chunks);
    };
    expect(read(flat).toRedis()).toEqual(dump);
    expectOnlyFormatErrors(read, flat, {
      seed: 0xcf3,
      randomRuns: 8000,
      use: (x) => {
        try {
          x.add("new"); // a loaded filter may be full (expansion 0), at 32 sub-filters or at the slot limit
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError);
        }
        x.delete("v1");
        x.has("v2");
        x.checkInvariants();
      },
    });
    expect(() => CuckooFilter.fromRedis(null as unknown as [])).toThrow(/chunks must be/);
    expect(() => CuckooFilter.fromRedis([[1, "x" as unknown as Uint8Array]])).toThrow(
      /chunks\[0\]\[1\] must be a Uint8Array/,
    );
    expect(() => CuckooFilter.fromRedis([null as never])).toThrow(/chunks\[0\] must be a \[position, bytes\] pair/);
    expect(() => CuckooFilter.fromRedis([["1", dump[0]![1]] as never])).toThrow(/chunks\[0\]\[0\] must be a number/);
    expect(() => CuckooFilter.fromRedis([[0, dump[0]![1]]])).toThrow(RedstructFormatError);
    expect(() => CuckooFilter.fromRedis([dump[0]!, dump[2]!])).toThrow(/delivered/);
    expect(() => CuckooFilter.fromRedis([dump[0]!, dump[0]!])).toThrow(/second header/);
  });

  it("fromBytes only throws RedstructFormatError on hostile input (10^4 seeded inputs)", () => {
    const grown = new CuckooFilter({ capacity: 8, bucketSize: 2, maxIterations: 3, expansion: 2 });
    for (let i = 0; i < 30; i++) grown.add(`v${i}`);
    grown.delete("v3");
    const valid = [
      grown.toBytes(),
      new CuckooFilter({ capacity: 4, bucketSize: 1 }).toBytes(),
      CuckooFilter.from(["a", "b", "a"], { capacity: 6, bucketSize: 3, expansion: 0 }).toBytes(),
    ];
    const counts = fuzzDeserializer(
      {
        name: "CuckooFilter.fromBytes",
        read: CuckooFilter.fromBytes,
        valid,
        use: (x) => {
          const y = x.clone(); // use runs before write: x itself stays as loaded
          try {
            y.add("new");
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError);
          }
          y.delete("v1");
          y.has("v2");
          y.checkInvariants();
        },
        write: (x) => x.toBytes(),
      },
      { seed: 0xcf7, runs: 10_000 },
    );
    expect(counts.loaded).toBeGreaterThan(50);
    expect(counts.refused).toBeGreaterThan(5000);
    expect(() => CuckooFilter.fromBytes("x" as never)).toThrow(/bytes must be a Uint8Array/);
    expect(() => CuckooFilter.fromBytes(grown.toRedis()[0]![1])).toThrow(/not a CuckooFilter's toBytes\(\) output/);
  });

  it("refuses a header past the slot limit before allocating", () => {
    const header = new Uint8Array(38);
    const v = new DataView(header.buffer);
    v.setUint32(0, 1, true);
    v.setUint32(8, 2 ** 30, true); // buckets
    v.setUint32(24, 1, true); // one filter
    v.setUint16(32, 4, true);
    v.setUint16(34, 20, true);
    v.setUint16(36, 1, true);
    expect(() => CuckooFilter.fromRedis([[1, header]])).toThrow(/exceed/);
    v.setUint32(8, 2 ** 20, true);
    v.setUint32(24, 32, true);
    v.setUint16(36, 1, true); // 32 sub-filters of 2^22 slots: 2^27 in all, accepted
    expect(() => CuckooFilter.fromRedis([[1, header]])).toThrow(/delivered 0 of 134217728 bytes/);
    v.setUint16(36, 2, true); // doubling: past 2^30 at the ninth
    expect(() => CuckooFilter.fromRedis([[1, header]])).toThrow(/9 sub-filters .* exceed 1073741824 slots/);
    v.setUint32(24, 1, true);
    expect(() => CuckooFilter.fromRedis([[1, header]])).toThrow(/delivered 0 of 4194304 bytes/);
    const bytes = new CuckooFilter({ capacity: 4, bucketSize: 1 }).toBytes();
    new DataView(bytes.buffer).setUint32(5, 2 ** 30, true); // buckets
    expect(() => CuckooFilter.fromBytes(bytes)).toThrow(/need 1073741824 bytes of slots, got 4/);
  });
});
