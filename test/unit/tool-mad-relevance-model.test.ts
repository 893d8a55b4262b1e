import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolMadActivities } from '../../src/methods/tool-mad/tool-mad.activities';
import { AGENT_ROLES } from '../../src/config/config';
import { LlmGateway } from '../../src/llm/gateway';
import { toolMadSettingsSchema } from '../../src/methods/tool-mad/settings-schema';

/** A recorded embeddings endpoint on 127.0.0.1: answers unit vectors and keeps each request's model and dimensions. */
const seen: { model: string; dimensions?: number }[] = [];
let server: http.Server;
let gateway: LlmGateway;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const request = JSON.parse(body) as { model: string; input: string[]; dimensions?: number; encoding_format?: string };
      seen.push({ model: request.model, ...(request.dimensions ? { dimensions: request.dimensions } : {}) });
      const data = request.input.map((_, index) => ({ object: 'embedding', index, embedding: request.encoding_format === 'base64' ? Buffer.from(new Float32Array([1, 0, 0]).buffer).toString('base64') : [1, 0, 0] }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data, model: request.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  gateway = new LlmGateway({
    endpoint: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-test' },
    models: Object.fromEntries(AGENT_ROLES.map((role) => [role, 'gpt-4o-mini'])) as LlmGateway['options']['models'],
    temperature: 0,
    seed: 7,
    timeoutMs: 5_000,
    prices: {},
    embeddingModel: 'text-embedding-3-small',
    embeddingDimensions: 3,
  });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("Tool-MAD's answer-relevance embedding model is a setting", () => {
  it('embeds claim and questions with the configured model when the setting is absent, with the named model when present', async () => {
    const { toolMadQuestionSimilarity } = createToolMadActivities({ gateway });
    seen.length = 0;
    expect(await toolMadQuestionSimilarity({ claim: 'c', questions: ['q1', 'q2'] })).toEqual({ cosines: [1, 1] });
    expect(await toolMadQuestionSimilarity({ claim: 'c', questions: ['q1'], model: 'text-embedding-3-large' })).toEqual({ cosines: [1] });
    // The index's dimensions belong to the index's model, not to the relevance model.
    expect(seen).toEqual([{ model: 'text-embedding-3-small', dimensions: 3 }, { model: 'text-embedding-3-large' }]);
  });

  it('is part of the method settings (and so of the verification identity)', () => {
    expect(toolMadSettingsSchema.parse({ relevanceEmbeddingModel: 'text-embedding-3-large' })).toEqual({ relevanceEmbeddingModel: 'text-embedding-3-large' });
    expect(toolMadSettingsSchema.safeParse({ relevanceEmbeddingModel: '' }).success).toBe(false);
  });
});
