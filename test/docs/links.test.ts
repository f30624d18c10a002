/// <reference types="vite/client" />
/**
 * Every relative link in README.md and docs/*.md lands where it says: the file exists, and a
 * `#fragment` names a heading of that file (GitHub's anchor rules: lower case, punctuation dropped,
 * spaces to hyphens, repeats numbered). No repeated heading, so no anchor is ambiguous (except in
 * the changelog, whose format repeats "Added" and "Fixed" under each version).
 */
import { describe, expect, it } from "vitest";

const pages = import.meta.glob(["../../README.md", "../../CHANGELOG.md", "../../docs/*.md"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
// Other files the documents may link to (their text is not needed, only that they exist).
const others = Object.keys(
  import.meta.glob(
    ["../../LICENSE", "../../bench/results/README.md", "../../bench/probes/*.ts", "../../package.json"],
    {
      query: "?raw",
      eager: true,
    },
  ),
);

/** "../../docs/hll.md" → "docs/hll.md". */
const repoPath = (p: string) => p.replace(/^(\.\.\/)+/, "");
const files = new Set([...Object.keys(pages), ...others].map(repoPath));

function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown text's headings (outside code blocks), numbered as GitHub does. */
function anchors(text: string): { list: string[]; headings: string[] } {
  const seen = new Map<string, number>();
  const list: string[] = [];
  const headings: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    headings.push(m[1]!);
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    list.push(n === 0 ? base : `${base}-${n}`);
  }
  return { list, headings };
}

function resolve(from: string, target: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const seg of target.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
}

describe("documentation links", () => {
  it("finds the pages", () => {
    expect(files.has("README.md")).toBe(true);
    expect([...files].filter((f) => f.startsWith("docs/")).length).toBeGreaterThan(5);
  });

  for (const [key, text] of Object.entries(pages)) {
    const page = repoPath(key);
    it(`${page}: every relative link and anchor resolves; no heading repeats`, () => {
      const { headings } = anchors(text);
      // A changelog repeats its section names (Added, Fixed) under every version, by its format.
      const repeated = page.endsWith("CHANGELOG.md") ? [] : headings.filter((h, i) => headings.indexOf(h) !== i);
      expect(repeated).toEqual([]);
      const body = text.replace(/```[\s\S]*?```/g, "");
      for (const m of body.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [path, fragment] = target.split("#") as [string, string | undefined];
        const file = path === "" ? page : resolve(page, path);
        expect(files.has(file), `${page} links to ${target}: no such file`).toBe(true);
        if (fragment !== undefined && pages[`../${file}`] !== undefined) {
          expect(anchors(pages[`../${file}`]!).list, `${page} links to ${target}`).toContain(fragment);
        }
      }
    });
  }
});
