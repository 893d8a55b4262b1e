import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AGENT_ROLES } from '../../src/config/config';
import { LlmOutputInvalidError } from '../../src/llm/errors';
import { LlmGateway } from '../../src/llm/gateway';
import { DEFAULT_PRICES } from '../../src/llm/prices';

/** A stand-in OpenAI-compatible server answering every chat call with `content`, recording the bodies it got. */
async function fakeServer(content: string, finishReason: 'stop' | 'length') {
  const bodies: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!(req.url ?? '').endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies };
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function gateway(url: string): LlmGateway {
  return new LlmGateway({
    endpoint: { baseUrl: url, apiKey: 'none' },
    endpointIdentity: { provider: 'openai-compatible', baseUrl: url },
    models: Object.fromEntries(AGENT_ROLES.map((role) => [role, 'qwen2.5-coder-0.5b'])) as Record<(typeof AGENT_ROLES)[number], string>,
    temperature: 0,
    seed: 7,
    timeoutMs: 5_000,
    prices: DEFAULT_PRICES,
    contextTokens: 4096,
  });
}

const textSchema = z.object({ text: z.string() });
const messages = [{ role: 'user' as const, content: 'Just output either Yes or No.' }];

describe('plain-text tasks (a released code read as written)', () => {
  it('send the prompt as given, without response_format or a schema instruction, and read the answer as { text }', async () => {
    const server = await fakeServer('No.', 'stop');
    const result = await gateway(server.url).complete({ role: 'default', messages, schema: textSchema, schemaName: 'released_yes_no', promptVersion: 't@1', plainText: true, sampling: { maxTokens: 10 } });
    expect(result.output).toEqual({ text: 'No.' });
    expect(result.responseFormat).toBe('text');
    expect(server.bodies).toHaveLength(1);
    expect(server.bodies[0]).not.toHaveProperty('response_format');
    expect(server.bodies[0]!.messages).toEqual(messages);
    expect(server.bodies[0]!.max_tokens).toBe(10);
  });

  it('keep an answer cut off at max tokens as cut (the released code reads the raw completion); a JSON task still refuses it', async () => {
    const server = await fakeServer('Yes, because the', 'length');
    const result = await gateway(server.url).complete({ role: 'default', messages, schema: textSchema, schemaName: 'released_yes_no', promptVersion: 't@1', plainText: true });
    expect(result.output).toEqual({ text: 'Yes, because the' });
    await expect(gateway(server.url).complete({ role: 'default', messages, schema: textSchema, schemaName: 'json_yes_no', promptVersion: 't@1' })).rejects.toBeInstanceOf(LlmOutputInvalidError);
  });
});
