import { toTemporalFailure } from '../../llm/errors';
import type { LlmGateway } from '../../llm/gateway';
import { cosineSimilarity } from '../../retrieval/cosine';

export interface QuestionSimilarityInput {
  claim: string;
  questions: string[];
  /** The embedding model of answer relevance (settings' relevanceEmbeddingModel); absent: the worker's query embedding model. */
  model?: string;
}

/**
 * Activities of the `tool-mad` method beyond LLM tasks and tool calls: the embedding half of
 * answer relevance. Only the cosines cross into the history, never the vectors.
 */
export function createToolMadActivities(deps: { gateway: Pick<LlmGateway, 'embed'> }) {
  return {
    /** cos(e(claim), e(q_i)) for each generated question, in order; blank questions are left out. */
    async toolMadQuestionSimilarity(input: QuestionSimilarityInput): Promise<{ cosines: number[] }> {
      const questions = input.questions.filter((q) => q.trim() !== '');
      if (questions.length === 0) return { cosines: [] };
      try {
        const [claim, ...vectors] = await deps.gateway.embed([input.claim, ...questions], { input: 'query', ...(input.model ? { model: input.model } : {}) });
        return { cosines: vectors.map((vector) => cosineSimilarity(claim!, vector)) };
      } catch (err) {
        throw toTemporalFailure(err);
      }
    },
  };
}

export type ToolMadActivities = ReturnType<typeof createToolMadActivities>;
