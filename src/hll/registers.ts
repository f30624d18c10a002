/**
 * The register UltraLogLog and ExaLogLog share, and everything computed from it alone.
 *
 * Ertl's ExaLogLog (EDBT 2025, arXiv 2402.13726) generalizes UltraLogLog: an element brings its
 * register an *update value* k ≥ 1, and the register keeps the largest value u it has seen plus d
 * flags for the values u − 1 … u − d. UltraLogLog is the case t = 0, d = 2; HyperLogLog keeps u
 * alone (d = 0, t = 0). A register is the integer `u << d | flags`, flag of u − i at bit d − i
 * (so UltraLogLog's byte `u << 2 | a << 1 | b` is this register with d = 2); 0 is the empty register.
 *
 * Update values (the paper's approximated geometric distribution with parameter t): value k has
 * probability ρ(k) = 2^−φ(k), φ(k) = min(t + 1 + ⌊(k − 1)/2^t⌋, 64 − p), for k = 1 … (65 − p − t)·2^t.
 * Values come in groups of 2^t (group j = ⌊(k − 1)/2^t⌋) that split one HyperLogLog run: a
 * HyperLogLog run r ≤ 64 − p − t is group r − 1, and its 2^t values say which of 2^t equally likely
 * ranges the hash bits above the run fall in. How the bits of a hash become k is in exaloglog.ts.
 *
 * What only the register determines lives here, once for both sketches: the update (the window of
 * flags slides down when u grows), the exact union of two registers (merge), validity, a
 * register's probability of changing on the next element (the martingale estimator, the paper's
 * h(r)), its terms in the maximum-likelihood equation, the Fisher information of the register
 * model (the standard deviation `bounds()` uses), the HyperLogLog run of a value, and the part of
 * a precision reduction that is exact.
 *
 * The likelihood (Poisson model, λ = n/m): each value k occurs in a register independently with
 * probability 1 − e^(−λρ(k)), so a register contributes −λ·ρ(k) for each value it knows absent (all
 * above u, unflagged ones in the window; all of them, total 1, for an empty register) and
 * ln(1 − e^(−λρ(k))) for each value it knows present (u and the flagged ones). Summed over the
 * registers, ln L(λ) = −α·λ + Σ_j β_j·ln(1 − e^(−λ·2^−j)), α the total absent rate and β_j the number
 * of present values of rate 2^−j; {@link mlEstimate} maximizes it.
 */

/** Update-value tables of one (precision, t): ρ, φ and the tail mass ω. */
export interface ValueModel {
  readonly p: number;
  readonly t: number;
  /** The largest update value, (65 − p − t)·2^t. */
  readonly maxValue: number;
  /** φ(k) for k = 1 … maxValue (index 0 unused): ρ(k) = 2^−φ(k). */
  readonly phi: Uint8Array;
  /** ρ(k) = 2^−φ(k) for k = 1 … maxValue; 0 at index 0. */
  readonly rho: Float64Array;
  /** ω(u) = Σ_{k > u} ρ(k), the probability of a value above u, for u = 0 … maxValue (ω(0) = 1). */
  readonly omega: Float64Array;
}

const models = new Map<number, ValueModel>();

/** The update-value tables of precision p and parameter t (cached). */
export function valueModel(p: number, t: number): ValueModel {
  const key = p * 4 + t;
  let model = models.get(key);
  if (model !== undefined) return model;
  const maxValue = (65 - p - t) << t;
  const phi = new Uint8Array(maxValue + 1);
  const rho = new Float64Array(maxValue + 1);
  for (let k = 1; k <= maxValue; k++) {
    phi[k] = Math.min(t + 1 + ((k - 1) >>> t), 64 - p);
    rho[k] = 2 ** -phi[k]!;
  }
  // Exact: ω(u) is (2^t·(j + 2) − u)·2^−(t+1+j) for u in group j (top group: a count times 2^−(64−p)).
  const omega = new Float64Array(maxValue + 1);
  for (let u = maxValue - 1; u >= 0; u--) omega[u] = omega[u + 1]! + rho[u + 1]!;
  model = { p, t, maxValue, phi, rho, omega };
  models.set(key, model);
  return model;
}

/**
 * The register `r` (window of d flags) after also seeing value k ≥ 1: a larger value slides the
 * window down by the difference, taking the old maximum's own flag along; a value 1 … d below u
 * sets its flag; anything else leaves the register alone. Returns `r` itself when nothing changes.
 * O(1). The result is an int32 bit pattern (u << d can reach bit 31).
 */
export function registerWith(r: number, k: number, d: number): number {
  const u = r >>> d;
  if (k > u) {
    const delta = k - u;
    return (k << d) | (delta > d || r === 0 ? 0 : ((r & ((1 << d) - 1)) | (1 << d)) >>> delta);
  }
  const delta = u - k;
  if (delta === 0 || delta > d) return r;
  return r | (1 << (d - delta));
}

/**
 * The register holding every value either register holds (within the window of the larger
 * maximum): exact, since values more than d below the union's maximum are forgotten by both
 * sides' futures alike. Commutative, associative, idempotent. O(1).
 */
export function unionRegisters(x: number, y: number, d: number): number {
  if (x === 0) return y;
  if (y === 0) return x;
  let hi = x;
  let lo = y;
  if (x >>> d < y >>> d) {
    hi = y;
    lo = x;
  }
  const delta = (hi >>> d) - (lo >>> d);
  if (delta > d) return hi;
  const mask = (1 << d) - 1;
  return hi | ((((lo & mask) | (1 << d)) >>> delta) & mask);
}

/**
 * Unites every register of `from` into the register of `into` at the same index (arrays of one
 * length, registers with d flags): `merge` of two sketches of the same shape.
 * @returns true when a register of `into` changed. O(m).
 */
export function mergeRegisters(into: Uint8Array | Int32Array, from: Uint8Array | Int32Array, d: number): boolean {
  let changed = false;
  for (let i = 0; i < into.length; i++) {
    const x = into[i]!;
    const y = from[i]!;
    if (y === 0 || x === y) continue;
    const s = unionRegisters(x, y, d);
    if (s !== x) {
      into[i] = s;
      changed = true;
    }
  }
  return changed;
}

/**
 * True when `r` is a register some stream can produce: 0, or 1 ≤ u ≤ maxValue with no flag for a
 * value below 1 (no bits above the register's 6 + t + d, which u ≤ maxValue implies for r ≥ 0).
 */
export function validRegister(r: number, d: number, maxValue: number): boolean {
  if (r === 0) return true;
  const u = r >>> d;
  if (u < 1 || u > maxValue) return false;
  // Flags exist for u − 1 … max(1, u − d): bits d − 1 … d − min(d, u − 1); the lower ones must be 0.
  const missing = d - Math.min(d, u - 1);
  return missing === 0 || (r & ((1 << missing) - 1)) === 0;
}

/**
 * The paper's h(r): the probability that the next element, given it lands on this register,
 * changes it — a value above u, or an unflagged value of the window. 1 for an empty register.
 * Exact (a dyadic rational spanning at most d + t + 3 bits). O(d).
 */
export function changeProbability(model: ValueModel, r: number, d: number): number {
  if (r === 0) return 1;
  const u = r >>> d;
  const rho = model.rho;
  let h = model.omega[u]!;
  const lim = u - 1 < d ? u - 1 : d;
  for (let i = 1; i <= lim; i++) if (((r >>> (d - i)) & 1) === 0) h += rho[u - i]!;
  return h;
}

/**
 * Tables that make {@link changeProbability} O(1) for registers with d flags (ExaLogLog's add path):
 * below the top group, ρ(u − i) = ρ(u)·2^⌈(i − f)/2^t⌉ with f = (u − 1) mod 2^t, so the flagged
 * values' total is ρ(u) times a sum that depends only on f and the flag bits, tabulated per byte of
 * flags. Then h = ω(u) + (the whole window's rate) − ρ(u)·(that sum): each part a dyadic rational
 * spanning fewer than 53 bits, so h is exactly {@link changeProbability}'s.
 */
export interface WindowModel {
  readonly values: ValueModel;
  readonly d: number;
  /** Σ ρ(k) over the window of u, k = max(1, u − d) … u − 1. */
  readonly window: Float64Array;
  /** Bytes of flags, ⌈d/8⌉. */
  readonly bytes: number;
  /** Per f, byte b and byte value v (index (f·bytes + b)·256 + v): Σ over v's bits of ρ(u − i)/ρ(u). */
  readonly scaled: Float64Array;
  /** The top group's first value: from there ρ is capped and {@link changeProbability}'s loop is used. */
  readonly capped: number;
}

const windows = new Map<number, WindowModel>();

/** The tables of precision p, parameter t and d flags (cached). */
export function windowModel(p: number, t: number, d: number): WindowModel {
  const key = (p * 4 + t) * 32 + d;
  let w = windows.get(key);
  if (w !== undefined) return w;
  const values = valueModel(p, t);
  const window = new Float64Array(values.maxValue + 1);
  for (let u = 1; u <= values.maxValue; u++) {
    for (let k = Math.max(1, u - d); k < u; k++) window[u]! += values.rho[k]!;
  }
  const bytes = (d + 7) >>> 3;
  const scaled = new Float64Array((bytes << 8) << t);
  for (let f = 0; f < 1 << t; f++) {
    for (let b = 0; b < bytes; b++) {
      for (let v = 0; v < 256; v++) {
        let sum = 0;
        for (let bit = 0; bit < 8; bit++) {
          const q = 8 * b + bit; // flag bit q is the value u − (d − q)
          if (q < d && ((v >>> bit) & 1) === 1) sum += 2 ** Math.ceil((d - q - f) / (1 << t));
        }
        scaled[((f * bytes + b) << 8) | v] = sum;
      }
    }
  }
  w = { values, d, window, bytes, scaled, capped: ((64 - p - t) << t) + 1 };
  windows.set(key, w);
  return w;
}

/** {@link changeProbability} of a register with `w.d` flags, in O(⌈d/8⌉) below the top group. */
export function changeProbabilityOf(w: WindowModel, r: number): number {
  if (r === 0) return 1;
  const d = w.d;
  const u = r >>> d;
  if (u >= w.capped) return changeProbability(w.values, r, d);
  const flags = r & ((1 << d) - 1);
  const t = w.values.t;
  const base = ((u - 1) & ((1 << t) - 1)) * w.bytes;
  const scaled = w.scaled;
  let sum = 0;
  for (let b = 0; b < w.bytes; b++) sum += scaled[((base + b) << 8) | ((flags >>> (8 * b)) & 255)]!;
  return w.values.omega[u]! + w.window[u]! - w.values.rho[u]! * sum;
}

/**
 * Adds `count` registers equal to `r` to the likelihood's coefficients: increments `beta[j]` for
 * each value of rate 2^−j the register knows present, and returns the rate of the values it knows
 * absent, times `count` (α's share). O(d).
 */
export function mlTerms(model: ValueModel, r: number, d: number, count: number, beta: Float64Array): number {
  if (r === 0) return count;
  const { phi, rho } = model;
  const u = r >>> d;
  let alpha = model.omega[u]!;
  beta[phi[u]!]! += count;
  const lim = u - 1 < d ? u - 1 : d;
  for (let i = 1; i <= lim; i++) {
    const k = u - i;
    if (((r >>> (d - i)) & 1) !== 0) beta[phi[k]!]! += count;
    else alpha += rho[k]!;
  }
  return alpha * count;
}

/**
 * The maximum-likelihood estimate of n from the coefficients α and β (see the header), m registers:
 * m·λ̂ with λ̂ the root of α = Σ_j β_j·2^−j/(e^(λ·2^−j) − 1) (the right side decreases in λ).
 * @returns 0 when no value is known present (an empty sketch), Infinity when none is known absent
 *   (every value of every register seen). O(64) per step of {@link rootLog}.
 */
export function mlEstimate(alpha: number, beta: Float64Array, m: number): number {
  let lo = beta.length;
  let hi = -1;
  for (let j = 0; j < beta.length; j++) {
    if (beta[j] !== 0) {
      if (lo > j) lo = j;
      hi = j;
    }
  }
  if (hi < 0) return 0;
  if (alpha === 0) return Number.POSITIVE_INFINITY;
  const f = (l: number) => {
    let sum = 0;
    for (let j = lo; j <= hi; j++) {
      const b = beta[j]!;
      if (b === 0) continue;
      const r = 2 ** -j;
      sum += (b * r) / Math.expm1(l * r);
    }
    return alpha - sum;
  };
  return m * rootLog(f);
}

/**
 * The root of an increasing function of λ > 0, solved on x = log2 λ in [−90, 90]: bisection down to
 * a bracket one doubling wide, then the Illinois variant of regula falsi (superlinear, and never
 * leaves the bracket) to 10^−13. About 20 evaluations of f.
 */
export function rootLog(f: (l: number) => number): number {
  let a = -90;
  let b = 90;
  let fa = f(2 ** a);
  let fb = f(2 ** b);
  if (fb < 0) return Number.POSITIVE_INFINITY;
  if (fa >= 0) return 2 ** a;
  while (b - a > 1) {
    const mid = 0.5 * (a + b);
    const fm = f(2 ** mid);
    if (fm < 0) {
      a = mid;
      fa = fm;
    } else {
      b = mid;
      fb = fm;
    }
  }
  let side = 0;
  for (let i = 0; i < 60 && b - a > 1e-13; i++) {
    const x = (a * fb - b * fa) / (fb - fa);
    const fx = f(2 ** x);
    if (fx === 0) return 2 ** x;
    if (fx < 0) {
      a = x;
      fa = fx;
      if (side === -1) fb *= 0.5;
      side = -1;
    } else {
      b = x;
      fb = fx;
      if (side === 1) fa *= 0.5;
      side = 1;
    }
  }
  return 2 ** (0.5 * (a + b));
}

/**
 * Standard deviation of the maximum-likelihood estimate at true cardinality n from m registers of
 * this model with d flags, for `bounds()`: the Cramér–Rao variance m/I(λ) of the Poisson model,
 * less the Poisson part n of a fixed count (as hllStdDev in estimators.ts). I(λ) is the Fisher
 * information of one register: given its maximum u, its flags are independent indicators, each
 * carrying ρ²·e^(−λρ)/(1 − e^(−λρ)), and u's own score is ρ(u)·e^(−λρ(u))/(1 − e^(−λρ(u))) − ω(u);
 * an empty register (probability e^(−λ)) has score −1. O(maxValue).
 */
export function mlStdDev(n: number, m: number, model: ValueModel, d: number): number {
  if (!(n > 0)) return 0;
  const l = n / m;
  const { maxValue, rho, omega } = model;
  // info[k]: the flags' information summed over values 1 … k (prefix sums for the window).
  const info = new Float64Array(maxValue + 1);
  for (let k = 1; k <= maxValue; k++) {
    const a = l * rho[k]!;
    info[k] = info[k - 1]! + (rho[k]! * rho[k]! * Math.exp(-a)) / -Math.expm1(-a);
  }
  let total = Math.exp(-l);
  for (let u = 1; u <= maxValue; u++) {
    const a = l * rho[u]!;
    const pu = -Math.expm1(-a) * Math.exp(-l * omega[u]!);
    if (!(pu > 0)) continue;
    const score = (rho[u]! * Math.exp(-a)) / -Math.expm1(-a) - omega[u]!;
    const low = u - d > 1 ? u - d : 1;
    total += pu * (score * score + (info[u - 1]! - info[low - 1]!));
  }
  return Math.sqrt(Math.max(0, m / total - n));
}

/**
 * For toHyperLogLog(): HyperLogLog's run (1 … 65 − p) of the elements whose largest update value
 * is u ≥ 1. Below the top group a group is one run; the top group (every hash bit from p to
 * 63 − t zero) holds the last t + 1 runs, ordered so that a larger value never has a shorter run
 * (see exaloglog.ts), hence the run of the largest value is the largest run. O(1).
 */
export function hyperLogLogRun(model: ValueModel, u: number): number {
  const { p, t } = model;
  const j = (u - 1) >>> t;
  if (j < 64 - p - t) return j + 1;
  // The top group's f = (u − 1) mod 2^t: its leading ones count the run beyond 65 − p − t.
  const f = (u - 1) & ((1 << t) - 1);
  let ones = 0;
  for (let b = t - 1; b >= 0 && ((f >>> b) & 1) === 1; b--) ones++;
  return 65 - p - t + ones;
}

/**
 * The exact part of lowering the precision by `shift` bits: the contribution of fine register `r`
 * (whose index has `upper` as its dropped bits) to its coarse register, or −1 when the coarse values
 * depend on hash bits the register may have forgotten (only when t ≥ 1; see ExaLogLog.downsize).
 * - upper = 0: every element's coarse value is its fine value plus shift·2^t (the dropped bits are
 *   zeros that lengthen its run), so the register shifts whole, flags and all.
 * - upper ≠ 0: every element's coarse run is ctz(upper) + 1, and its t refining bits are the bits
 *   of upper above that run when there are t of them: one coarse value for the whole register.
 * O(1).
 */
export function coarseRegister(r: number, upper: number, shift: number, t: number, d: number): number {
  if (r === 0) return 0;
  if (upper === 0) return (((r >>> d) + (shift << t)) << d) | (r & ((1 << d) - 1)) | 0;
  const run = 32 - Math.clz32(upper & -upper);
  if (shift - run < t) return -1;
  return ((((run - 1) << t) + ((upper >>> run) & ((1 << t) - 1)) + 1) << d) | 0;
}
