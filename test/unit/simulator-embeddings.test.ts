import { describe, expect, it } from 'vitest';
import { answerEmbeddings, embed, EMBEDDING_DIMENSIONS } from '../../src/simulator/embeddings';
import { cosineSimilarity as cosine } from '../../src/retrieval/cosine';

describe('simulated embeddings', () => {
  it('are L2-normalised vectors of fixed dimension', () => {
    const vector = embed('Paris is the capital of France');
    expect(vector).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 10);
  });

  it('give similar texts a higher cosine than unrelated ones', () => {
    const claim = embed('Paris is the capital of France');
    const similar = embed('The capital of France is Paris');
    const unrelated = embed('Photosynthesis converts light into chemical energy');
    expect(cosine(claim, similar)).toBeGreaterThan(0.9);
    expect(cosine(claim, unrelated)).toBeLessThan(0.3);
  });

  it('answers in float or base64 encoding', () => {
    const floats = answerEmbeddings({ model: 'm', input: ['a b', 'c'] });
    expect(floats.status).toBe(200);
    const body = floats.body as { data: { embedding: number[] }[]; usage: { prompt_tokens: number } };
    expect(body.data).toHaveLength(2);
    expect(body.usage.prompt_tokens).toBe(3);
    const base64 = answerEmbeddings({ model: 'm', input: 'a b', encoding_format: 'base64' }).body as { data: { embedding: string }[] };
    const decoded = new Float32Array(Buffer.from(base64.data[0]!.embedding, 'base64').buffer.slice(0));
    expect(decoded[0]).toBeCloseTo(embed('a b')[0]!, 6);
    expect(answerEmbeddings({ model: 'm' }).status).toBe(400);
  });
});
