import type { SchemaResponder } from '../../simulator/method-responders';
import { stableIndex } from '../../simulator/schema-generator';
import { VERDICT_LABELS } from '../../shared/constants';

/**
 * The simulator's closed-book model: with no evidence in the prompt, its "knowledge" is a fixed
 * function of the claim (the same claim always gets the same label), so the three labels and the
 * report's per-label rows all occur.
 */
export const llmOnlyVerdictResponder: SchemaResponder = (reading) => {
  const label = VERDICT_LABELS[stableIndex(`llm-only ${reading.claim}`, VERDICT_LABELS.length)]!;
  return { label, rationale: `From what I know, the claim "${reading.claim}" is ${label === 'SUPPORTED' ? 'true' : label === 'REFUTED' ? 'false' : 'not something I can decide'}.` };
};
