import { expect } from "vitest";
import type { Item } from "../../src/hash/index.js";

/** An element's identity as Redis sees it (its bytes): 42, "42" and 42n are one element. */
function elementKey(v: Item): string {
  return v instanceof Uint8Array ? `b:${Array.from(v).join(",")}` : `s:${String(v)}`;
}

/**
 * Adds `values` one by one to a filter, checking it against a `Set` model after each: a value seen
 * before is reported present (no false negative), `add` returns the opposite of `has` just before
 * it (BF.ADD), and the value is present afterwards. Returns how many adds returned true.
 */
export function addAgainstSetModel(
  filter: { add(v: Item): boolean; has(v: Item): boolean },
  values: readonly Item[],
): number {
  const seen = new Set<string>();
  let added = 0;
  for (const v of values) {
    const before = filter.has(v);
    if (seen.has(elementKey(v))) expect(before).toBe(true);
    const result = filter.add(v);
    expect(result).toBe(!before);
    if (result) added++;
    seen.add(elementKey(v));
    expect(filter.has(v)).toBe(true);
  }
  return added;
}

/** What the filter property tests need of a filter. */
interface TestedFilter {
  add(v: Item): boolean;
  has(v: Item): boolean;
  addAll(values: Iterable<Item>): boolean[];
  hasAll(values: Iterable<Item>): boolean[];
  checkInvariants(): void;
  toBytes(): Uint8Array;
  readonly size: number;
}

/**
 * {@link addAgainstSetModel}, then: the invariants hold, `size` counts the adds that returned true
 * (BF.CARD), and every value is present, one by one and through `hasAll`.
 */
export function expectSetModel(filter: TestedFilter, values: readonly Item[]): void {
  const added = addAgainstSetModel(filter, values);
  filter.checkInvariants();
  expect(filter.size).toBe(added);
  for (const v of values) expect(filter.has(v)).toBe(true);
  expect(filter.hasAll(values).every(Boolean)).toBe(true);
}

/**
 * `addAll(a)` / `hasAll(b)` on one filter return what `add` / `has` return element by element on a
 * twin (BF.MADD / BF.MEXISTS), and both end with the same bytes.
 */
export function expectBatchesMirrorSingles(make: () => TestedFilter, a: readonly Item[], b: readonly Item[]): void {
  const x = make();
  const y = make();
  expect(x.addAll(a)).toEqual(a.map((v) => y.add(v)));
  expect(x.hasAll(b)).toEqual(b.map((v) => y.has(v)));
  expect(x.toBytes()).toEqual(y.toBytes());
}

/** What {@link expectMergeUnionIntersect} needs of a filter. */
interface MergeableFilter<F> {
  addAll(values: Iterable<Item>): boolean[];
  has(v: Item): boolean;
  clone(): F;
  merge(...others: F[]): F;
  merge(others: Iterable<F>): F;
  checkInvariants(): void;
  toBytes(): Uint8Array;
  readonly setBits: number;
  readonly size: number;
}

/** What {@link expectMergeUnionIntersect} needs of a filter class: its statics. */
interface MergeableClass<F> {
  fromBytes(bytes: Uint8Array): F;
  union(filters: Iterable<F>): F;
  intersect(filters: Iterable<F>): F;
}

/**
 * Builds filters `make()` of `a`, of `b` and of both, and checks:
 * - `merge` in place: `fa.clone().merge(fb)` has exactly the bits of the filter of both (after the
 *   40-byte header) and no false negative, also after a round trip through `fromBytes`, returns the
 *   filter it was called on, and `merge([fb])` (one iterable) is the same as `merge(fb)`;
 * - static `union([fa, fb])` is a new filter with the same bytes as the merge, leaving both inputs as
 *   they were;
 * - static `intersect([fa, fb])` keeps every common value and no more bits than either, leaving both
 *   inputs as they were; `intersect([fa])` and `union([fa])` are copies of `fa`.
 */
export function expectMergeUnionIntersect<F extends MergeableFilter<F>>(
  make: () => F,
  Class: MergeableClass<F>,
  a: readonly Item[],
  b: readonly Item[],
): void {
  const fa = make();
  const fb = make();
  const both = make();
  fa.addAll(a);
  fb.addAll(b);
  both.addAll(a);
  both.addAll(b);
  const beforeA = fa.toBytes();
  const beforeB = fb.toBytes();

  const target = fa.clone();
  const m = target.merge(fb);
  expect(m).toBe(target);
  m.checkInvariants();
  expect(m.toBytes().subarray(40)).toEqual(both.toBytes().subarray(40));
  for (const v of [...a, ...b]) expect(m.has(v)).toBe(true);
  expect(fa.clone().merge([fb]).toBytes()).toEqual(m.toBytes());

  const u = Class.union([fa, fb]);
  expect(u).not.toBe(fa);
  u.checkInvariants();
  expect(u.toBytes()).toEqual(m.toBytes());

  const i = Class.intersect([fa, fb]);
  i.checkInvariants();
  const inB = new Set(b.map(elementKey));
  for (const v of a) if (inB.has(elementKey(v))) expect(i.has(v)).toBe(true);
  expect(i.setBits).toBeLessThanOrEqual(Math.min(fa.setBits, fb.setBits));

  expect(Class.union([fa]).toBytes()).toEqual(beforeA);
  expect(Class.intersect([fa]).toBytes()).toEqual(beforeA);

  const back = Class.fromBytes(u.toBytes());
  back.checkInvariants();
  for (const v of [...a, ...b]) expect(back.has(v)).toBe(true);
  expect(fa.toBytes()).toEqual(beforeA);
  expect(fb.toBytes()).toEqual(beforeB);
}
