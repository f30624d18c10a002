/**
 * Probe (not part of `npm run bench`): why `Bitmap.getBit` trails typedfastbitset 0.8.0's `has` in
 * bench/bitmap.bench.ts (random offsets in a 16 MiB bitmap). Every contender reads the same 16 MiB of
 * bits at the same 2^16 random offsets in [0, 2^27), through its own compiled loop (ownLoop), in
 * interleaved rounds in a new order each round; the figures are each contender's median and fastest
 * round (the fastest is the one least disturbed by other processes on a shared machine) and its
 * speed relative to `has`. Contenders:
 * - `Bitmap.getBit` as shipped, on two bitmaps;
 * - `typedfastbitset has` (the baseline) and a copy of it as a class with a private field;
 * - copies of getBit as classes of their own, each changing one thing: `copy` (the same code: the
 *   copy must measure as the original), `public field` (`this.bytes` instead of `this.#bytes`),
 *   `length guard` (`if (offset >>> 3 >= this.#length) return 0` instead of reading past the end),
 *   `read | 0` and `read ?? 0` (the byte read made a number at once: a read past the end answers
 *   undefined, and undefined | 0 and undefined ?? 0 are 0), other forms of the offset check
 *   (`Number.isInteger` and a range test; `(offset | 0) === offset` first, the full test only for
 *   offsets past 2^31 − 1 and bad ones), `no offset check`, `words` (one
 *   Int32Array read, bit `(o ^ 7) & 31` of the little-endian word: the same MSB-first bit), `words,
 *   no check`.
 * Then a second run, after 10^4 reads past the end through Bitmap.getBit and through the variants
 * that read past the end or guard against it: does V8's feedback for a load that once read past the
 * end slow the in-bounds reads after it?
 * Every contender's answers are checked against typedfastbitset's first.
 *
 * The bits: "keys" (the default) sets exactly the offsets read, as in bitmap.bench.ts, whose getBit
 * task reads the offsets its setBit task wrote: every read answers 1 and the loop's `if` is always
 * taken. "random" sets half the bits at random: the `if` then mispredicts half the time, which adds
 * the same cost to every contender.
 *
 *     node --import tsx bench/probes/bitmap-getbit.ts [rounds = 15] [bits = keys | random]
 */
import { TypedFastBitSet } from "typedfastbitset";
import { Bitmap } from "../../src/bitmap/index.js";
import { ownLoop, prng } from "../lib.js";

const rounds = Number(process.argv[2] ?? 15);
const pattern = process.argv[3] ?? "keys";
const BYTES = 16 * 1024 * 1024;
const BITS = BYTES * 8;
const KEYS = 1 << 16;
const REPEAT = 16;

const offsetError = (o: unknown) => new RangeError(`offset must be an integer in [0, 2^32 − 1], got ${String(o)}`);

class Copy {
  #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }
  getBit(offset: number): 0 | 1 {
    if (offset >>> 0 !== offset) throw offsetError(offset);
    return ((this.#bytes[offset >>> 3]! >>> (~offset & 7)) & 1) as 0 | 1;
  }
}

class PublicField {
  bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
  getBit(offset: number): 0 | 1 {
    if (offset >>> 0 !== offset) throw offsetError(offset);
    return ((this.bytes[offset >>> 3]! >>> (~offset & 7)) & 1) as 0 | 1;
  }
}

class Guarded {
  #bytes: Uint8Array;
  #length: number;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#length = bytes.length;
  }
  getBit(offset: number): 0 | 1 {
    if (offset >>> 0 !== offset) throw offsetError(offset);
    const i = offset >>> 3;
    if (i >= this.#length) return 0;
    return ((this.#bytes[i]! >>> (~offset & 7)) & 1) as 0 | 1;
  }
}

class OrZero {
  #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }
  getBit(offset: number): 0 | 1 {
    if (offset >>> 0 !== offset) throw offsetError(offset);
    return (((this.#bytes[offset >>> 3]! | 0) >>> (~offset & 7)) & 1) as 0 | 1;
  }
}

class Nullish {
  #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }
  getBit(offset: number): 0 | 1 {
    if (offset >>> 0 !== offset) throw offsetError(offset);
    return (((this.#bytes[offset >>> 3] ?? 0) >>> (~offset & 7)) & 1) as 0 | 1;
  }
}

class IsIntegerCheck {
  #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }
  getBit(offset: number): 0 | 1 {
    if (!Number.isInteger(offset) || offset < 0 || offset > 0xffffffff) throw offsetError(offset);
    return ((this.#bytes[offset >>> 3]! >>> (~offset & 7)) & 1) as 0 | 1;
  }
}

class Int32Check {
  #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }
  getBit(offset: number): 0 | 1 {
    // Offsets below 2^31 pass the first test; only larger ones (and bad ones) take the second.
    if ((offset | 0) !== offset || offset < 0) {
      if (offset >>> 0 !== offset) throw offsetError(offset);
    }
    return ((this.#bytes[offset >>> 3]! >>> (~offset & 7)) & 1) as 0 | 1;
  }
}

class NoCheck {
  #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }
  getBit(offset: number): 0 | 1 {
    return ((this.#bytes[offset >>> 3]! >>> (~offset & 7)) & 1) as 0 | 1;
  }
}

class Words {
  #words: Int32Array;
  constructor(bytes: Uint8Array) {
    this.#words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  }
  getBit(offset: number): 0 | 1 {
    if (offset >>> 0 !== offset) throw offsetError(offset);
    // Bit 7 − (o & 7) of byte o >>> 3 is bit ((o >>> 3) & 3)·8 + 7 − (o & 7) = (o ^ 7) & 31 of its
    // little-endian word; >>> takes the shift count mod 32.
    return ((this.#words[offset >>> 5]! >>> (offset ^ 7)) & 1) as 0 | 1;
  }
}

class WordsNoCheck {
  #words: Int32Array;
  constructor(bytes: Uint8Array) {
    this.#words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  }
  getBit(offset: number): 0 | 1 {
    return ((this.#words[offset >>> 5]! >>> (offset ^ 7)) & 1) as 0 | 1;
  }
}

class HasCopy {
  #words: Uint32Array;
  constructor(words: Uint32Array) {
    this.#words = words;
  }
  has(index: number): boolean {
    return (this.#words[index >>> 5]! & (1 << index)) !== 0;
  }
}

if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) throw new Error("the words variants assume little-endian");

const rand = prng(4);
const keys = Array.from({ length: KEYS }, () => Math.floor(rand() * BITS));
const bits = new Uint8Array(BYTES);
if (pattern === "keys") for (const o of keys) bits[o >>> 3] = bits[o >>> 3]! | (0x80 >>> (o & 7));
else if (pattern === "random") {
  const words = new Uint32Array(bits.buffer);
  for (let i = 0; i < words.length; i++) words[i] = Math.floor(rand() * 2 ** 32);
} else throw new Error(`bits must be "keys" or "random", got ${pattern}`);
/** A buffer of its own for each contender, allocated alike, holding the same bits. */
const own = () => {
  const b = new Uint8Array(BYTES);
  b.set(bits);
  return b;
};
const shipped = Bitmap.fromRedis(bits);
const second = Bitmap.fromRedis(bits);
const polluted = Bitmap.fromRedis(bits);
// typedfastbitset numbers bits from the least significant end of each little-endian word, Redis from
// the most significant end of each byte: the same offsets are the same bytes, each bit-reversed.
const reversed = Uint8Array.from({ length: 256 }, (_, b) => {
  let r = 0;
  for (let j = 0; j < 8; j++) if (b & (1 << j)) r |= 0x80 >>> j;
  return r;
});
const peerBytes = bits.map((b) => reversed[b]!);
const peer = TypedFastBitSet.fromWords(new Uint32Array(peerBytes.buffer));

interface Contender {
  name: string;
  target: unknown;
  body: string;
}
const contenders: Contender[] = [
  { name: "typedfastbitset has", target: peer, body: "if (t.has(k[i])) s++;" },
  { name: "has, copied into a class", target: new HasCopy(peer.words), body: "if (t.has(k[i])) s++;" },
  { name: "Bitmap.getBit", target: shipped, body: "if (t.getBit(k[i])) s++;" },
  { name: "Bitmap.getBit, 2nd bitmap", target: second, body: "if (t.getBit(k[i])) s++;" },
  { name: "copy", target: new Copy(own()), body: "if (t.getBit(k[i])) s++;" },
  { name: "public field", target: new PublicField(own()), body: "if (t.getBit(k[i])) s++;" },
  { name: "length guard", target: new Guarded(own()), body: "if (t.getBit(k[i])) s++;" },
  { name: "read | 0", target: new OrZero(own()), body: "if (t.getBit(k[i])) s++;" },
  { name: "read ?? 0", target: new Nullish(own()), body: "if (t.getBit(k[i])) s++;" },
  { name: "check: Number.isInteger, range", target: new IsIntegerCheck(own()), body: "if (t.getBit(k[i])) s++;" },
  { name: "check: int32 first", target: new Int32Check(own()), body: "if (t.getBit(k[i])) s++;" },
  { name: "no offset check", target: new NoCheck(own()), body: "if (t.getBit(k[i])) s++;" },
  { name: "words", target: new Words(own()), body: "if (t.getBit(k[i])) s++;" },
  { name: "words, no check", target: new WordsNoCheck(own()), body: "if (t.getBit(k[i])) s++;" },
];

for (const c of contenders) {
  const t = c.target as { getBit?(o: number): number; has?(o: number): boolean };
  for (const o of keys) {
    const v = t.getBit ? t.getBit(o) === 1 : t.has!(o);
    if (v !== peer.has(o)) throw new Error(`${c.name} disagrees at ${o}`);
  }
}

function run(label: string, list: Contender[]) {
  const loops = list.map((c) => ownLoop<unknown, number>(c.body));
  const times: number[][] = list.map(() => []);
  let sink = 0;
  const order = list.map((_, k) => k);
  const shuffle = prng(7);
  for (let r = 0; r < rounds; r++) {
    // A new order each round, so no contender always runs right after the same one.
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(shuffle() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const k of order) {
      const c = list[k]!;
      const start = performance.now();
      for (let rep = 0; rep < REPEAT; rep++) sink += loops[k]!(c.target, keys, 0, KEYS);
      times[k]!.push(((performance.now() - start) * 1e6) / (REPEAT * KEYS));
    }
  }
  if (sink === 0) throw new Error("no bits read");
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  const base = times[0]!;
  console.log(
    `${label}: ns per read over ${rounds} rounds of ${REPEAT} × ${KEYS} reads — median and fastest round — ` +
      "and speed vs has (its median ÷ this median, its fastest ÷ this fastest)",
  );
  list.forEach((c, k) => {
    const t = times[k]!;
    const [med, min] = [median(t), Math.min(...t)];
    const ratios = `${(median(base) / med).toFixed(2)}× / ${(Math.min(...base) / min).toFixed(2)}×`;
    console.log(`  ${c.name.padEnd(44)} ${med.toFixed(2).padStart(6)} / ${min.toFixed(2).padStart(6)} ns   ${ratios}`);
  });
}

run("in-bounds reads only", contenders);
// Reads past the end, through Bitmap's getBit, the copy's and the length guard's. V8's feedback for
// a method's loads is shared by all instances of its class, so from here on it affects every
// Bitmap (hence a run of its own, last).
const readPastEnd = (t: { getBit(o: number): number }) => {
  let s = 0;
  for (let i = 0; i < 10_000; i++) s += t.getBit(BITS + i * 8);
  if (s !== 0) throw new Error("a read past the end answered 1");
};
readPastEnd(polluted);
readPastEnd(contenders[4]!.target as Copy);
readPastEnd(contenders[6]!.target as Guarded);
readPastEnd(contenders[7]!.target as OrZero);
readPastEnd(contenders[8]!.target as Nullish);
run("after 10^4 reads past the end through each getBit below", [
  contenders[0]!,
  contenders[2]!,
  contenders[3]!,
  { name: "Bitmap.getBit, the bitmap read past its end", target: polluted, body: "if (t.getBit(k[i])) s++;" },
  contenders[4]!,
  contenders[6]!,
  contenders[7]!,
  contenders[8]!,
]);
