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

/** Steps a duration axis is read in: 100 ms … 1 day. */
const DURATION_STEPS_MS = [100, 200, 500, 1e3, 2e3, 5e3, 10e3, 15e3, 30e3, 60e3, 120e3, 300e3, 600e3, 900e3, 1800e3, 3600e3, 7200e3, 21600e3, 43200e3, 86400e3];

/** Ticks from 0 to at least `maxMs` in a round duration step (1 min, 5 min …), about `count` of them. */
export function durationTicks(maxMs: number, count = 5): number[] {
  if (!(maxMs > 0)) return [0, 1000];
  const step = DURATION_STEPS_MS.find((s) => s * count >= maxMs) ?? Math.ceil(maxMs / count / 86400e3) * 86400e3;
  const ticks: number[] = [];
  for (let t = 0; ticks.length === 0 || (ticks[ticks.length - 1] as number) < maxMs; t += step) ticks.push(t);
  return ticks;
}
