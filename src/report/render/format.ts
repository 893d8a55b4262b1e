import type { ConfidenceInterval } from '../../metrics';
import { humanDuration } from '../../shared/human-duration';

/** Display formats shared by the Markdown and HTML renderers. */
export function fixed(value: number | null, digits = 3): string {
  return value !== null && Number.isFinite(value) ? value.toFixed(digits) : '–';
}

export function withCI(ci: ConfidenceInterval): string {
  return ci.resamples === 0 ? fixed(ci.estimate) : `${fixed(ci.estimate)} [${fixed(ci.lower)}, ${fixed(ci.upper)}]`;
}

export function usd(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value !== 0 && Math.abs(value) < 0.01 ? `$${value.toPrecision(2)}` : `$${value.toFixed(2)}`;
}

/** A duration in human units ("3 min 30 s", not "210477 ms"). */
export function duration(ms: number): string {
  return humanDuration(ms);
}

export function signed(value: number | null, digits = 3): string {
  return `${value !== null && value > 0 ? '+' : ''}${fixed(value, digits)}`;
}

export function signedUsd(value: number): string {
  return `${value > 0 ? '+' : value < 0 ? '-' : ''}${usd(Math.abs(value))}`;
}
