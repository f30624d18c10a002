/**
 * Hash functions: ours against murmurhash3js-revisited (the runtime dependency, which takes byte
 * arrays only, so a caller with strings must encode first), on 8-, 32- and 256-byte strings; and
 * what a hash costs next to the work `Set.add` does for the same strings.
 */
import murmurHash3 from "murmurhash3js-revisited";
import { murmur3_32, murmur3_128x86Into, murmur64aInto, randomSipKey, siphash13Into } from "../src/hash/index.js";
import { type BenchContext, compare, markdownTable, prng, type Row, throughputChart, throughputTable } from "./lib.js";

const BATCH = 1000;

function strings(length: number, seed: number): string[] {
  const rand = prng(seed);
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789:-_";
  return Array.from({ length: BATCH }, () => {
    let s = "";
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
    return s;
  });
}

let sink = 0;

async function bySize(ctx: BenchContext, length: number): Promise<Row[]> {
  const input = strings(length, length);
  const encoded = input.map((s) => new TextEncoder().encode(s));
  const out = new Uint32Array(4);
  const key = randomSipKey();
  const encoder = new TextEncoder();
  return compare(
    ctx,
    `${length}-byte strings`,
    {
      "murmurhash3js-revisited hash32 (encode + hash)": () => {
        for (const s of input) sink ^= murmurHash3.x86.hash32(encoder.encode(s), 0);
      },
      "murmurhash3js-revisited hash32 (pre-encoded bytes)": () => {
        for (const b of encoded) sink ^= murmurHash3.x86.hash32(b, 0);
      },
      "redstruct murmur3_32": () => {
        for (const s of input) sink ^= murmur3_32(s, 0);
      },
      "redstruct murmur64aInto": () => {
        for (const s of input) {
          murmur64aInto(s, out);
          sink ^= out[0]!;
        }
      },
      "murmurhash3js-revisited x86 hash128 (encode + hash)": () => {
        for (const s of input) sink ^= murmurHash3.x86.hash128(encoder.encode(s), 0).length;
      },
      "redstruct murmur3_128x86Into": () => {
        for (const s of input) {
          murmur3_128x86Into(s, out, 0);
          sink ^= out[0]!;
        }
      },
      "redstruct siphash13Into": () => {
        for (const s of input) {
          siphash13Into(s, key, out);
          sink ^= out[0]!;
        }
      },
    },
    { baseline: "murmurhash3js-revisited hash32 (encode + hash)", batch: BATCH },
  );
}

async function insideSetAdd(ctx: BenchContext): Promise<Row[]> {
  // Fresh strings each call: V8 caches a string's own hash, so reusing strings would flatter Set.add.
  const pool = Array.from({ length: 64 }, (_, k) => strings(16, 1000 + k));
  let turn = 0;
  const out = new Uint32Array(2);
  const next = () => pool[turn++ & 63]!.map((s) => `${s}${turn}`);
  let batch = next();
  return compare(
    ctx,
    "hashing cost beside Set.add (16-byte fresh strings)",
    {
      "Set.add": () => {
        const set = new Set<string>();
        for (const s of batch) set.add(s);
        sink ^= set.size;
      },
      "murmur64aInto only": () => {
        for (const s of batch) {
          murmur64aInto(s, out);
          sink ^= out[0]!;
        }
      },
      "Set.add + murmur64aInto": () => {
        const set = new Set<string>();
        for (const s of batch) {
          murmur64aInto(s, out);
          set.add(s);
        }
        sink ^= set.size;
      },
    },
    {
      baseline: "Set.add",
      batch: BATCH,
      beforeTask: () => {
        batch = next();
      },
    },
  );
}

export default {
  name: "hash",
  description: "Hash throughput: redstruct/hash vs murmurhash3js-revisited, and hashing beside Set.add.",
  async run(ctx: BenchContext) {
    const sizes = [8, 32, 256];
    const results: Record<string, Row[]> = {};
    for (const n of sizes) results[`${n}B`] = await bySize(ctx, n);
    results.setAdd = await insideSetAdd(ctx);
    const summary = markdownTable(
      [
        "string length",
        "redstruct murmur3_32 vs package (encode+hash)",
        "vs package (pre-encoded)",
        "murmur64aInto vs package",
        "murmur3_128x86Into vs package's x86 hash128 (encode + hash)",
      ],
      sizes.map((n) => {
        const rows = results[`${n}B`]!;
        const get = (name: string) => rows.find((r) => r.name === name)!.opsPerSec;
        const ours = get("redstruct murmur3_32");
        return [
          `${n} B`,
          `${(ours / get("murmurhash3js-revisited hash32 (encode + hash)")).toFixed(1)}×`,
          `${(ours / get("murmurhash3js-revisited hash32 (pre-encoded bytes)")).toFixed(1)}×`,
          `${(get("redstruct murmur64aInto") / get("murmurhash3js-revisited hash32 (encode + hash)")).toFixed(1)}×`,
          `${(get("redstruct murmur3_128x86Into") / get("murmurhash3js-revisited x86 hash128 (encode + hash)")).toFixed(1)}×`,
        ];
      }),
    );
    const markdown = [
      summary,
      "",
      ...sizes.map((n) => throughputTable(`${n}-byte strings (ops = hashes)`, results[`${n}B`]!)),
      throughputTable("Hashing beside Set.add (ops = strings)", results.setAdd!),
    ].join("\n");
    void sink;
    const at32 = results["32B"]!;
    const ops = (name: string) => at32.find((r) => r.name === name)!.opsPerSec;
    return {
      markdown,
      headlines: [
        {
          structure: "murmur3_32",
          operation: "32-byte strings",
          versus: "murmurhash3js-revisited",
          ratio: ops("redstruct murmur3_32") / ops("murmurhash3js-revisited hash32 (encode + hash)"),
        },
      ],
      data: results,
      charts: [
        { name: "32B", spec: throughputChart("Hashes per second, 32-byte strings", results["32B"]!) },
        { name: "set-add", spec: throughputChart("Hashing beside Set.add", results.setAdd!) },
      ],
    };
  },
};
