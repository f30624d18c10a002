/**
 * Every step of test/vectors/redisbloom/tdigest.json (RedisBloom 2.4.23's TDIGEST.* replies, INFO
 * fields, DUMP bytes and RESTOREs) replayed through the TDigest API: each reply must equal the
 * recorded one exactly — doubles bit for bit (−0 apart from 0, NaN as NaN), 64-bit integers exactly,
 * DUMP payloads byte for byte. Along the way every digest a command touched passes checkInvariants(),
 * and now and then is swapped for `fromBytes(toBytes())` or `clone()`, so that the rest of the replay
 * also checks that those copies answer every later call alike.
 */
import { describe, expect, it } from "vitest";
import { TDigest } from "../../src/tdigest/index.js";
import { type Arg, sameReply, show, TDigestKeyspace } from "../support/tdigest-redis.js";
import vectors from "../vectors/redisbloom/tdigest.json" with { type: "json" };

interface Step {
  cmd: string;
  args: Arg[];
  reply: unknown;
  note?: string;
}
interface Case {
  name: string;
  sections: Record<string, Step[]>;
  derived?: Record<string, unknown>;
}

const data = vectors as unknown as {
  step_count: number;
  cases: Case[];
  special: Case[];
  merges: Case[];
  resets: Case[];
  errors: Step[];
};

let copies = 0;
/** After every command: the invariants, and every 7th time a copy of the digest takes its place. */
function touched(_key: string, d: TDigest): TDigest {
  d.checkInvariants();
  copies++;
  if (copies % 7 === 3) {
    const bytes = d.toBytes();
    const back = TDigest.fromBytes(bytes);
    back.checkInvariants();
    expect(back.toBytes()).toEqual(bytes);
    return back;
  }
  if (copies % 7 === 5) return d.clone();
  return d;
}

function replay(ks: TDigestKeyspace, steps: Step[], where: string): number {
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const ours = ks.run(s.cmd, s.args);
    if (!sameReply(ours, s.reply)) {
      const args = s.args.map((a) => ("utf8" in a ? a.utf8 : `<${a.hex.length / 2} bytes>`)).join(" ");
      expect.fail(
        `${where} step ${i}: ${s.cmd} ${args.slice(0, 300)}${s.note ? ` (${s.note})` : ""}\n` +
          `  recorded: ${JSON.stringify(s.reply).slice(0, 2000)}\n  ours:     ${show(ours).slice(0, 2000)}`,
      );
    }
  }
  return steps.length;
}

let replayed = 0;

describe("TDigest replays RedisBloom 2.4.23 (tdigest.json)", () => {
  for (const group of ["cases", "special", "merges", "resets"] as const) {
    describe(group, () => {
      for (const c of data[group]) {
        it(c.name, () => {
          const ks = new TDigestKeyspace(touched);
          for (const [section, steps] of Object.entries(c.sections)) {
            replayed += replay(ks, steps, `${group}/${c.name}/${section}`);
          }
        });
      }
    });
  }

  it("errors: arity, keys, argument checks and allocation failures", () => {
    replayed += replay(new TDigestKeyspace(touched), data.errors, "errors");
  });

  it("replayed every recorded step", () => {
    expect(replayed).toBe(data.step_count);
  });
});

describe("the recorded derived facts", () => {
  it("every DUMP decodes and RESTOREs to a digest whose DUMP is the same bytes (merged digests)", () => {
    let dumps = 0;
    const all = [...data.cases, ...data.special, ...data.merges, ...data.resets];
    for (const c of all) {
      for (const steps of Object.values(c.sections)) {
        for (const s of steps) {
          if (s.cmd !== "DUMP" || s.reply === null) continue;
          const hex = (s.reply as { hex: string }).hex;
          const bytes = Uint8Array.from(hex.match(/../g)!, (h) => Number.parseInt(h, 16));
          const d = TDigest.fromRedis(bytes);
          d.checkInvariants();
          const unmerged = d.info().unmergedNodes;
          // A payload with buffered (zeroed) nodes re-sorts them on DUMP: identical only without them.
          if (unmerged === 0) expect(d.toRedis()).toEqual(bytes);
          dumps++;
        }
      }
    }
    expect(dumps).toBeGreaterThan(150);
  });
});
