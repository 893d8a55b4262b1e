/**
 * FIRE's prompts and answer reading as its released code does them (mbzuai-nlp/fire,
 * eval/fire/verify_atomic_claim.py and common/modeling.py), from templates the user's checkout
 * supplies at verification start (settings `releasedPromptsFrom`): the text is never part of verity.
 * Sandbox-safe: workflows import it.
 */

export const FIRE_RELEASED_COMMIT = 'cd7cb4af8dab00b1ab4bd78197a52e052203873d';

/** common.modeling.Model's max_tokens default, which the released code's rater keeps. */
export const FIRE_RELEASED_MAX_TOKENS = 2048;

export interface FireReleasedPrompts {
  commit: string;
  /** modeling.SYS_PROMPT, sent as the system message. */
  system: string;
  /** _FINAL_ANSWER_OR_NEXT_SEARCH_FORMAT with its f-string fields filled in ([STATEMENT] and [KNOWLEDGE] left). */
  step: string;
  /** _MUST_HAVE_FINAL_ANSWER_FORMAT, likewise. */
  final: string;
}

/** verify_atomic_claim.py's rendering: statement, then knowledge (every occurrence), then strip_string (spaces and newlines). */
export function renderFireReleased(template: string, claim: string, knowledge: string): string {
  const filled = template.split('[STATEMENT]').join(claim).split('[KNOWLEDGE]').join(knowledge);
  return filled.replace(/^[ \n]+|[ \n]+$/g, '');
}

/** The search results joined by newlines; the answer-or-search prompt says "N/A" when there are none, the forced one leaves it empty. */
export function releasedKnowledge(results: readonly string[], prompt: 'step' | 'final'): string {
  const joined = results.join('\n');
  return prompt === 'step' && joined === '' ? 'N/A' : joined;
}

/** utils.extract_json_from_output: the greedy first-`{`-to-last-`}` span, parsed; undefined when absent or not JSON. */
export function extractReleasedJson(text: string): unknown {
  const match = /\{[\s\S]*\}/.exec(text);
  if (!match) return undefined;
  try {
    return JSON.parse(match[0]) as unknown;
  } catch {
    return undefined;
  }
}

export type FireReleasedStep = { kind: 'answer'; answer: unknown } | { kind: 'search'; query: string } | { kind: 'unparseable' };

/** final_answer_or_next_search: a `final_answer` key wins (whatever its value), then `search_query`; else the step is tried again. */
export function readReleasedStep(text: string): FireReleasedStep {
  const json = extractReleasedJson(text);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { kind: 'unparseable' };
  if ('final_answer' in json) return { kind: 'answer', answer: (json as Record<string, unknown>).final_answer };
  if ('search_query' in json) {
    const query = (json as Record<string, unknown>).search_query;
    return { kind: 'search', query: typeof query === 'string' ? query : JSON.stringify(query) };
  }
  return { kind: 'unparseable' };
}

/** must_get_final_answer: only the exact strings "True" and "False" count; anything else is tried again. */
export function readReleasedFinal(text: string): boolean | undefined {
  const json = extractReleasedJson(text);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const answer = (json as Record<string, unknown>).final_answer;
  return answer === 'True' ? true : answer === 'False' ? false : undefined;
}

/** A step's final answer as a label: the code returns it as given; only "True" and "False" are labels. */
export function releasedAnswerLabel(answer: unknown): boolean | undefined {
  return answer === 'True' ? true : answer === 'False' ? false : undefined;
}

/** query_serper.SerperAPI._parse_results over organic results: the snippets as given, joined by one space. */
export function releasedSearchText(snippets: readonly string[]): string {
  return snippets.length === 0 ? 'No good Google Search result was found' : snippets.join(' ');
}
