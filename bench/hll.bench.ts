/**
 * HyperLogLog throughput and memory: `HyperLogLog.add` against `Set.add` (the exact baseline a user
 * would otherwise write), against bloom-filters' HyperLogLog and against `UltraLogLog.add` and
 * `ExaLogLog.add` (t = 2, d = 24: its 32-bit register update and martingale step), in one run.
 *
 * "Fresh strings": every call builds 200 new distinct strings (`v:<task>:<counter>`) and adds them,
 * as a server or worker sees visitor ids arriving; V8 has not hashed these strings yet, so `Set`
 * pays for hashing exactly as we do. All three tasks pay the same string-building cost. Each
 * structure is long-lived (the HLL is dense after its first thousand elements); the Set is
 * replaced after 10^6 elements so memory stays bounded (its regrowth is part of its real cost).
 * "Pre-built strings" adds strings that already exist (and whose hash V8 caches after the first
 * pass), cycling through a pool of 2·10^5: the best case for `Set`.
 * Memory: heap bytes held after building each structure from n fresh distinct strings.
 */
import bloomFilters from "bloom-filters";
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../src/hll/index.js";
import {
  type BenchContext,
  compare,
  distinctStrings,
  type Headline,
  heapUsed,
  markdownTable,
  type Row,
  type Suite,
  throughputChart,
  throughputTable,
} from "./lib.js";

// bloom-filters is CommonJS: its named exports are properties of the default import under Node ESM.
const BfHyperLogLog = bloomFilters.HyperLogLog;
const FRESH_BATCH = 200;
// Memory is measured in Node (process.memoryUsage), like every suite here.
const SET_RESET = 1_000_000;
let sink = 0;

async function fresh(ctx: BenchContext): Promise<Row[]> {
  let setCounter = 0;
  let set = new Set<string>();
  let hllCounter = 0;
  const hll = new HyperLogLog();
  let ullCounter = 0;
  const ull = new UltraLogLog({ precision: 14 });
  let ellCounter = 0;
  const ell = new ExaLogLog({ precision: 14 });
  let bfCounter = 0;
  const bf = new BfHyperLogLog(16384);
  return compare(
    ctx,
    "add of fresh strings",
    {
      "Set.add": () => {
        if (set.size >= SET_RESET) set = new Set();
        for (let i = 0; i < FRESH_BATCH; i++) set.add(`v:set:${setCounter++}`);
      },
      "redstruct HyperLogLog.add (p=14)": () => {
        for (let i = 0; i < FRESH_BATCH; i++) hll.add(`v:hll:${hllCounter++}`);
      },
      "redstruct UltraLogLog.add (p=14)": () => {
        for (let i = 0; i < FRESH_BATCH; i++) ull.add(`v:ull:${ullCounter++}`);
      },
      "redstruct ExaLogLog.add (p=14)": () => {
        for (let i = 0; i < FRESH_BATCH; i++) ell.add(`v:ell:${ellCounter++}`);
      },
      "bloom-filters HyperLogLog.update (16384 registers)": () => {
        for (let i = 0; i < FRESH_BATCH; i++) bf.update(`v:bf:${bfCounter++}`);
      },
    },
    { baseline: "Set.add", batch: FRESH_BATCH },
  );
}

async function prebuilt(ctx: BenchContext): Promise<Row[]> {
  const pool = distinctStrings(200_000, 3);
  const batch = 1000;
  let setAt = 0;
  let set = new Set<string>();
  let hllAt = 0;
  const hll = new HyperLogLog();
  return compare(
    ctx,
    "add of pre-built strings",
    {
      "Set.add": () => {
        if (setAt + batch > pool.length) {
          setAt = 0;
          set = new Set();
        }
        for (let i = 0; i < batch; i++) set.add(pool[setAt++]!);
      },
      "redstruct HyperLogLog.add (p=14)": () => {
        if (hllAt + batch > pool.length) hllAt = 0;
        for (let i = 0; i < batch; i++) hll.add(pool[hllAt++]!);
      },
    },
    { baseline: "Set.add", batch },
  );
}

interface MemoryRow {
  n: number;
  setBytes: number;
  hllHeapBytes: number;
  hllRegisterBytes: number;
  hllEncoding: string;
  ratio: number;
}

function memory(ctx: BenchContext): MemoryRow[] {
  const rows: MemoryRow[] = [];
  for (const n of ctx.full ? [100, 1000, 10_000, 100_000, 1_000_000, 4_000_000] : [100, 1000, 10_000, 1_000_000]) {
    ctx.log(`  memory n=${n}`);
    // Small structures are measured many at a time so the heap delta rises above GC noise.
    const copies = Math.max(1, Math.min(200, Math.floor(1_000_000 / n)));
    // Strings are built fresh and kept only by the structure, as when ids arrive from the network.
    let base = heldBytes();
    let sets: Set<string>[] | null = [];
    for (let c = 0; c < copies; c++) {
      const set = new Set<string>();
      for (let i = 0; i < n; i++) set.add(`visitor:${c}:${i.toString(36)}`);
      sets.push(set);
    }
    const setBytes = (heldBytes() - base) / copies;
    sink += sets.length;
    sets = null;
    // One sketch is built, then cloned 200 times (a clone holds exactly what the original holds),
    // so its few KB rise above GC noise.
    const built = new HyperLogLog();
    for (let i = 0; i < n; i++) built.add(`visitor:0:${i.toString(36)}`);
    const hllCopies = 200;
    base = heldBytes();
    let hlls: HyperLogLog[] | null = [];
    for (let c = 0; c < hllCopies; c++) hlls.push(built.clone());
    const hllHeapBytes = (heldBytes() - base) / hllCopies;
    const first = hlls[0]!;
    rows.push({
      n,
      setBytes,
      hllHeapBytes,
      hllRegisterBytes: first.byteLength,
      hllEncoding: first.encoding,
      ratio: setBytes / hllHeapBytes,
    });
    sink += first.count();
    hlls = null;
  }
  return rows;
}

/** JS heap plus ArrayBuffer backing stores (typed-array registers live outside the JS heap). */
function heldBytes(): number {
  const heap = heapUsed(); // forces GC first
  return heap + process.memoryUsage().arrayBuffers;
}

const kb = (b: number) => (b < 1024 ? `${Math.round(b)} B` : `${(b / 1024).toFixed(1)} KB`);

const suite: Suite = {
  name: "hll",
  description:
    "HyperLogLog.add, UltraLogLog.add and ExaLogLog.add vs Set.add and bloom-filters' HyperLogLog (throughput ratios from one run), and memory held vs a Set.",
  async run(ctx) {
    const freshRows = await fresh(ctx);
    const prebuiltRows = await prebuilt(ctx);
    const mem = memory(ctx);
    const ours = freshRows.find((r) => r.name.startsWith("redstruct HyperLogLog"))!;
    const ullRow = freshRows.find((r) => r.name.startsWith("redstruct UltraLogLog"))!;
    const ullVsHll = ullRow.opsPerSec / ours.opsPerSec;
    const ellRow = freshRows.find((r) => r.name.startsWith("redstruct ExaLogLog"))!;
    const ellVsUll = ellRow.opsPerSec / ullRow.opsPerSec;
    const peer = freshRows.find((r) => r.name.startsWith("bloom-filters"))!;
    const vsPeer = ours.opsPerSec / peer.opsPerSec;
    const markdown = [
      throughputTable("add of fresh strings (each call builds and adds 200 new strings)", freshRows),
      `redstruct vs bloom-filters: **${vsPeer.toFixed(0)}×** (goal ≥ 1000×); vs Set.add: **${ours.ratio.toFixed(2)}×** (goal ≥ 1×). UltraLogLog.add vs HyperLogLog.add: **${ullVsHll.toFixed(2)}×** (goal ≥ 1×, never below 0.8×). ExaLogLog.add vs UltraLogLog.add: **${ellVsUll.toFixed(2)}×** (goal ≥ 0.8×).\n`,
      throughputTable("add of pre-built strings (V8 has cached their hashes: Set's best case)", prebuiltRows),
      `**Memory held after adding n fresh distinct strings** (JS heap + ArrayBuffer bytes after GC, averaged over up to 200 Sets and 200 HyperLogLog clones; "registers" is the typed-array storage alone)\n\n${markdownTable(
        ["n", "Set (strings + table)", "HyperLogLog total", "HyperLogLog registers", "encoding", "Set / HLL"],
        mem.map((r) => [
          r.n,
          kb(r.setBytes),
          kb(r.hllHeapBytes),
          kb(r.hllRegisterBytes),
          r.hllEncoding,
          `${r.ratio.toFixed(0)}×`,
        ]),
      )}\n`,
    ].join("\n");
    const headlines: Headline[] = [
      { structure: "HyperLogLog", operation: "add, fresh strings", versus: "Set.add", ratio: ours.ratio, goal: 1 },
      {
        structure: "HyperLogLog",
        operation: "add, fresh strings",
        versus: "bloom-filters HyperLogLog",
        ratio: vsPeer,
        goal: 1000,
      },
      {
        structure: "UltraLogLog",
        operation: "add, fresh strings",
        versus: "HyperLogLog.add",
        ratio: ullVsHll,
        goal: 1,
      },
      {
        structure: "ExaLogLog",
        operation: "add, fresh strings",
        versus: "UltraLogLog.add",
        ratio: ellVsUll,
        goal: 0.8,
      },
    ];
    return {
      headlines,
      markdown,
      data: {
        fresh: freshRows,
        prebuilt: prebuiltRows,
        memory: mem,
        redstructVsBloomFilters: vsPeer,
        ullVsHll,
        ellVsUll,
        sink,
      },
      charts: [{ name: "add-fresh", spec: throughputChart("add of fresh strings (ops/s)", freshRows) }],
    };
  },
};

export default suite;
