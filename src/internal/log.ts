/**
 * A natural logarithm rounded to nearest, for the places where a serialized format stores the
 * double that C's `log()` returned (RedisBloom's bits-per-entry field is −ln(error)/ln(2)²).
 *
 * Why not `Math.log`: V8's `Math.log` (a port of fdlibm) and glibc's `log` are both accurate to
 * about one ulp but round differently — on 142 of the 2,254 error rates in
 * test/vectors/redisbloom/bloom-params.json. glibc 2.28+ returns the correctly rounded result
 * almost everywhere, so a correctly rounded log reproduces it (2,252 of those rows; at the other
 * two glibc is itself one ulp off).
 *
 * Method: ln x is evaluated in double-double arithmetic (an unevaluated sum hi + lo of two
 * doubles, ~106 significant bits; Dekker 1971, Knuth TAOCP vol. 2 §4.2.2) and rounded once to a
 * double. x = 2^e·m with m ∈ [√½, √2), ln x = e·ln 2 + 2·atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.1716,
 * and atanh(s)/s = Σ s^(2j)/(2j + 1) summed by Horner over 23 terms in double-double (the last
 * term is below 2^-110 of the first). The result carries an error around 2^-100 relative, so it is
 * the correctly rounded ln x unless ln x lies within that distance of the midpoint between two
 * doubles — a case none of the vectors hits and that random inputs hit with probability ~2^-47.
 *
 * Cost: ~25 double-double multiply-adds, no allocation. It runs once per Bloom link created and
 * once per t-digest merge (RedisBloom's scale function), never per item.
 */

// ——— double-double primitives (error-free transformations) ————————————————————————

/** Splitter for Dekker's product: 2^27 + 1. */
const SPLIT = 134217729;

/**
 * Result register of the primitives below: a double-double as [hi, lo]. A typed array, not two
 * module `let`s: V8 boxes a double held in a module variable, so every write would allocate.
 */
const R = new Float64Array(2);

/** a + b = R[0]! + R[1]! exactly (Knuth's TwoSum). */
function twoSum(a: number, b: number): void {
  const s = a + b;
  const bb = s - a;
  R[1] = a - (s - bb) + (b - bb);
  R[0] = s;
}

/** a·b = R[0]! + R[1]! exactly, barring overflow (Dekker's TwoProduct). */
function twoProd(a: number, b: number): void {
  const p = a * b;
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  R[1] = ah * bh - p + ah * bl + al * bh + al * bl;
  R[0] = p;
}

/** (ah + al) + (bh + bl) → (R[0]!, R[1]!), error O(2^-106) relative. */
function ddAdd(ah: number, al: number, bh: number, bl: number): void {
  twoSum(ah, bh);
  const sh = R[0]!;
  const sl = R[1]!;
  twoSum(al, bl);
  const th = R[0]!;
  const tl = R[1]!;
  let hi = sh;
  let lo = sl + th;
  let s = hi + lo;
  lo = lo - (s - hi);
  hi = s;
  lo += tl;
  s = hi + lo;
  R[1] = lo - (s - hi);
  R[0] = s;
}

/** (ah + al)·(bh + bl) → (R[0]!, R[1]!). */
function ddMul(ah: number, al: number, bh: number, bl: number): void {
  twoProd(ah, bh);
  const ph = R[0]!;
  const pl = R[1]! + (ah * bl + al * bh);
  const s = ph + pl;
  R[1] = pl - (s - ph);
  R[0] = s;
}

/** (ah + al)/(bh + bl) → (R[0]!, R[1]!): a quotient digit and two corrections from the remainders. */
function ddDiv(ah: number, al: number, bh: number, bl: number): void {
  const q1 = ah / bh;
  ddMul(bh, bl, q1, 0);
  ddAdd(ah, al, -R[0]!, -R[1]!);
  const remH = R[0]!;
  const remL = R[1]!;
  const q2 = remH / bh;
  ddMul(bh, bl, q2, 0);
  ddAdd(remH, remL, -R[0]!, -R[1]!);
  const q3 = R[0]! / bh;
  twoSum(q1, q2);
  ddAdd(R[0]!, R[1]!, q3, 0);
}

// ——— constants ———————————————————————————————————————————————————————————————————

/** ln 2 as a double-double. */
const LN2_HI = Math.LN2;
const LN2_LO = 2.3190468138462996e-17;

/** Number of series terms: |s|^(2·TERMS) ≤ 0.1716^46 < 2^-116. */
const TERMS = 23;
/** 1/(2j + 1) as double-doubles, j = 0 … TERMS − 1. */
const INV_ODD_HI = new Float64Array(TERMS);
const INV_ODD_LO = new Float64Array(TERMS);
for (let j = 0; j < TERMS; j++) {
  const d = 2 * j + 1;
  const hi = 1 / d;
  twoProd(hi, d); // hi·d = R[0]! + R[1]! exactly; the residual 1 − hi·d divided by d is the low part
  INV_ODD_HI[j] = hi;
  INV_ODD_LO[j] = (1 - R[0]! - R[1]!) / d;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * ln x rounded to the nearest double (see the module comment for the one caveat). Follows `log`
 * at the edges: NaN for NaN and negatives, −Infinity for ±0, Infinity for Infinity.
 */
export function lnRounded(x: number): number {
  if (!(x > 0)) return x === 0 ? Number.NEGATIVE_INFINITY : Number.NaN;
  if (x === Number.POSITIVE_INFINITY) return x;
  if (x === 1) return 0;
  // x = 2^e·m with m ∈ [1, 2), read from the bits (subnormals scaled by 2^54 first).
  let e = 0;
  let y = x;
  if (y < 2 ** -1022) {
    y *= 2 ** 54;
    e = -54;
  }
  f64[0] = y;
  const hiWord = u32[HI]!;
  e += ((hiWord >>> 20) & 0x7ff) - 1023;
  u32[HI] = (hiWord & 0x800fffff) | 0x3ff00000;
  let m = f64[0]!;
  if (m > Math.SQRT2) {
    m /= 2; // exact
    e += 1;
  }
  // s = (m − 1)/(m + 1): m − 1 is exact (Sterbenz), m + 1 is carried as a double-double.
  twoSum(m, 1);
  ddDiv(m - 1, 0, R[0]!, R[1]!);
  const sh = R[0]!;
  const sl = R[1]!;
  ddMul(sh, sl, sh, sl);
  const zh = R[0]!;
  const zl = R[1]!;
  let ph = INV_ODD_HI[TERMS - 1]!;
  let pl = INV_ODD_LO[TERMS - 1]!;
  for (let j = TERMS - 2; j >= 0; j--) {
    ddMul(ph, pl, zh, zl);
    ddAdd(R[0]!, R[1]!, INV_ODD_HI[j]!, INV_ODD_LO[j]!);
    ph = R[0]!;
    pl = R[1]!;
  }
  ddMul(ph, pl, sh, sl);
  const th = 2 * R[0]!;
  const tl = 2 * R[1]!;
  if (e === 0) return th + tl;
  // e·ln 2 + ln m
  twoProd(e, LN2_HI);
  ddAdd(R[0]!, R[1]! + e * LN2_LO, th, tl);
  return R[0]! + R[1]!;
}
