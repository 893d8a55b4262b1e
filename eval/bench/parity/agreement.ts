export interface Proportion {
  successes: number;
  n: number;
  share: number;
  /** Wilson score interval at 95%: stays inside [0, 1] and is not degenerate at 0 or n successes. */
  low: number;
  high: number;
}

const Z_95 = 1.959963984540054;

export function wilsonInterval(successes: number, n: number): Proportion {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || n < 0 || successes > n) {
    throw new RangeError(`wilsonInterval: need integers 0 <= successes <= n, got ${successes}/${n}`);
  }
  if (n === 0) return { successes, n, share: Number.NaN, low: 0, high: 1 };
  const p = successes / n;
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { successes, n, share: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Label agreement over the claims both sides finished. */
export function labelAgreement(pairs: Array<{ reference: string; verity: string }>): Proportion {
  const agree = pairs.filter((pair) => pair.reference.trim().toLowerCase() === pair.verity.trim().toLowerCase()).length;
  return wilsonInterval(agree, pairs.length);
}
