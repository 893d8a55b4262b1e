import type { SimulatedVerdict } from './verdict-heuristic';

const LABEL_SYNONYMS: Record<SimulatedVerdict, string[]> = {
  SUPPORTED: ['supported', 'supports', 'support', 'true', 'yes', 'correct', 'entailment', 'entailed', 'mostly true'],
  REFUTED: ['refuted', 'refutes', 'refute', 'false', 'no', 'incorrect', 'contradiction', 'contradicted', 'mostly false'],
  NEI: ['nei', 'not enough info', 'not enough information', 'not enough evidence', 'insufficient', 'unverifiable', 'unknown', 'neutral', 'uncertain'],
};

function normalise(value: unknown): string {
  return String(value).toLowerCase().replace(/[_-]+/g, ' ').trim();
}

function verdictOf(value: unknown): SimulatedVerdict | undefined {
  const text = normalise(value);
  return (Object.keys(LABEL_SYNONYMS) as SimulatedVerdict[]).find((label) => LABEL_SYNONYMS[label].includes(text));
}

/** An enum is a verdict enum when it offers at least a "supported" and a "refuted" value. */
export function isVerdictEnum(values: readonly unknown[]): boolean {
  const labels = new Set(values.map(verdictOf));
  return labels.has('SUPPORTED') && labels.has('REFUTED');
}

/** The enum value for a verdict; an enum without an NEI value (true/false) gets its "refuted" value. */
export function pickVerdictValue(values: readonly unknown[], verdict: SimulatedVerdict): unknown {
  return values.find((v) => verdictOf(v) === verdict) ?? values.find((v) => verdictOf(v) === 'REFUTED');
}
