import type { ConfidenceInterval } from '../../metrics';

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

export function milliseconds(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value)} ms` : '–';
}

export function signed(value: number | null, digits = 3): string {
  return `${value !== null && value > 0 ? '+' : ''}${fixed(value, digits)}`;
}

export function signedUsd(value: number): string {
  return `${value > 0 ? '+' : value < 0 ? '-' : ''}${usd(Math.abs(value))}`;
}
