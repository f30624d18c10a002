/**
 * Dict against a reference model: a Map keyed by a canonical tag, so that 1, "1" and 1n are
 * distinct, NaN is one key, -0 is 0, and byte arrays compare by content — the equality the Dict
 * promises. Model-based runs with checkInvariants() after every command, SCAN across grows and
 * shrinks, progressive rehashing (growth at load 1, shrinking at 1/8, bounded work per operation),
 * Map compatibility (types included), randomKey, copies and info().
 */
import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import { Dict, type DictKey } from "../../src/dict/index.js";

function tag(k: DictKey): string {
  if (typeof k === "number") return `n:${Object.is(k, -0) ? 0 : k}`;
  if (typeof k === "string") return `s:${k}`;
  if (typeof k === "bigint") return `b:${k}`;
  return `u:${Array.from(k).join(",")}`;
}

type Model = Map<string, [DictKey, number]>;

function sortedTags(keys: Iterable<DictKey>): string[] {
  return [...keys].map(tag).sort();
}

const keyArb: fc.Arbitrary<DictKey> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -50, max: 400 }) },
  { weight: 3, arbitrary: fc.constantFrom("a", "b", "1", "2", "", "é", "user:1", "💥") },
  { weight: 2, arbitrary: fc.string({ maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, -0, 0.5, 1e300, -Infinity, 2 ** 40) },
  { weight: 1, arbitrary: fc.bigInt({ min: -3n, max: 3n }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 3 }) },
);

const KEY = new Uint32Array([1, 2, 3, 4]);

function scanAll(d: Dict<DictKey, number>, count: number): DictKey[] {
  const out: DictKey[] = [];
  let cursor = 0;
  let guard = 0;
  do {
    const [next, keys] = d.scan(cursor, count);
    out.push(...keys);
    cursor = next;
    if (++guard > 1e6) throw new Error("scan did not terminate");
  } while (cursor !== 0);
  return out;
}

type Real = Dict<DictKey, number>;

type Cmd = fc.Command<Model, Real>;

/** Every command checks the structure's invariants after acting. */
abstract class Base implements Cmd {
  check = () => true;
  abstract act(m: Model, d: Real): void;
  run(m: Model, d: Real): void {
    this.act(m, d);
    d.checkInvariants();
  }
}

class SetCmd extends Base {
  constructor(
    readonly key: DictKey,
    readonly value: number,
  ) {
    super();
  }
  act(m: Model, d: Real): void {
    expect(d.set(this.key, this.value)).toBe(d);
    m.set(tag(this.key), [this.key, this.value]);
    expect(d.size).toBe(m.size);
  }
  override toString = () => `set(${String(this.key)}, ${this.value})`;
}

class ManySetCmd extends Base {
  constructor(
    readonly from: number,
    readonly count: number,
  ) {
    super();
  }
  act(m: Model, d: Real): void {
    for (let i = this.from; i < this.from + this.count; i++) {
      d.set(i, i);
      m.set(tag(i), [i, i]);
    }
    expect(d.size).toBe(m.size);
  }
  override toString = () => `setRange(${this.from}, ${this.count})`;
}

class ManyDeleteCmd extends Base {
  constructor(readonly keep: number) {
    super();
  }
  act(m: Model, d: Real): void {
    let i = 0;
    for (const [t, [k]] of [...m]) {
      if (i++ % this.keep === 0) continue;
      expect(d.delete(k)).toBe(true);
      m.delete(t);
    }
    expect(d.size).toBe(m.size);
  }
  override toString = () => `deleteAllBut1of(${this.keep})`;
}

class GetCmd extends Base {
  constructor(readonly key: DictKey) {
    super();
  }
  act(m: Model, d: Real): void {
    expect(d.get(this.key)).toBe(m.get(tag(this.key))?.[1]);
    expect(d.has(this.key)).toBe(m.has(tag(this.key)));
  }
  override toString = () => `get(${String(this.key)})`;
}

class DeleteCmd extends Base {
  constructor(readonly key: DictKey) {
    super();
  }
  act(m: Model, d: Real): void {
    expect(d.delete(this.key)).toBe(m.delete(tag(this.key)));
    expect(d.size).toBe(m.size);
  }
  override toString = () => `delete(${String(this.key)})`;
}

class ClearCmd extends Base {
  act(m: Model, d: Real): void {
    d.clear();
    m.clear();
    expect(d.size).toBe(0);
  }
  override toString = () => "clear()";
}

class IterateCmd extends Base {
  act(m: Model, d: Real): void {
    const expected = [...m.values()].map(([k, v]) => `${tag(k)}=${v}`).sort();
    expect([...d].map(([k, v]) => `${tag(k)}=${v}`).sort()).toEqual(expected);
    expect(sortedTags(d.keys())).toEqual(sortedTags([...m.values()].map(([k]) => k)));
    expect([...d.values()].sort()).toEqual([...m.values()].map(([, v]) => v).sort());
    const viaForEach: string[] = [];
    d.forEach((v, k, map) => {
      expect(map).toBe(d);
      viaForEach.push(`${tag(k)}=${v}`);
    });
    expect(viaForEach.sort()).toEqual(expected);
  }
  override toString = () => "iterate()";
}

class ScanCmd extends Base {
  constructor(readonly count: number) {
    super();
  }
  act(m: Model, d: Real): void {
    const got = new Set(scanAll(d, this.count).map(tag));
    expect([...got].sort()).toEqual([...m.keys()].sort());
  }
  override toString = () => `scanAll(${this.count})`;
}

class RehashCmd extends Base {
  act(_m: Model, d: Real): void {
    const more = d.rehashFor(0);
    expect(more).toBe(d.rehashing);
  }
  override toString = () => "rehashFor(0)";
}

class RandomKeyCmd extends Base {
  act(m: Model, d: Real): void {
    const k = d.randomKey();
    if (m.size === 0) expect(k).toBeUndefined();
    else expect(m.has(tag(k as DictKey))).toBe(true);
  }
  override toString = () => "randomKey()";
}

const commands = [
  fc.tuple(keyArb, fc.integer()).map(([k, v]) => new SetCmd(k, v)),
  fc.tuple(keyArb, fc.integer()).map(([k, v]) => new SetCmd(k, v)),
  keyArb.map((k) => new GetCmd(k)),
  keyArb.map((k) => new DeleteCmd(k)),
  keyArb.map((k) => new DeleteCmd(k)),
  fc
    .tuple(fc.integer({ min: -100, max: 5000 }), fc.integer({ min: 1, max: 300 }))
    .map(([a, n]) => new ManySetCmd(a, n)),
  fc.integer({ min: 2, max: 40 }).map((k) => new ManyDeleteCmd(k)),
  fc.constant(new ClearCmd()),
  fc.constant(new IterateCmd()),
  fc.integer({ min: 1, max: 20 }).map((c) => new ScanCmd(c)),
  fc.constant(new RehashCmd()),
  fc.constant(new RandomKeyCmd()),
];

describe("Dict: model-based against Map", () => {
  it("random interleavings match the model and keep the invariants", () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), fc.integer({ min: 0, max: 1000 }), (cmds, seed) => {
        const d = new Dict<DictKey, number>(null, { key: KEY, seed, chunkBits: 4 });
        const model: Model = new Map();
        fc.modelRun(() => ({ model, real: d }), cmds);
      }),
      { seed: 20261123, numRuns: 300 },
    );
  });

  it("long runs across many grows and shrinks match the model", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 3000 })), { minLength: 2, maxLength: 8 }),
        (rest) => {
          const phases: [boolean, number][] = [[true, 2000], ...rest, [false, 3000]];
          const d = new Dict<number, number>(null, { key: KEY, seed: 7, chunkBits: 5 });
          const m = new Map<number, number>();
          let next = 0;
          let oldest = 0; // keys oldest..next-1 are present
          let resizes = 0;
          let wasRehashing = false;
          for (const [grow, n] of phases) {
            for (let i = 0; i < n; i++) {
              if (grow) {
                d.set(next, -next);
                m.set(next, -next);
                next++;
              } else if (oldest < next) {
                // delete the oldest key, and probe it
                const k = oldest++;
                m.delete(k);
                if (!d.delete(k) || d.get(k) !== undefined) throw new Error(`delete(${k}) failed`);
              }
              if (d.rehashing && !wasRehashing) resizes++;
              wasRehashing = d.rehashing;
            }
            d.checkInvariants();
            expect(d.size).toBe(m.size);
            let wrong = 0;
            for (const [k, v] of m) if (d.get(k) !== v) wrong++;
            expect(wrong).toBe(0);
          }
          // Enough phases to matter: count that the run really resized.
          expect(resizes).toBeGreaterThan(0);
        },
      ),
      { seed: 77, numRuns: 20 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// SCAN guarantee
// ---------------------------------------------------------------------------------------------

describe("Dict: SCAN", () => {
  it("returns every key present for the whole scan, across grows and shrinks between calls", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant("add" as const), n: fc.integer({ min: 1, max: 600 }) }),
            fc.record({ op: fc.constant("drop" as const), keep: fc.integer({ min: 0, max: 3 }) }),
            fc.record({ op: fc.constant("rehash" as const), n: fc.constant(0) }),
          ),
          { minLength: 1, maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 8 }),
        (stable, actions, count) => {
          const d = new Dict<DictKey, number>(null, { key: KEY, seed: 3, chunkBits: 4 });
          const keep: DictKey[] = [];
          for (let i = 0; i < stable; i++) {
            const k = i % 2 ? `stable:${i}` : i;
            keep.push(k);
            d.set(k, 1);
          }
          let churn: number[] = [];
          let nextChurn = 1e6;
          const seen = new Set<string>();
          let cursor = 0;
          let calls = 0;
          do {
            const [next, keys] = d.scan(cursor, count);
            for (const k of keys) seen.add(tag(k));
            cursor = next;
            const a = actions[calls++ % actions.length]!;
            if (a.op === "add") {
              // bounded churn: the table grows and shrinks, but not forever (a scan over a table
              // that doubles without end need not terminate)
              for (let i = 0; i < a.n && churn.length < 3000; i++) {
                churn.push(nextChurn);
                d.set(nextChurn++, 0);
              }
            } else if (a.op === "drop") {
              churn = churn.filter((k, i) => i % 4 < a.keep || !d.delete(k));
            } else d.rehashFor(0);
            if (calls > 1e5) throw new Error("scan did not terminate");
          } while (cursor !== 0);
          d.checkInvariants();
          for (const k of keep) expect(seen.has(tag(k))).toBe(true);
        },
      ),
      { seed: 4242, numRuns: 120 },
    );
  });

  it("a scan that crosses a grow and a shrink really sees several table sizes", () => {
    const d = new Dict<number, number>(null, { key: KEY });
    for (let i = 0; i < 64; i++) d.set(i, i);
    const seen = new Set<number>();
    const tableSizes = new Set<number>();
    let cursor = 0;
    let round = 0;
    do {
      const [next, keys] = d.scan(cursor, 4);
      for (const k of keys) seen.add(k);
      cursor = next;
      if (round === 2) for (let i = 1000; i < 3000; i++) d.set(i, i);
      if (round === 6) for (let i = 1000; i < 3000; i++) d.delete(i);
      tableSizes.add(d.info().buckets[0]);
      round++;
    } while (cursor !== 0);
    for (let i = 0; i < 64; i++) expect(seen.has(i)).toBe(true);
    expect(tableSizes.size).toBeGreaterThan(2);
  });

  it("is reproducible with a given key and validates its arguments", () => {
    const a = new Dict<string, number>(null, { key: KEY });
    const b = new Dict<string, number>(null, {
      key: Uint8Array.from([1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]),
    });
    for (let i = 0; i < 500; i++) {
      a.set(`k${i}`, i);
      b.set(`k${i}`, i);
    }
    expect(a.scan(0, 50)).toEqual(b.scan(0, 50));
    expect(() => a.scan(-1)).toThrow(RangeError);
    expect(() => a.scan(1.5)).toThrow(/redstruct\/Dict: cursor must be/);
    expect(() => a.scan(0, 0)).toThrow(/count must be/);
    expect(a.scan(0, 1)[1].length).toBeGreaterThan(0);
    expect(new Dict().scan(0)).toEqual([0, []]);
  });
});

// ---------------------------------------------------------------------------------------------
// Progressive rehashing
// ---------------------------------------------------------------------------------------------

describe("Dict: progressive rehash", () => {
  it("grows at load factor 1 to the next power of two, a bounded number of buckets per operation", () => {
    const d = new Dict<number, number>(null, { key: KEY, seed: 1 });
    for (let i = 0; i < 1024; i++) d.set(i, i);
    expect(d.rehashing).toBe(false);
    expect(d.info().buckets).toEqual([1024, 0]);
    d.set(5000, 0); // used 1024 ≥ size 1024: grow to 2048
    let s = d.info();
    expect(s.rehashing).toBe(true);
    expect(s.buckets).toEqual([1024, 2048]);
    let ops = 1;
    while (d.rehashing) {
      const before = d.info().rehashIndex;
      d.get(ops);
      const after = d.info().rehashIndex;
      // one step: at most 10 empty buckets skipped plus the one moved (or the rehash finished)
      if (after >= 0) expect(after - before).toBeLessThanOrEqual(11);
      ops++;
      d.checkInvariants();
    }
    expect(ops).toBeGreaterThan(50); // it really was spread over many operations
    s = d.info();
    expect(s.buckets).toEqual([2048, 0]);
    expect(s.used).toEqual([1025, 0]);
  });

  it("shrinks when size ≤ buckets/8, never below 4 buckets, and rehashFor finishes the work", () => {
    const d = new Dict<number, number>(null, { key: KEY });
    for (let i = 0; i < 4096; i++) d.set(i, i);
    d.rehashFor(1000);
    expect(d.info().buckets).toEqual([4096, 0]);
    for (let i = 0; i < 4096 - 512; i++) d.delete(i);
    expect(d.rehashing).toBe(true);
    expect(d.rehashFor(1000)).toBe(false);
    expect(d.info().buckets).toEqual([512, 0]);
    d.checkInvariants();
    for (let i = 4096 - 512; i < 4096; i++) d.delete(i);
    while (d.rehashFor(1000));
    expect(d.info().buckets).toEqual([4, 0]);
    expect(d.info().slots).toBe(0); // an empty dict gives its slot storage back
    d.checkInvariants();
    expect(() => d.rehashFor(-1)).toThrow(RangeError);
    expect(() => d.rehashFor(Number.NaN)).toThrow(/ms must be/);
  });

  it("large tables grow (taking the spare table allocated at half load), shrink and scan correctly", () => {
    const d = new Dict<DictKey, number>(null, { key: KEY, seed: 2 });
    const n = 70_000; // tables of 2^17 buckets, the next one allocated ahead from 2^16 entries on
    for (let i = 0; i < n; i++) {
      d.set(i % 3 ? i : `s${i}`, i);
      // around the grows to 2^16 and 2^17 buckets, before and after the spare tables exist
      if (i % 4096 === 4095 && i > 30_000) d.checkInvariants();
    }
    d.checkInvariants();
    expect(d.info().buckets[d.rehashing ? 1 : 0]).toBe(131072);
    const seen = new Set(scanAll(d, 1000).map(tag));
    expect(seen.size).toBe(n);
    for (let i = 0; i < n - 100; i++) d.delete(i % 3 ? i : `s${i}`);
    while (d.rehashFor(1000));
    d.checkInvariants();
    // Shrinks follow the deletes (one in flight at a time, each to the power of two ≥ the size when
    // it started), so where they stop depends on the hashes; what must hold: no shrink is owed
    // (size > buckets / 8) and none went below the size.
    const [buckets] = d.info().buckets;
    expect(d.info().rehashing).toBe(false);
    expect(buckets).toBeGreaterThanOrEqual(128);
    expect(100).toBeGreaterThan(buckets / 8);
    let ok = 0;
    for (let i = n - 100; i < n; i++) if (d.get(i % 3 ? i : `s${i}`) === i) ok++;
    expect(ok).toBe(100);
  });

  it("iterators stay correct while rehashing happens underneath", () => {
    const d = new Dict<number, number>(null, { key: KEY, chunkBits: 4 });
    for (let i = 0; i < 1024; i++) d.set(i, i);
    d.set(1024, 1024); // starts a grow
    expect(d.rehashing).toBe(true);
    const seen: number[] = [];
    for (const [k] of d) {
      seen.push(k);
      d.get(k); // each lookup migrates buckets
    }
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 1025 }, (_, i) => i));
  });
});

// ---------------------------------------------------------------------------------------------
// Map compatibility and key semantics
// ---------------------------------------------------------------------------------------------

describe("Dict: Map compatibility", () => {
  it("drops into Map-shaped code: constructor from entries, spread, for…of, forEach, toStringTag", () => {
    const src: [string, number][] = [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ];
    const d = new Dict(src);
    const asMap: Map<string, number> = d;
    expect(asMap.size).toBe(3);
    expect(new Map([...d]).get("b")).toBe(2);
    expect(Object.prototype.toString.call(d)).toBe("[object Dict]");
    const ctx = { sum: 0 };
    d.forEach(function (this: typeof ctx, v) {
      this.sum += v;
    }, ctx);
    expect(ctx.sum).toBe(6);
    expect(Dict.from(new Map(src)).get("c")).toBe(3);
    expect(new Dict(null).size).toBe(0);
  });

  it("keeps 1, '1' and 1n apart; NaN is one key; -0 is 0; byte arrays compare by content and are copied", () => {
    const d = new Dict<DictKey, string>();
    d.set(1, "num").set("1", "str").set(1n, "big");
    expect(d.size).toBe(3);
    expect([d.get(1), d.get("1"), d.get(1n)]).toEqual(["num", "str", "big"]);
    d.set(Number.NaN, "nan");
    expect(d.get(Number.NaN)).toBe("nan");
    d.set(-0, "zero");
    expect(d.get(0)).toBe("zero");
    expect(
      Object.is(
        [...d.keys()].find((k) => k === 0),
        0,
      ),
    ).toBe(true);
    const bytes = Uint8Array.from([1, 2, 3]);
    d.set(bytes, "bytes");
    bytes[0] = 9; // the dict kept its own copy
    expect(d.get(Uint8Array.from([1, 2, 3]))).toBe("bytes");
    expect(d.has(bytes)).toBe(false);
    const out = [...d.keys()].find((k) => k instanceof Uint8Array) as Uint8Array;
    out[0] = 7; // a key handed out is a copy too
    expect(d.get(Uint8Array.from([1, 2, 3]))).toBe("bytes");
    d.set(0.1 + 0.2, "float");
    expect(d.get(0.30000000000000004)).toBe("float");
    expect(d.get(0.3)).toBeUndefined();
    d.set(2 ** 53, "big number");
    expect(d.get(2 ** 53)).toBe("big number");
    d.checkInvariants();
  });

  it("getOrInsert / getOrInsertComputed behave as Map's (ES2026)", () => {
    const d = new Dict<DictKey, number>(null, { key: KEY, chunkBits: 4 });
    const m = new Map<string, number>();
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArb, fc.integer(), fc.boolean()), { maxLength: 200 }), (ops) => {
        for (const [k, v, computed] of ops) {
          const t = tag(k);
          const expected = m.has(t) ? m.get(t)! : v;
          m.set(t, expected);
          const got = computed ? d.getOrInsertComputed(k, () => v) : d.getOrInsert(k, v);
          expect(got).toBe(expected);
          expect(d.size).toBe(m.size);
        }
        d.checkInvariants();
      }),
      { seed: 17, numRuns: 50 },
    );
    // A callback that sets the key itself is overwritten, as Map does; it never receives the stored bytes.
    const e = new Dict<string | Uint8Array, number>();
    expect(
      e.getOrInsertComputed("k", (k) => {
        e.set(k, 1);
        return 2;
      }),
    ).toBe(2);
    expect(e.get("k")).toBe(2);
    const bytes = Uint8Array.from([1, 2]);
    e.getOrInsertComputed(bytes, (k) => {
      (k as Uint8Array).fill(9);
      return 3;
    });
    expect(e.get(Uint8Array.from([1, 2]))).toBe(3);
    const z = new Dict<number, number>();
    expect(z.getOrInsertComputed(-0, (k) => (Object.is(k, 0) ? 1 : -1))).toBe(1); // the key as stored: +0
    expect(() => e.getOrInsertComputed("x", null as never)).toThrow(/redstruct\/Dict: callback must be a function/);
    expect(() => e.getOrInsert({} as never, 1)).toThrow(/redstruct\/Dict: key must be/);
    expect(() => e.getOrInsertComputed({} as never, () => 1)).toThrow(/redstruct\/Dict: key must be/);
  });

  it("rejects unsupported key types on set and treats them as absent on reads", () => {
    const d = new Dict<DictKey, number>();
    const bad = {} as unknown as DictKey;
    expect(() => d.set(bad, 1)).toThrow(TypeError);
    expect(() => d.set(bad, 1)).toThrow(/redstruct\/Dict: key must be a string, number, bigint or Uint8Array/);
    expect(d.get(bad)).toBeUndefined();
    expect(d.has(bad)).toBe(false);
    expect(d.delete(bad)).toBe(false);
    expect(() => new Dict(null, { key: new Uint32Array(3) })).toThrow(RangeError);
    expect(() => new Dict(null, { chunkBits: 2 })).toThrow(/chunkBits must be/);
    expect(() => new Dict(null, { seed: -1 })).toThrow(RangeError);
  });

  it("mutation during iteration: present keys once, deleted-before-reached keys never", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 1000 }), (n, seed) => {
        const d = new Dict<number, number>(null, { key: KEY, seed, chunkBits: 4 });
        for (let i = 0; i < n; i++) d.set(i, i);
        const visited = new Map<number, number>();
        const deleted = new Set<number>();
        let step = 0;
        for (const k of d.keys()) {
          visited.set(k, (visited.get(k) ?? 0) + 1);
          expect(deleted.has(k)).toBe(false);
          // delete the current key, and another one ahead or behind; add a new one
          if (step % 3 === 0) {
            d.delete(k);
            deleted.add(k);
          }
          const other = (k * 7 + seed) % n;
          if (step % 5 === 1 && d.delete(other)) deleted.add(other);
          if (step % 4 === 2) d.set(n + step, 0);
          step++;
        }
        for (let i = 0; i < n; i++) {
          if (!deleted.has(i)) expect(visited.get(i)).toBe(1);
          else expect(visited.get(i) ?? 0).toBeLessThanOrEqual(1);
        }
        d.checkInvariants();
      }),
      { seed: 99, numRuns: 60 },
    );
  });

  it("randomKey returns present keys, all of them eventually, and is reproducible from the seed", () => {
    const a = new Dict<number, number>(null, { seed: 5 });
    const b = new Dict<number, number>(null, { seed: 5, key: new Uint32Array(4) });
    expect(a.randomKey()).toBeUndefined();
    const c = new Dict<number, number>(null, { seed: 5, key: new Uint32Array(4) });
    for (let i = 0; i < 20; i++) {
      a.set(i, i);
      b.set(i, i);
      c.set(i, i);
    }
    const hits = new Set<number>();
    for (let i = 0; i < 2000; i++) hits.add(a.randomKey()!);
    expect([...hits].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const seqB = Array.from({ length: 20 }, () => b.randomKey());
    const seqC = Array.from({ length: 20 }, () => c.randomKey());
    expect(seqB).toEqual(seqC);
  });
});

// ---------------------------------------------------------------------------------------------
// Types: inferred like Map's (this block fails `tsc` if they are not)
// ---------------------------------------------------------------------------------------------

describe("Dict: types", () => {
  it("new Dict(entries) and Dict.from(entries) infer widened types, as new Map(entries) does", () => {
    const d = new Dict([["a", 1]]);
    d.set("c", 3);
    expectTypeOf(d).toEqualTypeOf<Dict<string, number>>();
    const f = Dict.from([
      ["a", 1],
      ["b", 2],
    ]);
    f.set("z", 26);
    expectTypeOf(f).toEqualTypeOf<Dict<string, number>>();
    const mixed = new Dict([
      [1, "one"],
      [2n, "two"],
    ]);
    mixed.set(3, "three");
    expectTypeOf(mixed).toEqualTypeOf<Dict<number | bigint, string>>();
    const m: Map<string, number> = d;
    expect(m.get("c")).toBe(3);
    const explicit = new Dict<"x" | "y", number>();
    // @ts-expect-error — explicit type arguments are kept as given
    explicit.set("z", 1);
    const empty = new Dict();
    expectTypeOf(empty).toEqualTypeOf<Dict<DictKey, unknown>>();
    for (const [k, v] of d) {
      expectTypeOf(k).toEqualTypeOf<string>();
      expectTypeOf(v).toEqualTypeOf<number>();
    }
    expect(d instanceof Dict).toBe(true);
    class Named extends Dict<string, number> {
      label = "named";
    }
    const n = new Named([["a", 1]]);
    expect(n.get("a")).toBe(1);
    expect(n).toBeInstanceOf(Dict);
    expect(d.size).toBe(2);
  });
});

describe("Dict copies and reports", () => {
  it("clone() is independent, equal, and keeps a rehash in progress", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 300 }), fc.nat(50), (keys, extra) => {
        const d = new Dict<number, number>(null, { chunkBits: 4, seed: 1 });
        for (const k of keys) d.set(k, k * 2);
        const c = d.clone();
        c.checkInvariants();
        expect(c.info()).toEqual(d.info());
        expect([...c].sort((a, b) => a[0] - b[0])).toEqual([...d].sort((a, b) => a[0] - b[0]));
        for (let i = 0; i < extra; i++) c.set(1000 + i, i);
        for (const k of keys.slice(0, extra)) c.delete(k);
        c.checkInvariants();
        d.checkInvariants();
        expect(d.size).toBe(new Set(keys).size);
        for (const k of keys) expect(d.get(k)).toBe(k * 2);
      }),
      { seed: 0xc10e, numRuns: 150 },
    );
  });
  it("info() includes byteLength, which grows with the tables", () => {
    const d = new Dict<number, number>();
    const before = d.byteLength;
    for (let i = 0; i < 5000; i++) d.set(i, i);
    expect(d.info().byteLength).toBe(d.byteLength);
    expect(d.byteLength).toBeGreaterThan(before);
    d.clear();
    expect(d.byteLength).toBe(before);
  });
});
