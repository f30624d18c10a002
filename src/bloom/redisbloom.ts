/**
 * RedisBloomFilter — RedisBloom's scalable Bloom filter (the BF.* commands of RedisBloom 2.4,
 * src/sb.c and deps/bloom/bloom.c), bit for bit: the same answers, the same BF.INFO figures and the
 * same BF.SCANDUMP bytes for the same commands, so a filter moves between Redis and JavaScript
 * through `toRedis()` / `fromRedis()` (and between JavaScript processes through `toBytes()` /
 * `fromBytes()`, the same state in one buffer). Built from the behaviour recorded in
 * test/vectors/redisbloom (see its README), not from RedisBloom's code.
 *
 * Algorithm. A chain of Bloom filters ("links"; Almeida et al., "Scalable Bloom Filters", 2007).
 * An item is hashed twice with MurmurHash64A: a = H(item, seed 0xc6a4a7935bd1e995),
 * b = H(item, seed a). Probe i of a link is bit ((a + i·b) mod 2^64) mod M, where M is the link's
 * bit count (or 2^n2 for a power-of-two sized legacy link), bit x at byte x >> 3, mask
 * 1 << (x & 7). Filters written by RedisBloom's old 32-bit mode (only reachable through a dump
 * without the FORCE64 option) hash with MurmurHash2 instead: a = H2(item, 0x9747b28c),
 * b = H2(item, a). The first link holds `capacity` items at error/2 (error itself when
 * non-scaling); when the newest link holds its capacity and a new item arrives, a link of
 * capacity·expansion items at half the previous error is appended.
 *
 * Link sizing (RedisBloom's NOROUND mode, the one it creates): bpe = −ln(error)/0.480453013918201
 * with a correctly rounded ln (src/internal/log.ts: glibc's `log` and V8's `Math.log` differ in the
 * last bit for ~6 % of error rates, and bpe is stored in the dump), bits = ⌊capacity·bpe⌋ (at
 * least 1) rounded up to whole 64-bit words, hashes = ⌈0.693147180559945·bpe⌉. Legacy links
 * without NOROUND are sized to a power of two, 2^n2 bits with n2 = ⌊log2(capacity·bpe)⌋ + 1, and
 * their capacity grows to what the extra bits hold.
 *
 * Memory layout: one `Uint8Array` of bits per link, plus its header fields (bytes, bits, items,
 * error, bpe, hashes, capacity, n2) and two reduction constants (1/M and 2^64 mod M). The hot path
 * carries the 64-bit a and b as 32-bit halves in a typed-array register — no BigInt, no
 * allocation. Both MurmurHash64A passes and (a mod M), (b mod M) run in a small WebAssembly module
 * (src/hash/murmur64a-wasm.ts: native 64-bit multiply and remainder); where WebAssembly is
 * unavailable, and for items over 64 KiB (so the module's memory, which cannot shrink, stays
 * small), the JavaScript hash runs and the remainders come from Horner's rule over 16-bit limbs
 * (every intermediate < 2^53, exact) — same bits either way. Each next probe adds b mod M, subtracting 2^64 mod M whenever the 64-bit sum a + i·b wraps,
 * so positions are exact for any M < 2^37.
 *
 * Invariants ({@link RedisBloomFilter.checkInvariants}): at least one link; the total item count is
 * the sum of the link counts; every link has bits = 8·bytes = its array's bit length, 0 < error < 1,
 * bpe finite and positive, hashes = ⌈0.693147180559945·bpe⌉, n2 ≤ 63 and 2^n2 ≤ bits when n2 > 0;
 * the options word holds only RedisBloom's four flags.
 *
 * Costs, for L links and k probes per link: `add`/`has` O(L·k + |item|) with no allocation (`has`
 * stops at the first link that holds the item, a link at its first clear bit); appending a link
 * O(its bytes) to zero its array; `size` O(1); `info`/`byteLength`/`checkInvariants` O(L);
 * `toRedis`/`fromRedis`/`toBytes`/`fromBytes`/`clone` O(L + total bytes); `clear` O(first link's
 * bytes).
 */
import { checkItem, type Item } from "../hash/element.js";
import { checkInteger, invariantFailure, notJson, rangeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkFlag, checkIterable, checkOptions } from "../internal/options.js";
import { itemAt } from "./bits.js";
import { checkErrorRate } from "./params.js";
import { type ChainParts, chainFromBytes, chainToBytes, dumpChain, loadChain } from "./redisbloom-dump.js";
import {
  contains,
  FORCE64,
  hashItem,
  KNOWN_OPTIONS,
  Link,
  LN2,
  linkShape,
  MAX_LINK_BYTES,
  NO_SCALING,
  NOROUND,
  newLink,
  probe,
  TWO32,
} from "./redisbloom-link.js";

const WHERE = "RedisBloomFilter";

/**
 * Key of an options object the loaders pass to the constructor: adopt these parts (links read from
 * a dump) instead of creating a first link. A symbol known only to this module, so no caller can
 * pass it (checkOptions sees string keys only).
 */
const PARTS = Symbol("parts");

/** Options of {@link RedisBloomFilter}: BF.RESERVE's arguments. */
export interface RedisBloomFilterOptions {
  /**
   * The chain's target false-positive rate, 0 < p < 1 (BF.RESERVE error_rate). The first link
   * gets p/2 (p itself when non-scaling), each next link half the previous one's.
   * @defaultValue 0.01 (what BF.ADD auto-creates)
   */
  errorRate?: number;
  /**
   * Items the first link holds (BF.RESERVE capacity), a positive integer.
   * @defaultValue 100 (what BF.ADD auto-creates)
   */
  capacity?: number;
  /**
   * Capacity factor from one link to the next (BF.RESERVE EXPANSION), an integer in [1, 2^32 − 1].
   * RedisBloom's BF.RESERVE also takes 0, which makes every add past the first link's capacity
   * reply 1 and store nothing — a filter that forgets items; refused here (use `nonScaling` for a
   * fixed-size filter). A dump with growth 0 still loads and behaves as in RedisBloom.
   * @defaultValue 2
   */
  expansion?: number;
  /**
   * Never add a link: once the first link holds `capacity` items, adding a new item throws
   * (BF.RESERVE NONSCALING, "ERR non scaling filter is full"). Cannot be combined with
   * `expansion`, as in RedisBloom ("Nonscaling filters cannot expand").
   * @defaultValue false
   */
  nonScaling?: boolean;
}

/** What {@link RedisBloomFilter.info} returns: the fields of BF.INFO. */
export interface RedisBloomInfo {
  /** Items the links hold before the next growth: the sum of their capacities (BF.INFO "Capacity"). */
  capacity: number;
  /**
   * RedisBloom's memory figure, 32 + 64·links + Σ link bytes (BF.INFO "Size"): the bit arrays
   * ({@link RedisBloomFilter.byteLength}) plus what RedisBloom's structs take beside them.
   */
  byteLength: number;
  /** Number of links (BF.INFO "Number of filters"). */
  filters: number;
  /** Adds that returned true, the filter's `size` (BF.INFO "Number of items inserted", BF.CARD). */
  size: number;
  /** Capacity factor between links (BF.INFO "Expansion rate"), null when non-scaling. */
  expansion: number | null;
}

/**
 * RedisBloom's scalable Bloom filter (BF.*), bit for bit: the same replies, the same BF.INFO and the
 * same BF.SCANDUMP bytes as RedisBloom 2.4 for the same commands, so a filter moves between Redis and
 * JavaScript with {@link RedisBloomFilter.toRedis | toRedis()} and
 * {@link RedisBloomFilter.fromRedis | fromRedis()}.
 */
export class RedisBloomFilter {
  #links: Link[] = [];
  #items = 0;
  #options: number;
  #growth: number;

  /**
   * An empty filter — BF.RESERVE, or with no options the filter BF.ADD auto-creates (error 0.01,
   * capacity 100, expansion 2). O(first link's bytes) to allocate its zeroed bits.
   * @throws TypeError for an unknown option or a mistyped value; RangeError for a value out of
   *   range, `expansion` together with `nonScaling`, or a first link of 4 GiB or more.
   */
  constructor(options?: RedisBloomFilterOptions) {
    const parts = (options as { [PARTS]?: ChainParts } | undefined)?.[PARTS];
    if (parts !== undefined) {
      // A loader's links, already validated: adopt them instead of creating a first link.
      this.#links = parts.links.slice();
      this.#items = parts.items;
      this.#options = parts.options;
      this.#growth = parts.growth;
      return;
    }
    const o = checkOptions(WHERE, options, ["errorRate", "capacity", "expansion", "nonScaling"]);
    const errorRate = o.errorRate === undefined ? 0.01 : checkErrorRate(WHERE, o.errorRate);
    const capacity =
      o.capacity === undefined ? 100 : checkInteger(WHERE, "capacity", o.capacity, 1, Number.MAX_SAFE_INTEGER);
    const nonScaling = checkFlag(WHERE, "nonScaling", o.nonScaling, false);
    if (nonScaling && o.expansion !== undefined) {
      throw rangeError(
        WHERE,
        "expansion",
        o.expansion,
        "left out when nonScaling is true (non-scaling filters cannot expand)",
      );
    }
    this.#growth = o.expansion === undefined ? 2 : checkInteger(WHERE, "expansion", o.expansion, 1, TWO32 - 1);
    this.#options = FORCE64 | NOROUND | (nonScaling ? NO_SCALING : 0);
    const error = nonScaling ? errorRate : errorRate * 0.5;
    const shape = linkShape(capacity, error, this.#options);
    if (typeof shape === "string") throw rangeError(WHERE, "capacity", capacity, `small enough for one link: ${shape}`);
    this.#links.push(newLink(shape, error));
  }

  /** A filter that adopts `parts` (read and validated by a loader). */
  static #adopt(parts: ChainParts): RedisBloomFilter {
    return new RedisBloomFilter({ [PARTS]: parts } as RedisBloomFilterOptions);
  }

  /**
   * A filter holding `items` — BF.INSERT with the options as CAPACITY / ERROR / EXPANSION /
   * NONSCALING (so by default BF.ADD's auto-created filter, capacity 100 at 0.01, not one sized for
   * the items). O(first link's bytes + Σ (L·k + |item|)).
   * @throws TypeError unless `items` is a sync iterable of items (a lone string is refused), or for
   *   a bad option; RangeError as the constructor, or when a non-scaling filter fills up (as
   *   BF.INSERT … NONSCALING stops there).
   */
  static from(items: Iterable<Item>, options?: RedisBloomFilterOptions): RedisBloomFilter {
    checkIterable(WHERE, "items", items);
    const filter = new RedisBloomFilter(options);
    filter.addAll(items);
    return filter;
  }

  // ——— BF.ADD / BF.MADD / BF.EXISTS / BF.MEXISTS ——————————————————————————————————

  /**
   * Adds `item` — BF.ADD. Returns true (1) when it was added, false (0) when some link already
   * (probably) holds it. When the newest link is full a new one is appended first (O(its bytes)),
   * except: a non-scaling filter throws, and a chain whose next link would have capacity 0 (a
   * loaded dump with growth 0) returns true and stores nothing, as RedisBloom does.
   * O(L·k + |item|), no allocation otherwise. Whatever it throws, it throws before anything changes.
   * @throws TypeError for a non-item (or a detached view); RangeError when the filter is full and
   *   non-scaling, or the next link cannot be created (4 GiB or more, or the error rate underflowed).
   */
  add(item: Item): boolean {
    checkItem(WHERE, "item", item);
    const links = this.#links;
    const top = links.length - 1;
    hashItem(item, (this.#options & FORCE64) !== 0);
    for (let i = top - 1; i >= 0; i--) if (contains(links[i]!)) return false;
    let last = links[top]!;
    if (last.items < last.entries) {
      // Room in the newest link: setting its bits is also its membership test.
      if (probe(last, true)) return false;
    } else {
      if (contains(last)) return false;
      if (this.#options & NO_SCALING) {
        throw new RangeError(
          `redstruct/${WHERE}: the filter is full (non-scaling, capacity ${last.entries}); ` +
            "create it with a larger capacity or without nonScaling",
        );
      }
      const next = this.#nextLink(last);
      if (next === undefined) return true;
      links.push(next);
      last = next;
      probe(last, true);
    }
    last.items++;
    this.#items++;
    return true;
  }

  /** The link appended after `last`, or undefined when its capacity would be 0 (growth 0). */
  #nextLink(last: Link): Link | undefined {
    const capacity = last.entries * this.#growth;
    if (capacity === 0) return undefined;
    const error = last.error * 0.5;
    const shape =
      capacity > Number.MAX_SAFE_INTEGER
        ? `its capacity ${capacity} exceeds 2^53`
        : linkShape(capacity, error, this.#options);
    if (typeof shape === "string")
      throw new RangeError(`redstruct/${WHERE}: cannot add link ${this.#links.length + 1}: ${shape}`);
    // Hashing state survives: linkShape and newLink do not hash.
    return newLink(shape, error);
  }

  /**
   * True when `item` is probably in the filter, false when it certainly is not — BF.EXISTS.
   * Never a false negative. O(L·k + |item|), newest link first, no allocation, no side effect.
   * @throws TypeError for a non-item (or a detached view).
   */
  has(item: Item): boolean {
    checkItem(WHERE, "item", item);
    const links = this.#links;
    hashItem(item, (this.#options & FORCE64) !== 0);
    for (let i = links.length - 1; i >= 0; i--) if (contains(links[i]!)) return true;
    return false;
  }

  /**
   * `add` for each item, in order — BF.MADD; returns the replies. On a full non-scaling filter the
   * items before the first one that does not fit stay added, then the RangeError is thrown (BF.MADD
   * stops there too; its message says how many were added). A non-item is a TypeError naming
   * `items[i]`, thrown before that item changes anything; the items before it stay added.
   * @throws TypeError for a non-iterable or a non-item; RangeError as {@link add}.
   */
  addAll(items: Iterable<Item>): boolean[] {
    const out: boolean[] = [];
    for (const item of checkIterable(WHERE, "items", items)) {
      const checked = itemAt(WHERE, item, out.length);
      try {
        out.push(this.add(checked));
      } catch (e) {
        if (e instanceof RangeError && out.length > 0) {
          throw new RangeError(`${e.message} (after ${out.length} of the items were processed)`);
        }
        throw e;
      }
    }
    return out;
  }

  /**
   * `has` for each item — BF.MEXISTS. O(Σ (L·k + |item|)), no side effect.
   * @throws TypeError for a non-iterable or a non-item.
   */
  hasAll(items: Iterable<Item>): boolean[] {
    const out: boolean[] = [];
    for (const item of checkIterable(WHERE, "items", items)) out.push(this.has(itemAt(WHERE, item, out.length)));
    return out;
  }

  // ——— BF.CARD / BF.INFO ————————————————————————————————————————————————————————

  /** Adds that returned true — BF.CARD. O(1). */
  get size(): number {
    return this.#items;
  }

  /**
   * Bytes of the links' bit arrays. O(L). BF.INFO's "Size" ({@link info}'s `byteLength`) adds
   * RedisBloom's 32 + 64·links bytes of structs to this.
   */
  get byteLength(): number {
    let n = 0;
    for (const link of this.#links) n += link.data.length;
    return n;
  }

  /** The BF.INFO fields (see {@link RedisBloomInfo}). O(L). */
  info(): RedisBloomInfo {
    let capacity = 0;
    let byteLength = 32;
    for (const link of this.#links) {
      capacity += link.entries;
      byteLength += 64 + link.data.length;
    }
    return {
      capacity,
      byteLength,
      filters: this.#links.length,
      size: this.#items,
      expansion: this.#options & NO_SCALING ? null : this.#growth,
    };
  }

  // ——— whole filter ———————————————————————————————————————————————————————————————

  /**
   * Empties the filter back to what BF.RESERVE made: its first link, zeroed, and no other (the
   * capacity, error rate, expansion and options stay). O(first link's bytes).
   */
  clear(): void {
    this.#links = [this.#links[0]!.copy(true)];
    this.#items = 0;
  }

  /** An independent copy: same links, bits and counts. O(L + total bytes). */
  clone(): RedisBloomFilter {
    return RedisBloomFilter.#adopt({
      links: this.#links.map((link) => link.copy(false)),
      items: this.#items,
      options: this.#options,
      growth: this.#growth,
    });
  }

  // ——— BF.SCANDUMP / BF.LOADCHUNK ————————————————————————————————————————————————

  /**
   * The filter as RedisBloom dumps it — the BF.SCANDUMP replies with a non-zero iterator, in order:
   * `[1, header]`, then each link's bits in chunks of at most 16 MiB, `[iterator, bytes]`. Feed the
   * pairs to BF.LOADCHUNK (key, iterator, bytes) to recreate the filter in Redis, or to
   * {@link RedisBloomFilter.fromRedis}. O(L + total bytes); every chunk is a fresh copy.
   */
  toRedis(): Array<[number, Uint8Array]> {
    return dumpChain(this.#parts());
  }

  /**
   * A filter from a RedisBloom dump — BF.LOADCHUNK of each `[iterator, bytes]` pair, as
   * BF.SCANDUMP returned them (or {@link toRedis} did): the header first, then the chunks in any
   * order that delivers every byte (overlaps allowed, later bytes win, as in RedisBloom). Reads every
   * dump RedisBloom writes, the legacy 32-bit and power-of-two modes included. Each chunk is copied
   * as it is read, so a reader may hand every chunk in one reused buffer, and changing a chunk
   * afterwards does not change the filter. Each link must be under 2^32 bytes (4 GiB); the links are
   * allocated only after all of their bytes arrived. O(L + total bytes + chunks·log chunks).
   * @throws RedstructFormatError for a header RedisBloom rejects, and also for what it would crash
   *   on or accept as nonsense: a NaN error rate, links of 4 GiB or more, counts above 2^53, a
   *   missing header, a chunk outside every link, or a dump that leaves bytes undelivered;
   *   TypeError when `chunks` is not an iterable of [number, Uint8Array] pairs (or a chunk's
   *   buffer was detached).
   */
  static fromRedis(chunks: Iterable<readonly [number, Uint8Array]>): RedisBloomFilter {
    return RedisBloomFilter.#adopt(loadChain(checkIterable(WHERE, "chunks", chunks)));
  }

  // ——— redstruct's format ——————————————————————————————————————————————————————————

  /**
   * The filter as one buffer in redstruct's format: "RSRB", a version byte, then the same header
   * and bits as {@link toRedis}'s chunks, unchunked — to store it or send it to a worker. (Redis
   * itself takes the chunk list.) O(L + total bytes); returns a new array.
   */
  toBytes(): Uint8Array {
    return chainToBytes(this.#parts());
  }

  /**
   * Reads a filter written by {@link toBytes}, with every check {@link RedisBloomFilter.fromRedis}
   * makes of the header, and a length that must be exactly what the header declares. The bits are
   * copied: changing `bytes` afterwards does not change the filter. O(L + total bytes).
   * @throws TypeError when `bytes` is not a Uint8Array or its buffer was detached;
   *   RedstructFormatError for any malformed, truncated or inconsistent input.
   */
  static fromBytes(bytes: Uint8Array): RedisBloomFilter {
    return RedisBloomFilter.#adopt(chainFromBytes(bytes));
  }

  #parts(): ChainParts {
    return { links: this.#links, items: this.#items, options: this.#options, growth: this.#growth };
  }

  /**
   * Refuses JSON: a filter's state is private, so `JSON.stringify` would give `{}`. Send
   * {@link toBytes} (or, to Redis, {@link toRedis}) and rebuild with {@link RedisBloomFilter.fromBytes}.
   * @throws TypeError always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  /** Throws an Error naming the first broken invariant (see the module comment). O(L). */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const links = this.#links;
    if (links.length === 0) fail("no link");
    if ((this.#options & ~KNOWN_OPTIONS) !== 0) fail(`unknown options ${this.#options}`);
    if (!Number.isInteger(this.#growth) || this.#growth < 0 || this.#growth >= TWO32) fail(`growth ${this.#growth}`);
    let items = 0;
    links.forEach((link, i) => {
      const at = `link ${i}`;
      if (!(link instanceof Link)) fail(`${at} is not a Link`);
      const bytes = link.data.length;
      if (bytes < 1 || bytes > MAX_LINK_BYTES) fail(`${at} has ${bytes} bytes`);
      if (link.bits !== bytes * 8) fail(`${at} has ${link.bits} bits for ${bytes} bytes`);
      if (!(link.error > 0 && link.error < 1)) fail(`${at} has error ${link.error}`);
      if (!(Number.isFinite(link.bpe) && link.bpe > 0)) fail(`${at} has bpe ${link.bpe}`);
      if (link.hashes !== Math.ceil(LN2 * link.bpe)) fail(`${at} has ${link.hashes} hashes for bpe ${link.bpe}`);
      if (!Number.isSafeInteger(link.items) || link.items < 0) fail(`${at} has ${link.items} items`);
      if (!Number.isSafeInteger(link.entries) || link.entries < 0) fail(`${at} has capacity ${link.entries}`);
      if (!Number.isInteger(link.n2) || link.n2 < 0 || link.n2 > 63) fail(`${at} has n2 ${link.n2}`);
      if (link.n2 > 0 && 2 ** link.n2 > link.bits) fail(`${at} has n2 ${link.n2} over ${link.bits} bits`);
      if (link.mod !== (link.n2 > 0 ? 2 ** link.n2 : link.bits)) fail(`${at} reduces mod ${link.mod}`);
      if (link.wrap !== Number((1n << 64n) % BigInt(link.mod))) fail(`${at} has 2^64 mod M = ${link.wrap}`);
      items += link.items;
    });
    if (items !== this.#items) fail(`total ${this.#items} items, links hold ${items}`);
  }

  static {
    defineInspect(RedisBloomFilter, (f) => ({ fields: { ...f.info() } }));
  }
}
