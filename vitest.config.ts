import { existsSync } from "node:fs";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import type { BrowserCommand } from "vitest/node";
import { readmeExamples } from "./test/support/readme-plugin.js";
import { replyToWire, type Wire, wireToArg } from "./test/support/redis.js";
import { type RedisServer, startRedisServer } from "./test/support/resp.js";

// Redis servers started on behalf of browser tests (which cannot spawn processes), by id.
const servers = new Map<number, RedisServer>();
let nextId = 1;

const redisStart: BrowserCommand<[]> = async () => {
  const id = nextId++;
  servers.set(id, await startRedisServer());
  return id;
};
const redisPipeline: BrowserCommand<[number, Wire[][]]> = async (_ctx, id, commands) => {
  const server = servers.get(id);
  if (!server) throw new Error(`no redis server ${id}`);
  const replies = await server.client.pipeline(commands.map((c) => c.map(wireToArg)));
  return replies.map(replyToWire);
};
const redisStop: BrowserCommand<[number]> = async (_ctx, id) => {
  await servers.get(id)?.stop();
  servers.delete(id);
};

// The chromium project drives Debian's Chromium (never a browser downloaded by npm). Without it, say
// what to do in one line instead of a page of Playwright stack frames.
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const requested = process.argv.flatMap((a, i, all) =>
  a === "--project" ? [all[i + 1] ?? ""] : a.startsWith("--project=") ? [a.slice("--project=".length)] : [],
);
const wantsChromium = requested.length === 0 || requested.some((p) => p !== "node");
if (wantsChromium && !existsSync(chromiumPath)) {
  console.error(
    `redstruct tests: no Chromium at ${chromiumPath}. Install it (apt-get install -y chromium), ` +
      "or set CHROMIUM_PATH to a Chromium binary, or run `npm run test:node` for the Node project alone.",
  );
  process.exit(1);
}

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  plugins: [readmeExamples(import.meta.dirname)],
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "node", environment: "node" } },
      {
        extends: true,
        test: {
          name: "chromium",
          // Packaging and bundle-size checks spawn npm, node and esbuild, and the Redis clients need
          // sockets: they run on the Node side only.
          exclude: ["test/package/**", "test/docs/clients.test.ts"],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
            }),
            instances: [{ browser: "chromium" }],
            commands: { redisStart, redisPipeline, redisStop },
          },
        },
      },
    ],
  },
});
