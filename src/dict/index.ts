/**
 * `redstruct/dict` — a Map-compatible hash table with Redis's progressive rehashing, SCAN cursors
 * and keyed (flood-resistant) hashing.
 * @module
 */
import { Dict as DictClass, type DictConstructor } from "./dict.js";
import type { DictKey } from "./hash.js";

export { RedstructFormatError } from "../internal/errors.js";

export type {
  DictFromBytesOptions,
  DictFromRedisOptions,
  DictInfo,
  DictOptions,
  DictToBytesOptions,
  DictToRedisOptions,
} from "./dict.js";
export type { DictKey } from "./hash.js";

/**
 * A hash table with the `Map` interface whose worst single operation is bounded: it grows and
 * shrinks by migrating one bucket per operation, as Redis does, instead of rehashing everything
 * at once, and it has no 2^24-entry cap.
 */
export type Dict<K extends DictKey = DictKey, V = unknown> = DictClass<K, V>;
/**
 * The {@link Dict} class, typed so that `new Dict(entries)` infers its types as `new Map(entries)` does.
 * @class
 */
export const Dict: DictConstructor = DictClass;
