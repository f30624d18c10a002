/**
 * The invariant walk of a sorted set's two forms (`SortedSet#checkInvariants`): every rule stated in
 * the headers of ./list.ts, ./store.ts, ./members.ts and ./compact.ts, checked over the whole
 * structure, throwing an Error that names the first one broken. O(n + nodes · levels); for tests.
 */
import { invariantFailure } from "../internal/errors.js";
import type { CompactList } from "./compact.js";
import type { OrderedList } from "./list.js";
import type { MemberIndex } from "./members.js";
import { compareMembers } from "./order.js";
import { LAYOUT, type NodeId, type Pos } from "./store.js";

const { HEADER, HEADER_WORDS, MAX_LEVEL, NIL } = LAYOUT;

/** Whether (s, m) sorts strictly after (ps, pm). */
function after(ps: number, pm: string, s: number, m: string): boolean {
  return ps < s || (ps === s && compareMembers(pm, m) < 0);
}

/** The compact form: order, the Map, the bound. */
export function checkCompact(c: CompactList, compactMax: number, where: string): void {
  const fail = invariantFailure(where);
  const n = c.length;
  if (n > compactMax) fail(`the compact form holds ${n} entries, more than its bound ${compactMax}`);
  if (c.scores.length !== n) fail(`${c.scores.length} scores for ${n} members`);
  if (c.map.size !== n) fail(`the Map holds ${c.map.size} members, the entries ${n}`);
  for (let i = 0; i < n; i++) {
    const m = c.members[i]!;
    const s = c.scores[i]!;
    if (typeof m !== "string" || typeof s !== "number") fail(`entry ${i} is not a (score, member) pair`);
    if (Number.isNaN(s)) fail(`NaN score at rank ${i}`);
    if (!Object.is(c.map.get(m), s)) fail(`the Map scores ${JSON.stringify(m)} ${c.map.get(m)}, its entry ${s}`);
    if (i > 0 && !after(c.scores[i - 1]!, c.members[i - 1]!, s, m)) fail(`order broken at rank ${i}`);
  }
}

/** The list form: the skiplist's nodes, entries, links and spans, its store, and the member index beside it. */
export function checkIndexed(list: OrderedList, index: MemberIndex, compactMax: number, where: string): void {
  const fail = invariantFailure(where);
  const s = list.store;
  const b = list.nodeSize;
  const length = list.length;
  const blockSize = 1 << s.logS;
  if (list.level < 1 || list.level > MAX_LEVEL) fail(`level ${list.level}`);
  if (compactMax > 0 && length <= compactMax >> 1) {
    fail(`the list form holds ${length} entries, at most half the compact bound ${compactMax}`);
  }
  // Level 0: nodes, entries, order, back and up links, ranks, slots.
  const rankOfNode = new Map<number, number>();
  const lastAt = new Int32Array(MAX_LEVEL); // the last node seen at each level (HEADER at first)
  const seenSlots = new Set<number>();
  let prev = NIL;
  let entries = 0;
  let prevScore = 0;
  let prevMember = "";
  for (let x = s.next(HEADER, 0); x !== NIL; x = s.next(x, 0)) {
    if (rankOfNode.size > length) fail("node chain longer than the entries (cycle?)");
    if ((x & 1) !== 0 || x < HEADER_WORDS || x >= s.towerTop) fail(`node address ${x} out of the used towers`);
    const level = s.level(x);
    const n = s.count(x);
    if (level < 1 || level > list.level) fail(`node ${x} has level ${level}`);
    if (n < 1 || n > b) fail(`node ${x} holds ${n} entries (1..${b})`);
    const interior = s.back(x) !== NIL && s.next(x, 0) !== NIL;
    if (interior && n < list.minFill) fail(`interior node ${x} holds ${n} < ${list.minFill} entries`);
    if (s.back(x) !== prev) fail(`node ${x} backward ${s.back(x)} ≠ ${prev}`);
    if (level > 1 && s.up(x) !== lastAt[level - 1]) fail(`node ${x} up link ${s.up(x)} ≠ ${lastAt[level - 1]}`);
    for (let i = 0; i < level; i++) lastAt[i] = x;
    const base = s.base(x);
    const blk = base & -blockSize;
    if (blk >>> s.logS >= s.blocks || base + n > blk + blockSize) fail(`node ${x} base ${base}`);
    if (s.blockOwner(base >>> s.logS) !== x) fail(`block of node ${x} owned by ${s.blockOwner(base >>> s.logS)}`);
    if (!Object.is(s.firstScore(x), s.scoreAt(base)))
      fail(`node ${x} first score ${s.firstScore(x)} ≠ ${s.scoreAt(base)}`);
    const held = Math.min(blk + blockSize, s.chunkEnd(blk)); // one node's block may be short
    if (base + n > held) fail(`node ${x}'s entries pass its block`);
    for (let p = blk as Pos; p < held; p = (p + 1) as Pos) {
      const member = s.memberAt(p);
      if (p < base || p >= base + n) {
        if (member !== "") fail(`unused position ${p} keeps a member`);
        continue;
      }
      const score = s.scoreAt(p);
      const slot = index.slotOf(member);
      if (slot < 1 || slot >= index.top || seenSlots.has(slot))
        fail(`the index maps ${JSON.stringify(member)} to slot ${slot}`);
      seenSlots.add(slot);
      if (!Object.is(index.scoreOf(slot), score)) fail(`slot ${slot} holds ${index.scoreOf(slot)}, the entry ${score}`);
      if (Number.isNaN(score)) fail(`NaN score at position ${p}`);
      if (entries + (p - base) > 0 && !after(prevScore, prevMember, score, member)) {
        fail(`order broken at rank ${entries + (p - base)}`);
      }
      prevScore = score;
      prevMember = member;
    }
    rankOfNode.set(x, entries);
    entries += n;
    prev = x;
  }
  if (entries !== length) fail(`nodes hold ${entries} entries, length is ${length}`);
  if (list.tail !== prev) fail(`tail ${list.tail} ≠ last node ${prev}`);
  // The member index: live members, tombstones, slots.
  if (index.size !== length) fail(`the index holds ${index.size} members, the list ${length}`);
  if (seenSlots.size !== length) fail(`${seenSlots.size} slots reached, length is ${length}`);
  if (index.mapSize - length > Math.max(64, length)) fail("tombstones were not purged");
  if (index.top - 1 - index.freeCount !== length) fail("slots in use ≠ length");
  for (let i = 0; i < index.freeCount; i++) if (seenSlots.has(index.freeSlot(i))) fail("a free slot is in use");
  // The store: entry blocks.
  if (s.blocks - s.freeBlockCount !== rankOfNode.size) fail("entry blocks in use ≠ nodes");
  for (let i = 0; i < s.freeBlockCount; i++) {
    const k = s.freeBlock(i);
    const base = k << s.logS;
    if (s.blockOwner(k) !== NIL) fail(`free block ${k} has an owner`);
    const held = Math.min(blockSize, s.chunkEnd(base) - base);
    for (let j = 0; j < held; j++) if (s.memberAt((base + j) as Pos) !== "") fail(`free block ${base} keeps a member`);
  }
  // Every level: targets are live and tall enough, spans equal rank differences.
  let linked = 0;
  for (let i = 0; i < list.level; i++) {
    let x: NodeId = HEADER;
    let rx = 0;
    for (;;) {
      const y = s.next(x, i);
      const ry = y === NIL ? length : rankOfNode.get(y);
      if (ry === undefined) fail(`level ${i} links to a node not on level 0`);
      if (y !== NIL && s.level(y) <= i) fail(`level ${i} links to node ${y} of level ${s.level(y)}`);
      if (s.span(x, i) !== ry! - rx)
        fail(`span at level ${i} from rank ${rx} is ${s.span(x, i)}, expected ${ry! - rx}`);
      if (y === NIL) break;
      linked++;
      x = y;
      rx = ry!;
    }
  }
  if (list.level > 1 && s.next(HEADER, list.level - 1) === NIL) fail(`top level ${list.level} is empty`);
  for (let i = list.level; i < MAX_LEVEL; i++)
    if (s.next(HEADER, i) !== NIL) fail(`header links above level ${list.level}`);
  let declared = 0;
  for (const x of rankOfNode.keys()) declared += s.level(x as NodeId);
  if (linked !== declared) fail(`${linked} links in use, nodes declare ${declared}`);
}
