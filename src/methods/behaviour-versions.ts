import type { MethodName } from '../shared/constants';

/**
 * The version of each method's answer-changing behaviour that its settings do not spell out, such
 * as a changed default. Bumping one makes verifications new (they enter the identity with the prompt
 * versions), so verdicts made under the old behaviour are never reused for the new one.
 */
export const METHOD_BEHAVIOUR_VERSIONS: Readonly<Record<MethodName, number>> = {
  rag: 1,
  mermaid: 1,
  fire: 1,
  emulate: 1,
  // 2: the RAG debater retrieves dense top-3 by default where the index has vectors (was BM25).
  'tool-mad': 2,
  toe: 1,
};
