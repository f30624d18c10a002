/**
 * Timestamp + counter IDs — the "Redis INCR" ID: `seconds << 32 | counter`, where `seconds` is a
 * 31-bit count of seconds since a custom epoch (default 2022-01-01T00:00:00Z, 1640995200) and
 * `counter` is a 32-bit counter that restarts every UTC day, keyed `yyyy:MM:dd`. Many processes
 * sharing one counter per day (e.g. `INCR id:2026:11:23` on a Redis server) mint unique IDs with no
 * worker ids to assign: the counter alone is unique within the day, and the seconds separate days.
 *
 * Memory layout: the last second used, the current UTC day's bounds and key, the in-process
 * counter, and the current second's base (`seconds << 32`) as one bigint, computed once per second.
 *
 * Invariants: the second used never decreases — a clock that steps backwards is held at the last
 * second seen (a day holds 2^32 − 1 counter values, so holding the time cannot run the counter out
 * the way it would a snowflake sequence); the day key is always the UTC day of that second; the
 * in-process counter is the number of IDs issued in that day. With the default counter, IDs of one
 * generator strictly increase: within a day the counter does, across days the seconds do. With a
 * shared external counter they are unique across every generator using it, and increase in call
 * order when the counter answers in call order (one Redis connection does).
 *
 * Cost: `next()` O(1) with the default counter — one clock read, one bigint allocated; a new second
 * costs a BigInt shift more and a new day a `Date` to format the key. With a user counter, the
 * counter's own cost (a round trip for an external INCR).
 *
 * Errors: a counter value above 2^32 − 1 (or negative, or not an integer) is a RangeError, never a
 * spill into the seconds; so is a clock before the epoch or past the 31-bit seconds (2^31 s after
 * the epoch, in 2090 with the default).
 */
import { checkInteger, invariantFailure, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkOptions } from "../internal/options.js";
import { type Clock, ClockError, checkClock } from "./clock.js";
import { MAX_DATE_MS, parseId } from "./layout.js";

const WHERE = "TimestampCounterId";
const SECONDS_LIMIT = 2 ** 31;
const COUNTER_MAX = 2 ** 32 - 1;
const DAY_SECONDS = 86_400;
const ID_LIMIT = 1n << 63n;
const DEFAULT_EPOCH_SECONDS = 1640995200;
const OPTION_KEYS: readonly (keyof TimestampCounterIdOptions)[] = ["epochSeconds", "counter", "clock"];

/** The `epochSeconds` option: `undefined` takes the default, anything else must be an integer in range. */
function checkEpochSeconds(value: unknown): number {
  return checkInteger(
    WHERE,
    "epochSeconds",
    value === undefined ? DEFAULT_EPOCH_SECONDS : value,
    0,
    MAX_DATE_MS / 1000 - SECONDS_LIMIT,
  );
}

/** The counter's result: an integer in [0, 2^32 − 1], as a number or a bigint. */
export type CounterValue = number | bigint;

/** What a counter may return: a value, or a Promise (any thenable) of one. */
export type CounterResult = CounterValue | PromiseLike<CounterValue>;

/** A pluggable counter: given the UTC day key `yyyy:MM:dd`, returns the next value for that day. */
export type DayCounter<R extends CounterResult = CounterResult> = (dayKey: string) => R;

/** What `next()` returns for a counter's result type: a Promise when the counter may return one. */
export type IdResult<R> = R extends PromiseLike<unknown> ? Promise<bigint> : bigint;

/** Options of {@link TimestampCounterId}. */
export interface TimestampCounterIdOptions<R extends CounterResult = number> {
  /**
   * Start of time, Unix seconds.
   * @defaultValue 1640995200 (2022-01-01T00:00:00Z)
   */
  epochSeconds?: number;
  /**
   * The day's counter, like Redis `INCR <prefix><dayKey>`: must return 1, 2, 3, … (any increasing
   * integers in [0, 2^32 − 1]) for successive calls with the same key; may be async.
   * @defaultValue an in-process counter starting at 1 each UTC day
   */
  counter?: DayCounter<R>;
  /**
   * Wall clock returning Unix milliseconds, for tests.
   * @defaultValue Date.now
   */
  clock?: Clock;
}

/** The fields of a decoded timestamp + counter ID. */
export interface TimestampCounterParts {
  /** Unix milliseconds of the ID's second. */
  timestamp: number;
  /** `timestamp` as a Date. */
  date: Date;
  /** Seconds since the generator's epoch (the top 31 bits). */
  seconds: number;
  /** The day's counter value (the low 32 bits). */
  counter: number;
  /** The UTC day key `yyyy:MM:dd` the counter belongs to. */
  dayKey: string;
}

/**
 * A timestamp + daily counter ID generator (`seconds << 32 | counter`). With the default
 * in-process counter `next()` is synchronous; with an async counter it returns a Promise.
 */
export class TimestampCounterId<R extends CounterResult = number> {
  readonly #epochSeconds: number;
  readonly #clock: Clock;
  readonly #counter: DayCounter | undefined;

  /** True while next() runs the clock or the counter. */
  #minting = false;
  /** Last Unix second used (-1: none yet); never decreases. */
  #lastSecond = -1;
  /** `(#lastSecond − epoch) << 32` as a bigint. */
  #base = 0n;
  /** Current UTC day: [#dayStart, #dayEnd) in Unix seconds, and its key. */
  #dayStart = 0;
  #dayEnd = 0;
  #dayKey = "";
  /** IDs issued today by the in-process counter. */
  #count = 0;

  /**
   * Creates a generator. Validates every option: an unknown key, `null`, or a value of the wrong
   * type or range is a TypeError / RangeError naming it. Complexity: O(1); reads no clock.
   */
  constructor(options?: TimestampCounterIdOptions<R>) {
    const o = checkOptions(WHERE, options, OPTION_KEYS as readonly (keyof TimestampCounterIdOptions<R>)[]);
    this.#epochSeconds = checkEpochSeconds(o.epochSeconds);
    this.#clock = checkClock(WHERE, o.clock);
    if (o.counter !== undefined && typeof o.counter !== "function") {
      throw typeError(WHERE, "counter", o.counter, "a function (dayKey) => number | bigint | Promise of one");
    }
    this.#counter = o.counter as DayCounter | undefined;
  }

  /**
   * Returns the next ID, `seconds << 32 | counter`: a bigint with the default (or any synchronous)
   * counter, a Promise of one with an async counter. Complexity: O(1) plus the counter's cost.
   * Side effects: calls the counter once (the default one increments its count).
   * Redis: the ID scheme built on `INCR` of a per-day key.
   * @throws ClockError (reason "reentered") when the clock or a synchronous counter calls next().
   * @throws RangeError (or a rejected Promise) when the counter's value is not an integer in
   *   [0, 2^32 − 1] — the day's counter overflowed — or the clock is outside the epoch's 2^31 s.
   */
  next(): IdResult<R> {
    // A clock or a synchronous counter that calls next() again would recurse until the stack
    // overflows (or take counter values out of order): refused. An async counter's callbacks run
    // after next() has returned, so concurrent calls through Promises are fine.
    if (this.#minting) {
      throw new ClockError(
        `redstruct/${WHERE}: clock() or counter() called next() of the generator that is calling it`,
        "reentered",
        0,
      );
    }
    this.#minting = true;
    try {
      return this.#next();
    } finally {
      this.#minting = false;
    }
  }

  #next(): IdResult<R> {
    this.#tick();
    const counter = this.#counter;
    if (counter === undefined) {
      if (this.#count >= COUNTER_MAX) {
        throw rangeError(WHERE, "counter", this.#count + 1, `at most ${COUNTER_MAX}: day ${this.#dayKey} is full`);
      }
      return (this.#base + BigInt(++this.#count)) as IdResult<R>;
    }
    const base = this.#base;
    const dayKey = this.#dayKey;
    const value = counter(dayKey);
    if (isThenable(value)) {
      return Promise.resolve(value).then((v) => compose(base, v, dayKey)) as IdResult<R>;
    }
    return compose(base, value, dayKey) as IdResult<R>;
  }

  /** Reads the clock, holds it at the last second if it went back, and rolls the day. */
  #tick(): void {
    const now = this.#clock();
    if (typeof now !== "number") throw typeError(WHERE, "clock()", now, "a number of Unix milliseconds");
    if (!Number.isFinite(now)) throw rangeError(WHERE, "clock()", now, "a finite number of Unix milliseconds");
    const second = Math.floor(now / 1000);
    if (second <= this.#lastSecond) return;
    const sinceEpoch = second - this.#epochSeconds;
    if (sinceEpoch < 0) {
      throw rangeError(WHERE, "clock()", now, `at or after the epoch ${this.#epochSeconds * 1000} (Unix ms)`);
    }
    if (sinceEpoch >= SECONDS_LIMIT) {
      const end = (this.#epochSeconds + SECONDS_LIMIT) * 1000;
      throw rangeError(
        WHERE,
        "clock()",
        now,
        `before ${end} (${new Date(end).toISOString()}), when the 31-bit seconds run out`,
      );
    }
    this.#lastSecond = second;
    this.#base = BigInt(sinceEpoch) << 32n;
    if (second >= this.#dayEnd) {
      this.#dayStart = second - (second % DAY_SECONDS);
      this.#dayEnd = this.#dayStart + DAY_SECONDS;
      this.#dayKey = dayKeyOf(second);
      this.#count = 0;
    }
  }

  /**
   * Splits an ID of this generator's epoch into its second, counter and day. Complexity: O(1).
   * @throws TypeError unless a bigint or string; RangeError unless a canonical decimal in [0, 2^63).
   */
  decode(id: bigint | string): TimestampCounterParts {
    return decodeWith(this.#epochSeconds, id);
  }

  /** As the instance method `decode`, given the epoch (default 1640995200). */
  static decode(id: bigint | string, options?: { epochSeconds?: number }): TimestampCounterParts {
    const o = checkOptions(WHERE, options, ["epochSeconds"]);
    return decodeWith(checkEpochSeconds(o.epochSeconds), id);
  }

  /** The epoch, Unix seconds. */
  get epochSeconds(): number {
    return this.#epochSeconds;
  }

  /** The UTC day key of the last ID (`yyyy:MM:dd`), or undefined before the first. */
  get dayKey(): string | undefined {
    return this.#lastSecond < 0 ? undefined : this.#dayKey;
  }

  /**
   * Throws an Error naming the first broken invariant of the generator's state (see the header
   * comment). Complexity: O(1). For tests.
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    const s = this.#lastSecond;
    if (s === -1) {
      if (this.#count !== 0 || this.#dayKey !== "") fail("state before the first ID");
      return;
    }
    const since = s - this.#epochSeconds;
    if (!Number.isInteger(s) || since < 0 || since >= SECONDS_LIMIT) fail(`last second ${s} out of range`);
    if (this.#base !== BigInt(since) << 32n) fail("base is not the last second's");
    if (!(this.#dayStart <= s && s < this.#dayEnd && this.#dayEnd - this.#dayStart === DAY_SECONDS)) {
      fail(`day [${this.#dayStart}, ${this.#dayEnd}) does not hold second ${s}`);
    }
    if (this.#dayStart % DAY_SECONDS !== 0) fail("day does not start at UTC midnight");
    if (this.#dayKey !== dayKeyOf(s)) fail(`day key ${this.#dayKey} is not the key of second ${s}`);
    if (!Number.isInteger(this.#count) || this.#count < 0 || this.#count > COUNTER_MAX) fail("count out of range");
  }

  static {
    defineInspect(TimestampCounterId, (t) => ({ fields: { epochSeconds: t.epochSeconds } }));
  }
}

function isThenable(value: unknown): value is PromiseLike<CounterValue> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** `base | counter` after checking the counter fits its 32 bits. */
function compose(base: bigint, value: unknown, dayKey: string): bigint {
  if (typeof value === "number") {
    if (Number.isInteger(value) && value >= 0 && value <= COUNTER_MAX) return base + BigInt(value);
  } else if (typeof value === "bigint") {
    if (value >= 0n && value <= BigInt(COUNTER_MAX)) return base + value;
  } else {
    throw typeError(WHERE, "counter(dayKey)", value, "a number or bigint (or a Promise of one)");
  }
  throw rangeError(WHERE, `counter("${dayKey}")`, value, `an integer in [0, ${COUNTER_MAX}] (it overflowed?)`);
}

/** The UTC day key `yyyy:MM:dd` of a Unix second. */
function dayKeyOf(second: number): string {
  const d = new Date(second * 1000);
  const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
  return `${String(d.getUTCFullYear()).padStart(4, "0")}:${pad(d.getUTCMonth() + 1)}:${pad(d.getUTCDate())}`;
}

function decodeWith(epochSeconds: number, id: unknown): TimestampCounterParts {
  const value = parseId(WHERE, "id", id, ID_LIMIT);
  const seconds = Number(value >> 32n);
  const counter = Number(value & 0xffffffffn);
  const unixSeconds = epochSeconds + seconds;
  const timestamp = unixSeconds * 1000;
  return { timestamp, date: new Date(timestamp), seconds, counter, dayKey: dayKeyOf(unixSeconds) };
}
