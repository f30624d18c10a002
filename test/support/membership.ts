import { expect } from "vitest";
import type { Element } from "../../src/hash/index.js";

/** An element's identity as Redis sees it (its bytes): 42, "42" and 42n are one element. */
export function elementKey(v: Element): string {
  return v instanceof Uint8Array ? `b:${Array.from(v).join(",")}` : `s:${String(v)}`;
}

/**
 * Adds `values` one by one to a filter, checking it against a `Set` model after each: a value seen
 * before is reported present (no false negative), `add` returns the opposite of `has` just before
 * it (BF.ADD), and the value is present afterwards. Returns how many adds returned true.
 */
export function addAgainstSetModel(
  filter: { add(v: Element): boolean; has(v: Element): boolean },
  values: readonly Element[],
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
