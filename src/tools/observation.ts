import { OBSERVATION_MAX_CHARS } from '../shared/constants';
import { truncate } from '../shared/text';

export interface Observation {
  /** What an agent reads: the tool's data as JSON, cut to OBSERVATION_MAX_CHARS. */
  observation: string;
  truncated: boolean;
}

/** The one way tool output becomes an observation, so every tool is cut the same way. */
export function toObservation(data: unknown): Observation {
  const full = typeof data === 'string' ? data : JSON.stringify(data);
  return { observation: truncate(full, OBSERVATION_MAX_CHARS), truncated: full.length > OBSERVATION_MAX_CHARS };
}
