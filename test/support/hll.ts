/**
 * What several HyperLogLog-family test files share: distinct items, item and sketch arbitraries,
 * HyperLogLog and UltraLogLog as one list for the rules they share, and a detached view.
 */
import fc from "fast-check";
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../../src/hll/index.js";

/** n distinct strings `tag:0`, `tag:1`, …: fresh items for every test that needs many. */
export const distinct = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}:${i}`);

/** A Uint8Array whose buffer has been transferred away (as by postMessage to a worker). */
export function detached(length = 8): Uint8Array {
  const v = new Uint8Array(length).fill(7);
  structuredClone(v.buffer, { transfer: [v.buffer] });
  return v;
}

/** HyperLogLog and UltraLogLog, for the tests that hold both to the same rule. */
export type Sketch = HyperLogLog | UltraLogLog;

export const classes = [
  { name: "HyperLogLog", article: "a", make: (p: number) => new HyperLogLog({ precision: p }), type: HyperLogLog },
  { name: "UltraLogLog", article: "an", make: (p: number) => new UltraLogLog({ precision: p }), type: UltraLogLog },
] as const;

/** `s.merge(...args)` on either class (their merge signatures do not unite). */
export const merge = (s: Sketch, ...args: unknown[]): Sketch => (s.merge as (...a: unknown[]) => Sketch).apply(s, args);

/** The fromBytes of a sketch's own class. */
export const fromBytesOf = (s: Sketch) => (s instanceof HyperLogLog ? HyperLogLog.fromBytes : UltraLogLog.fromBytes);

/** Arbitrary elements of every kind an HLL accepts. */
export const hllElement = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.uint8Array({ maxLength: 20 }),
);

/** Short items of each kind, for UltraLogLog and ExaLogLog. */
export const element = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.uint8Array({ maxLength: 12 }));

/** An UltraLogLog at precision p from a few arbitrary items and a bulk of distinct ones. */
export const ullSketch = (p: number) =>
  fc.tuple(fc.array(element, { maxLength: 30 }), fc.nat(1500)).map(([xs, bulk]) => {
    const u = UltraLogLog.from(xs, { precision: p });
    u.addAll(distinct(bulk, `s${bulk}`));
    return u;
  });

/** (t, d) pairs: the default, UltraLogLog's, the extremes and some between. */
export const ellShape = fc.oneof(
  fc.constant({ t: 2, d: 24 }),
  fc.constant({ t: 0, d: 2 }),
  fc.record({ t: fc.integer({ min: 0, max: 2 }), d: fc.integer({ min: 0, max: 24 }) }),
);

/** A sketch at precision p, shape (t, d), from a few arbitrary elements and a bulk of distinct ones. */
export const ellSketch = (p: number, t: number, d: number, xs: unknown[], bulk: number, tag: string) => {
  const e = ExaLogLog.from(xs as string[], { precision: p, t, d });
  e.addAll(distinct(bulk, tag));
  return e;
};
