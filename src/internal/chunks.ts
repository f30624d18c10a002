/**
 * Placing the data chunks of a `*.SCANDUMP` reply: RedisBloom numbers each chunk by the position
 * one past its last byte in the concatenation of the structure's parts (links of a Bloom chain,
 * sub-filters of a cuckoo filter), so a chunk of `n` bytes at position `p` starts at byte
 * `p − n − 1`, and it never crosses from one part into the next. The Bloom and cuckoo loaders share
 * this reading; what they do with overlapping or missing chunks is theirs.
 */
import { formatError } from "./errors.js";

/** A chunk's place: the part it lies in, its offset inside that part, and a copy of its bytes. */
interface ChunkPlace {
  part: number;
  offset: number;
  data: Uint8Array;
}

/** How a loader names things in its messages. */
interface ChunkTerms {
  /** The structure, for the message prefix ("RedisBloomFilter"). */
  where: string;
  /** What the number of a chunk is called ("iterator", "position"). */
  position: string;
  /** What a part is called ("link", "sub-filter"). */
  part: string;
}

/**
 * Where chunk `at` (its number `position`, its bytes `data`) goes among the parts that start at
 * `starts` (ascending, the first 0) and end at `total`. Copies `data` — a plain copy: a Node
 * `Buffer`'s `slice()` is a view — because the caller may reuse the chunk's buffer once its iterator
 * moves on. O(log parts + bytes).
 * @throws RedstructFormatError when the chunk would start before byte 0 (a second header, a wrong
 *   number) or past the end, or runs past the end of its part. (An empty chunk inside the parts is
 *   placed: whether it is allowed is the loader's rule.)
 */
export function placeChunk(
  terms: ChunkTerms,
  at: string,
  position: number,
  data: Uint8Array,
  starts: readonly number[],
  total: number,
): ChunkPlace {
  const { where, part } = terms;
  if (!Number.isSafeInteger(position) || position < 1) {
    throw formatError(where, `${at} has ${terms.position} ${position}, not a positive integer`);
  }
  const start = position - data.length - 1;
  if (start < 0) {
    throw formatError(
      where,
      `${at} (${terms.position} ${position}, ${data.length} bytes) would start at byte ${start}: a second header or a wrong ${terms.position}`,
    );
  }
  if (start >= total)
    throw formatError(where, `${at} starts at byte ${start}, past the ${total} bytes of the ${part}s`);
  // The part holding `start`: the last start ≤ it (a binary search: a header may declare many parts).
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= start) lo = mid;
    else hi = mid - 1;
  }
  const end = lo + 1 < starts.length ? starts[lo + 1]! : total;
  if (start + data.length > end) {
    throw formatError(
      where,
      `${at} (${terms.position} ${position}) runs ${start + data.length - end} bytes past ${part} ${lo}`,
    );
  }
  return { part: lo, offset: start - starts[lo]!, data: new Uint8Array(data) };
}
