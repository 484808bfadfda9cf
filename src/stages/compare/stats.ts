/**
 * Distributions and multiplicity: the normal and Student t CDFs and
 * quantiles the gate's intervals need, and Holm's step-down adjustment.
 * Plain numerics, no dependencies; accurate to ~1e-9, far below what a
 * verdict can notice.
 */

/**
 * erfc(z) for z ≥ 0: the all-positive series of erf below 3 (no cancellation),
 * the continued fraction of erfc above (Lentz). Relative error ~1e-14.
 */
function erfc(z: number): number {
  if (z < 3) {
    let term = z;
    let sum = z;
    for (let n = 1; n < 200 && term > 1e-17 * sum; n++) {
      term *= (2 * z * z) / (2 * n + 1);
      sum += term;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * Math.exp(-z * z) * sum;
  }
  // erfc(z) = exp(-z²)/√π · 1/(z + (1/2)/(z + 1/(z + (3/2)/(z + …))))
  const tiny = 1e-300;
  let f = z;
  let c = z;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = z + a * d;
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    c = z + a / c;
    if (Math.abs(c) < tiny) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(-z * z) / (Math.sqrt(Math.PI) * f);
}

/** Standard normal CDF. */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const tail = 0.5 * erfc(z);
  return x < 0 ? tail : 1 - tail;
}

/** Standard normal quantile: Acklam's rational approximation and one Halley step. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p <= 0 ? -Infinity : Infinity;
  const a = [
    -39.6968302866538, 220.946098424521, -275.928510446969, 138.357751867269, -30.6647980661472,
    2.50662827745924,
  ];
  const b = [
    -54.4760987982241, 161.585836858041, -155.698979859887, 66.8013118877197, -13.2806815528857,
  ];
  const c = [
    -0.00778489400243029, -0.322396458041136, -2.40075827716184, -2.54973253934373,
    4.37466414146497, 2.93816398269878,
  ];
  const d = [0.00778469570904146, 0.32246712907004, 2.445134137143, 3.75440866190742];
  const low = 0.02425;
  let x: number;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    x =
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
    if (p > 1 - low) x = -x;
  } else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  }
  const e = normalCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

function logGamma(x: number): number {
  // Lanczos (g = 7, n = 9): relative error ~1e-15 for x > 0.
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let s = g[0]!;
  for (let i = 1; i < 9; i++) s += g[i]! / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(s);
}

/** Keeps a Lentz denominator away from zero. */
const nonzero = (x: number): number => (x > -1e-300 && x < 1e-300 ? 1e-300 : x);

/** Continued fraction of the incomplete beta (modified Lentz), its even and odd steps in turn. */
function betaFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 / nonzero(1 - ((a + b) * x) / (a + 1));
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 / nonzero(1 + even * d);
    c = nonzero(1 + even / c);
    h *= d * c;
    const odd = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 / nonzero(1 + odd * d);
    c = nonzero(1 + odd / c);
    const step = d * c;
    h *= step;
    if (step > 1 - 1e-14 && step < 1 + 1e-14) return h;
  }
  return h;
}

const logBetas = new Map<string, number>();

/** log Γ(a+b) − log Γ(a) − log Γ(b), memoized: the gate asks for few distinct (a, b). */
function logInverseBeta(a: number, b: number): number {
  const key = `${a},${b}`;
  let v = logBetas.get(key);
  if (v === undefined) {
    v = logGamma(a + b) - logGamma(a) - logGamma(b);
    logBetas.set(key, v);
  }
  return v;
}

/** Regularized incomplete beta I_x(a, b). */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logInverseBeta(a, b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(x, a, b)) / a
    : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** Student t CDF with `df` degrees of freedom (normal when df is infinite). */
export function studentTCdf(t: number, df: number): number {
  if (!Number.isFinite(df)) return normalCdf(t);
  if (t === 0) return 0.5;
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

const quantiles = new Map<string, number>();

/** Student t quantile: bisection on the CDF from the normal quantile's bracket (memoized). */
export function studentTQuantile(p: number, df: number): number {
  if (!Number.isFinite(df)) return normalQuantile(p);
  const key = `${p}:${df}`;
  const known = quantiles.get(key);
  if (known !== undefined) return known;
  if (p === 0.5) return 0;
  const upper = p > 0.5;
  const target = upper ? p : 1 - p;
  let lo = 0;
  let hi = Math.max(1, normalQuantile(target));
  while (studentTCdf(hi, df) < target) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < target) lo = mid;
    else hi = mid;
  }
  const q = upper ? (lo + hi) / 2 : -(lo + hi) / 2;
  quantiles.set(key, q);
  return q;
}

/** Holm–Bonferroni step-down adjusted p-values, in the input order. */
export function holm(pValues: readonly number[]): number[] {
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(pValues.length);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
