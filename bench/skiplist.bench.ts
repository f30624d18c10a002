/**
 * Sorted set benchmark: redstruct's SortedSet against sorted-btree, @js-sdsl/ordered-map (with
 * enableIndex), functional-red-black-tree, tlhunter-sorted-set and a sorted-array baseline, all at
 * the same size and in the same run. The peers are ordered maps keyed by score (distinct random
 * scores, the member as value); SortedSet and tlhunter-sorted-set also keep a member → score map,
 * which is extra work on inserts that the maps skip. One extra insert row, sorted-btree plus a Map
 * member → score, does that work too, for a like-for-like comparison (the goal stays vs plain
 * sorted-btree).
 *
 * A union row: two 10^5-member sets (half their members shared) merged by `SortedSet.union`, by what
 * a user would write with two Maps (merge, then sort the entries), and with js-sdsl (merge, then an
 * OrderedMap keyed by (score, member)).
 *
 * Quick mode: 10^6 entries. --full: 10^5 and 10^6, three builds each, longer measurements.
 */
import { compareMembers, SortedSet } from "../src/skiplist/index.js";
import {
  type BenchContext,
  type Chart,
  compare,
  distinctStrings,
  formatOps,
  type Headline,
  heapUsed,
  markdownTable,
  prng,
  type Row,
  type Suite,
  throughputChart,
  throughputTable,
} from "./lib.js";

// Untyped CommonJS peers: loaded through a string-typed specifier and given minimal shapes here.
interface RbIterator {
  valid: boolean;
  key: number;
  value: string;
  index: number;
  next(): void;
}
interface RbTree {
  insert(key: number, value: string): RbTree;
  remove(key: number): RbTree;
  get(key: number): string | undefined;
  find(key: number): RbIterator;
  ge(key: number): RbIterator;
  at(index: number): RbIterator;
}
interface TlSortedSet {
  add(member: string, score: number): unknown;
  rem(member: string): unknown;
  get(member: string): number | undefined;
  rank(member: string): number | null;
  range(start: number, stop: number, options?: { withScores?: boolean }): unknown[];
  rangeByScore(min: number, max: number, options?: { withScores?: boolean }): unknown[];
}
interface SdslIterator {
  pointer: [number, string];
  index: number;
  next(): SdslIterator;
  equals(other: SdslIterator): boolean;
}
interface SdslMap {
  setElement(key: number, value: string): void;
  eraseElementByKey(key: number): boolean;
  getElementByKey(key: number): string | undefined;
  getElementByPos(pos: number): [number, string];
  find(key: number): SdslIterator;
  lowerBound(key: number): SdslIterator;
  end(): SdslIterator;
}

const load = async <T>(name: string): Promise<T> => {
  const mod = (await import(name)) as { default?: unknown };
  return (mod.default ?? mod) as T;
};

const BATCH = 1000;
const LIKE_FOR_LIKE = "sorted-btree + Map member → score (ZADD's work)";
const SDSL_BY_MEMBER = "js-sdsl find(Map.get(member)).index [rank of a member, like for like]";

interface Inputs {
  n: number;
  members: string[];
  scores: Float64Array;
  /** Positions (into members/scores) queried by the batches. */
  picks: Int32Array;
  /** Ranks queried by the by-rank batches. */
  ranks: Int32Array;
  /** For range scans: [lo, hi] score pairs each covering exactly 100 entries. */
  scanLo: Float64Array;
  scanHi: Float64Array;
}

function inputs(n: number): Inputs {
  const rand = prng(0x5c0e + n);
  const members = distinctStrings(n, 7);
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) scores[i] = Math.floor(rand() * 1e9) + rand();
  const sorted = Float64Array.from(scores).sort();
  const picks = new Int32Array(BATCH);
  const ranks = new Int32Array(BATCH);
  const scanLo = new Float64Array(BATCH);
  const scanHi = new Float64Array(BATCH);
  for (let i = 0; i < BATCH; i++) {
    picks[i] = Math.floor(rand() * n);
    ranks[i] = Math.floor(rand() * n);
    const r = Math.floor(rand() * (n - 100));
    scanLo[i] = sorted[r]!;
    scanHi[i] = sorted[r + 99]!;
  }
  return { n, members, scores, picks, ranks, scanLo, scanHi };
}

function lowerBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The sorted-array baseline: parallel arrays kept sorted by score. */
class SortedArray {
  scores: number[] = [];
  members: string[] = [];
  static bulk(members: string[], scores: Float64Array): SortedArray {
    const order = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
    const s = new SortedArray();
    s.scores = order.map((i) => scores[i]!);
    s.members = order.map((i) => members[i]!);
    return s;
  }
  insert(score: number, member: string): void {
    const i = lowerBound(this.scores, score);
    this.scores.splice(i, 0, score);
    this.members.splice(i, 0, member);
  }
  delete(score: number): void {
    const i = lowerBound(this.scores, score);
    if (this.scores[i] === score) {
      this.scores.splice(i, 1);
      this.members.splice(i, 1);
    }
  }
}

interface Built {
  ours: SortedSet;
  tl: TlSortedSet;
  btree: {
    set(k: number, v: string): void;
    get(k: number): string | undefined;
    delete(k: number): boolean;
    getRange(lo: number, hi: number, inc: boolean): [number, string][];
  };
  sdsl: SdslMap;
  rb: RbTree;
  array: SortedArray;
}

let sink = 0;

/**
 * Contenders measured only with --full: their builds at 10^6 (tlhunter-sorted-set ~18 s) and their
 * O(n) operations (the sorted array's splices, js-sdsl's getElementByPos) would take most of the
 * quick run's budget, and no goal is measured against them.
 */
const FULL_ONLY = ["tlhunter", "sorted array"];

/** `tasks` without the --full-only contenders in quick mode. */
function contenders<T>(ctx: BenchContext, tasks: Record<string, T>): Record<string, T> {
  if (ctx.full) return tasks;
  return Object.fromEntries(Object.entries(tasks).filter(([name]) => !FULL_ONLY.some((f) => name.startsWith(f))));
}

async function sizeRun(ctx: BenchContext, inp: Inputs, trials: number) {
  const BTree = await load<new (e?: unknown, cmp?: (a: number, b: number) => number) => Built["btree"]>("sorted-btree");
  const { OrderedMap } = (await import("@js-sdsl/ordered-map" as string)) as {
    OrderedMap: new (c: [], cmp: (a: number, b: number) => number, enableIndex: boolean) => SdslMap;
  };
  const createRBTree = await load<(cmp?: (a: number, b: number) => number) => RbTree>("functional-red-black-tree");
  const TlSet = await load<new () => TlSortedSet>("tlhunter-sorted-set");
  const { n, members, scores } = inp;
  const num = (a: number, b: number) => a - b;

  // ---------------------------------------------------------------- inserts + memory
  const builders: Record<string, () => unknown> = contenders(ctx, {
    "redstruct SortedSet": () => {
      const z = new SortedSet({ seed: 1 });
      for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
      return z;
    },
    "sorted-btree": () => {
      const t = new BTree(undefined, num);
      for (let i = 0; i < n; i++) t.set(scores[i]!, members[i]!);
      return t;
    },
    // Not a goal peer: sorted-btree doing what ZADD does (a Map member → score beside the tree,
    // consulted before each insert), so the cost of the member index is visible like for like.
    // Keyed by score alone, which is enough here because the scores are distinct. It runs after
    // redstruct's build, so V8 has already computed and cached the member strings' hashes.
    [LIKE_FOR_LIKE]: () => {
      const t = new BTree(undefined, num);
      const index = new Map<string, number>();
      for (let i = 0; i < n; i++) {
        const member = members[i]!;
        const score = scores[i]!;
        const old = index.get(member);
        if (old !== undefined) {
          if (old === score) continue;
          t.delete(old);
        }
        index.set(member, score);
        t.set(score, member);
      }
      return [t, index];
    },
    "js-sdsl OrderedMap (index)": () => {
      const m = new OrderedMap([], num, true);
      for (let i = 0; i < n; i++) m.setElement(scores[i]!, members[i]!);
      return m;
    },
    "functional-red-black-tree": () => {
      let t = createRBTree(num);
      for (let i = 0; i < n; i++) t = t.insert(scores[i]!, members[i]!);
      return t;
    },
    "tlhunter-sorted-set": () => {
      const s = new TlSet();
      for (let i = 0; i < n; i++) s.add(members[i]!, scores[i]!);
      return s;
    },
    "sorted array (bulk sort, not incremental)": () => SortedArray.bulk(members, scores),
  });
  const built: Record<string, unknown> = {};
  const inserts: Row[] = [];
  const memory: { name: string; bytesPerEntry: number }[] = [];
  for (const [name, build] of Object.entries(builders)) {
    ctx.log(`  n=${n}: building ${name}`);
    let best = Number.POSITIVE_INFINITY;
    for (let t = 0; t < trials; t++) {
      built[name] = undefined;
      const before = heapUsed();
      const start = performance.now();
      const s = build();
      const ms = performance.now() - start;
      best = Math.min(best, ms);
      built[name] = s;
      // Only the first build: on later trials the previous structure may still be reachable from
      // this frame when `before` is taken, which would hide the new one's size.
      if (t === 0) memory.push({ name, bytesPerEntry: (heapUsed() - before) / n });
    }
    inserts.push({ name, opsPerSec: (n / best) * 1000, rme: 0, samples: trials, ratio: 0 });
  }
  delete built[LIKE_FOR_LIKE]; // not queried below: free it so it does not crowd the caches
  for (const r of inserts) r.ratio = r.opsPerSec / inserts.find((x) => x.name === "sorted-btree")!.opsPerSec;
  const memPerEntry = (name: string) => {
    const m = memory.filter((x) => x.name === name).map((x) => x.bytesPerEntry);
    return m.reduce((a, b) => a + b, 0) / m.length;
  };

  const ours = built["redstruct SortedSet"] as SortedSet;
  const btree = built["sorted-btree"] as Built["btree"];
  const sdsl = built["js-sdsl OrderedMap (index)"] as SdslMap;
  let rb = built["functional-red-black-tree"] as RbTree;
  const tl = built["tlhunter-sorted-set"] as TlSortedSet;
  const arr = built["sorted array (bulk sort, not incremental)"] as SortedArray;
  const { picks, ranks, scanLo, scanHi } = inp;
  const key = (i: number) => scores[picks[i]!]!;
  const mem = (i: number) => members[picks[i]!]!;

  // ---------------------------------------------------------------- queries
  const lookup = await compare(
    ctx,
    `lookup by score, n=${n}`,
    contenders(ctx, {
      "redstruct rangeByScore(s, s)": () => {
        for (let i = 0; i < BATCH; i++) sink += ours.rangeByScore(key(i), key(i)).length;
      },
      "redstruct score(member) [O(1), by member]": () => {
        for (let i = 0; i < BATCH; i++) sink += ours.score(mem(i))!;
      },
      "sorted-btree get": () => {
        for (let i = 0; i < BATCH; i++) sink += btree.get(key(i))!.length;
      },
      "js-sdsl getElementByKey": () => {
        for (let i = 0; i < BATCH; i++) sink += sdsl.getElementByKey(key(i))!.length;
      },
      "functional-red-black-tree get": () => {
        for (let i = 0; i < BATCH; i++) sink += rb.get(key(i))!.length;
      },
      "tlhunter rangeByScore(s, s)": () => {
        for (let i = 0; i < BATCH; i++) sink += tl.rangeByScore(key(i), key(i)).length;
      },
      "sorted array binary search": () => {
        for (let i = 0; i < BATCH; i++) sink += arr.members[lowerBound(arr.scores, key(i))]!.length;
      },
    }),
    { baseline: "sorted-btree get", batch: BATCH },
  );

  // js-sdsl is keyed by score: to rank a *member* it needs the member's score first, from a map
  // like the one SortedSet keeps. The row with that lookup is the like-for-like comparison.
  const scoreMap = new Map<string, number>();
  for (let i = 0; i < n; i++) scoreMap.set(members[i]!, scores[i]!);
  const rank = await compare(
    ctx,
    `rank of a member, n=${n}`,
    contenders(ctx, {
      "redstruct rank(member)": () => {
        for (let i = 0; i < BATCH; i++) sink += ours.rank(mem(i))!;
      },
      [SDSL_BY_MEMBER]: () => {
        for (let i = 0; i < BATCH; i++) sink += sdsl.find(scoreMap.get(mem(i))!).index;
      },
      "redstruct countByScore(-inf, s) [rank by score]": () => {
        for (let i = 0; i < BATCH; i++)
          sink += ours.countByScore(Number.NEGATIVE_INFINITY, key(i), { maxExclusive: true });
      },
      "js-sdsl find(key).index": () => {
        for (let i = 0; i < BATCH; i++) sink += sdsl.find(key(i)).index;
      },
      "functional-red-black-tree find(key).index": () => {
        for (let i = 0; i < BATCH; i++) sink += rb.find(key(i)).index;
      },
      "tlhunter rank(member)": () => {
        for (let i = 0; i < BATCH; i++) sink += tl.rank(mem(i))!;
      },
      "sorted array binary search": () => {
        for (let i = 0; i < BATCH; i++) sink += lowerBound(arr.scores, key(i));
      },
    }),
    { baseline: "js-sdsl find(key).index", batch: BATCH },
  );

  const byRank = await compare(
    ctx,
    `by-rank access, n=${n}`,
    contenders(ctx, {
      "redstruct at(i)": () => {
        for (let i = 0; i < BATCH; i++) sink += ours.at(ranks[i]!)![1];
      },
      "functional-red-black-tree at(i)": () => {
        for (let i = 0; i < BATCH; i++) sink += rb.at(ranks[i]!).key;
      },
      "tlhunter range(i, i)": () => {
        for (let i = 0; i < BATCH; i++) sink += tl.range(ranks[i]!, ranks[i]!).length;
      },
      "sorted array [i]": () => {
        for (let i = 0; i < BATCH; i++) sink += arr.scores[ranks[i]!]!;
      },
    }),
    { baseline: "functional-red-black-tree at(i)", batch: BATCH },
  );

  // js-sdsl's getElementByPos walks the tree in order: O(n). Measured on its own with few calls.
  const SMALL = 10;
  const byPosition: Row[] = !ctx.full
    ? []
    : await compare(
        ctx,
        `by-position access incl. js-sdsl getElementByPos (O(n)), n=${n}`,
        contenders(ctx, {
          "redstruct at(i)": () => {
            for (let i = 0; i < SMALL; i++) sink += ours.at(ranks[i]!)![1];
          },
          "js-sdsl getElementByPos(i)": () => {
            for (let i = 0; i < SMALL; i++) sink += sdsl.getElementByPos(ranks[i]!)[0];
          },
        }),
        { baseline: "js-sdsl getElementByPos(i)", batch: SMALL, time: 300 },
      );

  const SCANS = 100;
  const scan = await compare(
    ctx,
    `range scan of 100 entries by score, n=${n}`,
    contenders(ctx, {
      "redstruct rangeByScore": () => {
        for (let i = 0; i < SCANS; i++) sink += ours.rangeByScore(scanLo[i]!, scanHi[i]!).length;
      },
      "sorted-btree getRange": () => {
        for (let i = 0; i < SCANS; i++) sink += btree.getRange(scanLo[i]!, scanHi[i]!, true).length;
      },
      "js-sdsl lowerBound + iterate": () => {
        const end = sdsl.end();
        for (let i = 0; i < SCANS; i++) {
          const out: [number, string][] = [];
          const hi = scanHi[i]!;
          for (let it = sdsl.lowerBound(scanLo[i]!); !it.equals(end); it = it.next()) {
            const p = it.pointer;
            if (p[0] > hi) break;
            out.push([p[0], p[1]]);
          }
          sink += out.length;
        }
      },
      "functional-red-black-tree ge + iterate": () => {
        for (let i = 0; i < SCANS; i++) {
          const out: [number, string][] = [];
          const hi = scanHi[i]!;
          for (const it = rb.ge(scanLo[i]!); it.valid && it.key <= hi; it.next()) out.push([it.key, it.value]);
          sink += out.length;
        }
      },
      "tlhunter rangeByScore": () => {
        for (let i = 0; i < SCANS; i++) sink += tl.rangeByScore(scanLo[i]!, scanHi[i]!, { withScores: true }).length;
      },
      "sorted array binary search + slice": () => {
        for (let i = 0; i < SCANS; i++) {
          const a = lowerBound(arr.scores, scanLo[i]!);
          const out: [number, string][] = [];
          const hi = scanHi[i]!;
          for (let j = a; j < arr.scores.length && arr.scores[j]! <= hi; j++)
            out.push([arr.scores[j]!, arr.members[j]!]);
          sink += out.length;
        }
      },
    }),
    { baseline: "sorted-btree getRange", batch: SCANS },
  );

  // Each operation deletes an entry and puts it back, so the size stays n.
  const CHURN = 200;
  const churn = await compare(
    ctx,
    `delete + re-insert, n=${n}`,
    contenders(ctx, {
      "redstruct delete + add": () => {
        for (let i = 0; i < CHURN; i++) {
          ours.delete(mem(i));
          ours.add(mem(i), key(i));
        }
      },
      "sorted-btree delete + set": () => {
        for (let i = 0; i < CHURN; i++) {
          btree.delete(key(i));
          btree.set(key(i), mem(i));
        }
      },
      "js-sdsl erase + set": () => {
        for (let i = 0; i < CHURN; i++) {
          sdsl.eraseElementByKey(key(i));
          sdsl.setElement(key(i), mem(i));
        }
      },
      "functional-red-black-tree remove + insert": () => {
        for (let i = 0; i < CHURN; i++) rb = rb.remove(key(i)).insert(key(i), mem(i));
      },
      "tlhunter rem + add": () => {
        for (let i = 0; i < CHURN; i++) {
          tl.rem(mem(i));
          tl.add(mem(i), key(i));
        }
      },
      "sorted array splice out + in": () => {
        for (let i = 0; i < CHURN; i++) {
          arr.delete(key(i));
          arr.insert(key(i), mem(i));
        }
      },
    }),
    { baseline: "sorted-btree delete + set", batch: CHURN },
  );
  ours.checkInvariants();

  return {
    n,
    inserts,
    memory: Object.keys(builders).map((name) => ({ name, bytesPerEntry: memPerEntry(name) })),
    lookup,
    rank,
    byRank,
    byPosition,
    scan,
    churn,
  };
}

const UNION_USER = "two Maps and a sort (what a user would write)";

/** Union of two 10^5-member sets sharing half their members, scores summed. */
async function unionRun(ctx: BenchContext): Promise<Row[]> {
  const { OrderedMap } = (await import("@js-sdsl/ordered-map" as string)) as {
    OrderedMap: new (
      c: [],
      cmp: (a: [number, string], b: [number, string]) => number,
    ) => { setElement(k: [number, string], v: undefined): void; size(): number };
  };
  const n = 100_000;
  const rand = prng(0x0a10);
  const pool = distinctStrings(n + n / 2, 11, "member:");
  const aEntries: [string, number][] = pool.slice(0, n).map((m) => [m, Math.floor(rand() * 1e6)]);
  const bEntries: [string, number][] = pool.slice(n / 2).map((m) => [m, Math.floor(rand() * 1e6)]);
  const a = SortedSet.from(aEntries, { seed: 1 });
  const b = SortedSet.from(bEntries, { seed: 2 });
  const mapA = new Map(aEntries);
  const mapB = new Map(bEntries);
  const merge = () => {
    const acc = new Map(mapA);
    for (const [m, s] of mapB) acc.set(m, (acc.get(m) ?? 0) + s);
    return acc;
  };
  return compare(
    ctx,
    "union of two 10^5-member sets (half shared), scores summed",
    {
      "redstruct SortedSet.union([a, b])": () => {
        sink += SortedSet.union([a, b]).size;
      },
      [UNION_USER]: () => {
        const sorted = [...merge()].sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
        sink += sorted.length;
      },
      "js-sdsl: Map merge + OrderedMap by (score, member)": () => {
        const t = new OrderedMap([], (x, y) => x[0] - y[0] || compareMembers(x[1], y[1]));
        for (const [m, s] of merge()) t.setElement([s, m], undefined);
        sink += t.size();
      },
    },
    { baseline: UNION_USER, time: ctx.full ? 1000 : 500 },
  );
}

const ratio = (rows: Row[], name: string, base: string) =>
  rows.find((r) => r.name === name)!.opsPerSec / rows.find((r) => r.name === base)!.opsPerSec;

const suite: Suite = {
  name: "skiplist",
  description:
    "SortedSet (typed-array skiplist) vs sorted-btree, js-sdsl, functional-red-black-tree, tlhunter-sorted-set, sorted array",
  async run(ctx) {
    const sizes = ctx.full ? [100_000, 1_000_000] : [1_000_000];
    const results = [];
    const charts: Chart[] = [];
    const headlines: Headline[] = [];
    let markdown = "";
    for (const n of sizes) {
      ctx.log(`n = ${n}: generating inputs`);
      const r = await sizeRun(ctx, inputs(n), ctx.full ? 3 : 1);
      results.push(r);
      const mem = new Map(r.memory.map((m) => [m.name, m.bytesPerEntry]));
      markdown += `### n = ${n.toLocaleString("en-US")}\n\n`;
      markdown += `**${n.toLocaleString("en-US")} random inserts into an empty structure** (best of ${ctx.full ? 3 : 1}; heap growth per entry after GC, member strings pre-allocated and not counted)\n\n`;
      markdown += `${markdownTable(
        ["implementation", "inserts/s", "vs sorted-btree", "bytes/entry"],
        r.inserts.map((x) => [
          x.name,
          formatOps(x.opsPerSec),
          `${x.ratio.toFixed(2)}×`,
          (mem.get(x.name) ?? Number.NaN).toFixed(0),
        ]),
      )}\n\n`;
      for (const [title, rows] of [
        ["lookup by score (1000 random existing scores)", r.lookup],
        ["rank of a member", r.rank],
        ["by-rank access (random ranks)", r.byRank],
        ["by-position access with js-sdsl's O(n) getElementByPos", r.byPosition],
        ["range scan: 100 consecutive entries by score (ops = scans)", r.scan],
        ["delete + re-insert (ops = pairs)", r.churn],
      ] as const) {
        if (rows.length > 0) markdown += `${throughputTable(`${title}, n=${n}`, rows)}\n`;
      }
      const goals = [
        [
          "insert ≥ 1× sorted-btree + member Map (ZADD's work, like for like)",
          ratio(r.inserts, "redstruct SortedSet", LIKE_FOR_LIKE),
        ],
        ["insert vs sorted-btree alone (no member index)", ratio(r.inserts, "redstruct SortedSet", "sorted-btree")],
        [
          "range of 100 by score ≥ 1× sorted-btree getRange",
          ratio(r.scan, "redstruct rangeByScore", "sorted-btree getRange"),
        ],
        [
          "by-rank access ≥ 1× functional-red-black-tree at(i)",
          ratio(r.byRank, "redstruct at(i)", "functional-red-black-tree at(i)"),
        ],
        [
          "rank of a member ≥ 1× js-sdsl iterator index (js-sdsl handed the score)",
          ratio(r.rank, "redstruct rank(member)", "js-sdsl find(key).index"),
        ],
        [
          "rank of a member ≥ 1× js-sdsl iterator index (js-sdsl looks the member's score up first)",
          ratio(r.rank, "redstruct rank(member)", SDSL_BY_MEMBER),
        ],
        ...(r.byPosition.length > 0
          ? ([
              [
                "by-position vs js-sdsl getElementByPos (gap)",
                ratio(r.byPosition, "redstruct at(i)", "js-sdsl getElementByPos(i)"),
              ],
            ] as const)
          : []),
      ] as const;
      markdown += `**Goals at n=${n}**\n\n${markdownTable(
        ["goal", "measured ratio", "met"],
        goals.map(([g, v]) => [g, `${v.toFixed(2)}×`, g.includes("≥ 1×") ? (v >= 1 ? "yes" : "no") : "—"]),
      )}\n\n`;
      if (n === sizes[sizes.length - 1]) {
        const exp = Math.round(Math.log10(n));
        headlines.push(
          {
            structure: "SortedSet",
            operation: `insert, 10^${exp}`,
            versus: "sorted-btree + member Map",
            ratio: ratio(r.inserts, "redstruct SortedSet", LIKE_FOR_LIKE),
            goal: 1,
          },
          {
            structure: "SortedSet",
            operation: `rangeByScore of 100, 10^${exp}`,
            versus: "sorted-btree getRange",
            ratio: ratio(r.scan, "redstruct rangeByScore", "sorted-btree getRange"),
            goal: 1,
          },
          {
            structure: "SortedSet",
            operation: `rank(member), 10^${exp}`,
            versus: "js-sdsl find(score).index",
            ratio: ratio(r.rank, "redstruct rank(member)", "js-sdsl find(key).index"),
            goal: 1,
          },
        );
      }
      charts.push({ name: `insert-${n}`, spec: throughputChart(`inserts/s, n=${n}`, r.inserts) });
      charts.push({ name: `rank-${n}`, spec: throughputChart(`rank of a member, n=${n}`, r.rank) });
      charts.push({ name: `at-${n}`, spec: throughputChart(`by-rank access, n=${n}`, r.byRank) });
    }
    ctx.log("union of two 10^5-member sets");
    const union = await unionRun(ctx);
    markdown += `${throughputTable("union of two 10^5-member sets, half their members shared, scores summed (ops = unions)", union)}\n`;
    headlines.push({
      structure: "SortedSet",
      operation: "union of two 10^5-member sets",
      versus: "two Maps and a sort",
      ratio: ratio(union, "redstruct SortedSet.union([a, b])", UNION_USER),
    });
    charts.push({ name: "union", spec: throughputChart("union of two 10^5-member sets", union) });
    markdown += `Reproduce: \`npm run bench -- skiplist${ctx.full ? " --full" : ""}\` (checksum ${sink % 997}).\n`;
    return { markdown, data: { sizes: results, union }, charts, headlines };
  },
};

export default suite;
