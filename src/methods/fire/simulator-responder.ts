import { FIRE_SCHEMA_NAMES } from './tasks';
import type { SchemaResponder } from '../../simulator/method-responders';
import type { PromptReading } from '../../simulator/prompt-reader';
import { stableIndex } from '../../simulator/schema-generator';
import { contentWords } from '../../simulator/text';

/**
 * The simulator's FIRE agent, deterministic from the prompt: it answers once the knowledge decides
 * the claim (word overlap), and otherwise asks for a query built from the claim's words, shifted
 * at each step (short claims so repeat their query, which exercises the early stop). Some claims
 * get an unreadable first answer, which exercises FIRE's retries.
 */

function knowledgeCount(reading: PromptReading): number {
  return reading.passages.filter((p) => /^s\d+$/.test(p.id)).length;
}

function attemptOf(messages: readonly { content?: unknown }[]): number {
  const text = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  return Number(/\(Attempt (\d+):/.exec(text)?.[1] ?? 1);
}

function ownKnowledge(reading: PromptReading): boolean {
  return reading.decision.label === 'SUPPORTED' || (reading.decision.label === 'NEI' && stableIndex(reading.claim, 4) !== 0);
}

function queryFor(claim: string, step: number): string {
  const words = [...contentWords(claim)];
  const shift = (2 * step) % Math.max(1, words.length);
  return words.slice(shift).concat(words.slice(0, shift)).slice(0, 6).join(' ') || claim;
}

const step: SchemaResponder = (reading, _schema, messages) => {
  const attempt = attemptOf(messages);
  if (attempt === 1 && stableIndex(`unreadable ${reading.claim}`, 9) === 0) {
    return { reasoning: reading.rationale, next: { final_answer: 'Probably', confidence: null } };
  }
  if (reading.decision.label !== 'NEI') {
    return { reasoning: reading.rationale, next: { final_answer: reading.decision.label === 'SUPPORTED' ? 'True' : 'False', confidence: reading.decision.overlap } };
  }
  return { reasoning: reading.rationale, next: { search_query: queryFor(reading.claim, knowledgeCount(reading)) } };
};

const finalAnswer: SchemaResponder = (reading) => ({ reasoning: reading.rationale, final_answer: ownKnowledge(reading) ? 'True' : 'False' });

/** Simulator answers for the `fire` method's structured tasks, keyed by schema name. */
export const fireResponders: Record<string, SchemaResponder> = {
  [FIRE_SCHEMA_NAMES.step]: step,
  [FIRE_SCHEMA_NAMES.finalAnswer]: finalAnswer,
};
