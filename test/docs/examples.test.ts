// @ts-expect-error virtual module provided by test/support/readme-plugin.ts
import { examples } from "virtual:readme-examples";
import { afterAll, describe, expect, it } from "vitest";
import { checkLogged } from "../support/example-output.js";

type Log = (where: string | null, comment: string, ...args: unknown[]) => void;

// README and docs/ examples are run as written (imports pointed at src/): one that throws fails here.
// What they log is kept out of the test log and checked against the values their comments state.
describe("README and docs examples", () => {
  let checked = 0;
  const log: Log = (where, comment, ...args) => {
    if (where !== null) checked += checkLogged(where, comment, args);
  };
  it("has examples", () => {
    expect(examples.length).toBeGreaterThan(0);
  });
  for (const example of examples as { line: string; run: (log: Log) => Promise<void> }[]) {
    it(`${example.line} runs`, async () => {
      await example.run(log);
    });
  }
  afterAll(() => {
    // The comments state values for most logged lines: the checker must be reading them.
    expect(checked).toBeGreaterThanOrEqual(25);
  });
});
