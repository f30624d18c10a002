/**
 * `redstruct/cuckoo` — a cuckoo filter exact with RedisBloom's CF.* commands: add, delete, count,
 * growth, compaction and CF.SCANDUMP / CF.LOADCHUNK chunks byte for byte.
 * @module
 */
export { RedstructFormatError } from "../internal/errors.js";
export {
  CUCKOO_MAX_FILTERS,
  CUCKOO_MAX_SLOTS,
  type CuckooAddOptions,
  CuckooFilter,
  type CuckooFilterInfo,
  type CuckooFilterOptions,
} from "./filter.js";
