import { expect } from "vitest";
import type { Item } from "../../src/hash/index.js";

/** An element's identity as Redis sees it (its bytes): 42, "42" and 42n are one element. */
export function elementKey(v: Item): string {
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

/** What {@link expectUnionAndIntersect} needs of a filter class. */
interface MergeableFilter<F> {
  addAll(values: Iterable<Item>): boolean[];
  has(v: Item): boolean;
  clone(): F;
  union(other: F): F;
  intersect(other: F): F;
  checkInvariants(): void;
  toBytes(): Uint8Array;
  readonly setBits: number;
}

/**
 * Builds filters `make()` of `a`, of `b` and of both, and checks: `a ∪ b` has exactly the bits of
 * the filter of both (after the 40-byte header) and no false negative, also after a round trip
 * through `fromBytes`; `a ∩ b` keeps every common value and no more bits than either; and the
 * clones used for both left the filter of `a` as it was.
 */
export function expectUnionAndIntersect<F extends MergeableFilter<F>>(
  make: () => F,
  fromBytes: (bytes: Uint8Array) => F,
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
  const before = fa.toBytes();
  const u = fa.clone().union(fb);
  u.checkInvariants();
  expect(u.toBytes().subarray(40)).toEqual(both.toBytes().subarray(40));
  for (const v of [...a, ...b]) expect(u.has(v)).toBe(true);
  const i = fa.clone().intersect(fb);
  i.checkInvariants();
  const inB = new Set(b.map(elementKey));
  for (const v of a) if (inB.has(elementKey(v))) expect(i.has(v)).toBe(true);
  expect(i.setBits).toBeLessThanOrEqual(Math.min(fa.setBits, fb.setBits));
  const back = fromBytes(u.toBytes());
  back.checkInvariants();
  for (const v of [...a, ...b]) expect(back.has(v)).toBe(true);
  expect(fa.toBytes()).toEqual(before);
}
