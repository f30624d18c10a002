/**
 * `redstruct/idgen` — ID generators: Twitter-style snowflakes (with Discord and Sonyflake presets)
 * and the timestamp + daily counter ID built on Redis INCR.
 * @module
 */
export { type Clock, ClockError, type ElapsedClock } from "./clock.js";
export {
  SNOWFLAKE_PRESETS,
  type SnowflakeLayout,
  type SnowflakePreset,
  type SnowflakePresetDefinition,
} from "./layout.js";
export {
  Snowflake,
  type SnowflakeDecodeOptions,
  type SnowflakeOptions,
  type SnowflakeParts,
} from "./snowflake.js";
export {
  type CounterResult,
  type CounterValue,
  type DayCounter,
  type IdResult,
  TimestampCounterId,
  type TimestampCounterIdOptions,
  type TimestampCounterParts,
} from "./timestamp-counter.js";
