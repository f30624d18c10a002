/**
 * Bundle-size budget: each subpath bundled for the browser as a user's bundler would (esbuild, minified,
 * tree-shaken, honouring `"sideEffects": false`), then gzipped. Three rules:
 * - murmurhash3js-revisited is reached only through `murmur3_128`: no other bundle contains it;
 * - no subpath pulls in another structure (only the shared src/hash and src/internal), except that
 *   geo carries the sorted set it is built on (src/skiplist) and nothing else;
 * - each subpath stays within its gzip budget (about 20 % above its size when the budget was set), and
 *   so does the smallest useful import, `BloomFilter` alone.
 * Node-only, like the packaging test: it drives esbuild, which a browser page cannot.
 */
import { existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const STRUCTURES = ["hll", "bloom", "skiplist", "dict", "idgen", "cuckoo", "cms", "topk", "tdigest", "geo", "bitmap"];

/** Gzipped bytes allowed per subpath. */
const BUDGET: Record<string, number> = {
  hash: 7_600,
  hll: 19_500, // 16.2 kB with ExaLogLog
  bloom: 21_000,
  skiplist: 28_000,
  dict: 19_000,
  idgen: 6_400,
  cuckoo: 8_400,
  cms: 7_000,
  topk: 7_400,
  tdigest: 16_000,
  bitmap: 23_000,
};
// geo bundles the sorted set: its budget is the sorted set's plus its own (4.1 kB when set).
BUDGET.geo = BUDGET.skiplist! + 5_000;

interface Bundle {
  gzip: number;
  inputs: string[];
}

async function bundle(source: string): Promise<Bundle> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  // The files that contribute code to the output (a module parsed but shaken out contributes 0 bytes).
  const output = Object.values(result.metafile.outputs)[0]!;
  const inputs = Object.entries(output.inputs)
    .filter(([, i]) => i.bytesInOutput > 0)
    .map(([f]) => f);
  return { gzip: gzipSync(result.outputFiles[0]!.contents).length, inputs };
}

const present = STRUCTURES.filter((s) => existsSync(`${root}src/${s}/index.ts`));

describe("bundle sizes", () => {
  for (const sub of ["hash", ...present]) {
    it(`redstruct/${sub}: within ${BUDGET[sub]} B gzipped, no other structure, murmurhash3js only for murmur3_128`, async () => {
      const b = await bundle(`export * from "./src/${sub}/index.ts";`);
      const carried = (s: string) => s === sub || (sub === "geo" && s === "skiplist");
      const others = b.inputs.filter((f) => STRUCTURES.some((s) => !carried(s) && f.startsWith(`src/${s}/`)));
      expect(others).toEqual([]);
      const murmur3js = b.inputs.some((f) => f.includes("murmurhash3js-revisited"));
      expect(murmur3js).toBe(sub === "hash");
      expect(b.gzip).toBeLessThanOrEqual(BUDGET[sub]!);
    });
  }

  it("BloomFilter alone: within 8800 B gzipped, without murmurhash3js-revisited", async () => {
    const b = await bundle(`export { BloomFilter } from "./src/bloom/index.ts";`);
    expect(b.inputs.some((f) => f.includes("murmurhash3js-revisited"))).toBe(false);
    expect(b.gzip).toBeLessThanOrEqual(8_800);
  });

  it("Bitmap alone: within 9600 B gzipped, without RoaringBitmap", async () => {
    const b = await bundle(`export { Bitmap } from "./src/bitmap/index.ts";`);
    expect(b.inputs.some((f) => f.includes("roaring"))).toBe(false);
    expect(b.gzip).toBeLessThanOrEqual(9_600);
  });

  it("the hash subpath without murmur3_128 leaves murmurhash3js-revisited out", async () => {
    const b = await bundle(`export { murmur3_32, murmur64a, siphash13 } from "./src/hash/index.ts";`);
    expect(b.inputs.some((f) => f.includes("murmurhash3js-revisited"))).toBe(false);
    const withIt = await bundle(`export { murmur3_128 } from "./src/hash/index.ts";`);
    expect(withIt.inputs.some((f) => f.includes("murmurhash3js-revisited"))).toBe(true);
  });
});
