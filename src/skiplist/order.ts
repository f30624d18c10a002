/**
 * Member ordering and range-bound parsing shared by the skiplist core and the sorted set.
 *
 * Redis orders members with equal scores by `memcmp` of their bytes, i.e. by UTF-8 byte order,
 * which is Unicode code-point order. JavaScript's `<` on strings compares UTF-16 code units, which
 * agrees with code-point order everywhere except when a surrogate (U+D800–U+DFFF, the halves of an
 * astral character such as an emoji) meets a BMP character in U+E000–U+FFFF (private use area,
 * CJK compatibility, "￿"…): UTF-16 puts the emoji first, UTF-8 puts it last. {@link compareMembers}
 * fixes exactly that case, so the order matches Redis's byte for byte.
 */
import { rangeError, typeError } from "../internal/errors.js";

/**
 * Compares two members in UTF-8 byte order (Redis's `memcmp` order for the same strings).
 * Returns a negative number, 0 or a positive number. O(length of the common prefix), no allocation.
 *
 * Lone surrogates (not well-formed UTF-16) compare as the code points of their code units; Redis
 * would receive them as U+FFFD from a UTF-8 encoder, so avoid them in members.
 */
export function compareMembers(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Only units from U+D800 up need remapping: surrogates move above U+E000–U+FFFF, which is
    // where their code points (U+10000 and up) sit in UTF-8 order.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** A parsed lex bound: `kind` 0 = "-" (below everything), 1 = "+" (above everything), 2 = a member. */
export interface LexBound {
  kind: 0 | 1 | 2;
  member: string;
  exclusive: boolean;
}

/**
 * Parses a ZRANGEBYLEX bound: `-`, `+`, `[member` (inclusive) or `(member` (exclusive).
 * @throws TypeError when not a string, RangeError for any other form (Redis: "min or max not valid
 * string range item").
 */
export function parseLexBound(where: string, param: string, spec: unknown): LexBound {
  if (typeof spec !== "string") throw typeError(where, param, spec, 'a lex bound ("-", "+", "[member" or "(member")');
  if (spec === "-") return { kind: 0, member: "", exclusive: false };
  if (spec === "+") return { kind: 1, member: "", exclusive: false };
  const c = spec.charCodeAt(0);
  if (c === 0x5b /* [ */) return { kind: 2, member: spec.slice(1), exclusive: false };
  if (c === 0x28 /* ( */) return { kind: 2, member: spec.slice(1), exclusive: true };
  throw rangeError(where, param, spec, 'a lex bound ("-", "+", "[member" or "(member")');
}
