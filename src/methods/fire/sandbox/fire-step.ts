/**
 * Reading one FIRE step (spec §6.1): a final answer "True"/"False", or one search query. The step
 * schema sent to the model (`fire.step` version 3) is `{reasoning, next: {final_answer, confidence} |
 * {search_query}}`, so constrained decoding yields exactly one of the two; recorded histories and
 * servers that ignore the schema hold FIRE's flat format, which is read the same way.
 * Sandbox-safe: workflows import it.
 */

/** FIRE's flat reply (its released code's format; `fire.step` version 2). */
export interface FireFlatStep {
  reasoning: string;
  final_answer: string | null;
  confidence: number | null;
  search_query: string | null;
}

export type FireStepNext = { final_answer: string; confidence: number | null } | { search_query: string };

/** The reply as the step schema defines it (`fire.step` version 3 and later). */
export interface FireStepReply {
  reasoning: string;
  next: FireStepNext;
}

export type FireStepOutput = FireStepReply | FireFlatStep;

export type FireDecision =
  | { kind: 'answer'; answer: boolean; confidence: number | null }
  | { kind: 'search'; query: string }
  | { kind: 'unparseable' };

/** An answer that is exactly True/False (any case, surrounding space and quotes) wins over a query. */
export function readFireStep(reply: FireStepReply | Pick<FireFlatStep, 'final_answer' | 'confidence' | 'search_query'>): FireDecision {
  const output = flatStepOf(reply);
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function flatStepOf(reply: FireStepReply | Pick<FireFlatStep, 'final_answer' | 'confidence' | 'search_query'>): Pick<FireFlatStep, 'final_answer' | 'confidence' | 'search_query'> {
  if (!('next' in reply) || !isObject(reply.next)) return reply as Pick<FireFlatStep, 'final_answer' | 'confidence' | 'search_query'>;
  const next = reply.next;
  if ('final_answer' in next) return { final_answer: next.final_answer, confidence: next.confidence ?? null, search_query: null };
  return { final_answer: null, confidence: null, search_query: next.search_query };
}

/**
 * Reads a step reply into the step schema before it is validated, for servers that do not constrain
 * decoding: FIRE's flat format is lifted (a True/False answer wins over a query, as readFireStep
 * reads it), and a missing reasoning is empty. Anything else is returned as it is, for the schema
 * to reject (an unreadable answer, which FIRE retries).
 */
export function liftFireStep(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const reasoning = typeof raw.reasoning === 'string' ? raw.reasoning : '';
  const source = isObject(raw.next) ? raw.next : raw;
  const answer = typeof source.final_answer === 'string' ? readFireAnswer(source.final_answer) : undefined;
  if (answer !== undefined) {
    const confidence = typeof source.confidence === 'number' && source.confidence >= 0 && source.confidence <= 1 ? source.confidence : null;
    return { reasoning, next: { final_answer: answer ? 'True' : 'False', confidence } };
  }
  if (typeof source.search_query === 'string' && source.search_query.trim() !== '') return { reasoning, next: { search_query: source.search_query } };
  return raw;
}
