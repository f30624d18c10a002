/**
 * `redstruct/tdigest` — a t-digest exact with RedisBloom's TDIGEST.* commands: the same quantiles,
 * CDFs, ranks and trimmed means, and a key's `DUMP` payload in and out.
 * @module
 */
export { RedstructFormatError } from "../internal/errors.js";
export { TDIGEST_MAX_COMPRESSION, TDigest, type TDigestInfo, type TDigestOptions } from "./digest.js";
