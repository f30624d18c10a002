/**
 * CuckooFilter replays RedisBloom 2.4.23 (test/vectors/redisbloom/cuckoo.json) through a CF.*
 * front end with RedisBloom's auto-create: every recorded reply, CF.INFO, SCANDUMP chunk and
 * LOADCHUNK, argument errors and the valid steps around them, and hand-edited LOADCHUNK headers that
 * RedisBloom refuses.
 */
import { describe, expect, it } from "vitest";
import { CuckooFilter, RedstructFormatError } from "../../src/cuckoo/index.js";
import { fromHex, itemOf, textOf, toHex } from "../support/redisbloom.js";
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
