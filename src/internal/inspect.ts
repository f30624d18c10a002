/**
 * What `console.log` and Node's `util.inspect` show of a structure: its class, its size, its
 * parameters and — for the maps and sets of entries — its first entries, the way Node shows a `Map`:
 *
 *     SortedSet(3) { 'bob' => 125, 'alice' => 120, 'carol' => 95 }
 *     HyperLogLog { precision: 14, encoding: 'sparse', byteLength: 34 }
 *
 * Node finds the method under the registered symbol `nodejs.util.inspect.custom`, so nothing here
 * imports `node:util` and browsers bundle no Node code (their consoles show the object as they do
 * any other). State lives in `#private` fields, which `util.inspect` cannot see: without this hook
 * every structure prints as `Dict {}`. The hook only reads: it never changes the structure (a
 * t-digest's quantile would merge its buffer; a sorted set's iterator would join its journal).
 */

/** The symbol Node's `util.inspect` looks for (`util.inspect.custom`). */
const CUSTOM = Symbol.for("nodejs.util.inspect.custom");

/** The part of Node's inspect options the hook reads. */
interface InspectOptions {
  depth?: number | null;
  maxArrayLength?: number | null;
  breakLength?: number;
  stylize?: (text: string, style: string) => string;
}

/** Node's `util.inspect`, handed to the hook as its third argument. */
type Inspect = (value: unknown, options?: InspectOptions) => string;

/** What a structure shows: its parameters, and for the entry-holding ones, size and first entries. */
interface Shown {
  fields?: Record<string, unknown>;
  /** Number of entries: printed as `Name(size)`. */
  size?: number;
  /** The first `limit` entries, `[key, value]` (shown `key => value`) or single values. */
  entries?: (limit: number) => Iterable<unknown>;
}

/** A value as Node shows it, when the hook is called without Node's `inspect` (a browser, a test). */
function plain(value: unknown): string {
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[ ${value.map(plain).join(", ")} ]`;
  if (value instanceof Uint8Array) return `Uint8Array(${value.length}) [ ${Array.from(value).join(", ")} ]`;
  if (value !== null && typeof value === "object") {
    const parts = Object.entries(value).map(([k, v]) => `${k}: ${plain(v)}`);
    return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
  }
  return String(value);
}

/**
 * Gives `cls` the inspect hook: `show(instance)` says what to print. Non-enumerable, so it appears
 * nowhere else (not in `Object.keys`, not in the typings).
 */
export function defineInspect<T extends object>(cls: { prototype: T; name: string }, show: (self: T) => Shown): void {
  Object.defineProperty(cls.prototype, CUSTOM, {
    configurable: true,
    writable: true,
    value(this: T, depth: number, options: InspectOptions = {}, inspect?: Inspect): string {
      const name = cls.name;
      const stylize = options.stylize ?? ((text: string) => text);
      if (depth < 0) return stylize(`[${name}]`, "special");
      const inner = { ...options, depth: options.depth == null ? options.depth : options.depth - 1 };
      const format = inspect === undefined ? plain : (v: unknown) => inspect(v, inner);
      const shown = show(this);
      const parts: string[] = [];
      if (shown.entries !== undefined && shown.size !== undefined) {
        const limit = Math.min(shown.size, Math.max(0, options.maxArrayLength ?? 100));
        for (const e of shown.entries(limit)) {
          parts.push(Array.isArray(e) && e.length === 2 ? `${format(e[0])} => ${format(e[1])}` : format(e));
        }
        if (shown.size > limit) parts.push(`... ${shown.size - limit} more item${shown.size - limit === 1 ? "" : "s"}`);
      }
      for (const [k, v] of Object.entries(shown.fields ?? {})) parts.push(`${k}: ${format(v)}`);
      const head = shown.size === undefined ? name : `${name}(${shown.size})`;
      if (parts.length === 0) return `${head} {}`;
      const line = `${head} { ${parts.join(", ")} }`;
      return line.length <= (options.breakLength ?? 80) ? line : `${head} {\n  ${parts.join(",\n  ")}\n}`;
    },
  });
}

/** The first `limit` values of an iterator, which is then closed (a `break` out of `for…of`). */
export function firstOf<T>(it: Iterator<T>, limit: number): T[] {
  const out: T[] = [];
  while (out.length < limit) {
    const r = it.next();
    if (r.done === true) return out;
    out.push(r.value);
  }
  it.return?.();
  return out;
}
