/**
 * The saved forms of {@link RedisBloomFilter} (internal): BF.SCANDUMP / BF.LOADCHUNK, RedisBloom's
 * dump byte for byte (`toRedis` / `fromRedis`), and redstruct's single buffer (`toBytes` /
 * `fromBytes`), which holds the same header and bits.
 *
 * Layout (packed, little-endian — x86-64 memory as RedisBloom copies it out). The header,
 * 20 + 53·n bytes: u64 total items, u32 n (links), u32 options, u32 growth; then per link u64
 * bytes, u64 bits, u64 items, f64 error, f64 bpe, u32 hashes, u64 capacity, u8 n2. The bit arrays
 * follow as one byte space, link after link. SCANDUMP iterator 0 answers (1, header); iterator
 * j ≥ 1 answers (j + len, bytes j−1 … j−2+len) for at most 16 MiB, never across a link boundary.
 * LOADCHUNK receives those pairs: iterator 1 on a new key is the header; any other pair writes its
 * bytes at offset iterator − len − 1.
 *
 * Reading is stricter than RedisBloom where RedisBloom crashes or accepts nonsense: besides every
 * check RedisBloom makes (exact header length, at least one link, only known options, 0 < error < 1,
 * bits = 8·bytes ≠ 0, n2 ≤ 63 and 2^n2 ≤ bits, hashes = ⌈0.693147180559945·bpe⌉, items summing to
 * the total), it refuses a NaN error rate, a non-finite or non-positive bpe, more than
 * {@link MAX_DUMP_HASHES} probes, a link of 2^32 bytes or more, counts and capacities above 2^53,
 * and a dump whose chunks leave any byte of any link undelivered (RedisBloom keeps such bytes zero).
 * Each chunk's bytes are copied as it is read (a reader may hand every chunk in one reused
 * buffer); the links are allocated at the end, after every byte of them has been delivered, so a
 * hostile header cannot make it allocate more than its input.
 *
 * redstruct's format (`toBytes`, little-endian): "RSRB", version u8 = 1, then the dump header
 * exactly as SCANDUMP's first reply holds it (20 + 53·n bytes), then every link's bits, link after
 * link — the chunk list's bytes without the chunking. It is read with the same header checks, and its
 * length must be exactly what the header declares.
 */
import { ByteReader, ByteWriter, checkBytes } from "../internal/bytes.js";
import { placeChunk } from "../internal/chunks.js";
import { describe, formatError } from "../internal/errors.js";
import { KNOWN_OPTIONS, Link, LN2, linkShape, MAX_LINK_BYTES, NOROUND, TWO32 } from "./redisbloom-link.js";

const WHERE = "RedisBloomFilter";
/** How BF.LOADCHUNK chunks are named in messages. */
const CHUNK_TERMS = { where: WHERE, position: "iterator", part: "link" };
const HEADER_FIXED = 20;
const LINK_RECORD = 53;
const MAGIC = "RSRB";
const VERSION = 1;
/** Largest SCANDUMP reply: 16 MiB. */
const DUMP_CHUNK_BYTES = 16 * 1024 * 1024;

/**
 * Most probes a loaded link may ask for: what the smallest positive error rate (5e-324, the
 * smallest double) needs. A header may claim any bpe; without a bound, one add could loop for hours.
 */
export const MAX_DUMP_HASHES = (() => {
  const s = linkShape(1, Number.MIN_VALUE, NOROUND);
  if (typeof s === "string") throw new Error(s);
  return s.hashes;
})();

/** What a dump holds: the chain's fields and links. */
export interface ChainParts {
  links: readonly Link[];
  items: number;
  options: number;
  growth: number;
}

/** Writes the dump header of a chain (SCANDUMP's first reply) into `w`. */
function writeHeader(w: ByteWriter, { links, items, options, growth }: ChainParts): void {
  w.u53(items).u32(links.length).u32(options).u32(growth);
  for (const link of links) {
    w.u53(link.data.length).u53(link.bits).u53(link.items).f64(link.error).f64(link.bpe);
    w.u32(link.hashes).u53(link.entries).u8(link.n2);
  }
}

/** The BF.SCANDUMP replies for a chain, in order (the final [0, ""] left out). Copies every byte. */
export function dumpChain(chain: ChainParts): Array<[number, Uint8Array]> {
  const { links } = chain;
  const w = new ByteWriter(HEADER_FIXED + LINK_RECORD * links.length);
  writeHeader(w, chain);
  const out: Array<[number, Uint8Array]> = [[1, w.finish()]];
  let iterator = 1;
  for (const link of links) {
    for (let at = 0; at < link.data.length; at += DUMP_CHUNK_BYTES) {
      const chunk = link.data.slice(at, Math.min(at + DUMP_CHUNK_BYTES, link.data.length));
      iterator += chunk.length;
      out.push([iterator, chunk]);
    }
  }
  return out;
}

/** A u64 field that must be at most `max`; RedstructFormatError naming it otherwise. */
function u64(r: ByteReader, what: string, max: number): number {
  const lo = r.u32(what);
  const hi = r.u32(what);
  const v = hi * TWO32 + lo;
  if (hi > 0x1fffff || v > max) {
    const exact = (BigInt(hi) << 32n) | BigInt(lo);
    throw formatError(WHERE, `${what} is ${exact}, above the ${max} accepted`);
  }
  return v;
}

interface LinkRecord {
  bytes: number;
  bits: number;
  items: number;
  error: number;
  bpe: number;
  hashes: number;
  entries: number;
  n2: number;
}

/** Parses and validates a header chunk. */
function readHeader(bytes: Uint8Array): { items: number; options: number; growth: number; records: LinkRecord[] } {
  if (bytes.length < HEADER_FIXED) {
    throw formatError(WHERE, `the header has ${bytes.length} bytes, fewer than the ${HEADER_FIXED} of its fixed part`);
  }
  const r = new ByteReader(bytes, WHERE);
  const items = u64(r, "the total item count", Number.MAX_SAFE_INTEGER);
  const count = r.u32("the link count");
  const options = r.u32("the options");
  const growth = r.u32("the growth");
  if (count === 0) throw formatError(WHERE, "the header declares 0 links");
  if (bytes.length !== HEADER_FIXED + LINK_RECORD * count) {
    throw formatError(
      WHERE,
      `the header has ${bytes.length} bytes, but ${count} links need exactly ${HEADER_FIXED + LINK_RECORD * count}`,
    );
  }
  if ((options & ~KNOWN_OPTIONS) !== 0)
    throw formatError(WHERE, `unknown option bits in ${options} (known: 1, 2, 4, 8)`);
  const records: LinkRecord[] = [];
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const at = `link ${i}`;
    const size = u64(r, `${at}'s byte count`, MAX_LINK_BYTES);
    const bits = u64(r, `${at}'s bit count`, MAX_LINK_BYTES * 8);
    const linkItems = u64(r, `${at}'s item count`, Number.MAX_SAFE_INTEGER);
    const error = r.f64(`${at}'s error rate`);
    const bpe = r.f64(`${at}'s bits per entry`);
    const hashes = r.u32(`${at}'s hash count`);
    const entries = u64(r, `${at}'s capacity`, Number.MAX_SAFE_INTEGER);
    const n2 = r.u8(`${at}'s n2`);
    if (bits === 0 || size === 0) throw formatError(WHERE, `${at} has 0 bits`);
    if (bits !== size * 8) throw formatError(WHERE, `${at} has ${bits} bits for ${size} bytes (must be 8 per byte)`);
    if (!(error > 0 && error < 1)) throw formatError(WHERE, `${at}'s error rate is ${describe(error)}, not in (0, 1)`);
    if (!(Number.isFinite(bpe) && bpe > 0)) throw formatError(WHERE, `${at}'s bits per entry is ${describe(bpe)}`);
    if (hashes !== Math.ceil(LN2 * bpe)) {
      throw formatError(
        WHERE,
        `${at} has ${hashes} hashes, but its bits per entry ${bpe} means ${Math.ceil(LN2 * bpe)}`,
      );
    }
    if (hashes > MAX_DUMP_HASHES)
      throw formatError(WHERE, `${at} has ${hashes} hashes, above the ${MAX_DUMP_HASHES} accepted`);
    if (n2 > 63) throw formatError(WHERE, `${at}'s n2 is ${n2}, above 63`);
    if (n2 > 0 && 2 ** n2 > bits) throw formatError(WHERE, `${at}'s n2 ${n2} needs 2^${n2} bits, it has ${bits}`);
    sum += linkItems;
    records.push({ bytes: size, bits, items: linkItems, error, bpe, hashes, entries, n2 });
  }
  if (sum !== items) throw formatError(WHERE, `the header counts ${items} items, its links ${sum}`);
  return { items, options, growth, records };
}

/** A write of `data` at `offset` into link `link`, waiting for the end of the dump. */
interface Write {
  link: number;
  offset: number;
  data: Uint8Array;
}

/**
 * Reads a dump: the BF.LOADCHUNK sequence. Chunks may come in any order and overlap (later writes
 * win, as in RedisBloom), but together they must deliver every byte of every link.
 */
export function loadChain(chunks: Iterable<readonly [number, Uint8Array]>): ChainParts {
  let header: ReturnType<typeof readHeader> | undefined;
  let starts: number[] = [];
  let total = 0;
  const writes: Write[] = [];
  let n = 0;
  for (const pair of chunks) {
    const where = `chunk ${n++}`;
    if (pair === null || typeof pair !== "object") {
      throw new TypeError(`redstruct/${WHERE}: ${where} must be an [iterator, bytes] pair, got ${describe(pair)}`);
    }
    const iterator = pair[0];
    const data = pair[1];
    if (typeof iterator !== "number") {
      throw new TypeError(`redstruct/${WHERE}: ${where}'s iterator must be a number, got ${describe(iterator)}`);
    }
    if (!(data instanceof Uint8Array)) {
      throw new TypeError(
        `redstruct/${WHERE}: ${where}'s bytes must be a Uint8Array, got ${describe(data)}` +
          (typeof data === "string" ? " (read BF.SCANDUMP replies as bytes, not text: ioredis callBuffer)" : ""),
      );
    }
    checkBytes(WHERE, `${where}'s bytes`, data);
    if (header === undefined) {
      if (iterator !== 1)
        throw formatError(
          WHERE,
          `the first chunk must be the header, at iterator 1, got iterator ${describe(iterator)}`,
        );
      header = readHeader(data);
      starts = [];
      for (const rec of header.records) {
        starts.push(total);
        total += rec.bytes;
      }
      continue;
    }
    const place = placeChunk(CHUNK_TERMS, where, iterator, data, starts, total);
    writes.push({ link: place.part, offset: place.offset, data: place.data });
  }
  if (header === undefined) throw formatError(WHERE, "the dump is empty: no header chunk");
  checkCoverage(header.records, writes);
  const links = header.records.map((rec) => {
    const data = new Uint8Array(rec.bytes);
    return new Link(data, rec.bits, rec.items, rec.error, rec.bpe, rec.hashes, rec.entries, rec.n2);
  });
  for (const w of writes) links[w.link]!.data.set(w.data, w.offset);
  return { links, items: header.items, options: header.options, growth: header.growth };
}

/** Throws unless the writes cover every byte of every link. O(W log W). */
function checkCoverage(records: readonly LinkRecord[], writes: readonly Write[]): void {
  const sorted = writes.filter((w) => w.data.length > 0).sort((x, y) => x.link - y.link || x.offset - y.offset);
  let i = 0;
  for (let link = 0; link < records.length; link++) {
    let covered = 0;
    for (; i < sorted.length && sorted[i]!.link === link; i++) {
      const w = sorted[i]!;
      if (w.offset > covered) break;
      covered = Math.max(covered, w.offset + w.data.length);
    }
    if (covered < records[link]!.bytes) {
      throw formatError(
        WHERE,
        `incomplete dump: bytes from ${covered} of link ${link} (${records[link]!.bytes} bytes) were never delivered`,
      );
    }
    while (i < sorted.length && sorted[i]!.link === link) i++;
  }
}

/** redstruct's single-buffer form of a chain (see the module comment). Copies every byte. */
export function chainToBytes(chain: ChainParts): Uint8Array {
  let size = 5 + HEADER_FIXED + LINK_RECORD * chain.links.length;
  for (const link of chain.links) size += link.data.length;
  const w = new ByteWriter(size);
  w.magic(MAGIC).u8(VERSION);
  writeHeader(w, chain);
  for (const link of chain.links) w.raw(link.data);
  return w.finish();
}

/**
 * Reads {@link chainToBytes}'s form: the header with every check of a dump's, then exactly the bytes
 * it declares, copied. Allocates only after the length is known to match.
 */
export function chainFromBytes(bytes: Uint8Array): ChainParts {
  const r = new ByteReader(bytes, WHERE);
  r.header(MAGIC, VERSION);
  r.need(HEADER_FIXED, "the dump header");
  const count = new DataView(bytes.buffer, bytes.byteOffset + r.offset + 8, 4).getUint32(0, true);
  const header = readHeader(r.view(HEADER_FIXED + LINK_RECORD * count, "the dump header"));
  let total = 0;
  for (const rec of header.records) total += rec.bytes;
  if (r.remaining !== total) {
    throw formatError(WHERE, `the header declares ${total} bytes of links, ${r.remaining} follow it`);
  }
  const links = header.records.map(
    (rec) =>
      new Link(
        new Uint8Array(r.view(rec.bytes, "the links")), // a copy, also of a Node Buffer (whose slice() is a view)
        rec.bits,
        rec.items,
        rec.error,
        rec.bpe,
        rec.hashes,
        rec.entries,
        rec.n2,
      ),
  );
  r.end();
  return { links, items: header.items, options: header.options, growth: header.growth };
}
