/**
 * What the README's and docs' examples print, checked instead of printed. An example line
 * `console.log(a, b); // 4 [1, 2]: prose` states its output at the start of its comment; the test
 * runner captures the call and compares each stated value with the value logged at that place:
 *
 * - numbers (decimal, hex, `…n` bigints), `true`/`false`/`null`, double-quoted strings: equal;
 * - `[x, y]`: an array (or any iterable) with those elements; `Uint8Array [x, y]`: those bytes;
 * - `{ a: 1, b }`: an object with those keys, `a` equal to 1 and `b` of any value.
 *
 * A comment that opens with prose states nothing and is not checked (the output is still kept out
 * of the log). What follows the stated values — after `:`, `,`, `(`, `—` or words — is prose.
 */

/** A value stated in a comment: a literal, a list, an object pattern, or a typed byte list. */
type Stated =
  | { kind: "literal"; value: number | bigint | boolean | null | string }
  | { kind: "list"; items: Stated[]; bytes: boolean }
  | { kind: "object"; fields: [string, Stated | undefined][] };

class Reader {
  pos = 0;
  constructor(readonly text: string) {}
  space(): void {
    while (this.text[this.pos] === " ") this.pos++;
  }
  peek(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }
}

/** One value at the reader's position, or undefined (the reader left where it was) when there is none. */
function value(r: Reader): Stated | undefined {
  const start = r.pos;
  r.space();
  const rest = r.text.slice(r.pos);
  let m: RegExpMatchArray | null;
  if ((m = rest.match(/^(-?\d+)n(?![\w.])/))) {
    r.pos += m[0].length;
    return { kind: "literal", value: BigInt(m[1]!) };
  }
  if ((m = rest.match(/^(0x[0-9a-f]+|-?\d+(\.\d+)?(e[-+]?\d+)?)(?![\w.])/i))) {
    r.pos += m[0].length;
    return { kind: "literal", value: Number(m[1]) };
  }
  if ((m = rest.match(/^(true|false|null)(?![\w])/))) {
    r.pos += m[0].length;
    return { kind: "literal", value: m[1] === "null" ? null : m[1] === "true" };
  }
  if ((m = rest.match(/^"((?:[^"\\]|\\.)*)"/))) {
    r.pos += m[0].length;
    return { kind: "literal", value: JSON.parse(`"${m[1]}"`) as string };
  }
  const bytes = rest.startsWith("Uint8Array [");
  if (bytes || rest.startsWith("[")) {
    r.pos += bytes ? "Uint8Array [".length : 1;
    const items: Stated[] = [];
    for (;;) {
      r.space();
      if (r.peek("]")) {
        r.pos++;
        return { kind: "list", items, bytes };
      }
      const item = value(r);
      if (item === undefined) break;
      items.push(item);
      r.space();
      if (r.peek(",")) r.pos++;
    }
  } else if (rest.startsWith("{")) {
    r.pos += 1;
    const fields: [string, Stated | undefined][] = [];
    for (;;) {
      r.space();
      if (r.peek("}")) {
        r.pos++;
        return { kind: "object", fields };
      }
      const key = r.text.slice(r.pos).match(/^[A-Za-z_$][\w$]*/);
      if (!key) break;
      r.pos += key[0].length;
      r.space();
      let field: Stated | undefined;
      if (r.peek(":")) {
        r.pos++;
        field = value(r);
        if (field === undefined) break;
      }
      fields.push([key[0], field]);
      r.space();
      if (r.peek(",")) r.pos++;
    }
  }
  r.pos = start;
  return undefined;
}

/** The values a comment states, in order: as many as open it, separated by spaces. */
function statedValues(comment: string): Stated[] {
  const r = new Reader(comment.trim());
  const out: Stated[] = [];
  for (;;) {
    const v = value(r);
    if (v === undefined) break;
    out.push(v);
    // A value must end at a separator, or what looked like one began a word ("2D", "3rd").
    if (r.pos < r.text.length && !/^[\s:,(—;.]/.test(r.text.slice(r.pos))) return [];
  }
  return out;
}

/** Whether `actual` is what `stated` says; the mismatch described otherwise. */
export function mismatch(stated: Stated, actual: unknown, path = "value"): string | undefined {
  if (stated.kind === "literal") {
    const s = stated.value;
    const ok = typeof s === "number" && typeof actual === "number" ? Object.is(s, actual) : s === actual;
    return ok ? undefined : `${path} is ${String(actual)}, the comment says ${String(s)}`;
  }
  if (stated.kind === "list") {
    if (actual === null || typeof actual !== "object" || !(Symbol.iterator in actual)) {
      return `${path} is not a list`;
    }
    if (stated.bytes && !(actual instanceof Uint8Array)) return `${path} is not a Uint8Array`;
    const items = [...(actual as Iterable<unknown>)];
    if (items.length !== stated.items.length) {
      return `${path} has ${items.length} items, the comment says ${stated.items.length}`;
    }
    for (let i = 0; i < items.length; i++) {
      const m = mismatch(stated.items[i]!, items[i], `${path}[${i}]`);
      if (m !== undefined) return m;
    }
    return undefined;
  }
  if (actual === null || typeof actual !== "object") return `${path} is not an object`;
  const keys = Object.keys(actual);
  for (const [key, field] of stated.fields) {
    if (!keys.includes(key)) return `${path} has no ${key}`;
    if (field !== undefined) {
      const m = mismatch(field, (actual as Record<string, unknown>)[key], `${path}.${key}`);
      if (m !== undefined) return m;
    }
  }
  if (keys.length !== stated.fields.length) return `${path} has keys ${keys.join(", ")}`;
  return undefined;
}

/**
 * Checks one logged call against its comment: every value the comment states must match the logged
 * argument at its place. Returns how many values were checked.
 * @throws Error naming the example line and the first mismatch.
 */
export function checkLogged(where: string, comment: string, args: unknown[]): number {
  const stated = statedValues(comment);
  if (stated.length > args.length) {
    throw new Error(`${where}: the comment states ${stated.length} values, the call logs ${args.length}`);
  }
  stated.forEach((s, i) => {
    const m = mismatch(s, args[i], `argument ${i + 1}`);
    if (m !== undefined) throw new Error(`${where}: ${m} (// ${comment})`);
  });
  return stated.length;
}
