import { TOOL_MAD_LABEL_SET_TABLE, type ResolvedLabelSetName } from '../../methods/tool-mad/sandbox/tool-mad-labels';

/**
 * What each method does with an LLM answer that stayed invalid (not JSON, wrong schema, cut off)
 * after its one re-ask, or at once where the method's released code does (sandbox-safe; workflows
 * import these). Sources per method in src/methods/<m>/README.md ("Invalid answers").
 */

/** rag and the fallbacks that end in NEI name this in the rationale. */
export const NO_VALID_ANSWER_RATIONALE = 'no valid answer';

/**
 * EMULATE's released code (cli.py) compares `output.strip().lower()` with "yes"/"true"; anything
 * else is No/False (spec emulate.md §2 "Binary agents", §2.7). An invalid answer is such an output.
 */
export const EMULATE_INVALID_BINARY_ANSWER = false;

/** A Tool-MAD debater with no valid answer abstains: this argument, no label, no stability scores. */
export const TOOL_MAD_ABSTAINING_ANSWER = '(no valid answer: this debater abstains)';

export function isToolMadAbstention(answer: string): boolean {
  return answer === TOOL_MAD_ABSTAINING_ANSWER;
}

/** ToE claim analysis with no valid answer: the features of a claim nothing is known about. */
export const TOE_UNKNOWN_CLAIM_ANALYSIS = {
  category: 'other',
  locale: 'global',
  recent: false,
  historical: false,
  factual: true,
  opinion: false,
  prediction: false,
} as const;

/** ToE query plan with no valid answer: no planned queries (the query writer works from the claim). */
export const TOE_EMPTY_QUERY_PLAN = { background: [] as string[], supporting: [] as string[], counter: [] as string[] };

/**
 * ToE evidence analysis with no valid answer: the document counts as unverified evidence (neutral,
 * not relevant, not credible), so it moves neither veracity nor reliability.
 */
export const TOE_UNVERIFIED_ANALYSIS = { stance: 'neutral', relevance: 0, credibility: 0, authoritative: false, primary: false } as const;

/** The label of a Tool-MAD verdict that no debater or judge labelled: the set's first NEI label (NOT ENOUGH INFO for sets without one). */
export function toolMadNoAnswerLabel(set: ResolvedLabelSetName): string {
  return TOOL_MAD_LABEL_SET_TABLE[set].find((label) => label.verdict === 'NEI')?.text ?? 'NOT ENOUGH INFO';
}
