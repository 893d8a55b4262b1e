import { cosineSimilarity } from '../src/retrieval/cosine';
import type { ActivityDependencies } from './index';

export interface TextSimilarityInput {
  a: string;
  b: string;
}

/**
 * Activities of the `emulate` and `fire` methods beyond LLM tasks and tool calls: FIRE's
 * near-duplicate test, the cosine similarity of two texts' embeddings (FIRE uses SBERT).
 */
export function createEmulateActivities(deps: Pick<ActivityDependencies, 'gateway'>) {
  return {
    async fireTextSimilarity({ a, b }: TextSimilarityInput): Promise<number> {
      if (a.trim() === '' || b.trim() === '') return 0;
      const [left, right] = await deps.gateway.embed([a, b], { input: 'query' });
      return cosineSimilarity(left!, right!);
    },
  };
}
