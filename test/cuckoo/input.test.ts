/**
 * Careless and hostile arguments to CuckooFilter: every argument checked, naming the structure and
 * the parameter; iterators that re-enter the filter; detached views refused before anything changes.
 */
import { describe, expect, it } from "vitest";
import { CuckooFilter } from "../../src/cuckoo/index.js";
import { detached } from "../support/redisbloom.js";

describe("CuckooFilter arguments", () => {
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
});
