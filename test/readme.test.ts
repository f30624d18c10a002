// @ts-expect-error virtual module provided by test/support/readme-plugin.ts
import { examples } from "virtual:readme-examples";
import { describe, expect, it } from "vitest";

// README examples are run as written (imports pointed at src/): an example that throws fails here.
describe("README examples", () => {
  it("has examples", () => {
    expect(examples.length).toBeGreaterThan(0);
  });
  for (const example of examples as { line: number; run: () => Promise<void> }[]) {
    it(`README.md:${example.line} runs`, async () => {
      await example.run();
    });
  }
});
