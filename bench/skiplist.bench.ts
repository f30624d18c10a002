/**
 * Sorted set benchmark: redstruct's SortedSet against sorted-btree, @js-sdsl/ordered-map (with
 * enableIndex), functional-red-black-tree, tlhunter-sorted-set and a sorted-array baseline, all at
 * the same size and in the same run, with the issues' goals as headlines (the summary says "met"
 * or "not met" for each):
 *
 * - at 10^6 members built by random inserts: insert ≥ 1.2× sorted-btree + member Map; rangeByScore
 *   of 100 ≥ 1.5× sorted-btree getRange; rank(member) ≥ 1× js-sdsl find(score).index handed the
 *   score and ≥ 1.5× when js-sdsl looks the score up first; at(i) ≥ 1.2× functional-red-black-tree
 *   at(i); score update of a present member ≥ 1× sorted-btree + Map; retained bytes per member ≤
 *   0.75× sorted-btree + Map;
 * - small sets (16 and 128 members, built 20,000 times): bytes per member ≤ 1.3× a sorted array with
 *   a Map beside it;
 * - at 10^3 and 10^4 members: add, rank, delete + re-add and a range of 10 ≥ 1× js-sdsl's
 *   OrderedMap + Map, and ≥ 1× a sorted array + Map at 10^3 (the slowest row is the headline);
 * - with SKIPLIST_BEFORE naming a checkout of the previous SortedSet (see docs/skiplist.md): every
 *   row at 10^3 … 10^6 against it in the same run (skipped otherwise).
 *
 * It also reports memory as Valkey reports a sorted set's: bytes per member beyond the member's own
 * string, for members inserted in order and at random.
 *
 * The peers are ordered maps keyed by score (distinct random doubles, the member as value);
 * SortedSet also keeps a member index, which the "… + Map" rows do too, like for like.
 * Every comparison is the median of several alternating rounds (three in quick mode through
 * {@link rounds}; --full gives compare's three rounds longer time); builds alternate between
 * contenders round by round. Memory is the growth of heap plus array buffers after GC, member
 * strings allocated beforehand and not counted.
 *
 * A union row: two 10^5-member sets (half their members shared) merged by `SortedSet.union`, by what
 * a user would write with two Maps (merge, then sort the entries), and with js-sdsl.
 */
import { compareMembers, SortedSet } from "../src/skiplist/index.js";
import {
  type BenchContext,
  type Chart,
  type CompareOptions,
  compare,
  distinctStrings,
  formatOps,
  type Headline,
  lowerBound,
  markdownTable,
  ownLoop,
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
interface BTreeMap {
  set(k: number, v: string): void;
  get(k: number): string | undefined;
  delete(k: number): boolean;
  getRange(lo: number, hi: number, inc: boolean): [number, string][];
}
/** What the comparison with the previous SortedSet calls on either version. */
type AnySortedSet = SortedSet;
type SortedSetClass = typeof SortedSet;

const load = async <T>(name: string): Promise<T> => {
  const mod = (await import(name)) as { default?: unknown };
  return (mod.default ?? mod) as T;
};

const BATCH = 1000;
const LIKE_FOR_LIKE = "sorted-btree + Map member → score (ZADD's work)";
const SDSL_BY_MEMBER = "js-sdsl find(Map.get(member)).index [rank of a member, like for like]";
const OURS = "redstruct SortedSet";
const BEFORE = "previous SortedSet (today's code)";

interface Inputs {
  n: number;
  members: string[];
  scores: Float64Array;
  /** Positions (into members/scores) queried by the batches. */
  picks: Int32Array;
  /** Ranks queried by the by-rank batches. */
  ranks: Int32Array;
  /** Fresh scores for the score-update batches (distinct from every other score). */
  fresh: Float64Array;
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
  const fresh = new Float64Array(BATCH);
  const scanLo = new Float64Array(BATCH);
  const scanHi = new Float64Array(BATCH);
  const span = Math.min(100, n);
  for (let i = 0; i < BATCH; i++) {
    picks[i] = Math.floor(rand() * n);
    ranks[i] = Math.floor(rand() * n);
    fresh[i] = Math.floor(rand() * 1e9) + rand() + 0.5 ** 40; // off the grid of the others
    const r = Math.floor(rand() * (n - span + 1));
    scanLo[i] = sorted[r]!;
    scanHi[i] = sorted[r + span - 1]!;
  }
  return { n, members, scores, picks, ranks, fresh, scanLo, scanHi };
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

/**
 * `compare` run in several alternating rounds, each task's row its median round: quick mode's
 * compare runs one round, so the goal ratios here come from three; --full's compare already
 * interleaves three rounds of longer time.
 */
async function rounds(
  ctx: BenchContext,
  title: string,
  tasks: Record<string, () => unknown>,
  options: CompareOptions,
): Promise<Row[]> {
  const n = ctx.full ? 1 : 3;
  const runs: Row[][] = [];
  for (let r = 0; r < n; r++)
    runs.push(await compare(ctx, n > 1 ? `${title} (round ${r + 1}/${n})` : title, tasks, options));
  const rows = runs[0]!.map((row) => {
    const all = runs.map((run) => run.find((x) => x.name === row.name)!).sort((a, b) => a.opsPerSec - b.opsPerSec);
    return { ...all[all.length >> 1]! };
  });
  const base = rows.find((r) => r.name === options.baseline)!;
  for (const r of rows) r.ratio = r.opsPerSec / base.opsPerSec;
  return rows;
}

/** Heap plus array buffers after a forced GC (needs --expose-gc, which `npm run bench` passes), else NaN. */
function retained(): number {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) return Number.NaN;
  g();
  g();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** One builder per contender: returns the structure holding the n members. */
type Builders = Record<string, () => unknown>;

/**
 * Builds every contender `trials` times, alternating contenders round by round; returns the
 * median build time per contender, the bytes each retains (first build, measured alone) and the
 * structures of the last round.
 */
function buildAll(ctx: BenchContext, n: number, builders: Builders, trials: number) {
  const times = new Map<string, number[]>();
  const bytes = new Map<string, number>();
  const built = new Map<string, unknown>();
  for (let t = 0; t < trials; t++) {
    for (const [name, build] of Object.entries(builders)) {
      ctx.log(`  n=${n}: building ${name} (${t + 1}/${trials})`);
      built.delete(name);
      const before = t === 0 ? retained() : 0;
      const start = performance.now();
      const s = build();
      const ms = performance.now() - start;
      if (t === 0) bytes.set(name, (retained() - before) / n);
      built.set(name, s);
      times.set(name, [...(times.get(name) ?? []), ms]);
    }
  }
  const rows: Row[] = Object.keys(builders).map((name) => {
    const ms = [...times.get(name)!].sort((a, b) => a - b)[trials >> 1]!;
    return { name, opsPerSec: (n / ms) * 1000, rme: 0, samples: trials, ratio: 0 };
  });
  return { rows, bytes, built };
}

async function goalRun(ctx: BenchContext, inp: Inputs) {
  const BTree = await load<new (e?: unknown, cmp?: (a: number, b: number) => number) => BTreeMap>("sorted-btree");
  const { OrderedMap } = (await import("@js-sdsl/ordered-map" as string)) as {
    OrderedMap: new (c: [], cmp: (a: number, b: number) => number, enableIndex: boolean) => SdslMap;
  };
  const createRBTree = await load<(cmp?: (a: number, b: number) => number) => RbTree>("functional-red-black-tree");
  const TlSet = await load<new () => TlSortedSet>("tlhunter-sorted-set");
  const { n, members, scores } = inp;
  const num = (a: number, b: number) => a - b;

  // ---------------------------------------------------------------- inserts + memory
  const builders: Builders = contenders(ctx, {
    [OURS]: () => {
      const z = new SortedSet({ seed: 1 });
      for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
      return z;
    },
    "sorted-btree": () => {
      const t = new BTree(undefined, num);
      for (let i = 0; i < n; i++) t.set(scores[i]!, members[i]!);
      return t;
    },
    // sorted-btree doing what ZADD does: a Map member → score beside the tree, consulted before
    // each insert. Keyed by score alone (a plain number, its cheapest form), which is enough here
    // because the scores are distinct.
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
      return { t, index };
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
  const { rows: inserts, bytes, built } = buildAll(ctx, n, builders, ctx.full ? 5 : 3);
  for (const r of inserts) r.ratio = r.opsPerSec / inserts.find((x) => x.name === "sorted-btree")!.opsPerSec;

  const ours = built.get(OURS) as SortedSet;
  const btree = built.get("sorted-btree") as BTreeMap;
  const like = built.get(LIKE_FOR_LIKE) as { t: BTreeMap; index: Map<string, number> };
  const sdsl = built.get("js-sdsl OrderedMap (index)") as SdslMap;
  let rb = built.get("functional-red-black-tree") as RbTree;
  const tl = built.get("tlhunter-sorted-set") as TlSortedSet;
  const arr = built.get("sorted array (bulk sort, not incremental)") as SortedArray;
  const { picks, ranks, scanLo, scanHi, fresh } = inp;
  const key = (i: number) => scores[picks[i]!]!;
  const mem = (i: number) => members[picks[i]!]!;

  // ---------------------------------------------------------------- queries
  const lookup = await rounds(
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
  const scoreMap = like.index;
  const rank = await rounds(
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

  const byRank = await rounds(
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
        {
          "redstruct at(i)": () => {
            for (let i = 0; i < SMALL; i++) sink += ours.at(ranks[i]!)![1];
          },
          "js-sdsl getElementByPos(i)": () => {
            for (let i = 0; i < SMALL; i++) sink += sdsl.getElementByPos(ranks[i]!)[0];
          },
        },
        { baseline: "js-sdsl getElementByPos(i)", batch: SMALL, time: 300 },
      );

  const SCANS = 100;
  const scan = await rounds(
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

  // Score updates of present members: each call moves BATCH members to fresh scores, the next call
  // moves them back, so the sets keep their size and the other rows' keys stay valid.
  const UPDATES = 200;
  let oursFlip = false;
  let likeFlip = false;
  const update = await rounds(
    ctx,
    `score update of a present member, n=${n}`,
    {
      "redstruct add(member, newScore)": () => {
        oursFlip = !oursFlip;
        for (let i = 0; i < UPDATES; i++) ours.add(mem(i), oursFlip ? fresh[i]! : key(i));
      },
      [LIKE_FOR_LIKE]: () => {
        likeFlip = !likeFlip;
        const { t, index } = like;
        for (let i = 0; i < UPDATES; i++) {
          const member = mem(i);
          const score = likeFlip ? fresh[i]! : key(i);
          const old = index.get(member)!;
          if (old === score) continue;
          t.delete(old);
          t.set(score, member);
          index.set(member, score);
        }
      },
    },
    { baseline: LIKE_FOR_LIKE, batch: UPDATES },
  );
  if (oursFlip) for (let i = 0; i < UPDATES; i++) ours.add(mem(i), key(i));

  // Each operation deletes an entry and puts it back, so the size stays n.
  const CHURN = 200;
  const churn = await rounds(
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
    memory: Object.keys(builders).map((name) => ({ name, bytesPerEntry: bytes.get(name)! })),
    lookup,
    rank,
    byRank,
    byPosition,
    scan,
    update,
    churn,
  };
}

/** The previous SortedSet, when SKIPLIST_BEFORE names a checkout of it; undefined otherwise. */
async function previousSortedSet(ctx: BenchContext): Promise<SortedSetClass | undefined> {
  const dir = process.env.SKIPLIST_BEFORE;
  if (dir === undefined || dir === "") {
    ctx.log("  SKIPLIST_BEFORE not set: the comparison with the previous SortedSet is skipped (docs/skiplist.md)");
    return undefined;
  }
  const { pathToFileURL } = await import("node:url");
  const mod = (await import(pathToFileURL(`${dir}/src/skiplist/index.ts`).href)) as { SortedSet: SortedSetClass };
  return mod.SortedSet;
}

/** The rows compared with the previous SortedSet at one size: each task compiled on its own (ownLoop). */
async function beforeRun(ctx: BenchContext, Before: SortedSetClass, inp: Inputs) {
  const { n, members, scores, picks, ranks, fresh, scanLo, scanHi } = inp;
  const build = (Z: SortedSetClass) => {
    const z = new Z({ seed: 1 });
    for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
    return z;
  };
  const impls: [string, SortedSetClass][] = [
    [OURS, SortedSet],
    [BEFORE, Before],
  ];
  const sets = new Map(impls.map(([name, Z]) => [name, build(Z)]));
  const huge = n >= 1_000_000;
  const pickedMembers = Array.from(picks, (p) => members[p]!);
  const pickedScores = Array.from(picks, (p) => scores[p]!);
  const rankList = Array.from(ranks);
  const lo = Array.from(scanLo);
  const hi = Array.from(scanHi);
  const freshList = Array.from(fresh);
  // Union inputs: two sets of n members, half shared (not at 10^6, where the row is left out).
  const pairs = new Map<string, AnySortedSet[]>();
  if (!huge) {
    const pool = distinctStrings(n + n / 2, 13, "u:");
    const uRand = prng(0x0a11 + n);
    const aEntries: [string, number][] = pool.slice(0, n).map((m) => [m, Math.floor(uRand() * 1e6)]);
    const bEntries: [string, number][] = pool.slice(n / 2).map((m) => [m, Math.floor(uRand() * 1e6)]);
    for (const [name, Z] of impls) pairs.set(name, [Z.from(aEntries, { seed: 1 }), Z.from(bEntries, { seed: 2 })]);
  }

  type Loop = (t: AnySortedSet, k: readonly unknown[], from: number, count: number) => number;
  /** One row: a task per version, each with its own compiled loop over `k`. */
  const row = async (title: string, batch: number, body: string, k: readonly unknown[]) => {
    const tasks: Record<string, () => unknown> = {};
    for (const [name] of impls) {
      const loop = ownLoop<AnySortedSet, unknown>(body) as Loop;
      const t = sets.get(name)!;
      tasks[name] = () => {
        sink += loop(t, k, 0, batch);
      };
    }
    return rounds(ctx, `${title}, n=${n}`, tasks, { baseline: BEFORE, batch });
  };
  const out: { row: string; rows: Row[] }[] = [];
  const insertTasks: Record<string, () => unknown> = {};
  for (const [name, Z] of impls) {
    const loop = new Function(
      "Z",
      "m",
      "s",
      "n",
      // A comment of its own per contender: loops compiled from one text share one feedback vector (ownLoop).
      `const z = new Z({ seed: 1 }); for (let i = 0; i < n; i++) z.add(m[i], s[i]); return z.size; // ${name}`,
    ) as (Z: SortedSetClass, m: string[], s: Float64Array, n: number) => number;
    insertTasks[name] = () => {
      sink += loop(Z, members, scores, n);
    };
  }
  // At 10^6 a build takes seconds: three builds each, alternating, as the goal rows do.
  const insertRows = huge
    ? buildAll(ctx, n, Object.fromEntries(impls.map(([name, Z]) => [name, () => build(Z)])), 3).rows.map((r) => ({
        ...r,
        ratio: 0,
      }))
    : await rounds(ctx, `insert, n=${n}`, insertTasks, { baseline: BEFORE, batch: n });
  const baseRow = insertRows.find((r) => r.name === BEFORE)!;
  for (const r of insertRows) r.ratio = r.opsPerSec / baseRow.opsPerSec;
  out.push({ row: "insert (build by random adds)", rows: insertRows });
  out.push({ row: "score(member)", rows: await row("score(member)", BATCH, "s += t.score(k[i]);", pickedMembers) });
  out.push({ row: "rank(member)", rows: await row("rank(member)", BATCH, "s += t.rank(k[i]);", pickedMembers) });
  out.push({ row: "at(i)", rows: await row("at(i)", BATCH, "s += t.at(k[i])[1];", rankList) });
  out.push({
    row: "countByScore(-inf, s)",
    rows: await row(
      "countByScore(-inf, s)",
      BATCH,
      "s += t.countByScore(-Infinity, k[i], { maxExclusive: true });",
      pickedScores,
    ),
  });
  const scans = Math.min(100, BATCH);
  const pairsOf = lo.map((x, i) => [x, hi[i]!]);
  out.push({
    row: `rangeByScore of ${Math.min(100, n)}`,
    rows: await row(
      `rangeByScore of ${Math.min(100, n)}`,
      scans,
      "s += t.rangeByScore(k[i][0], k[i][1]).length;",
      pairsOf,
    ),
  });
  // Score updates there and back: each call moves 200 members to fresh scores and back.
  const moves = pickedMembers.slice(0, 200).map((m, i) => [m, freshList[i]!, pickedScores[i]!]);
  out.push({
    row: "score update (there and back)",
    rows: await row("score update", 200, "t.add(k[i][0], k[i][1]); t.add(k[i][0], k[i][2]); s++;", moves),
  });
  out.push({
    row: "delete + re-insert",
    rows: await row("delete + re-insert", 200, "t.delete(k[i][0]); t.add(k[i][0], k[i][2]); s++;", moves),
  });
  out.push({
    row: "iterate all (for…of)",
    rows: await row("iterate all", 1, "for (const e of t) s += e[1];", [0]),
  });
  for (const [, z] of sets) z.checkInvariants();
  if (huge) return out;
  const unionTasks: Record<string, () => unknown> = {};
  for (const [name, Z] of impls) {
    const [a, b] = pairs.get(name)!;
    const loop = new Function("Z", "a", "b", `return Z.union([a, b]).size; // ${name}`) as (
      Z: SortedSetClass,
      a: AnySortedSet,
      b: AnySortedSet,
    ) => number;
    unionTasks[name] = () => {
      sink += loop(Z, a!, b!);
    };
  }
  out.push({
    row: "union of two n-member sets",
    rows: await rounds(ctx, `union, n=${n}`, unionTasks, { baseline: BEFORE }),
  });
  return out;
}

const UNION_USER = "two Maps and a sort (what a user would write)";

/** ZADD's work on a sorted array: parallel arrays kept in order by score, and a Map member → score. */
class ArrayZSet {
  scores: number[] = [];
  members: string[] = [];
  index = new Map<string, number>();
  get size(): number {
    return this.members.length;
  }
  add(member: string, score: number): boolean {
    const old = this.index.get(member);
    if (old !== undefined) {
      if (old === score) return false;
      this.#remove(old);
    }
    this.index.set(member, score);
    const i = lowerBound(this.scores, score);
    this.scores.splice(i, 0, score);
    this.members.splice(i, 0, member);
    return old === undefined;
  }
  delete(member: string): boolean {
    const score = this.index.get(member);
    if (score === undefined) return false;
    this.index.delete(member);
    this.#remove(score);
    return true;
  }
  #remove(score: number): void {
    const i = lowerBound(this.scores, score);
    this.scores.splice(i, 1);
    this.members.splice(i, 1);
  }
  rank(member: string): number | undefined {
    const score = this.index.get(member);
    return score === undefined ? undefined : lowerBound(this.scores, score);
  }
  rangeByScore(min: number, max: number): [string, number][] {
    const out: [string, number][] = [];
    const { scores, members } = this;
    for (let j = lowerBound(scores, min); j < scores.length && scores[j]! <= max; j++)
      out.push([members[j]!, scores[j]!]);
    return out;
  }
}

/** ZADD's work on js-sdsl's OrderedMap: the map keyed by score (index on, for ranks), and a Map member → score. */
class SdslZSet {
  t: SdslMap;
  index = new Map<string, number>();
  constructor(OrderedMap: new (c: [], cmp: (a: number, b: number) => number, enableIndex: boolean) => SdslMap) {
    this.t = new OrderedMap([], (a, b) => a - b, true);
  }
  get size(): number {
    return this.index.size;
  }
  add(member: string, score: number): boolean {
    const old = this.index.get(member);
    if (old !== undefined) {
      if (old === score) return false;
      this.t.eraseElementByKey(old);
    }
    this.index.set(member, score);
    this.t.setElement(score, member);
    return old === undefined;
  }
  delete(member: string): boolean {
    const score = this.index.get(member);
    if (score === undefined) return false;
    this.index.delete(member);
    this.t.eraseElementByKey(score);
    return true;
  }
  rank(member: string): number | undefined {
    const score = this.index.get(member);
    return score === undefined ? undefined : this.t.find(score).index;
  }
  rangeByScore(min: number, max: number): [string, number][] {
    const out: [string, number][] = [];
    const end = this.t.end();
    for (let it = this.t.lowerBound(min); !it.equals(end); it = it.next()) {
      const p = it.pointer;
      if (p[0] > max) break;
      out.push([p[1], p[0]]);
    }
    return out;
  }
}

const SDSL_ZSET = "js-sdsl OrderedMap + Map";
const ARRAY_ZSET = "sorted array + Map";
/** The rows of the mid-size goals, in the order of the tables. */
const MID_ROWS = ["add (build by random adds)", "rank(member)", "delete + re-add", "rangeByScore of 10"] as const;

/**
 * Mid-size sets (10^3, 10^4 members): add, rank, delete + re-add and a range of 10 against js-sdsl's
 * OrderedMap and (`withArray`) a sorted array, each beside a Map member → score as ZADD needs. Every
 * contender's loops are compiled on their own (ownLoop), the structures built by random adds.
 */
async function midRun(ctx: BenchContext, inp: Inputs, withArray: boolean) {
  const { OrderedMap } = (await import("@js-sdsl/ordered-map" as string)) as {
    OrderedMap: new (c: [], cmp: (a: number, b: number) => number, enableIndex: boolean) => SdslMap;
  };
  const { n, members, scores, picks } = inp;
  type Z = { size: number; add(m: string, s: number): boolean };
  const makers: [string, () => Z][] = [
    [OURS, () => new SortedSet({ seed: 1 })],
    [SDSL_ZSET, () => new SdslZSet(OrderedMap)],
  ];
  if (withArray) makers.push([ARRAY_ZSET, () => new ArrayZSet()]);
  const build = (make: () => Z) => {
    const z = make();
    for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
    return z;
  };
  const built = new Map(makers.map(([name, make]) => [name, build(make)]));
  const sorted = Float64Array.from(scores).sort();
  const rand = prng(0x10 + n);
  const tens: [number, number][] = Array.from({ length: 100 }, () => {
    const r = Math.floor(rand() * (n - 9));
    return [sorted[r]!, sorted[r + 9]!];
  });
  const picked = Array.from(picks, (p) => [members[p]!, scores[p]!] as const);
  const out: { row: (typeof MID_ROWS)[number]; rows: Row[] }[] = [];
  const adds: Record<string, () => unknown> = {};
  for (const [name, make] of makers) {
    const loop = new Function(
      "make",
      "m",
      "s",
      "n",
      // A comment of its own per contender: loops compiled from one text share one feedback vector (ownLoop).
      `const z = make(); for (let i = 0; i < n; i++) z.add(m[i], s[i]); return z.size; // ${name}`,
    ) as (make: () => Z, m: string[], s: Float64Array, n: number) => number;
    adds[name] = () => {
      sink += loop(make, members, scores, n);
    };
  }
  out.push({ row: MID_ROWS[0], rows: await rounds(ctx, `add, n=${n}`, adds, { baseline: SDSL_ZSET, batch: n }) });
  const row = async (title: (typeof MID_ROWS)[number], batch: number, body: string, k: readonly unknown[]) => {
    const tasks: Record<string, () => unknown> = {};
    for (const [name] of makers) {
      const loop = ownLoop<unknown, unknown>(body);
      const t = built.get(name)!;
      tasks[name] = () => {
        sink += loop(t, k, 0, batch);
      };
    }
    out.push({ row: title, rows: await rounds(ctx, `${title}, n=${n}`, tasks, { baseline: SDSL_ZSET, batch }) });
  };
  await row(MID_ROWS[1], BATCH, "s += t.rank(k[i][0]);", picked);
  await row(MID_ROWS[2], 200, "t.delete(k[i][0]); t.add(k[i][0], k[i][1]); s++;", picked);
  await row(MID_ROWS[3], tens.length, "s += t.rangeByScore(k[i][0], k[i][1]).length;", tens);
  (built.get(OURS) as SortedSet).checkInvariants();
  return out;
}

/**
 * Memory as Valkey reports a sorted set's (valkey-io/valkey#3166 and its B+ tree's blog post): the
 * bytes per member beyond the member's own string, for members inserted in score order and in random
 * order. Members are 20-byte strings allocated beforehand (so not counted); what is counted is
 * everything the set holds for them — the index, the scores, the order — as heap plus array buffers
 * after GC.
 */
function valkeyMemory(ctx: BenchContext, n: number): { order: string; bytes: number }[] {
  const members = Array.from({ length: n }, (_, i) => `member:${String(i).padStart(13, "0")}`);
  const rand = prng(0x7a1e);
  const order = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  // One build per call, measured while its set is alive: a set built in a loop could stay reachable
  // from a stale frame slot while the next is measured, and count against it.
  const measure = (name: string, random: boolean): { order: string; bytes: number } => {
    ctx.log(`  Valkey-style memory, n=${n}: ${name}`);
    const before = retained();
    const z = new SortedSet({ seed: 1 });
    for (let i = 0; i < n; i++) {
      const k = random ? order[i]! : i;
      z.add(members[k]!, k);
    }
    const bytes = (retained() - before) / n;
    sink += z.size;
    return { order: name, bytes };
  };
  return [measure("sequential (scores ascending)", false), measure("random order", true)];
}

/** Union of two 10^5-member sets sharing half their members, scores summed. */
const UNPEEKED = "1,000 × (add + delete)";
const PEEKED = "1,000 × (peek an iterator, then add + delete)";
const PEEKED_DELETE = "1,000 × (peek, then delete + add)";

/**
 * Changes after iterators that are never finished (`zs.keys().next()`, a peek): each must cost the
 * change O(1), so a batch of changes with a fresh abandoned iterator before each runs at the speed
 * of the same batch without them, less the peeks themselves.
 */
async function abandonedRun(ctx: BenchContext): Promise<Row[]> {
  const n = 100_000;
  const entries: [string, number][] = distinctStrings(n, 11, "member:").map((m, i) => [m, (i * 7919) % n]);
  const fresh = distinctStrings(1_000, 11, "fresh:");
  const sets = [0, 1, 2].map((seed) => SortedSet.from(entries, { seed }));
  return rounds(
    ctx,
    "1,000 changes to a 10^5-member set, with and without an abandoned iterator before each",
    {
      [UNPEEKED]: () => {
        const zs = sets[0]!;
        for (let i = 0; i < fresh.length; i++) {
          zs.add(fresh[i]!, i);
          zs.delete(fresh[i]!);
        }
        sink += zs.size;
      },
      [PEEKED]: () => {
        const zs = sets[1]!;
        for (let i = 0; i < fresh.length; i++) {
          sink += zs.keys().next().value!.length;
          zs.add(fresh[i]!, i);
          zs.delete(fresh[i]!);
        }
      },
      [PEEKED_DELETE]: () => {
        const zs = sets[2]!;
        for (let i = 0; i < fresh.length; i++) {
          sink += zs.keys().next().value!.length;
          const [m, s] = entries[i]!;
          zs.delete(m);
          zs.add(m, s);
        }
      },
    },
    { baseline: UNPEEKED, time: ctx.full ? 1000 : 500 },
  );
}

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
  return rounds(
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

const SMALL_PEER = "sorted array + Map (binary search, splice)";

/** A small set (the compact form) against a sorted array with a Map beside it: build time and bytes per member. */
function smallSets(ctx: BenchContext): { n: number; rows: Row[]; bytes: Map<string, number> }[] {
  const out: { n: number; rows: Row[]; bytes: Map<string, number> }[] = [];
  for (const n of [16, 128]) {
    const copies = 20_000;
    const members = distinctStrings(n, 21, "s:");
    const rand = prng(0x5a11 + n);
    const scores = Float64Array.from({ length: n }, () => Math.floor(rand() * 1e9));
    const builders: Builders = {
      [OURS]: () => {
        const all: SortedSet[] = [];
        for (let c = 0; c < copies; c++) {
          const z = new SortedSet({ seed: 1 });
          for (let i = 0; i < n; i++) z.add(members[i]!, scores[i]!);
          all.push(z);
        }
        return all;
      },
      [SMALL_PEER]: () => {
        const all: SortedArray[] = [];
        for (let c = 0; c < copies; c++) {
          const a = new SortedArray();
          const index = new Map<string, number>();
          for (let i = 0; i < n; i++) {
            index.set(members[i]!, scores[i]!);
            a.insert(scores[i]!, members[i]!);
          }
          all.push(Object.assign(a, { index }));
        }
        return all;
      },
    };
    const { rows, bytes } = buildAll(ctx, n * copies, builders, 3);
    for (const r of rows) r.ratio = r.opsPerSec / rows[1]!.opsPerSec;
    out.push({ n, rows, bytes });
  }
  return out;
}

const ratio = (rows: Row[], name: string, base: string) =>
  rows.find((r) => r.name === name)!.opsPerSec / rows.find((r) => r.name === base)!.opsPerSec;

const suite: Suite = {
  name: "skiplist",
  description:
    "SortedSet (skiplist of macro nodes) vs sorted-btree, js-sdsl, functional-red-black-tree, tlhunter-sorted-set, sorted array, and the previous SortedSet",
  async run(ctx) {
    const headlines: Headline[] = [];
    const charts: Chart[] = [];
    let markdown = "";
    const results = [];
    const goalSizes = ctx.full ? [100_000, 1_000_000] : [1_000_000];
    for (const n of goalSizes) {
      ctx.log(`n = ${n}: generating inputs`);
      const r = await goalRun(ctx, inputs(n));
      results.push(r);
      const mem = new Map(r.memory.map((m) => [m.name, m.bytesPerEntry]));
      markdown += `### n = ${n.toLocaleString("en-US")}\n\n`;
      markdown += `**${n.toLocaleString("en-US")} random inserts into an empty structure** (median of ${ctx.full ? 5 : 3} builds alternating between contenders; bytes retained per entry — heap plus array buffers after GC — member strings allocated beforehand and not counted)\n\n`;
      markdown += `${markdownTable(
        ["implementation", "inserts/s", "vs sorted-btree", "bytes/entry"],
        r.inserts.map((x) => [
          x.name,
          formatOps(x.opsPerSec),
          `${x.ratio.toFixed(2)}×`,
          (mem.get(x.name) ?? Number.NaN).toFixed(1),
        ]),
      )}\n\n`;
      for (const [title, rows] of [
        ["lookup by score (1000 random existing scores)", r.lookup],
        ["rank of a member", r.rank],
        ["by-rank access (random ranks)", r.byRank],
        ["by-position access with js-sdsl's O(n) getElementByPos", r.byPosition],
        ["range scan: 100 consecutive entries by score (ops = scans)", r.scan],
        ["score update of a present member (ops = updates)", r.update],
        ["delete + re-insert (ops = pairs)", r.churn],
      ] as const) {
        if (rows.length > 0) markdown += `${throughputTable(`${title}, n=${n}`, rows)}\n`;
      }
      const exp = Math.round(Math.log10(n));
      // Bytes: the goal is ours ≤ 0.75 × the peer's, i.e. 0.75 × peer ÷ ours ≥ 1.
      const memRatio = (0.75 * mem.get(LIKE_FOR_LIKE)!) / mem.get(OURS)!;
      const goals: Headline[] = [
        {
          structure: "SortedSet",
          operation: `insert, 10^${exp}`,
          versus: "sorted-btree + member Map",
          ratio: ratio(r.inserts, OURS, LIKE_FOR_LIKE),
          goal: 1.2,
        },
        {
          structure: "SortedSet",
          operation: `rangeByScore of 100, 10^${exp}`,
          versus: "sorted-btree getRange",
          ratio: ratio(r.scan, "redstruct rangeByScore", "sorted-btree getRange"),
          goal: 1.5,
        },
        {
          structure: "SortedSet",
          operation: `rank(member), 10^${exp}`,
          versus: "js-sdsl find(score).index, handed the score",
          ratio: ratio(r.rank, "redstruct rank(member)", "js-sdsl find(key).index"),
          goal: 1,
        },
        {
          structure: "SortedSet",
          operation: `rank(member), 10^${exp}`,
          versus: "js-sdsl find(Map.get(member)).index",
          ratio: ratio(r.rank, "redstruct rank(member)", SDSL_BY_MEMBER),
          goal: 1.5,
        },
        {
          structure: "SortedSet",
          operation: `at(i), 10^${exp}`,
          versus: "functional-red-black-tree at(i)",
          ratio: ratio(r.byRank, "redstruct at(i)", "functional-red-black-tree at(i)"),
          goal: 1.2,
        },
        {
          structure: "SortedSet",
          operation: `score update of a present member, 10^${exp}`,
          versus: "sorted-btree + member Map",
          ratio: ratio(r.update, "redstruct add(member, newScore)", LIKE_FOR_LIKE),
          goal: 1,
        },
        {
          structure: "SortedSet",
          operation: `retained bytes per member, 10^${exp}: ${mem.get(OURS)!.toFixed(1)} B vs ${mem.get(LIKE_FOR_LIKE)!.toFixed(1)} B`,
          versus: "0.75 × sorted-btree + member Map's bytes ÷ ours (≥ 1: at most 0.75×)",
          ratio: memRatio,
          goal: 1,
        },
      ];
      markdown += `**Goals at n=${n}**\n\n${markdownTable(
        ["goal", "versus", "measured ratio", "met"],
        goals.map((g) => [
          `${g.operation} ≥ ${g.goal!.toFixed(2)}×`,
          g.versus,
          `${g.ratio.toFixed(2)}×`,
          g.ratio >= g.goal! ? "yes" : "no",
        ]),
      )}\n\n`;
      if (n === 1_000_000) headlines.push(...goals);
      charts.push({ name: `insert-${n}`, spec: throughputChart(`inserts/s, n=${n}`, r.inserts) });
      charts.push({ name: `rank-${n}`, spec: throughputChart(`rank of a member, n=${n}`, r.rank) });
      charts.push({ name: `at-${n}`, spec: throughputChart(`by-rank access, n=${n}`, r.byRank) });
    }

    const Before = await previousSortedSet(ctx);
    const versusBefore = [];
    if (Before !== undefined) {
      markdown += "### Against the previous SortedSet (SKIPLIST_BEFORE)\n\n";
      for (const n of [1_000, 10_000, 100_000, 1_000_000]) {
        ctx.log(`n = ${n}: against the previous SortedSet`);
        const rows = await beforeRun(ctx, Before, inputs(n));
        versusBefore.push({ n, rows });
        markdown += `**n = ${n.toLocaleString("en-US")}** (ratio: this SortedSet ÷ the previous one)\n\n${markdownTable(
          ["row", "ratio"],
          rows.map((x) => [x.row, `${ratio(x.rows, OURS, BEFORE).toFixed(2)}×`]),
        )}\n\n`;
        const worst = rows.reduce(
          (w, x) => {
            const v = ratio(x.rows, OURS, BEFORE);
            return v < w.v ? { v, row: x.row } : w;
          },
          { v: Number.POSITIVE_INFINITY, row: "" },
        );
        headlines.push({
          structure: "SortedSet",
          operation: `slowest of ${rows.length} rows (${worst.row}), 10^${Math.round(Math.log10(n))}`,
          versus: "the previous SortedSet",
          ratio: worst.v,
          goal: 1,
        });
      }
    }

    ctx.log("small sets: the compact form against a sorted array with a Map");
    const small = smallSets(ctx);
    for (const s of small) {
      markdown += `**${s.n}-member sets, built 20,000 times** (the compact form; bytes retained per member)\n\n${markdownTable(
        ["implementation", "inserts/s", "ratio", "bytes/member"],
        s.rows.map((x) => [x.name, formatOps(x.opsPerSec), `${x.ratio.toFixed(2)}×`, s.bytes.get(x.name)!.toFixed(1)]),
      )}\n\n`;
      const ours = s.bytes.get(OURS)!;
      const peer = s.bytes.get(SMALL_PEER)!;
      headlines.push({
        structure: "SortedSet",
        operation: `bytes per member, ${s.n} members: ${ours.toFixed(1)} B vs ${peer.toFixed(1)} B`,
        versus: "1.3 × a sorted array + Map's bytes ÷ ours (≥ 1: at most 1.3×)",
        ratio: (1.3 * peer) / ours,
        goal: 1,
      });
    }

    const mid = [];
    for (const n of [1_000, 10_000]) {
      ctx.log(
        `n = ${n}: mid-size goals against js-sdsl OrderedMap + Map${n === 1_000 ? " and a sorted array + Map" : ""}`,
      );
      const rows = await midRun(ctx, inputs(n), n === 1_000);
      mid.push({ n, rows });
      const peers = n === 1_000 ? [SDSL_ZSET, ARRAY_ZSET] : [SDSL_ZSET];
      markdown += `**n = ${n.toLocaleString("en-US")}: ${MID_ROWS.join(", ")}** (ratio: SortedSet ÷ each peer, built by random adds)\n\n${markdownTable(
        ["row", ...peers.map((p) => `vs ${p}`)],
        rows.map((x) => [x.row, ...peers.map((p) => `${ratio(x.rows, OURS, p).toFixed(2)}×`)]),
      )}\n\n`;
      for (const p of peers) {
        const worst = rows.reduce(
          (w, x) => {
            const v = ratio(x.rows, OURS, p);
            return v < w.v ? { v, row: x.row } : w;
          },
          { v: Number.POSITIVE_INFINITY, row: "" },
        );
        headlines.push({
          structure: "SortedSet",
          operation: `slowest of ${rows.length} rows (${worst.row}), 10^${Math.round(Math.log10(n))}`,
          versus: p,
          ratio: worst.v,
          goal: 1,
        });
      }
    }

    ctx.log("memory as Valkey reports it: bytes per member beyond its string, 10^6 members of 20 bytes");
    const valkey = valkeyMemory(ctx, 1_000_000);
    markdown += `**Memory as Valkey reports it**: bytes per member beyond the member's own string (10^6 members of 20 bytes, allocated beforehand; heap plus array buffers after GC): the measure valkey-io/valkey#3166 uses for its sorted sets, whose B+ tree saves about 24 B per member over its skiplist\n\n${markdownTable(
      ["inserted in", "bytes per member"],
      valkey.map((v) => [v.order, v.bytes.toFixed(1)]),
    )}\n\n`;

    ctx.log("changes after abandoned iterators, 10^5");
    const abandoned = await abandonedRun(ctx);
    markdown += `${throughputTable("1,000 changes to a 10^5-member set, each after a peek (`keys().next()`) left unfinished (ops = batches)", abandoned)}\n`;
    headlines.push({
      structure: "SortedSet",
      operation: "add + delete after an abandoned iterator each, 10^5",
      versus: "the same changes with no iterator",
      ratio: ratio(abandoned, PEEKED, UNPEEKED),
      goal: 0.5,
    });

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
    markdown += `Reproduce: \`SKIPLIST_BEFORE=/tmp/skiplist-before npm run bench -- skiplist${ctx.full ? " --full" : ""}\` (checksum ${sink % 997}).\n`;
    return {
      markdown,
      data: { sizes: results, versusBefore, small, mid, valkey, abandoned, union },
      charts,
      headlines,
    };
  },
};

export default suite;
