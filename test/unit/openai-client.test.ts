import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiClient } from '../../src/llm/openai-client';

/**
 * A non-streaming answer from a slow server sends its headers only when it is done. Node's fetch
 * stops waiting for headers after undici's `headersTimeout` (300 s by default), whatever the SDK's
 * own timeout. The test lowers that platform default to 300 ms (through undici's global dispatcher,
 * which Node's fetch reads) and answers after 900 ms.
 */
describe('openAiClient: a call may take as long as the configured LLM timeout', () => {
  let server: http.Server;
  let baseUrl: string;
  const platformDefault = getGlobalDispatcher();

  beforeAll(async () => {
    setGlobalDispatcher(new Agent({ headersTimeout: 300 }));
    server = http.createServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'late' } }] }));
      }, 900);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    setGlobalDispatcher(platformDefault);
    await new Promise((resolve) => server.close(resolve));
  });

  it('waits past the platform headers timeout for a late answer', async () => {
    const client = openAiClient({ baseUrl, apiKey: 'sk-test' }, 10_000);
    const answer = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]?.message.content).toBe('late');
  });
});
