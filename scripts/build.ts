/**
 * Builds dist/: each src file transpiled 1:1 (not bundled, so `redstruct` and `redstruct/hll` share
 * one RedstructFormatError class) to ESM in dist/esm and CommonJS in dist/cjs (a nested package.json
 * marks that folder "type": "commonjs"), then `tsc` writes the declarations beside each.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const files = (readdirSync("src", { recursive: true }) as string[])
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
  .map((f) => join("src", f));

rmSync("dist", { recursive: true, force: true });
const common = { entryPoints: files, outbase: "src", bundle: false, target: "es2022", logLevel: "warning" } as const;
await build({ ...common, format: "esm", outdir: "dist/esm" });
await build({ ...common, format: "cjs", outdir: "dist/cjs" });
mkdirSync("dist/cjs", { recursive: true });
writeFileSync("dist/cjs/package.json", '{ "type": "commonjs" }\n');

execFileSync(
  process.execPath,
  ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--outDir", "dist/esm"],
  {
    stdio: "inherit",
  },
);
// Declarations are the same text for both formats; under dist/cjs they are read as CommonJS.
for (const f of readdirSync("dist/esm", { recursive: true }) as string[]) {
  if (f.endsWith(".d.ts")) cpSync(join("dist/esm", f), join("dist/cjs", f));
}
console.log(`built ${files.length} modules to dist/esm and dist/cjs`);
