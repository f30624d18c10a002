/**
 * `redstruct/cms` — a Count-Min sketch exact with RedisBloom's CMS.* commands.
 * @module
 */
export { RedstructFormatError } from "../internal/errors.js";
export {
  CMS_MAX_COUNTERS,
  CMS_SATURATED,
  CountMinSketch,
  type CountMinSketchInfo,
  cmsDimensions,
} from "./sketch.js";
