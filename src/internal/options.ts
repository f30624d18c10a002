/**
 * Checks shared by every public entry point that takes an options object, a flag or many elements.
 *
 * A silently ignored option is a silent bug: `new Snowflake({ workerID: 7 })` would mint worker 0's
 * IDs in every process, `add(m, s, { NX: true })` would overwrite a score. So an options object is
 * checked against the keys its function knows, a flag must be a real boolean, and `null` is a wrong
 * type rather than "absent" (only `undefined` means "use the default"). Bulk methods accept a sync
 * iterable only: an async iterable or a stream would otherwise yield nothing, and a lone string would
 * be split into its characters.
 */
import { describe, rangeError, typeError } from "./errors.js";

/**
 * Returns `options` (or `{}` when `undefined`) after checking that it is a plain object whose every
 * own key is one of `known`.
 * @throws TypeError naming the parameter when `options` is not an object (null included), and
 *   naming the key (with the known one it most resembles) when a key is not known.
 */
export function checkOptions<T extends object>(
  where: string,
  options: T | undefined,
  known: readonly (keyof T & string)[],
  param = "options",
): Partial<T> {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw typeError(where, param, options, `an object with keys ${known.join(", ")}`);
  }
  for (const key of Object.keys(options)) {
    if (!(known as readonly string[]).includes(key)) {
      const near = nearest(key, known);
      const redis = REDIS_WORDS[key.toLowerCase()];
      const hint = near
        ? ` (did you mean "${near}"?)`
        : redis?.keys.every((k) => (known as readonly string[]).includes(k))
          ? ` (${redis.say})`
          : "";
      const list = known.length > 0 ? `known keys: ${known.join(", ")}` : "it takes no options";
      throw new TypeError(`redstruct/${where}: unknown option "${key}" in ${param}${hint}; ${list}`);
    }
  }
  return options;
}

/**
 * Redis arguments spelled as an option where this API takes other keys: what to write instead (only
 * said when the function knows those keys).
 */
const REDIS_WORDS: Record<string, { keys: string[]; say: string }> = {
  limit: { keys: ["offset", "count"], say: "Redis's LIMIT offset count is { offset, count }" },
  rev: { keys: ["reverse"], say: "Redis's REV is { reverse: true }" },
  exclusive: { keys: ["minExclusive", "maxExclusive"], say: "exclusive bounds are { minExclusive, maxExclusive }" },
  withcount: { keys: ["withCount"], say: "WITHCOUNT is { withCount: true }" },
};

/**
 * `value` when it is a boolean, `fallback` when it is `undefined`.
 * @throws TypeError for anything else ("yes", 1, null).
 */
export function checkFlag(where: string, param: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw typeError(where, param, value, "a boolean (true or false)");
  return value;
}

/**
 * Returns `values` after checking that it is a synchronous iterable and not a lone string.
 * @throws TypeError naming the parameter, saying what the value was (an async iterable, a string, …).
 */
export function checkIterable<T>(where: string, param: string, values: Iterable<T>): Iterable<T> {
  if (typeof values === "string") {
    throw new TypeError(
      `redstruct/${where}: ${param} must be an iterable of elements, got the string ${describe(values)}; ` +
        `wrap a single element in an array ([value]) to add it whole`,
    );
  }
  const v = values as unknown;
  if (v !== null && (typeof v === "object" || typeof v === "function")) {
    if (typeof (v as Iterable<T>)[Symbol.iterator] === "function") return values;
    if (typeof (v as AsyncIterable<T>)[Symbol.asyncIterator] === "function") {
      throw new TypeError(
        `redstruct/${where}: ${param} must be a synchronous iterable, got an async iterable (a stream?); ` +
          `collect it first (for await … of) and pass an array, or add its elements one by one`,
      );
    }
  }
  throw typeError(where, param, values, "a synchronous iterable (an array, a Set, a generator)");
}

/**
 * Returns `value` when it is an instance of `type`.
 * @throws TypeError naming the parameter. An object of the same class name from another copy of
 *   redstruct (the ESM and the CommonJS build both loaded, or two installs) is told apart from a
 *   plain wrong type, since `instanceof` fails on it for a reason the caller cannot see.
 */
export function checkInstance<T>(
  where: string,
  param: string,
  value: unknown,
  type: abstract new (...args: never[]) => T,
): T {
  if (value instanceof type) return value;
  const ctor = (value as { constructor?: { name?: unknown } } | null | undefined)?.constructor;
  if (value !== null && typeof value === "object" && ctor?.name === type.name) {
    throw new TypeError(
      `redstruct/${where}: ${param} is a ${type.name} from another copy of redstruct (the ESM and the ` +
        `CommonJS builds loaded side by side, or two installed versions); objects do not cross copies — ` +
        `load one build, or move it with toBytes()/fromBytes()`,
    );
  }
  throw typeError(where, param, value, `a ${type.name}`);
}

/**
 * The known key a typo most likely meant: same letters in another case, or within two edits
 * (Damerau–Levenshtein: `precison`, `workerID`, `capcity`, `nX`); undefined when none is that close.
 */
function nearest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    const d = k.toLowerCase() === lower ? 0 : editDistance(lower, k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/**
 * ZADD's (and GEOADD's) flag rules: NX with XX, and more than one of GT, LT and NX, are errors, as
 * Redis answers them.
 * @throws RangeError naming the flags.
 */
export function checkZaddFlags(where: string, nx: boolean, xx: boolean, gt = false, lt = false): void {
  if (nx && xx) throw rangeError(where, "options", "nx + xx", "compatible flags (NX and XX exclude each other)");
  if ((gt ? 1 : 0) + (lt ? 1 : 0) + (nx ? 1 : 0) > 1) {
    throw rangeError(where, "options", "gt/lt/nx", "compatible flags (at most one of GT, LT and NX)");
  }
}
