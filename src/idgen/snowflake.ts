/**
 * Snowflake IDs: 64-bit, time-ordered, unique across workers without coordination.
 *
 * Algorithm (Twitter's Snowflake, 2010; the same scheme as Discord's IDs, Sonyflake and Meituan's
 * Leaf-snowflake): an ID is `tick << lowBits | datacenter | worker | sequence` where `tick` is the
 * time since a custom epoch in units of `unitMs` (1 ms by default). Within one tick a generator
 * numbers its IDs 0, 1, 2, … in the sequence field; when the sequence is exhausted (4096 IDs in one
 * millisecond with the default 12 bits) it waits for the next tick — it never wraps, which is how
 * generators that wrap (e.g. @sapphire/snowflake) produce duplicates. See layout.ts for the bit
 * layouts and the presets.
 *
 * Memory layout: a handful of numeric fields, plus the current tick's base — `tick << lowBits |
 * machine bits` — as one bigint, computed once per tick, and a table of the sequence field's values
 * as bigints (shared, 4096 entries). The hot path reads the clock, compares the tick with the last
 * one and bumps the sequence, all on plain numbers; the only BigInt work per ID is the final
 * `base + table[sequence]`, the allocation of the returned value: BigInt arithmetic on every field
 * per call would allocate several bigints per ID, and the clock read already dominates the cost.
 * `nextString()` never touches a BigInt per call: the base is split once per tick into
 * `high · 10^9 + low` (numbers); the string is `high`, the top six of the nine digits of
 * `low + sequence` (cached, they change every 1000 IDs at most) and the last three from a table.
 *
 * Invariants: `lastTick` is -1 (nothing issued yet) or in [0, 2^timestampBits); the sequence is in
 * [0, 2^sequenceBits − 1] and is the last one issued in `lastTick`; `base` is the base of
 * `lastTick`. `lastTick` never decreases and (lastTick, sequence) strictly increases with every ID
 * issued, so IDs of one generator strictly increase and never repeat; IDs of generators with
 * distinct (datacenter, worker) pairs differ in those bits.
 *
 * Clock policy: when the wall clock reads a tick earlier than the last one, `onClockBackwards:
 * "throw"` (the default, like Twitter's) throws a {@link ClockError} at once; `"wait"` (like
 * Leaf's) spins until the clock is back in the last tick, if that is at most `maxWaitMs` away,
 * and throws otherwise. Every wait — for a backward clock or for the next tick after the sequence
 * is exhausted — is bounded by `maxWaitMs + unitMs` of real time, measured by the monotonic
 * `elapsed` clock (performance.now unless injected) and, as a backstop, by the least time the
 * pauses between polls can have taken; so a clock that stalls or never catches up produces an
 * error, never a hang and never a duplicate.
 *
 * Cost: `next()` O(1), one clock read, one bigint allocated; `nextString()` O(1), one clock read, a
 * short string built; a new tick costs two BigInt operations more. Waiting (at most one tick when
 * the sequence is exhausted) polls the clock, sleeping ~0.1 ms between polls with `Atomics.wait`
 * where the thread may block (Node, workers) and spinning where it may not (a browser's main
 * thread, which is then blocked for up to one tick); see clock.ts. `Date.now()` — the default
 * clock — advances every millisecond in browsers too; it is `performance.now()` they coarsen.
 */
import { checkFinite, checkInteger, invariantFailure, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkOptions } from "../internal/options.js";
import {
  type Clock,
  ClockError,
  checkClock,
  checkElapsedClock,
  checkElapsedReading,
  type ElapsedClock,
  pauseForClock,
} from "./clock.js";
import {
  compareIds,
  parseId,
  type ResolvedLayout,
  resolveLayout,
  type SnowflakeLayout,
  type SnowflakePreset,
} from "./layout.js";

const WHERE = "Snowflake";

/** Options of {@link Snowflake}. */
export interface SnowflakeOptions {
  /**
   * Start of time for the timestamp field, Unix milliseconds (or a Date).
   * @defaultValue the preset's epoch; Twitter's 1288834974657 when `layout` is not a preset name
   */
  epoch?: number | Date;
  /**
   * Datacenter id, an integer in [0, 2^datacenterBits − 1].
   * @defaultValue 0
   */
  datacenterId?: number;
  /**
   * Worker id, an integer in [0, 2^workerBits − 1] (Sonyflake's 16-bit machine id).
   * @defaultValue 0
   */
  workerId?: number;
  /**
   * Bit layout: a preset name or a {@link SnowflakeLayout}.
   * @defaultValue "twitter" (41/5/5/12)
   */
  layout?: SnowflakeLayout | SnowflakePreset;
  /**
   * Wall clock returning Unix milliseconds, for tests.
   * @defaultValue Date.now
   */
  clock?: Clock;
  /**
   * What to do when the clock reads earlier than the last ID's tick: `"throw"` a {@link ClockError}
   * at once (Twitter), or `"wait"` for the clock to catch up if it is at most `maxWaitMs` behind (Leaf).
   * @defaultValue "throw"
   */
  onClockBackwards?: "throw" | "wait";
  /**
   * Bound on any one wait, in real milliseconds beyond one tick: how far behind a backward clock may
   * be under `"wait"`, and how long the generator waits for a stalled clock to reach the next tick
   * once the sequence is exhausted. Past it, `next()` throws a {@link ClockError}. In [0, 60000].
   * @defaultValue 5 (Leaf's bound)
   */
  maxWaitMs?: number;
  /**
   * Monotonic clock in milliseconds (any origin, never decreasing) that measures how long a wait
   * has lasted, for tests: with a fake one, whether a wait gives up does not depend on the
   * machine's speed. Read only while waiting.
   * @defaultValue performance.now
   */
  elapsed?: ElapsedClock;
}

const OPTION_KEYS: readonly (keyof SnowflakeOptions)[] = [
  "epoch",
  "datacenterId",
  "workerId",
  "layout",
  "clock",
  "onClockBackwards",
  "maxWaitMs",
  "elapsed",
];
const DECODE_OPTION_KEYS: readonly (keyof SnowflakeDecodeOptions)[] = ["epoch", "layout"];

/** The fields of a decoded snowflake. */
export interface SnowflakeParts {
  /** Unix milliseconds at the start of the ID's tick. */
  timestamp: number;
  /** `timestamp` as a Date. */
  date: Date;
  /** The datacenter field. */
  datacenterId: number;
  /** The worker field. */
  workerId: number;
  /** The ID's position among those minted in its tick (0 for the first). */
  sequence: number;
}

/** Options of the static {@link Snowflake.decode}: the layout and epoch the ID was minted with. */
export type SnowflakeDecodeOptions = Pick<SnowflakeOptions, "epoch" | "layout">;

const BILLION = 1_000_000_000;
const BILLION_BIG = 1_000_000_000n;
/** "000" … "999": the last three digits of a decimal ID, shared by every string `nextString()` returns. */
const THREE_DIGITS: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i + 1000).slice(1));

/**
 * A snowflake ID generator: strictly increasing 64-bit IDs, at most 2^sequenceBits per tick, that
 * decode back into their time and origin.
 */
export class Snowflake {
  readonly #layout: ResolvedLayout;
  readonly #clock: Clock;
  readonly #elapsed: ElapsedClock;
  readonly #epoch: number;
  readonly #unitMs: number;
  readonly #tickLimit: number;
  readonly #sequenceMax: number;
  /** 2^sequenceShift: multiplying keeps sequence × shift a non-negative number even at 32 low bits. */
  readonly #sequenceScale: number;
  /** `sequence << sequenceShift` as bigints for the first 4096 sequences (see {@link sequenceBigints}). */
  readonly #sequenceBigints: readonly bigint[];
  readonly #lowBitsBig: bigint;
  readonly #machineBig: bigint;
  readonly #datacenterId: number;
  readonly #workerId: number;
  readonly #waitOnBackwards: boolean;
  readonly #maxWaitMs: number;

  /** True while a clock this generator called is running (see {@link #advance}). */
  #minting = false;
  #lastTick = -1;
  /** Starts "exhausted" so that the first call takes the slow path, which validates the clock. */
  #sequence: number;
  #base = 0n;
  // nextString's split of #base as #high · 10^9 + #low, valid while #stringTick === #lastTick.
  #stringTick = -1;
  #high = 0;
  #highText = "";
  #low = 0;
  // #highText followed by the top six of the nine low digits, for the IDs whose low part / 1000 is #prefixTop.
  #prefixTop = -1;
  #prefix = "";

  /**
   * Creates a generator. Validates every option: an unknown key (`workerID`), `null`, or a value of
   * the wrong type or range is a TypeError / RangeError naming the option. Complexity: O(1); reads
   * no clock.
   */
  constructor(options?: SnowflakeOptions) {
    const o = checkOptions(WHERE, options, OPTION_KEYS);
    const resolved = resolveLayout(WHERE, o.layout, o.epoch);
    const { layout } = resolved;
    this.#layout = resolved;
    this.#clock = checkClock(WHERE, o.clock);
    this.#elapsed = checkElapsedClock(WHERE, o.elapsed);
    this.#epoch = resolved.epoch;
    this.#unitMs = resolved.unitMs;
    this.#tickLimit = resolved.tickLimit;
    this.#sequenceMax = 2 ** layout.sequenceBits - 1;
    this.#sequence = this.#sequenceMax;
    this.#sequenceScale = 2 ** resolved.sequenceShift;
    this.#sequenceBigints = sequenceBigints(layout.sequenceBits, this.#sequenceScale);
    this.#lowBitsBig = BigInt(resolved.lowBits);
    // Only `undefined` takes the default: `null` is refused by the checks, as any wrong type.
    this.#datacenterId = checkInteger(
      WHERE,
      "datacenterId",
      o.datacenterId === undefined ? 0 : o.datacenterId,
      0,
      2 ** layout.datacenterBits - 1,
    );
    this.#workerId = checkInteger(
      WHERE,
      "workerId",
      o.workerId === undefined ? 0 : o.workerId,
      0,
      2 ** layout.workerBits - 1,
    );
    this.#machineBig = BigInt(
      this.#datacenterId * 2 ** resolved.datacenterShift + this.#workerId * 2 ** resolved.workerShift,
    );
    const policy: unknown = o.onClockBackwards === undefined ? "throw" : o.onClockBackwards;
    if (typeof policy !== "string") throw typeError(WHERE, "onClockBackwards", policy, `"throw" or "wait"`);
    if (policy !== "throw" && policy !== "wait") {
      throw rangeError(WHERE, "onClockBackwards", policy, `"throw" or "wait"`);
    }
    this.#waitOnBackwards = policy === "wait";
    const maxWaitMs = checkFinite(WHERE, "maxWaitMs", o.maxWaitMs === undefined ? 5 : o.maxWaitMs);
    if (maxWaitMs < 0 || maxWaitMs > 60_000) throw rangeError(WHERE, "maxWaitMs", maxWaitMs, "in [0, 60000]");
    this.#maxWaitMs = maxWaitMs;
  }

  // ---------------------------------------------------------------------------------------------
  // Minting
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns the next ID as a bigint, strictly greater than every ID this generator issued before.
   * Complexity: O(1) — one clock read and one bigint allocation; when the tick's sequence is
   * exhausted it busy-waits for the next tick (under one tick of real time with a sane clock).
   * Side effects: advances the sequence.
   * @throws ClockError when the clock is behind the last tick (see `onClockBackwards`), stalls, or
   *   calls back into this generator.
   * @throws RangeError when the clock is before the epoch or past the layout's lifetime
   *   (`lifetimeEnd`), TypeError / RangeError when the clock returns something other than a finite number.
   */
  next(): bigint {
    const sequence = this.#advance();
    const table = this.#sequenceBigints;
    return this.#base + (sequence < table.length ? table[sequence]! : BigInt(sequence * this.#sequenceScale));
  }

  /**
   * Returns the next ID as a decimal string (JSON-safe, since IDs pass 2^53), the same value
   * {@link next} would have returned. Decimal strings of one layout compare correctly with
   * {@link Snowflake.compare} (by length, then characters), not with plain `<` on strings.
   * Complexity: O(1), no BigInt arithmetic per call. Side effects and errors: as {@link next}.
   */
  nextString(): string {
    const sequence = this.#advance();
    if (this.#stringTick !== this.#lastTick) this.#splitBase();
    const low = this.#low + sequence * this.#sequenceScale;
    if (this.#high === 0) return String(low);
    if (low < BILLION) {
      // high, then the nine digits of `low` as six (cached: they change every 1000 IDs at most)
      // and three from a table — one string allocated per call.
      const top = Math.floor(low / 1000);
      if (top !== this.#prefixTop) {
        this.#prefixTop = top;
        // `top + 1e6` has seven digits: dropping the leading 1 gives the zero-padded six.
        this.#prefix = this.#highText + String(top + 1_000_000).slice(1);
      }
      return this.#prefix + THREE_DIGITS[low - top * 1000]!;
    }
    return String(this.#high + Math.floor(low / BILLION)) + String((low % BILLION) + BILLION).slice(1);
  }

  /**
   * Bumps the sequence, or starts a new tick; returns the sequence of the ID to issue. A clock that
   * calls back into this generator would recurse until the stack overflows, or mint inside a
   * half-made ID: it gets a ClockError instead.
   */
  #advance(): number {
    if (this.#minting) {
      throw new ClockError(
        `redstruct/${WHERE}: clock() or elapsed() called next()/nextString() of the generator that is reading it; a clock must only read the time`,
        "reentered",
        0,
      );
    }
    this.#minting = true;
    try {
      return this.#advanceFast();
    } finally {
      this.#minting = false;
    }
  }

  #advanceFast(): number {
    const now: unknown = this.#clock();
    // The type test comes first: arithmetic on a bigint, a symbol or an object reading would throw
    // the engine's own message instead of one naming clock().
    if (
      typeof now === "number" &&
      Math.floor((now - this.#epoch) / this.#unitMs) === this.#lastTick &&
      this.#sequence < this.#sequenceMax
    ) {
      return ++this.#sequence;
    }
    return this.#advanceSlow(now);
  }

  /** A new tick, an exhausted sequence, a backward or invalid clock: everything but the common case. */
  #advanceSlow(now: unknown): number {
    const bound = this.#maxWaitMs + this.#unitMs;
    let deadline = Number.NaN;
    let lastElapsed = Number.NEGATIVE_INFINITY;
    // The least real time the pauses so far can have taken: ends the wait even if `elapsed` stalls.
    let paused = 0;
    // Set once real time passes the deadline; the clock is read after that, so a pause (GC, the
    // thread descheduled) between a clock read and the deadline check cannot cause a false alarm.
    let expired = false;
    for (;;) {
      if (typeof now !== "number") throw typeError(WHERE, "clock()", now, "a number of Unix milliseconds");
      if (!Number.isFinite(now)) throw rangeError(WHERE, "clock()", now, "a finite number of Unix milliseconds");
      const tick = Math.floor((now - this.#epoch) / this.#unitMs);
      if (tick < 0) {
        throw rangeError(WHERE, "clock()", now, `at or after the epoch ${this.#epoch} (${isoDate(this.#epoch)})`);
      }
      if (tick > this.#lastTick) {
        if (tick >= this.#tickLimit) {
          throw rangeError(
            WHERE,
            "clock()",
            now,
            `before ${this.lifetimeEnd} (${isoDate(this.lifetimeEnd)}), when the layout's ${this.#layout.layout.timestampBits}-bit timestamp runs out`,
          );
        }
        this.#lastTick = tick;
        this.#sequence = 0;
        this.#base = (BigInt(tick) << this.#lowBitsBig) | this.#machineBig;
        return 0;
      }
      let behindMs = 0;
      if (tick === this.#lastTick) {
        if (this.#sequence < this.#sequenceMax) return ++this.#sequence;
        // Exhausted: fall through to wait for the next tick.
      } else {
        // How far the clock must move forward to be back in the last tick.
        behindMs = this.#epoch + this.#lastTick * this.#unitMs - now;
        if (!this.#waitOnBackwards || behindMs > this.#maxWaitMs) {
          throw new ClockError(
            `redstruct/${WHERE}: clock moved backwards by ${behindMs} ms (to ${now}); refusing to issue IDs until it is back at ${this.#epoch + this.#lastTick * this.#unitMs}` +
              (this.#waitOnBackwards
                ? ` (waits at most maxWaitMs = ${this.#maxWaitMs} ms)`
                : ` (onClockBackwards: "throw")`),
            "backwards",
            behindMs,
          );
        }
      }
      if (expired) {
        throw behindMs > 0
          ? new ClockError(
              `redstruct/${WHERE}: clock still ${behindMs} ms behind the last ID after waiting ${bound} ms`,
              "backwards",
              behindMs,
            )
          : new ClockError(
              `redstruct/${WHERE}: clock stalled at ${now}: the sequence of this tick is exhausted and the clock did not reach the next tick within ${bound} ms`,
              "stalled",
              0,
            );
      }
      const t = checkElapsedReading(WHERE, this.#elapsed(), lastElapsed);
      lastElapsed = t;
      if (Number.isNaN(deadline)) deadline = t + bound;
      else if (t > deadline || paused > bound) expired = true;
      paused += pauseForClock();
      now = this.#clock();
    }
  }

  #splitBase(): void {
    this.#high = Number(this.#base / BILLION_BIG);
    this.#highText = String(this.#high);
    this.#low = Number(this.#base % BILLION_BIG);
    this.#prefixTop = -1;
    this.#stringTick = this.#lastTick;
  }

  // ---------------------------------------------------------------------------------------------
  // Decoding and ordering
  // ---------------------------------------------------------------------------------------------

  /**
   * Splits an ID of this generator's layout and epoch into its fields. Complexity: O(1).
   * @throws TypeError unless `id` is a bigint or a string; RangeError when it is not a canonical
   *   decimal string or not in [0, 2^totalBits) — never masked silently.
   */
  decode(id: bigint | string): SnowflakeParts {
    return decodeWith(this.#layout, id);
  }

  /**
   * Splits an ID into its fields, given the layout and epoch it was minted with (default: Twitter's).
   * Complexity: O(1). Throws as {@link Snowflake.prototype.decode}, and for invalid options.
   */
  static decode(id: bigint | string, options?: SnowflakeDecodeOptions): SnowflakeParts {
    const o = checkOptions(WHERE, options, DECODE_OPTION_KEYS);
    return decodeWith(resolveLayout(WHERE, o.layout, o.epoch), id);
  }

  /**
   * Orders two IDs numerically: -1, 0 or 1, for `Array.prototype.sort`. Accepts bigints and
   * canonical decimal strings, mixed; two strings are compared without BigInt conversion.
   * Complexity: O(1). @throws RangeError / TypeError for anything else.
   */
  static compare(a: bigint | string, b: bigint | string): -1 | 0 | 1 {
    return compareIds(WHERE, a, b);
  }

  // ---------------------------------------------------------------------------------------------
  // Introspection
  // ---------------------------------------------------------------------------------------------

  /** The epoch, Unix milliseconds. */
  get epoch(): number {
    return this.#epoch;
  }

  /** The resolved layout (every field filled in). */
  get layout(): Required<SnowflakeLayout> {
    return this.#layout.layout;
  }

  /** The datacenter id this generator writes into every ID. */
  get datacenterId(): number {
    return this.#datacenterId;
  }

  /** The worker id this generator writes into every ID. */
  get workerId(): number {
    return this.#workerId;
  }

  /** Unix milliseconds from which the timestamp no longer fits: `next()` throws from then on. */
  get lifetimeEnd(): number {
    return this.#epoch + this.#tickLimit * this.#unitMs;
  }

  /**
   * Walks the generator's state and throws an Error naming the first broken invariant (see the
   * header comment). Complexity: O(1) (the state is a few fields). For tests.
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const last = this.#lastTick;
    if (!Number.isInteger(last) || last < -1 || last >= this.#tickLimit) fail(`lastTick ${last} out of range`);
    const seq = this.#sequence;
    if (!Number.isInteger(seq) || seq < 0 || seq > this.#sequenceMax) fail(`sequence ${seq} out of range`);
    if (last === -1 && seq !== this.#sequenceMax) fail("sequence moved before any tick");
    if (last >= 0 && this.#base !== ((BigInt(last) << this.#lowBitsBig) | this.#machineBig)) {
      fail(`base ${this.#base} is not the base of tick ${last}`);
    }
    if (this.#stringTick === last && last >= 0) {
      if (BigInt(this.#high) * BILLION_BIG + BigInt(this.#low) !== this.#base)
        fail("decimal split disagrees with base");
      if (this.#highText !== String(this.#high)) fail("decimal prefix disagrees with its number");
      if (this.#prefixTop >= 0 && this.#prefix !== this.#highText + String(this.#prefixTop).padStart(6, "0")) {
        fail("cached six-digit prefix disagrees with its number");
      }
    }
  }

  static {
    defineInspect(Snowflake, (s) => ({
      fields: { epoch: s.epoch, datacenterId: s.datacenterId, workerId: s.workerId },
    }));
  }
}

/** BigInt(0) … BigInt(4095), shared by every generator whose sequence sits in the lowest bits. */
let smallBigints: bigint[] | undefined;

/**
 * The sequence field's values as bigints, so that `next()` adds a ready bigint instead of converting
 * a number on every call (one conversion less per ID). Up to 4096
 * entries; larger sequences fall back to `BigInt()`. Twitter/Discord layouts share one table (built
 * on first use, ~130 kB of heap); a shifted sequence gets its own (Sonyflake: 256 entries).
 */
function sequenceBigints(bits: number, scale: number): readonly bigint[] {
  if (scale === 1) {
    smallBigints ??= Array.from({ length: 4096 }, (_, i) => BigInt(i));
    return smallBigints;
  }
  return Array.from({ length: Math.min(2 ** bits, 4096) }, (_, i) => BigInt(i * scale));
}

function decodeWith(resolved: ResolvedLayout, id: unknown): SnowflakeParts {
  const value = parseId(WHERE, "id", id, resolved.idLimit);
  const { layout } = resolved;
  // lowBits ≤ 32, so the low part is a uint32 and the fields come out with >>> and masks.
  const low = Number(value & ((1n << BigInt(resolved.lowBits)) - 1n));
  const tick = Number(value >> BigInt(resolved.lowBits));
  const field = (shift: number, bits: number) => (bits === 0 ? 0 : Math.floor(low / 2 ** shift) % 2 ** bits);
  const timestamp = resolved.epoch + tick * resolved.unitMs;
  return {
    timestamp,
    date: new Date(timestamp),
    datacenterId: field(resolved.datacenterShift, layout.datacenterBits),
    workerId: field(resolved.workerShift, layout.workerBits),
    sequence: field(resolved.sequenceShift, layout.sequenceBits),
  };
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString();
}
