/**
 * Snowflake layouts: how the bits of a 64-bit ID are split between time and origin, the presets
 * (Twitter, Discord, Sonyflake), their validation, and the parsing of IDs given as bigint or
 * decimal string. Shared by {@link Snowflake} and its static `decode` / `compare`.
 *
 * Bit order, most significant first (the sign bit of a 63-bit layout stays 0):
 *
 *   order "machine-sequence" (Twitter, Discord): timestamp | datacenter | worker | sequence
 *   order "sequence-machine" (Sonyflake):        timestamp | sequence   | datacenter | worker
 *
 * Either way the timestamp is on top, so IDs sort by time, and within one tick of one generator
 * they sort by sequence. The bits below the timestamp are limited to 32 so that the part that
 * changes on every call (the sequence, shifted) is a plain number and the per-call work needs no
 * BigInt arithmetic but one addition (see snowflake.ts).
 */
import { checkInteger, rangeError, typeError } from "../internal/errors.js";
import { checkOptions } from "../internal/options.js";

const LAYOUT_KEYS: readonly (keyof SnowflakeLayout)[] = [
  "timestampBits",
  "datacenterBits",
  "workerBits",
  "sequenceBits",
  "unitMs",
  "order",
];

/** A snowflake bit layout. Sizes are bit counts; `timestampBits + datacenterBits + workerBits + sequenceBits ≤ 64`. */
export interface SnowflakeLayout {
  /** Bits of the time field (41 for Twitter, 42 for Discord, 39 for Sonyflake). */
  readonly timestampBits: number;
  /** Bits of the datacenter id (5 for Twitter; 0 for Sonyflake). */
  readonly datacenterBits: number;
  /** Bits of the worker id (5 for Twitter; 16 for Sonyflake's machine id). */
  readonly workerBits: number;
  /** Bits of the per-tick sequence: at most 2^sequenceBits IDs per tick per generator. */
  readonly sequenceBits: number;
  /**
   * Milliseconds per time unit.
   * @defaultValue 1 (Sonyflake uses 10)
   */
  readonly unitMs?: number;
  /**
   * Order of the fields below the timestamp.
   * @defaultValue "machine-sequence" (Twitter); Sonyflake uses "sequence-machine"
   */
  readonly order?: "machine-sequence" | "sequence-machine";
}

/** Names of the built-in layouts. */
export type SnowflakePreset = "twitter" | "discord" | "sonyflake";

/** A preset: a layout and the epoch (Unix milliseconds) that goes with it. */
export interface SnowflakePresetDefinition {
  /** Unix milliseconds that timestamp 0 stands for. */
  readonly epoch: number;
  /** The preset's field widths and order. */
  readonly layout: Required<SnowflakeLayout>;
}

/**
 * The built-in layouts.
 * - `twitter`: 41-bit ms | 5-bit datacenter | 5-bit worker | 12-bit sequence, epoch 2010-11-04T01:42:54.657Z
 *   (1288834974657). 63 bits, the sign bit stays 0; lifetime 69.7 years (until 2080).
 * - `discord`: 42-bit ms | 5-bit worker ("datacenter" here) | 5-bit process ("worker") | 12-bit increment,
 *   epoch 2015-01-01 (1420070400000). 64 bits, unsigned; lifetime 139 years.
 * - `sonyflake`: 39-bit time in 10 ms units | 8-bit sequence | 16-bit machine id (the worker id here),
 *   epoch 2014-09-01 (1409529600000). 63 bits; lifetime 174 years; 256 IDs per 10 ms.
 */
export const SNOWFLAKE_PRESETS: Readonly<Record<SnowflakePreset, SnowflakePresetDefinition>> = Object.freeze({
  twitter: Object.freeze({
    epoch: 1288834974657,
    layout: Object.freeze({
      timestampBits: 41,
      datacenterBits: 5,
      workerBits: 5,
      sequenceBits: 12,
      unitMs: 1,
      order: "machine-sequence" as const,
    }),
  }),
  discord: Object.freeze({
    epoch: 1420070400000,
    layout: Object.freeze({
      timestampBits: 42,
      datacenterBits: 5,
      workerBits: 5,
      sequenceBits: 12,
      unitMs: 1,
      order: "machine-sequence" as const,
    }),
  }),
  sonyflake: Object.freeze({
    epoch: 1409529600000,
    layout: Object.freeze({
      timestampBits: 39,
      datacenterBits: 0,
      workerBits: 16,
      sequenceBits: 8,
      unitMs: 10,
      order: "sequence-machine" as const,
    }),
  }),
});

/** The largest Unix millisecond a `Date` can hold (±8.64e15, ECMA-262 §21.4.1.1). */
export const MAX_DATE_MS = 8.64e15;

/** A validated layout with every shift precomputed. @internal */
export interface ResolvedLayout {
  readonly layout: Required<SnowflakeLayout>;
  readonly epoch: number;
  readonly unitMs: number;
  /** Bits below the timestamp (≤ 32). */
  readonly lowBits: number;
  readonly totalBits: number;
  readonly sequenceShift: number;
  readonly workerShift: number;
  readonly datacenterShift: number;
  /** 2^timestampBits: the first tick that does not fit. */
  readonly tickLimit: number;
  /** 2^totalBits as a bigint: every valid ID is below it. */
  readonly idLimit: bigint;
}

/** Validates a layout and an epoch, and precomputes the shifts. @internal */
export function resolveLayout(where: string, layoutOption: unknown, epochOption: unknown): ResolvedLayout {
  let layout: Required<SnowflakeLayout>;
  let defaultEpoch = SNOWFLAKE_PRESETS.twitter.epoch;
  if (layoutOption === undefined) {
    layout = SNOWFLAKE_PRESETS.twitter.layout;
  } else if (typeof layoutOption === "string") {
    const preset = Object.hasOwn(SNOWFLAKE_PRESETS, layoutOption)
      ? SNOWFLAKE_PRESETS[layoutOption as SnowflakePreset]
      : undefined;
    if (!preset)
      throw rangeError(where, "layout", layoutOption, `one of "twitter", "discord", "sonyflake" or an object`);
    layout = preset.layout;
    defaultEpoch = preset.epoch;
  } else if (typeof layoutOption === "object" && layoutOption !== null && !Array.isArray(layoutOption)) {
    const l = checkOptions(where, layoutOption as SnowflakeLayout, LAYOUT_KEYS, "layout");
    const timestampBits = checkInteger(where, "layout.timestampBits", l.timestampBits, 1, 63);
    const datacenterBits = checkInteger(where, "layout.datacenterBits", l.datacenterBits, 0, 31);
    const workerBits = checkInteger(where, "layout.workerBits", l.workerBits, 0, 31);
    const sequenceBits = checkInteger(where, "layout.sequenceBits", l.sequenceBits, 1, 31);
    const unitMs = checkInteger(where, "layout.unitMs", l.unitMs === undefined ? 1 : l.unitMs, 1, 86_400_000);
    const order: unknown = l.order === undefined ? "machine-sequence" : l.order;
    if (typeof order !== "string") {
      throw typeError(where, "layout.order", order, `"machine-sequence" or "sequence-machine"`);
    }
    if (order !== "machine-sequence" && order !== "sequence-machine") {
      throw rangeError(where, "layout.order", order, `"machine-sequence" or "sequence-machine"`);
    }
    const lowBits = datacenterBits + workerBits + sequenceBits;
    if (lowBits > 32) {
      throw rangeError(where, "layout", `${lowBits} bits below the timestamp`, "at most 32 bits below the timestamp");
    }
    if (timestampBits + lowBits > 64) {
      throw rangeError(where, "layout", `${timestampBits + lowBits} bits in all`, "at most 64 bits in all");
    }
    layout = Object.freeze({ timestampBits, datacenterBits, workerBits, sequenceBits, unitMs, order });
  } else {
    throw typeError(where, "layout", layoutOption, `"twitter", "discord", "sonyflake" or a layout object`);
  }

  let epoch: number;
  if (epochOption === undefined) epoch = defaultEpoch;
  else if (epochOption instanceof Date) epoch = checkInteger(where, "epoch", epochOption.getTime(), 0, MAX_DATE_MS);
  else epoch = checkInteger(where, "epoch", epochOption, 0, MAX_DATE_MS);

  const tickLimit = 2 ** layout.timestampBits;
  // The decoded timestamp of the last tick must still be a valid Date.
  if (epoch + tickLimit * layout.unitMs > MAX_DATE_MS) {
    throw rangeError(
      where,
      "epoch",
      epoch,
      `such that epoch + 2^${layout.timestampBits} × ${layout.unitMs} ms ≤ ${MAX_DATE_MS} (the largest Date)`,
    );
  }
  const machineFirst = layout.order === "machine-sequence";
  const lowBits = layout.datacenterBits + layout.workerBits + layout.sequenceBits;
  return {
    layout,
    epoch,
    unitMs: layout.unitMs,
    lowBits,
    totalBits: layout.timestampBits + lowBits,
    sequenceShift: machineFirst ? 0 : layout.datacenterBits + layout.workerBits,
    workerShift: machineFirst ? layout.sequenceBits : 0,
    datacenterShift: machineFirst ? layout.sequenceBits + layout.workerBits : layout.workerBits,
    tickLimit,
    idLimit: 1n << BigInt(layout.timestampBits + lowBits),
  };
}

/** Canonical unsigned decimal: "0" or digits without a leading zero, at most 20 digits (2^64 has 20). */
const DECIMAL = /^(?:0|[1-9][0-9]{0,19})$/;

/**
 * Converts an ID given as bigint or canonical decimal string to a bigint in [0, limit).
 * @throws TypeError for other types, RangeError for malformed strings or out-of-range values.
 * @internal
 */
export function parseId(where: string, param: string, id: unknown, limit: bigint): bigint {
  let value: bigint;
  if (typeof id === "bigint") value = id;
  else if (typeof id === "string") {
    if (!DECIMAL.test(id)) throw rangeError(where, param, id, "a decimal string without sign or leading zeros");
    value = BigInt(id);
  } else {
    throw typeError(where, param, id, "a bigint or a decimal string (IDs pass 2^53, so never a number)");
  }
  if (value < 0n || value >= limit) throw rangeError(where, param, id, `an integer in [0, ${limit - 1n}]`);
  return value;
}

/**
 * Orders two IDs (bigint or canonical decimal strings, mixed allowed) numerically. For canonical
 * strings the comparison is by length, then by characters, with no BigInt conversion.
 * @internal
 */
export function compareIds(where: string, a: unknown, b: unknown): -1 | 0 | 1 {
  if (typeof a === "bigint" && typeof b === "bigint") return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === "string" && typeof b === "string") {
    if (!DECIMAL.test(a)) throw rangeError(where, "a", a, "a decimal string without sign or leading zeros");
    if (!DECIMAL.test(b)) throw rangeError(where, "b", b, "a decimal string without sign or leading zeros");
    if (a.length !== b.length) return a.length < b.length ? -1 : 1;
    return a === b ? 0 : a < b ? -1 : 1;
  }
  const x = parseId(where, "a", a, 1n << 64n);
  const y = parseId(where, "b", b, 1n << 64n);
  return x === y ? 0 : x < y ? -1 : 1;
}
