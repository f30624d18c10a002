/**
 * Shared pieces of the RoaringBitmap tests: member distributions that reach every container kind
 * and the 4096 array/bitmap boundary, operation sequences that can be applied to a RoaringBitmap,
 * a `Set` model and CRoaring (roaring-wasm) alike, and CRoaring's loader.
 */
import fc from "fast-check";

/** Container keys at the edges: the first, second, middle and last containers. */
export const EDGE_KEYS = [0, 1, 2, 0x7fff, 0x8000, 0xfffe, 0xffff];

/** A member anywhere, near container boundaries (k·65536 ± 1) or near 2^32 − 1. */
export const memberArb: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 0, max: 0xffffffff }),
  fc.tuple(fc.constantFrom(...EDGE_KEYS), fc.integer({ min: 0, max: 0xffff })).map(([k, l]) => k * 65536 + l),
  fc
    .tuple(fc.constantFrom(...EDGE_KEYS), fc.constantFrom(0, 1, 2, 0xfffd, 0xfffe, 0xffff))
    .map(([k, l]) => k * 65536 + l),
);

/** One change to a set of uint32s; `many` adds or deletes `count` members `from + i·stride`. */
export type Op =
  | { kind: "add" | "delete"; x: number }
  | { kind: "addRange" | "deleteRange"; lo: number; hi: number }
  | { kind: "addMany" | "deleteMany"; from: number; count: number; stride: number }
  | { kind: "runOptimize" };

const rangeArb = fc
  .tuple(memberArb, fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 140_000 })))
  .map(([lo, len]) => [lo, Math.min(2 ** 32, lo + len)] as const);

/**
 * Many members in one or a few containers: counts around 4096 (the array/bitmap boundary) with
 * strides that keep them in one container, or long sparse strides.
 */
const manyArb = fc
  .tuple(
    fc.tuple(fc.constantFrom(...EDGE_KEYS), fc.integer({ min: 0, max: 0xffff })).map(([k, l]) => k * 65536 + l),
    fc.oneof(fc.integer({ min: 4090, max: 4100 }), fc.integer({ min: 1, max: 600 })),
    fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 15 }), fc.integer({ min: 16, max: 70_000 })),
  )
  .map(([from, count, stride]) => ({ from: from - ((from % 65536) % (stride * 4)), count, stride }));

/** A random change, weighted towards adds so that sets grow across container kinds. */
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: memberArb.map((x) => ({ kind: "add" as const, x })) },
  { weight: 2, arbitrary: memberArb.map((x) => ({ kind: "delete" as const, x })) },
  { weight: 2, arbitrary: rangeArb.map(([lo, hi]) => ({ kind: "addRange" as const, lo, hi })) },
  { weight: 1, arbitrary: rangeArb.map(([lo, hi]) => ({ kind: "deleteRange" as const, lo, hi })) },
  { weight: 2, arbitrary: manyArb.map((m) => ({ kind: "addMany" as const, ...m })) },
  { weight: 1, arbitrary: manyArb.map((m) => ({ kind: "deleteMany" as const, ...m })) },
  { weight: 1, arbitrary: fc.constant({ kind: "runOptimize" as const }) },
);

/** The members `many` touches (those below 2^32). */
export function manyMembers(op: { from: number; count: number; stride: number }): number[] {
  const out: number[] = [];
  for (let i = 0; i < op.count; i++) {
    const x = op.from + i * op.stride;
    if (x > 0xffffffff) break;
    out.push(x);
  }
  return out;
}

/** What every target of {@link applyOp} offers. */
export interface OpTarget {
  add(x: number): unknown;
  delete(x: number): unknown;
  addRange(lo: number, hi: number): unknown;
  deleteRange(lo: number, hi: number): unknown;
  runOptimize(): unknown;
}

/** Applies `op` to a target (RoaringBitmap, or roaring-wasm through {@link croaringTarget}). */
export function applyOp(t: OpTarget, op: Op): void {
  switch (op.kind) {
    case "add":
      t.add(op.x);
      break;
    case "delete":
      t.delete(op.x);
      break;
    case "addRange":
      t.addRange(op.lo, op.hi);
      break;
    case "deleteRange":
      t.deleteRange(op.lo, op.hi);
      break;
    case "addMany":
      for (const x of manyMembers(op)) t.add(x);
      break;
    case "deleteMany":
      for (const x of manyMembers(op)) t.delete(x);
      break;
    case "runOptimize":
      t.runOptimize();
      break;
  }
}

/** Applies `op` to a Set model. */
export function applyToModel(m: Set<number>, op: Op): void {
  switch (op.kind) {
    case "add":
      m.add(op.x);
      break;
    case "delete":
      m.delete(op.x);
      break;
    case "addRange":
      for (let x = op.lo; x < op.hi; x++) m.add(x);
      break;
    case "deleteRange":
      if (op.hi - op.lo > m.size) {
        for (const x of [...m]) if (x >= op.lo && x < op.hi) m.delete(x);
      } else {
        for (let x = op.lo; x < op.hi; x++) m.delete(x);
      }
      break;
    case "addMany":
      for (const x of manyMembers(op)) m.add(x);
      break;
    case "deleteMany":
      for (const x of manyMembers(op)) m.delete(x);
      break;
    case "runOptimize":
      break;
  }
}

/** The members of a model, ascending. */
export function sorted(m: Iterable<number>): number[] {
  return [...m].sort((a, b) => a - b);
}

/** roaring-wasm's module, initialized (its WebAssembly instance is loaded once per test file). */
export type CRoaring = typeof import("roaring-wasm");
let loaded: Promise<CRoaring> | undefined;
export function loadCRoaring(): Promise<CRoaring> {
  loaded ??= import("roaring-wasm").then(async (m) => {
    await m.roaringLibraryInitialize();
    return m;
  });
  return loaded;
}

/** A roaring-wasm bitmap seen through {@link OpTarget} (deleteRange is its removeRange). */
export function croaringTarget(b: InstanceType<CRoaring["RoaringBitmap32"]>): OpTarget {
  return {
    add: (x) => b.add(x),
    delete: (x) => b.delete(x),
    addRange: (lo, hi) => b.addRange(lo, hi),
    deleteRange: (lo, hi) => b.removeRange(lo, hi),
    runOptimize: () => b.runOptimize(),
  };
}

/** Lowercase hex of bytes, for readable byte comparisons. */
export function hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** Bytes from a hex string (spaces ignored). */
export function unhex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}
