/**
 * redstruct — Redis's data-structure algorithms for browsers and Node, with no Redis server.
 *
 * The root re-exports every subpath: `redstruct/hash`, `redstruct/hll`, `redstruct/bloom`,
 * `redstruct/cuckoo`, `redstruct/cms`, `redstruct/topk`, `redstruct/tdigest`, `redstruct/skiplist`,
 * `redstruct/geo`, `redstruct/dict`, `redstruct/idgen`, `redstruct/bitmap`; and
 * {@link RedstructFormatError}, which every subpath that reads serialized input exports too.
 * @module redstruct
 */

export * from "./bitmap/index.js";
export * from "./bloom/index.js";
export * from "./cms/index.js";
export * from "./cuckoo/index.js";
export * from "./dict/index.js";
export * from "./geo/index.js";
export * from "./hash/index.js";
export * from "./hll/index.js";
export * from "./idgen/index.js";
/** @primaryExport */
export { RedstructFormatError } from "./internal/errors.js";
export * from "./skiplist/index.js";
export * from "./tdigest/index.js";
export * from "./topk/index.js";
