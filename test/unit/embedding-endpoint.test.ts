import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { createLlmGateway } from '../../src/llm/create-gateway';
import { describeEmbeddings, embeddingEndpointOf } from '../../src/llm/embedding-endpoint';
import type { ResolvedLlmEndpoint } from '../../src/llm/endpoint';
import { passageEmbedder, queryEmbedder } from '../../src/retrieval/embedder';

interface Seen {
  model: string;
  dimensions?: number;
  authorization?: string;
}

const seen: Seen[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const request = JSON.parse(body) as { model: string; input: string[]; dimensions?: number; encoding_format?: string };
    seen.push({ model: request.model, dimensions: request.dimensions, authorization: req.headers.authorization });
    // The OpenAI SDK asks for base64 (little-endian float32) unless told otherwise.
    const vector = request.encoding_format === 'base64' ? Buffer.from(new Float32Array([1, 0, 0]).buffer).toString('base64') : [1, 0, 0];
    const data = request.input.map((_, index) => ({ object: 'embedding', index, embedding: vector }));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ object: 'list', data, model: request.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
});
let embeddingsUrl = '';

const chatEndpoint: ResolvedLlmEndpoint = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'chat-key', simulated: false, close: async () => undefined };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  embeddingsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a separate embeddings endpoint', () => {
  const config = loadConfig({
    OPENAI_BASE_URL: chatEndpoint.baseUrl,
    VERITY_EMBEDDING_BASE_URL: 'http://127.0.0.1:1/v1',
    VERITY_EMBEDDING_API_KEY: 'embed-key',
    VERITY_EMBEDDING_MODEL: 'e5-passage',
    VERITY_EMBEDDING_QUERY_MODEL: 'e5-query',
  });

  it('embeds passages and queries with their own models on the embeddings server, with its key', async () => {
    const settings = { ...config, embedding: { ...config.embedding, baseUrl: embeddingsUrl } };
    const gateway = createLlmGateway({ config: settings, endpoint: chatEndpoint });
    seen.length = 0;
    await passageEmbedder(gateway)(['a passage']);
    await queryEmbedder(gateway)(['a query']);
    expect(seen).toEqual([
      { model: 'e5-passage', dimensions: undefined, authorization: 'Bearer embed-key' },
      { model: 'e5-query', dimensions: undefined, authorization: 'Bearer embed-key' },
    ]);
  });

  it('requests VERITY_EMBEDDING_DIMS when configured and checks the length returned', async () => {
    const settings = { ...config, embedding: { ...config.embedding, baseUrl: embeddingsUrl, dimensions: 3 } };
    await expect(passageEmbedder(createLlmGateway({ config: settings, endpoint: chatEndpoint }))(['x'])).resolves.toEqual([[1, 0, 0]]);
    expect(seen.at(-1)).toMatchObject({ dimensions: 3 });
    const wrong = { ...config, embedding: { ...config.embedding, baseUrl: embeddingsUrl, dimensions: 384 } };
    await expect(passageEmbedder(createLlmGateway({ config: wrong, endpoint: chatEndpoint }))(['x'])).rejects.toThrow(/returned 3 dimensions/);
  });

  it('defaults: the query model is the passage model, the endpoint is the LLM endpoint (or the simulator)', () => {
    const plain = loadConfig({ VERITY_EMBEDDING_MODEL: 'bge-small' });
    expect(plain.embedding).toMatchObject({ model: 'bge-small', queryModel: 'bge-small', baseUrl: undefined });
    const simulator: ResolvedLlmEndpoint = { baseUrl: 'http://127.0.0.1:5/v1', apiKey: 'sim', simulated: true, close: async () => undefined };
    expect(embeddingEndpointOf(plain, simulator)).toMatchObject({ baseUrl: simulator.baseUrl, simulated: true });
    expect(describeEmbeddings(plain, embeddingEndpointOf(plain, simulator))).toContain('simulator');
    expect(embeddingEndpointOf(config, chatEndpoint)).toEqual({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'embed-key', simulated: false });
    expect(describeEmbeddings(config, embeddingEndpointOf(config, chatEndpoint))).toBe('e5-passage (queries: e5-query) at http://127.0.0.1:1/v1');
  });
});
