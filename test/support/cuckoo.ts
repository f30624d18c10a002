/** What the CuckooFilter test files share: operation sequences, filter parameters, and a filter built from them. */
import fc from "fast-check";
import { CuckooFilter } from "../../src/cuckoo/index.js";

export const ops = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant("add" as const), item: fc.integer({ min: 0, max: 60 }) }),
    fc.record({ op: fc.constant("delete" as const), item: fc.integer({ min: 0, max: 60 }) }),
    fc.record({ op: fc.constant("compact" as const), item: fc.constant(0) }),
  ),
  { maxLength: 300 },
);

export const params = fc.record({
  capacity: fc.integer({ min: 8, max: 64 }),
  bucketSize: fc.integer({ min: 1, max: 4 }),
  maxIterations: fc.integer({ min: 1, max: 30 }),
  expansion: fc.integer({ min: 1, max: 4 }),
});

/** A filter after a list of operations (adds that do not fit are skipped). */
export const build = (p: { capacity: number; bucketSize: number }, list: { op: string; item: number }[]) => {
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
