/**
 * A vite plugin serving `virtual:readme-examples`: every ```ts block of README.md and of docs/*.md as
 * an async function, transpiled here on the Node side (esbuild) so that the same examples run in the
 * node and the chromium projects. `import … from "redstruct[/sub]"` lines are hoisted and pointed at
 * src/.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { transformSync } from "esbuild";
import type { Plugin } from "vite";

const ID = "virtual:readme-examples";
const RESOLVED = `\0${ID}`;

/** README.md, then docs/*.md in name order (generated docs/api is HTML, not read). */
function documents(root: string): string[] {
  const docs = resolve(root, "docs");
  const pages = existsSync(docs)
    ? readdirSync(docs)
        .filter((f) => f.endsWith(".md"))
        .sort()
        .map((f) => `docs/${f}`)
    : [];
  return ["README.md", ...pages];
}

/**
 * Each one-line `console.log(…); // comment` of an example becomes `__log("file:line", "comment", …)`,
 * so the runner checks what it logs against what the comment states (test/support/example-output.ts);
 * every other `console.log` is captured by the example's own `console`. Nothing reaches the test log.
 */
function logged(body: string, file: string, first: number): string {
  const lines = body.split("\n");
  return lines
    .map((text, i) => {
      const m = text.match(/^(.*?)console\.log\((.*)\);\s*\/\/\s*(.*)$/);
      if (m === null) return text;
      const where = JSON.stringify(`${file}:${first + i}`);
      return `${m[1]}__log(${where}, ${JSON.stringify(m[3])}, ${m[2]});`;
    })
    .join("\n");
}

export function readmeExamples(root: string): Plugin {
  return {
    name: "redstruct-readme-examples",
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      const header: string[] = [];
      const bodies: string[] = [];
      let n = 0;
      for (const file of documents(root)) {
        const path = resolve(root, file);
        this.addWatchFile(path);
        const readme = readFileSync(path, "utf8");
        for (const m of readme.matchAll(/```ts\n([\s\S]*?)```/g)) {
          const code = m[1]!;
          const line = `${file}:${readme.slice(0, m.index).split("\n").length}`;
          const locals: string[] = [];
          const body = code.replace(
            /^import\s+(type\s+)?\{([^}]*)\}\s+from\s+"redstruct(\/[a-z]+)?";?[ \t]*(?:\/\/.*)?$/gm,
            (_all, isType: string | undefined, names: string, sub: string | undefined) => {
              if (isType) return "";
              const ns = `__ex${n}_m${locals.length}`;
              header.push(`import * as ${ns} from "/src/${sub ? `${sub.slice(1)}/` : ""}index.ts";`);
              const list = names
                .split(",")
                .map((s) => s.trim())
                .filter((s) => s && !s.startsWith("type "))
                .map((s) => s.replace(/\s+as\s+/, ": "));
              locals.push(`const { ${list.join(", ")} } = ${ns};`);
              return "";
            },
          );
          if (/^import\s/m.test(body)) throw new Error(`${line}: example imports something other than redstruct`);
          const first = readme.slice(0, m.index).split("\n").length + 1;
          bodies.push(
            `{ line: ${JSON.stringify(line)}, run: async (__log) => {\nconst console = { log: (...a) => __log(null, "", ...a) };\n${locals.join("\n")}\n${logged(body, file, first)}\n} }`,
          );
          n++;
        }
      }
      const source = `${header.join("\n")}\nexport const examples = [\n${bodies.join(",\n")}\n];\n`;
      return transformSync(source, { loader: "ts", format: "esm", target: "es2022" }).code;
    },
  };
}
