/**
 * What ships is what works: packs the library, installs the tarball into a scratch project, and
 * imports it from an ESM `.mjs` file and requires it from a CommonJS `.cjs` file on this Node; runs
 * publint and @arethetypeswrong/cli over the package. Node-only (excluded from the browser project).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
// Every subpath package.json exports ("." → "", "./hll" → "/hll"), so a new one is checked as it lands.
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, unknown>;
  typesVersions: Record<string, Record<string, string[]>>;
};
const exportsMap = manifest.exports;
const subpaths = Object.keys(exportsMap)
  .filter((k) => k !== "./package.json")
  .map((k) => k.slice(1));
let work: string;
let tarball: string;

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, npm_config_loglevel: "error" },
    });
  } catch (e) {
    // Compilers and linters print their findings on stdout: show them, not just the exit status.
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "redstruct-pack-"));
  run("npm", ["pack", "--pack-destination", work], root);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz"))!);
  const consumer = join(work, "consumer");
  execFileSync("mkdir", ["-p", consumer]);
  writeFileSync(join(consumer, "package.json"), '{ "name": "consumer", "private": true }\n');
  // TypeScript 5.0 is the floor the README states for the types; the project itself builds with 7.
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, "typescript@5.0.4"], consumer);
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("imports every subpath from an .mjs file", async () => {
    const { murmur64a } = await import("../../src/hash/index.js");
    const lines = subpaths.map((p, i) => `import * as m${i} from "redstruct${p}";`);
    lines.push(
      `if (String(m0.murmur64a("redstruct")) !== ${JSON.stringify(String(murmur64a("redstruct")))}) throw new Error("hash differs");`,
      'if (typeof m0.RedstructFormatError !== "function") throw new Error("no RedstructFormatError");',
      `console.log(JSON.stringify([${subpaths.map((_, i) => `Object.keys(m${i}).length`).join(", ")}]));`,
    );
    writeFileSync(join(work, "consumer", "check.mjs"), lines.join("\n"));
    const counts = JSON.parse(run("node", ["check.mjs"], join(work, "consumer"))) as number[];
    expect(counts[0]).toBeGreaterThan(5);
    expect(counts[1]).toBeGreaterThan(5);
  });

  it("requires every subpath from a .cjs file, with one RedstructFormatError class across entry points", async () => {
    const { murmur64a } = await import("../../src/hash/index.js");
    const lines = subpaths.map((p, i) => `const m${i} = require("redstruct${p}");`);
    lines.push(
      `if (String(m0.murmur64a("redstruct")) !== ${JSON.stringify(String(murmur64a("redstruct")))}) throw new Error("hash differs");`,
      `if (m1.murmur64a !== m0.murmur64a) throw new Error("root and subpath load different copies");`,
      `console.log(JSON.stringify([${subpaths.map((_, i) => `Object.keys(m${i}).length`).join(", ")}]));`,
    );
    writeFileSync(join(work, "consumer", "check.cjs"), lines.join("\n"));
    const counts = JSON.parse(run("node", ["check.cjs"], join(work, "consumer"))) as number[];
    expect(counts[0]).toBeGreaterThan(5);
  });

  it("type-checks in a TypeScript 5.0 consumer (the floor README states), ESM and CommonJS", () => {
    const consumer = join(work, "consumer");
    const lines = subpaths.map((p, i) => `import * as m${i} from "redstruct${p}";`);
    lines.push(`export const all = [${subpaths.map((_, i) => `m${i}`).join(", ")}];`);
    writeFileSync(join(consumer, "types.mts"), `${lines.join("\n")}\n`);
    writeFileSync(join(consumer, "types.cts"), `${lines.join("\n")}\n`);
    const tsc = join(consumer, "node_modules/typescript/bin/tsc");
    for (const file of ["types.mts", "types.cts"]) {
      // skipLibCheck off: redstruct's own .d.ts are what is checked. lib dom for TextEncoder & co.
      run(
        process.execPath,
        [
          tsc,
          "--noEmit",
          "--strict",
          "--skipLibCheck",
          "false",
          "--module",
          "node16",
          "--moduleResolution",
          "node16",
        ].concat(["--target", "es2022", "--lib", "es2022,dom", file]),
        consumer,
      );
    }
  });

  it("type-checks under node10 resolution (a `tsc --init` CommonJS project's default), every subpath", () => {
    const consumer = join(work, "consumer");
    const lines = subpaths.map((p, i) => `import * as m${i} from "redstruct${p}";`);
    lines.push(`export const all = [${subpaths.map((_, i) => `m${i}`).join(", ")}];`);
    writeFileSync(join(consumer, "node10.ts"), `${lines.join("\n")}\n`);
    const tsc = join(consumer, "node_modules/typescript/bin/tsc");
    run(
      process.execPath,
      [
        tsc,
        "--noEmit",
        "--strict",
        "--skipLibCheck",
        "false",
        "--module",
        "commonjs",
        "--moduleResolution",
        "node10",
      ].concat(["--target", "es2022", "--lib", "es2022,dom", "node10.ts"]),
      consumer,
    );
  });

  it("maps every subpath in typesVersions (what node10 resolution reads) to its declarations", () => {
    const map = manifest.typesVersions["*"] ?? {};
    const expected = Object.fromEntries(
      subpaths.filter((p) => p !== "").map((p) => [p.slice(1), [`./dist/cjs${p}/index.d.ts`]]),
    );
    expect(map).toEqual(expected);
  });

  it("ships no @internal member in its declarations (stripInternal)", () => {
    const dist = join(work, "consumer", "node_modules", "redstruct", "dist");
    const leaks = (readdirSync(dist, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".d.ts") && readFileSync(join(dist, f), "utf8").includes("@internal"))
      .sort();
    expect(leaks).toEqual([]);
  });

  it("passes publint", () => {
    const out = run(process.execPath, [join(root, "node_modules/publint/src/cli.js"), "--strict", root], root);
    expect(out).not.toMatch(/error|warning/i);
  });

  it("passes @arethetypeswrong/cli in every resolution (node10, node16 from ESM and CJS, bundler)", () => {
    // attw exits non-zero on any problem, which makes run() throw with its report.
    const out = run(
      process.execPath,
      [join(root, "node_modules/@arethetypeswrong/cli/dist/index.js"), tarball, "--format", "json"],
      root,
    );
    const report = JSON.parse(out) as { problems: Record<string, unknown[]> };
    expect(Object.values(report.problems).flat()).toEqual([]);
  });

  it("resolves every relative link of every shipped Markdown file inside the package", () => {
    const pkg = join(work, "consumer", "node_modules", "redstruct");
    const pages = (readdirSync(pkg, { recursive: true }) as string[]).filter(
      (f) => f.endsWith(".md") && !f.startsWith("node_modules"),
    );
    expect(pages).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", join("docs", "hll.md")]));
    const broken: string[] = [];
    let links = 0;
    for (const page of pages) {
      const text = readFileSync(join(pkg, page), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split("#")[0]!;
        if (target === "" || /^[a-z]+:/.test(target)) continue; // an anchor of the page, or a URL
        links++;
        const file = resolve(pkg, dirname(page), target);
        if (!file.startsWith(pkg + sep) || !existsSync(file)) broken.push(`${page} → ${m[1]}`);
      }
    }
    expect(links).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });
});

describe("an install from the repository", () => {
  it("builds dist/ itself (the prepare script) and imports", () => {
    const commit = run("git", ["rev-parse", "HEAD"], root).trim();
    const consumer = join(work, "from-git");
    execFileSync("mkdir", ["-p", consumer]);
    writeFileSync(join(consumer, "package.json"), '{ "name": "from-git", "private": true }\n');
    run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", `git+file://${root}#${commit}`], consumer);
    expect(existsSync(join(consumer, "node_modules", "redstruct", "dist", "cjs", "hll", "index.js"))).toBe(true);
    const out = run(
      "node",
      ["-e", 'const { HyperLogLog } = require("redstruct/hll"); console.log(HyperLogLog.from(["a", "b"]).count())'],
      consumer,
    );
    expect(out.trim()).toBe("2");
  }, 300_000);
});
