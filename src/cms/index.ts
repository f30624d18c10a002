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
  type CountMinSketchOptions,
  type CountMinSketchUnionOptions,
  cmsDimensions,
} from "./sketch.js";
