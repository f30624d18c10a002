// @ts-expect-error virtual module provided by test/support/readme-plugin.ts
import { examples } from "virtual:readme-examples";
import { describe, expect, it } from "vitest";

// README and docs/ examples are run as written (imports pointed at src/): one that throws fails here.
describe("README and docs examples", () => {
  it("has examples", () => {
    expect(examples.length).toBeGreaterThan(0);
  });
  for (const example of examples as { line: string; run: () => Promise<void> }[]) {
    it(`${example.line} runs`, async () => {
      await example.run();
    });
  }
});
