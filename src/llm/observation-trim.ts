import { CHARS_PER_TOKEN } from './token-estimate';
import type { ChatMessage } from './types';

/** A shortened tool observation keeps at least this much of its text. */
export const MIN_OBSERVATION_CHARS = 120;
export const OBSERVATION_PREFIX = 'Observation: ';
const TRUNCATION_MARK = '…';

export interface ObservationTrim {
  messages: ChatMessage[];
  /** Observation lines that were shortened. */
  shortened: number;
  /** False when every observation is down to MIN_OBSERVATION_CHARS and still not enough was freed. */
  freedEnough: boolean;
}

/**
 * Shortens the tool observations of a ReAct history (`Observation: …` lines, MERMAID's H_t) by
 * about `tokensToFree` estimated tokens, oldest first: the latest results matter most for the
 * next step. Lines are cut, never removed, so the Thought / Action / Observation sequence stays
 * whole. Pure: the messages given are not changed.
 */
export function trimObservations(messages: readonly ChatMessage[], tokensToFree: number): ObservationTrim {
  let charsToFree = Math.ceil(tokensToFree * CHARS_PER_TOKEN);
  let shortened = 0;
  const rewritten = messages.map((message) => {
    if (charsToFree <= 0 || !message.content.includes(OBSERVATION_PREFIX)) return message;
    const lines = message.content.split('\n').map((line) => {
      if (charsToFree <= 0 || !line.startsWith(OBSERVATION_PREFIX)) return line;
      const text = line.slice(OBSERVATION_PREFIX.length);
      const removable = text.length - MIN_OBSERVATION_CHARS - TRUNCATION_MARK.length;
      if (removable <= 0) return line;
      const cut = Math.min(removable, charsToFree);
      charsToFree -= cut;
      shortened += 1;
      return `${OBSERVATION_PREFIX}${text.slice(0, text.length - cut - TRUNCATION_MARK.length).trimEnd()}${TRUNCATION_MARK}`;
    });
    return { ...message, content: lines.join('\n') };
  });
  return { messages: rewritten, shortened, freedEnough: charsToFree <= 0 };
}
