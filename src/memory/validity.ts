import type { MemoryObservation } from '../shared/memory';

export type InvalidObservationReason = 'error' | 'empty' | 'notFound';

const EMPTY_PAYLOADS = new Set(['', '[]', '{}', 'null', 'none', '""']);
const ERROR_PATTERNS = [/^\W{0,4}error\b/i, /input validation error/i, /^\W{0,4}(exception|traceback)\b/i];
const NOT_FOUND_PATTERNS = [
  /page does not exist/i,
  /"exists"\s*:\s*false/i,
  /^\W{0,4}(no (results?|matches|articles?|pages?|papers?)( were)? found|not found)\b/i,
  /"results"\s*:\s*\[\s*\]/i,
];

/**
 * Why an observation is not worth remembering (the paper keeps only "valid evidence"; spec §9.19
 * drops errors, empty results and "Page does not exist"), or undefined when it is. Patterns are
 * anchored to tool messages so that evidence merely mentioning "not found" is kept.
 */
export function invalidReason(observation: Pick<MemoryObservation, 'evidence' | 'isError'>): InvalidObservationReason | undefined {
  const text = observation.evidence.trim();
  if (observation.isError || ERROR_PATTERNS.some((pattern) => pattern.test(text))) return 'error';
  if (EMPTY_PAYLOADS.has(text.toLowerCase())) return 'empty';
  if (NOT_FOUND_PATTERNS.some((pattern) => pattern.test(text))) return 'notFound';
  return undefined;
}
