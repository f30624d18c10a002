/**
 * ID generators: throughput of `Snowflake.next()` / `nextString()` against the physical limit of
 * the layout (4096 IDs per millisecond = 4.096M/s for one generator) and against
 * @sapphire/snowflake, with uuid v7 and monotonic ULID for context; duplicates over 10^6 calls in a
 * tight loop for each generator; and the per-call cost with the cap lifted (a synthetic clock).
 */
import { cpus, loadavg } from "node:os";
import { Snowflake as SapphireSnowflake } from "@sapphire/snowflake";
import { monotonicFactory } from "ulid";
import { v7 as uuidv7 } from "uuid";
import { Snowflake, TimestampCounterId } from "../src/idgen/index.js";
import { compare, formatOps, markdownTable, type Suite, throughputChart, throughputTable } from "./lib.js";

const LIMIT = 4_096_000; // 4096 IDs per ms: the default layout's ceiling for one generator
const TWITTER_EPOCH = 1288834974657;

/** The generators compared, each a fresh instance per use so no state carries over. */
function generators(): Record<string, () => () => unknown> {
  return {
    "redstruct Snowflake.next()": () => {
      const sf = new Snowflake({ workerId: 1 });
      return () => sf.next();
    },
    "redstruct Snowflake.nextString()": () => {
      const sf = new Snowflake({ workerId: 1 });
      return () => sf.nextString();
    },
    "@sapphire/snowflake generate()": () => {
      const sf = new SapphireSnowflake(TWITTER_EPOCH);
      return () => sf.generate();
    },
    "uuid v7()": () => () => uuidv7(),
    "ulid monotonicFactory()()": () => {
      const next = monotonicFactory();
      return () => next();
    },
    "redstruct TimestampCounterId.next()": () => {
      const tc = new TimestampCounterId();
      return () => tc.next();
    },
  };
}

interface DuplicateRow {
  name: string;
  calls: number;
  duplicates: number;
  /** Consecutive pairs where the later ID is not greater (numerically for bigints, as strings otherwise). */
  notIncreasing: number;
  idsPerSec: number;
  /** For snowflakes of the default layout: how full the milliseconds that the loop used were. */
  ticks?: { used: number; full: number; meanPerTick: number };
}

/** 10^6 calls in a tight loop into a preallocated array, then distinct count and order check. */
function duplicateRun(name: string, make: () => () => unknown, calls: number): DuplicateRow {
  const next = make();
  for (let i = 0; i < 20_000; i++) next(); // warm up the JIT outside the timed loop
  const ids = new Array<unknown>(calls);
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) ids[i] = next();
  const seconds = (performance.now() - t0) / 1000;
  const distinct = new Set(ids).size;
  let notIncreasing = 0;
  for (let i = 1; i < calls; i++) {
    const a = ids[i - 1];
    const b = ids[i];
    const greater =
      typeof a === "string" && typeof b === "string" && /^[0-9]+$/.test(a) && /^[0-9]+$/.test(b)
        ? Snowflake.compare(b, a) > 0
        : (b as string | bigint) > (a as string | bigint);
    if (!greater) notIncreasing++;
  }
  const row: DuplicateRow = { name, calls, duplicates: calls - distinct, notIncreasing, idsPerSec: calls / seconds };
  if (name.startsWith("redstruct Snowflake")) {
    // IDs per millisecond: with the 12-bit sequence a millisecond holds at most 4096. Milliseconds
    // in which the process was descheduled (a shared machine) show up as partly used or missing.
    const perTick = new Map<bigint, number>();
    for (const id of ids) {
      const tick = BigInt(id as bigint | string) >> 22n;
      perTick.set(tick, (perTick.get(tick) ?? 0) + 1);
    }
    let full = 0;
    for (const n of perTick.values()) if (n === 4096) full++;
    row.ticks = { used: perTick.size, full, meanPerTick: calls / perTick.size };
  }
  return row;
}

const suite: Suite = {
  name: "idgen",
  description:
    "Snowflake and timestamp+counter IDs: throughput against the 4.096M/s physical limit and the npm peers, duplicates over 10^6 tight-loop calls, and the per-call cost with the cap lifted.",
  async run(ctx) {
    const BATCH = 8192; // two milliseconds' worth of IDs per task call
    // A generator capped at 4096 IDs/ms loses every millisecond it is descheduled: note the load.
    const loadBefore = loadavg()[0]!;
    const make = generators();

    // 1. Throughput, all generators in one run.
    const tasks: Record<string, () => void> = {};
    for (const [name, factory] of Object.entries(make)) {
      const next = factory();
      tasks[name] = () => {
        for (let i = 0; i < BATCH; i++) next();
      };
    }
    const throughput = await compare(ctx, "IDs per second, one generator", tasks, {
      baseline: "@sapphire/snowflake generate()",
      batch: BATCH,
    });

    // Raw per-call cost of our generator with the cap lifted: a clock that moves 1 ms every 4096 reads.
    let reads = 0;
    const base = Date.now();
    const synthetic = () => base + Math.floor(reads++ / 4096);
    const uncapped = new Snowflake({ workerId: 1, clock: synthetic });
    const uncappedString = new Snowflake({ workerId: 1, clock: synthetic });
    let sink = 0;
    const raw = await compare(
      ctx,
      "per-call cost without the 4096/ms cap (synthetic clock, one tick per 4096 reads)",
      {
        "synthetic clock alone": () => {
          for (let i = 0; i < BATCH; i++) sink += synthetic();
        },
        "Snowflake.next() on the synthetic clock": () => {
          for (let i = 0; i < BATCH; i++) uncapped.next();
        },
        "Snowflake.nextString() on the synthetic clock": () => {
          for (let i = 0; i < BATCH; i++) uncappedString.nextString();
        },
        "Date.now() alone (the default clock)": () => {
          for (let i = 0; i < BATCH; i++) sink += Date.now();
        },
      },
      { baseline: "synthetic clock alone", batch: BATCH },
    );
    void sink;

    // 2. Duplicates over 10^6 calls in a tight loop.
    const CALLS = 1_000_000;
    const duplicates: DuplicateRow[] = [];
    for (const [name, factory] of Object.entries(make)) {
      ctx.log(`  duplicates: ${name}, ${CALLS} calls`);
      duplicates.push(duplicateRun(name, factory, CALLS));
    }

    const ours = (name: string) => throughput.find((r) => r.name === name)?.opsPerSec ?? Number.NaN;
    const limitRows = ["redstruct Snowflake.next()", "redstruct Snowflake.nextString()"].map((name) => [
      name,
      formatOps(ours(name)),
      `${((ours(name) / LIMIT) * 100).toFixed(1)} %`,
    ]);

    const loadAfter = loadavg()[0]!;
    const markdown = [
      `1-minute load average on this ${cpus().length}-core machine: ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end (a capped generator loses each millisecond it does not run).\n`,
      throughputTable("IDs per second, one generator (ratio to @sapphire/snowflake)", throughput),
      `**Against the physical limit (4096 IDs/ms = 4.096M/s per generator; goal ≥ 95 %)**\n\n${markdownTable(
        ["generator", "ops/s", "% of 4.096M/s"],
        limitRows,
      )}\n`,
      `**Duplicates over ${CALLS.toLocaleString("en-US")} calls in a tight loop, one generator each**\n\n${markdownTable(
        ["generator", "duplicates", "not increasing", "IDs/s in that loop (storing every ID)"],
        duplicates.map((d) => [d.name, d.duplicates, d.notIncreasing, formatOps(d.idsPerSec)]),
      )}\n`,
      `**Milliseconds used by our snowflake loops above (a millisecond holds at most 4096 IDs)**\n\n${markdownTable(
        ["generator", "milliseconds used", "full (4096 IDs)", "mean IDs per millisecond used"],
        duplicates
          .filter((d) => d.ticks)
          .map((d) => [d.name, d.ticks!.used, d.ticks!.full, d.ticks!.meanPerTick.toFixed(0)]),
      )}\n`,
      throughputTable("Per-call cost with the cap lifted (ratio to the synthetic clock alone)", raw),
    ].join("\n");

    const sapphire = throughput.find((r) => r.name.includes("sapphire"));
    return {
      markdown,
      headlines: [
        {
          structure: "Snowflake",
          operation: "next(), share of 4096 IDs/ms",
          versus: "the 4096/ms limit",
          ratio: ours("redstruct Snowflake.next()") / LIMIT,
          goal: 0.95,
        },
        ...(sapphire
          ? [
              {
                structure: "Snowflake",
                operation: "next() (ours waits out a full millisecond; @sapphire/snowflake wraps and repeats IDs)",
                versus: sapphire.name,
                ratio: ours("redstruct Snowflake.next()") / sapphire.opsPerSec,
              },
            ]
          : []),
      ],
      data: { limit: LIMIT, loadavg: [loadBefore, loadAfter], throughput, raw, duplicates },
      charts: [{ name: "throughput", spec: throughputChart("IDs per second, one generator", throughput) }],
    };
  },
};

export default suite;
