/**
 * `redstruct/dict` — a Map-compatible hash table with Redis's progressive rehashing, SCAN cursors
 * and keyed (flood-resistant) hashing.
 * @module
 */
export { Dict, type DictOptions, type DictStats } from "./dict.js";
export type { DictKey } from "./hash.js";
