/**
 * Bitmap (Redis's string bitmaps) against `typedfastbitset` 0.8.0, the fastest dense bit set on npm
 * (a `Uint32Array` of words, no Redis semantics).
 *
 * - count: bitmaps of 16 MiB (2^27 bits) of random bytes. `count()` is BITCOUNT of the whole string,
 *   which Bitmap answers from the count it keeps (O(1)); `count(1, -1)` makes it popcount all but the
 *   first byte (a range, so the kept count cannot serve), which is the like-for-like figure against
 *   typedfastbitset's `size()` (a popcount of its words).
 * - and: `Bitmap.op("and", [a, b])` of two 16 MiB bitmaps — a new bitmap, whose set bits are counted
 *   when first asked for — against typedfastbitset's `new_intersection` (a new set); then each
 *   followed by the count of the result (`size` / `size()`), what a BITOP AND + BITCOUNT query runs.
 * - setBit / getBit: each task call runs 1000 random offsets in [0, 2^27) against a 16 MiB bitmap
 *   allocated beforehand (so growth is not timed): `setBit(o, 1)` vs `add(o)`, `getBit(o)` vs `has(o)`.
 */
import { TypedFastBitSet } from "typedfastbitset";
import { Bitmap } from "../src/bitmap/index.js";
import {
  type BenchContext,
  type Chart,
  compare,
  type Headline,
  ownLoop,
  prng,
  type Row,
  type Suite,
  throughputChart,
  throughputTable,
} from "./lib.js";

const BYTES = 16 * 1024 * 1024;
const BITS = BYTES * 8;
const BATCH = 1000;
const PEER = "typedfastbitset 0.8.0";

/** `n` bytes of seeded noise (half the bits set). */
function noise(n: number, seed: number): Uint8Array {
  const rand = prng(seed);
  const out = new Uint8Array(n);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < words.length; i++) words[i] = Math.floor(rand() * 2 ** 32);
  return out;
}

/** The same bits for typedfastbitset (its bit order differs; counts and intersections do not care). */
const peerOf = (bytes: Uint8Array) => TypedFastBitSet.fromWords(new Uint32Array(bytes.slice().buffer));

const ratioOf = (rows: Row[], a: string, b: string) =>
  rows.find((r) => r.name === a)!.opsPerSec / rows.find((r) => r.name === b)!.opsPerSec;

/** A task running `body` over the next BATCH offsets of `keys` on `t`, in a loop of its own. */
function batchTask<T>(t: T, body: string, keys: readonly number[]): () => void {
  const loop = ownLoop<T, number>(body);
  let cursor = 0;
  return () => {
    if (cursor + BATCH > keys.length) cursor = 0;
    loop(t, keys, cursor, BATCH);
    cursor += BATCH;
  };
}

async function counts(ctx: BenchContext) {
  const bytes = noise(BYTES, 1);
  const ours = Bitmap.fromRedis(bytes);
  const theirs = peerOf(bytes);
  if (ours.count() !== theirs.size() || ours.count(1, -1) !== theirs.size() - ours.count(0, 0)) {
    throw new Error("bitmap bench: counts disagree");
  }
  let sink = 0;
  const rows = await compare(
    ctx,
    "count of 16 MiB",
    {
      "redstruct Bitmap.count() (kept)": () => {
        sink += ours.count();
      },
      "redstruct Bitmap.count(1, -1) (popcount)": () => {
        sink += ours.count(1, -1);
      },
      [`${PEER} size()`]: () => {
        sink += theirs.size();
      },
    },
    { baseline: `${PEER} size()` },
  );
  if (sink === 0) throw new Error("bitmap bench: empty counts");
  return rows;
}

async function intersections(ctx: BenchContext) {
  const a = noise(BYTES, 2);
  const b = noise(BYTES, 3);
  const oursA = Bitmap.fromRedis(a);
  const oursB = Bitmap.fromRedis(b);
  const theirsA = peerOf(a);
  const theirsB = peerOf(b);
  if (Bitmap.op("and", [oursA, oursB]).size !== theirsA.new_intersection(theirsB).size()) {
    throw new Error("bitmap bench: intersections disagree");
  }
  let sink = 0;
  const andRows = await compare(
    ctx,
    "and of two 16 MiB bitmaps, into a new one",
    {
      'redstruct Bitmap.op("and")': () => {
        sink += Bitmap.op("and", [oursA, oursB]).byteLength;
      },
      [`${PEER} new_intersection`]: () => {
        sink += theirsA.new_intersection(theirsB).words.length;
      },
    },
    { baseline: `${PEER} new_intersection`, time: 1000 },
  );
  // What a "users active on both days" query runs: BITOP AND, then BITCOUNT of the result.
  const andCountRows = await compare(
    ctx,
    "and of two 16 MiB bitmaps, then the count of the result",
    {
      'redstruct Bitmap.op("and").size': () => {
        sink += Bitmap.op("and", [oursA, oursB]).size;
      },
      [`${PEER} new_intersection().size()`]: () => {
        sink += theirsA.new_intersection(theirsB).size();
      },
    },
    { baseline: `${PEER} new_intersection().size()`, time: 1000 },
  );
  if (sink === 0) throw new Error("bitmap bench: empty intersections");
  return { andRows, andCountRows };
}

async function randomAccess(ctx: BenchContext) {
  const rand = prng(4);
  const keys = Array.from({ length: 1 << 16 }, () => Math.floor(rand() * BITS));
  const ours = new Bitmap();
  ours.setBit(BITS - 1, 0); // allocate the 16 MiB up front
  const theirs = new TypedFastBitSet();
  theirs.resize(BITS - 1);
  const setRows = await compare(
    ctx,
    "setBit of random offsets in 16 MiB",
    {
      "redstruct Bitmap.setBit": batchTask(ours, "t.setBit(k[i], 1);", keys),
      [`${PEER} add`]: batchTask(theirs, "t.add(k[i]);", keys),
    },
    { baseline: `${PEER} add`, batch: BATCH },
  );
  const getRows = await compare(
    ctx,
    "getBit of random offsets in 16 MiB",
    {
      "redstruct Bitmap.getBit": batchTask(ours, "if (t.getBit(k[i])) s++;", keys),
      [`${PEER} has`]: batchTask(theirs, "if (t.has(k[i])) s++;", keys),
    },
    { baseline: `${PEER} has`, batch: BATCH },
  );
  return { setRows, getRows };
}

const suite: Suite = {
  name: "bitmap",
  description: `Bitmap count / op("and") / setBit / getBit on 16 MiB vs ${PEER}`,
  async run(ctx) {
    const countRows = await counts(ctx);
    const { andRows, andCountRows } = await intersections(ctx);
    const { setRows, getRows } = await randomAccess(ctx);
    const kept = ratioOf(countRows, "redstruct Bitmap.count() (kept)", `${PEER} size()`);
    const popcount = ratioOf(countRows, "redstruct Bitmap.count(1, -1) (popcount)", `${PEER} size()`);
    const and = ratioOf(andRows, 'redstruct Bitmap.op("and")', `${PEER} new_intersection`);
    const andCount = ratioOf(andCountRows, 'redstruct Bitmap.op("and").size', `${PEER} new_intersection().size()`);
    const set = ratioOf(setRows, "redstruct Bitmap.setBit", `${PEER} add`);
    const get = ratioOf(getRows, "redstruct Bitmap.getBit", `${PEER} has`);
    const headlines: Headline[] = [
      {
        structure: "Bitmap",
        operation: "count(), 16 MiB (kept count)",
        versus: `${PEER} size()`,
        ratio: kept,
        goal: 1,
      },
      { structure: "Bitmap", operation: "count(1, -1), 16 MiB (popcount)", versus: `${PEER} size()`, ratio: popcount },
      {
        structure: "Bitmap",
        operation: 'op("and"), 2 × 16 MiB',
        versus: `${PEER} new_intersection`,
        ratio: and,
        goal: 1,
      },
      {
        structure: "Bitmap",
        operation: 'op("and") then size, 2 × 16 MiB',
        versus: `${PEER} new_intersection().size()`,
        ratio: andCount,
      },
      { structure: "Bitmap", operation: "setBit, random in 16 MiB", versus: `${PEER} add`, ratio: set, goal: 0.8 },
      { structure: "Bitmap", operation: "getBit, random in 16 MiB", versus: `${PEER} has`, ratio: get, goal: 0.8 },
    ];
    const markdown = [
      throughputTable("count of a 16 MiB bitmap (one count per operation)", countRows),
      throughputTable('op("and") of two 16 MiB bitmaps (one new bitmap per operation)', andRows),
      throughputTable('op("and") of two 16 MiB bitmaps, then the count of the result', andCountRows),
      throughputTable("setBit of random offsets in a 16 MiB bitmap", setRows),
      throughputTable("getBit of random offsets in a 16 MiB bitmap", getRows),
    ].join("\n");
    const charts: Chart[] = [
      { name: "count", spec: throughputChart("count of a 16 MiB bitmap", countRows) },
      { name: "and", spec: throughputChart('op("and") of two 16 MiB bitmaps', andRows) },
      { name: "setbit", spec: throughputChart("setBit, random offsets in 16 MiB", setRows) },
      { name: "getbit", spec: throughputChart("getBit, random offsets in 16 MiB", getRows) },
    ];
    return { markdown, data: { countRows, andRows, andCountRows, setRows, getRows }, charts, headlines };
  },
};

export default suite;
