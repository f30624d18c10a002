/**
 * Clocks for the ID generators: the injectable wall clock (Unix milliseconds, like `Date.now`), the
 * injectable monotonic clock that bounds every wait (`performance.now` by default), and the error
 * thrown when the wall clock misbehaves.
 *
 * Why two clocks: IDs carry wall-clock time, which can stall or step backwards (NTP, a VM resumed,
 * a fake clock in a test). A wait for the wall clock to move on is therefore measured on a second
 * clock that always advances, so no wait can turn into a hang. Each pause of a wait also counts as
 * the least real time it can have taken (a sleep of 0.1 ms, or 10 ns for a spin), so a wait ends
 * within its bound even when an injected monotonic clock does not advance.
 */
import { rangeError, typeError } from "../internal/errors.js";

/** A wall clock: returns Unix milliseconds, like `Date.now`. Fractions are floored. */
export type Clock = () => number;

/**
 * A monotonic clock: returns milliseconds from any fixed origin, never decreasing, like
 * `performance.now`. It measures how long a wait has lasted, not what time it is.
 */
export type ElapsedClock = () => number;

/**
 * Thrown by an ID generator when the wall clock makes it impossible to issue a unique, increasing
 * ID right now: the clock stepped backwards (policy "throw", or a "wait" longer than allowed), or
 * it stopped advancing while the generator waited for the next tick. The generator's state is left
 * as it was, so later calls succeed once the clock is sane again — and still never repeat an ID.
 */
export class ClockError extends Error {
  /** Always "ClockError". */
  override readonly name = "ClockError";
  /**
   * What went wrong: `"backwards"`, `"stalled"`, or `"reentered"` (the clock, or a counter, called
   * back into the generator that was reading it).
   */
  readonly reason: "backwards" | "stalled" | "reentered";
  /** How far behind the clock was, in milliseconds (0 for "stalled"). */
  readonly behindMs: number;

  constructor(message: string, reason: "backwards" | "stalled" | "reentered", behindMs: number) {
    super(message);
    this.reason = reason;
    this.behindMs = behindMs;
  }
}

/** Real elapsed time in milliseconds (monotonic where the platform has `performance`). @internal */
const realNow: () => number =
  typeof performance !== "undefined" && typeof performance.now === "function"
    ? () => performance.now()
    : () => Date.now();

/** Length of one pause while waiting for the clock, in ms: short enough to wake early in a tick. @internal */
const PAUSE_MS = 0.1;
/**
 * The least real time one spinning poll (a pause that could not sleep, a wall-clock read and a
 * monotonic-clock read) can take, in ms: 10 ns. Counting it makes a wait end within
 * `bound / 10 ns` polls whatever the monotonic clock says. @internal
 */
const MIN_SPIN_MS = 1e-5;

/** Int32Array over shared memory to sleep on, null where this thread may not block, undefined until probed. */
let sleeper: Int32Array | null | undefined;

function probeSleeper(): Int32Array | null {
  if (typeof SharedArrayBuffer !== "function" || typeof Atomics === "undefined" || typeof Atomics.wait !== "function") {
    return null;
  }
  try {
    const cell = new Int32Array(new SharedArrayBuffer(4));
    // The cell holds 0, not 1: returns "not-equal" at once where blocking is allowed, and throws
    // where it is not (a browser's main thread) — the check comes before the comparison.
    Atomics.wait(cell, 0, 1, 0);
    return cell;
  } catch {
    return null;
  }
}

/**
 * One step of a wait for the wall clock: sleeps ~0.1 ms with `Atomics.wait` where the thread may
 * block (Node, browser workers with cross-origin isolation), returns at once elsewhere (a browser's
 * main thread, which then spins). Why sleep: a generator that has issued its 4096 IDs has nothing to
 * do until the next millisecond; sleeping frees the core, and on a loaded machine the scheduler then
 * runs the generator promptly when it wakes instead of preempting a spinning hog (docs/idgen.md).
 * Waking up to ~0.15 ms into the next tick costs nothing: the next 4096 IDs take ~0.3 ms. Returns the least real time the pause
 * took, in ms ({@link PAUSE_MS} when it slept, {@link MIN_SPIN_MS} when it could not).
 * @internal
 */
export function pauseForClock(): number {
  if (sleeper === undefined) sleeper = probeSleeper();
  if (sleeper === null) return MIN_SPIN_MS;
  Atomics.wait(sleeper, 0, 0, PAUSE_MS);
  return PAUSE_MS;
}

/** Validates the `clock` option. @internal */
export function checkClock(where: string, clock: unknown): Clock {
  if (clock === undefined) return Date.now;
  if (typeof clock !== "function") throw typeError(where, "clock", clock, "a function returning Unix milliseconds");
  return clock as Clock;
}

/** Validates the `elapsed` option. @internal */
export function checkElapsedClock(where: string, elapsed: unknown): ElapsedClock {
  if (elapsed === undefined) return realNow;
  if (typeof elapsed !== "function") {
    throw typeError(where, "elapsed", elapsed, "a function returning monotonic milliseconds (like performance.now)");
  }
  return elapsed as ElapsedClock;
}

/**
 * Checks one reading of a monotonic clock against the previous one (-Infinity before the first).
 * @throws TypeError when not a number, RangeError when not finite or below `previous`. @internal
 */
export function checkElapsedReading(where: string, t: unknown, previous: number): number {
  if (typeof t !== "number") throw typeError(where, "elapsed()", t, "a number of milliseconds");
  if (!Number.isFinite(t)) throw rangeError(where, "elapsed()", t, "a finite number of milliseconds");
  if (t < previous) throw rangeError(where, "elapsed()", t, `monotonic (never below its last reading ${previous})`);
  return t;
}
