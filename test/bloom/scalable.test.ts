/**
 * ScalableBloomFilter against a Set model: no false negative, links grow as RedisBloom's, the chain
 * stays under its error rate when grown 100×, the first link's strict sizing, non-scaling mode when
 * full, copies, from(), and the growth limits refused at construction or when growing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bloomParameters, ScalableBloomFilter } from "../../src/bloom/index.js";
import { addAgainstSetModel } from "../support/membership.js";

const anyElement = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 10 }),
  fc.uint8Array({ maxLength: 20 }),
  fc.integer(),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
);

/** The construction refusal of a chain that would stop growing early (tested on its own below). */
const STOPS_EARLY = /can grow until it holds 2\^31 − 1 bits/;

/** Whether the chain of `o` is accepted; throws anything but the early-stop refusal. */
function grows(o: object): boolean {
  try {
    new ScalableBloomFilter(o as never);
    return true;
  } catch (e) {
    if (e instanceof RangeError && STOPS_EARLY.test(e.message)) return false;
    throw e;
  }
}

// Small capacities with expansion 1 and a low tightening stop early (their shares underflow): those
// are refused at construction, and the properties below run over the chains that are built.
const options = fc
  .record({
    capacity: fc.integer({ min: 1, max: 40 }),
    errorRate: fc.double({ min: 1e-4, max: 0.3, noNaN: true }),
    expansion: fc.integer({ min: 1, max: 4 }),
    tightening: fc.double({ min: 0.05, max: 0.5, noNaN: true }),
  })
  .filter(grows);

describe("ScalableBloomFilter", () => {
  it("never gives a false negative; add() returns !has() before it; links grow as RedisBloom's", () => {
    fc.assert(
      fc.property(options, fc.array(anyElement, { maxLength: 400 }), (opts, values) => {
        const sbf = new ScalableBloomFilter(opts);
        const added = addAgainstSetModel(sbf, values);
        sbf.checkInvariants();
        for (const v of values) expect(sbf.has(v)).toBe(true);
        // Model of the chain: link i holds capacity·expansion^i; a link is added when the newest is full.
        let links = 1;
        let room = opts.capacity;
        let total = opts.capacity;
        let left = added;
        while (left > room) {
          left -= room;
          room *= opts.expansion;
          total += room;
          links++;
        }
        const info = sbf.info();
        expect(info).toMatchObject({ filters: links, size: added, capacity: total, expansion: opts.expansion });
        expect(info.byteLength).toBe(sbf.byteLength);
        expect(sbf.size).toBe(added);
        expect(info.errorRate).toBe(opts.errorRate);
        // Round trip keeps everything.
        const back = ScalableBloomFilter.fromBytes(sbf.toBytes());
        back.checkInvariants();
        expect(back.info()).toEqual(info);
        expect(back.toBytes()).toEqual(sbf.toBytes());
        for (const v of values) expect(back.has(v)).toBe(true);
      }),
      { seed: 401, numRuns: 200 },
    );
  });
  it("keeps the whole chain under errorRate when grown 100× past its initial capacity", () => {
    const p = 0.01;
    const sbf = new ScalableBloomFilter({ capacity: 100, errorRate: p });
    for (let i = 0; i < 10_000; i++) sbf.add(`in:${i}`);
    sbf.checkInvariants();
    const info = sbf.info();
    expect(info.filters).toBe(7); // 100 + 200 + … + 6400 = 12 700 ≥ 10 000 minus false-positive skips
    const queries = 200_000;
    let fp = 0;
    for (let i = 0; i < queries; i++) if (sbf.has(`out:${i}`)) fp++;
    const rate = fp / queries;
    const sigma = Math.sqrt((p * (1 - p)) / queries);
    expect(rate).toBeLessThan(p + 4 * sigma);
    // The fill-based rate is honest: the measured rate is within sampling error of it.
    const reported = sbf.falsePositiveRate();
    expect(Math.abs(rate - reported)).toBeLessThan(4 * Math.sqrt(reported / queries));
    expect(Math.abs(sbf.count() / sbf.size - 1)).toBeLessThan(0.05);
  });
  it("sizes its first link at errorRate × tightening with the strict bit count", () => {
    const sbf = new ScalableBloomFilter({ capacity: 1000, errorRate: 0.01 });
    const info = sbf.info();
    const contract = bloomParameters(1000, 0.005);
    expect(info.bits).toBeGreaterThanOrEqual(contract.bits);
    expect(info.bits / contract.bits).toBeLessThan(1.002);
    expect(info.byteLength).toBe(Math.ceil(info.bits / 32) * 4);
    expect(sbf.byteLength).toBe(info.byteLength);
  });
  it("non-scaling mode refuses a new value once full, with a clear error, and changes nothing", () => {
    const sbf = new ScalableBloomFilter({ capacity: 50, errorRate: 0.001, nonScaling: true });
    let i = 0;
    while (sbf.size < 50) sbf.add(`v${i++}`);
    const before = sbf.toBytes();
    expect(sbf.add("v0")).toBe(false); // already present: no error
    let j = 0;
    while (sbf.has(`new${j}`)) j++; // a value certainly absent
    expect(() => sbf.add(`new${j}`)).toThrow(/filter is full \(non-scaling, capacity 50\)/);
    expect(() => sbf.add(`new${j}`)).toThrow(RangeError);
    expect(sbf.toBytes()).toEqual(before);
    expect(sbf.info()).toMatchObject({ filters: 1, expansion: 0, size: 50, capacity: 50 });
    sbf.checkInvariants();
    const back = ScalableBloomFilter.fromBytes(before);
    expect(() => back.add(`new${j}`)).toThrow(RangeError);
  });
  it("clear() returns to one empty link; clone() is independent; addAll/hasAll mirror add/has", () => {
    const sbf = new ScalableBloomFilter({ capacity: 4, errorRate: 0.01 });
    const values = Array.from({ length: 40 }, (_, i) => `x${i}`);
    const results = sbf.addAll(values);
    expect(results.filter(Boolean).length).toBe(sbf.size);
    expect(sbf.hasAll(values).every(Boolean)).toBe(true);
    const copy = sbf.clone();
    sbf.clear();
    sbf.checkInvariants();
    expect(sbf.info()).toMatchObject({ filters: 1, size: 0, capacity: 4 });
    expect(sbf.has("x0")).toBe(false);
    expect(copy.hasAll(values).every(Boolean)).toBe(true);
    copy.checkInvariants();
  });
  it("from(items, options) is the chain of those options holding the items; capacity defaults to their count", () => {
    fc.assert(
      fc.property(options, fc.boolean(), fc.array(anyElement, { maxLength: 80 }), (opts, withCapacity, values) => {
        const { capacity, ...rest } = opts;
        const build = () =>
          ScalableBloomFilter.from(
            (function* () {
              yield* values;
            })(),
            withCapacity ? opts : rest,
          );
        const twinOptions = { ...rest, capacity: withCapacity ? capacity : Math.max(1, values.length) };
        if (!grows(twinOptions)) {
          expect(build).toThrow(STOPS_EARLY);
          return;
        }
        const built = build();
        const twin = new ScalableBloomFilter(twinOptions);
        twin.addAll(values);
        built.checkInvariants();
        expect(built.toBytes()).toEqual(twin.toBytes());
        if (!withCapacity) expect(built.filters).toBe(1);
      }),
      { seed: 402, numRuns: 100 },
    );
    const plain = ScalableBloomFilter.from(["a", "b", "c"]); // one link for the items, at 0.01
    expect(plain.info()).toMatchObject({ capacity: 3, filters: 1, size: 3, errorRate: 0.01, expansion: 2 });
    expect(() => ScalableBloomFilter.from(["a"], null as never)).toThrow(/options must be an object/);
    expect(() => ScalableBloomFilter.from(["a"], { errorRate: 0.1, nonScaling: true, capacity: 1 }).add("b")).toThrow(
      /full/,
    );
    expect(() => ScalableBloomFilter.from(["a", "b"], { errorRate: 0.1, nonScaling: true, capacity: 1 })).toThrow(
      /full/,
    );
  });
  it("refuses at construction a chain that would stop growing before the memory limit", () => {
    const make = (o: object) => () => new ScalableBloomFilter(o as never);
    // Link 3's error share underflows: 0.03 × (10^-120)^3.
    expect(make({ capacity: 6, errorRate: 0.03, tightening: 1e-120, expansion: 1 })).toThrow(
      /tightening must be one under which the chain can grow until it holds 2\^31 − 1 bits: link 3 .*underflows/,
    );
    // Link 4 holds 1280 items at 10^-312: 64 hashes cannot reach that in 2^31 − 1 bits.
    expect(make({ capacity: 20, errorRate: 1e-300, tightening: 0.001, expansion: 4 })).toThrow(
      /tightening must be .*link 4 \(1280 items .* more than 2\^31 − 1 bits/,
    );
    // One item per link at the loosest tightening: the shares underflow after 1073 links.
    expect(make({ capacity: 1, errorRate: 0.5, expansion: 1 })).toThrow(/expansion must be .*link 1074/);
    // Chains that reach the memory limit are accepted, with expansion 1 too.
    for (const o of [
      { capacity: 1000, errorRate: 0.01 },
      { capacity: 6, errorRate: 0.03, expansion: 1 },
      { capacity: 100, errorRate: 1e-10, expansion: 1 },
      { capacity: 1, errorRate: 0.5, expansion: 1024 },
    ]) {
      expect(make(o)).not.toThrow();
    }
    // Every accepted expansion-1 chain really grows: 40 links of 6 items, checked link by link.
    const sbf = new ScalableBloomFilter({ capacity: 6, errorRate: 0.03, expansion: 1 });
    for (let j = 0; sbf.info().filters < 40; j++) sbf.add(`e${j}`);
    expect(sbf.info()).toMatchObject({ capacity: 240, filters: 40 });
    sbf.checkInvariants();
  });
  it("refuses to grow past 2^31 − 1 bits per link with a RangeError", () => {
    const sbf = new ScalableBloomFilter({ capacity: 2000, errorRate: 0.01, expansion: 1024 });
    let i = 0;
    while (sbf.info().filters < 2) sbf.add(`g${i++}`);
    expect(sbf.info().capacity).toBe(2000 + 2000 * 1024);
    // Links of 1, 1024, 2^20 items fit; the fourth (2^30 items at 3 %) would need ~7·10^9 bits.
    const tiny = new ScalableBloomFilter({ capacity: 1, errorRate: 0.5, expansion: 1024, tightening: 0.5 });
    let thrown: unknown;
    try {
      for (let j = 0; j < 10_000_000 && !thrown; j++) tiny.add(`t${j}`);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(RangeError);
    expect(String(thrown)).toMatch(/cannot add link/);
    tiny.checkInvariants();
  });
});
