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
      return cosine(left!, right!);
    },
  };
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * (b[i] ?? 0);
    normA += a[i]! * a[i]!;
    normB += (b[i] ?? 0) * (b[i] ?? 0);
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
