/**
 * Errors shared by every structure.
 *
 * Argument checks throw the built-in `RangeError` / `TypeError` with a message of the form
 * `redstruct/<Structure>: <param> must be <allowed>, got <value>` so a caller can tell at a glance
 * which argument was wrong and why. Serialized input that is truncated, corrupt or hostile throws
 * {@link RedstructFormatError}, never an out-of-bounds read or a silently wrong structure.
 */

/** Thrown when serialized input (a Redis blob, a `toBytes()` buffer) is malformed. */
export class RedstructFormatError extends Error {
  /** Always "RedstructFormatError", so the class is recognisable across copies of the package. */
  override readonly name = "RedstructFormatError";
}

/** Renders a value for an error message without throwing on exotic inputs (symbols, bigints). */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number" || typeof value === "boolean" || value == null) return String(value);
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (Array.isArray(value)) return `Array(${value.length})`;
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return String(value);
  // An object: its keys when it is a plain one (an options object passed where something else
  // belongs), its class otherwise — never "[object Object]".
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    const keys = Object.keys(value as object);
    if (keys.length === 0) return "an empty object {}";
    const entries = keys.slice(0, 4).map((k) => {
      const v = (value as Record<string, unknown>)[k];
      return `${k}: ${v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array) ? "{…}" : describe(v)}`;
    });
    return `an object { ${entries.join(", ")}${keys.length > 4 ? ", …" : ""} }`;
  }
  const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" ? `${article(name)} ${name}` : Object.prototype.toString.call(value);
}

/** "a" or "an" before a class name: an ArrayBuffer, an Int32Array, an UltraLogLog, a Uint8Array. */
export function article(name: string): "a" | "an" {
  return /^[AEIOU]/.test(name) && !name.startsWith("Uint") ? "an" : "a";
}

/**
 * What to do with bytes in another container than a `Uint8Array` (an ArrayBuffer, a DataView,
 * another typed array): "; wrap it: new Uint8Array(…)", or "" for any other value.
 */
function wrapHint(value: unknown): string {
  if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && value instanceof SharedArrayBuffer)) {
    return "; wrap it: new Uint8Array(buffer)";
  }
  if (ArrayBuffer.isView(value) && !(value instanceof Uint8Array)) {
    return "; wrap its bytes: new Uint8Array(view.buffer, view.byteOffset, view.byteLength)";
  }
  return "";
}

/** Builds the `RangeError` every structure throws for an out-of-range argument. */
export function rangeError(where: string, param: string, value: unknown, allowed: string): RangeError {
  return new RangeError(`redstruct/${where}: ${param} must be ${allowed}, got ${describe(value)}`);
}

/**
 * Builds the `TypeError` every structure throws for an argument of the wrong type. Where bytes are
 * allowed and bytes came in another container (an ArrayBuffer, a DataView), it says how to wrap them.
 */
export function typeError(where: string, param: string, value: unknown, allowed: string): TypeError {
  const hint = allowed.includes("Uint8Array") ? wrapHint(value) : "";
  return new TypeError(`redstruct/${where}: ${param} must be ${allowed}, got ${describe(value)}${hint}`);
}

/**
 * Checks that `value` is an integer in [min, max] and returns it.
 * @throws TypeError when not a number, RangeError when not an integer in range.
 */
export function checkInteger(where: string, param: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number") throw typeError(where, param, value, `an integer in [${min}, ${max}]`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw rangeError(where, param, value, `an integer in [${min}, ${max}]`);
  }
  return value;
}

/**
 * Checks that `value` is a string (a sorted set's member, a GEO place) and returns it.
 * @throws TypeError naming the parameter.
 */
export function checkString(where: string, param: string, value: unknown): string {
  if (typeof value !== "string") throw typeError(where, param, value, "a string");
  return value;
}

/**
 * Checks that `value` is a finite number (NaN and ±Infinity rejected) and returns it.
 * @throws TypeError when not a number, RangeError when NaN or infinite.
 */
export function checkFinite(where: string, param: string, value: unknown): number {
  if (typeof value !== "number") throw typeError(where, param, value, "a finite number");
  if (!Number.isFinite(value)) throw rangeError(where, param, value, "a finite number");
  return value;
}

/** Throws a {@link RedstructFormatError} prefixed with the structure name. */
export function formatError(where: string, message: string): RedstructFormatError {
  return new RedstructFormatError(`redstruct/${where}: ${message}`);
}

/**
 * What every structure's `toJSON()` throws. A structure keeps its state in private fields, so
 * `JSON.stringify` would give `{}` and `structuredClone`/`postMessage` an empty object: say what to
 * send instead, rather than let a silently empty copy travel.
 */
export function notJson(name: string): TypeError {
  return new TypeError(
    `redstruct/${name}: a ${name} is not JSON (nor structured-cloneable: its state is private); ` +
      `send toBytes() and rebuild it with ${name}.fromBytes()`,
  );
}

/**
 * The failure every `checkInvariants()` throws: an Error `redstruct/<Structure>: invariant broken:
 * <what>`, naming the first invariant that does not hold.
 */
export function invariantFailure(where: string): (what: string) => never {
  return (what) => {
    throw new Error(`redstruct/${where}: invariant broken: ${what}`);
  };
}
