/**
 * Reading one FIRE step (spec §6.1): a final answer "True"/"False", or one search query.
 * Sandbox-safe: workflows import it.
 */

export interface FireStepOutput {
  reasoning: string;
  final_answer: string | null;
  confidence: number | null;
  search_query: string | null;
}

export type FireDecision =
  | { kind: 'answer'; answer: boolean; confidence: number | null }
  | { kind: 'search'; query: string }
  | { kind: 'unparseable' };

/** An answer that is exactly True/False (any case, surrounding space and quotes) wins over a query. */
export function readFireStep(output: Pick<FireStepOutput, 'final_answer' | 'confidence' | 'search_query'>): FireDecision {
  const answer = readFireAnswer(output.final_answer);
  if (answer !== undefined) return { kind: 'answer', answer, confidence: output.confidence };
  const query = output.search_query?.trim() ?? '';
  return query === '' ? { kind: 'unparseable' } : { kind: 'search', query };
}

/** FIRE accepts only "True" or "False" as a final answer. */
export function readFireAnswer(text: string | null | undefined): boolean | undefined {
  const word = (text ?? '').trim().replace(/^["']|["']$/g, '').toLowerCase();
  if (word === 'true') return true;
  if (word === 'false') return false;
  return undefined;
}
