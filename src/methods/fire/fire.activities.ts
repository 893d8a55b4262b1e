import { cosineSimilarity } from '../../retrieval/cosine';
import type { ActivityDependencies } from '../../../activities/index';

export interface TextSimilarityInput {
  a: string;
  b: string;
}

/**
 * FIRE's activity beyond LLM tasks and tool calls: its near-duplicate test, the cosine similarity
 * of two texts' embeddings (FIRE uses SBERT).
 */
export function createFireActivities(deps: Pick<ActivityDependencies, 'gateway'>) {
  return {
    async fireTextSimilarity({ a, b }: TextSimilarityInput): Promise<number> {
      if (a.trim() === '' || b.trim() === '') return 0;
      const [left, right] = await deps.gateway.embed([a, b], { input: 'query' });
      return cosineSimilarity(left!, right!);
    },
  };
}

export type FireActivities = ReturnType<typeof createFireActivities>;
