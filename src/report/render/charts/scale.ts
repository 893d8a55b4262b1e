/** Linear scales and readable tick values for the charts. */
export type Scale = (value: number) => number;

export function linearScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** About `count` round tick values from 0 to at least `max` (steps of 1, 2 or 5 × 10^k). */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= rough) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let i = 0; i * step < max + step / 2 && ticks.length <= count * 2 + 1; i += 1) ticks.push(Number((i * step).toPrecision(12)));
  if ((ticks[ticks.length - 1] ?? 0) < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

export function tickLabel(value: number): string {
  if (value === 0) return '0';
  if (Math.abs(value) < 1e-6) return value.toExponential(0);
  return String(Number(value.toPrecision(3)));
}
