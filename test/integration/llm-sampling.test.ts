import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLlmActivities } from '../../activities/llm.activities';
import { AGENT_ROLES } from '../../src/config/config';
import { LlmGateway } from '../../src/llm/gateway';
import { defineTask, registerTask } from '../../src/llm/task-registry';
import { parseMethodSettings } from '../../src/methods/settings-schemas';
import { samplingForRole } from '../../src/shared/sampling';

/** A chat endpoint on 127.0.0.1 that records the request bodies it receives and answers `{"ok": true}`. */
function recordingEndpoint() {
  const bodies: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    // Like OpenAI, it does not say the model's context window (the gateway asks with GETs).
    if (req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.push(JSON.parse(raw) as Record<string, unknown>);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{"ok": true}' } }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    });
  });
  return { server, bodies };
}

const task = defineTask({
  id: 'test.sampling',
  version: '1',
  role: 'judge',
  schemaName: 'ok',
  maxTokens: 64,
  variables: z.object({ text: z.string() }),
  output: z.object({ ok: z.boolean() }),
  render: ({ text }) => [{ role: 'user', content: text }],
});

describe('sampling settings per method and agent role', () => {
  const { server, bodies } = recordingEndpoint();
  let gateway: LlmGateway;

  beforeAll(async () => {
    registerTask(task as never);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    gateway = new LlmGateway({
      endpoint: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'test' },
      models: Object.fromEntries(AGENT_ROLES.map((role) => [role, 'm'])) as Record<(typeof AGENT_ROLES)[number], string>,
      temperature: 0,
      seed: 7,
      timeoutMs: 5_000,
      prices: {},
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('validates `llm` in every method\'s settings, with per-role overrides', () => {
    const parsed = parseMethodSettings('emulate', { llm: { temperature: 1, roles: { judge: { temperature: 0.5, maxTokens: 2048 } } } }, '--option');
    expect(parsed.emulate?.llm).toEqual({ temperature: 1, roles: { judge: { temperature: 0.5, maxTokens: 2048 } } });
    for (const method of ['mermaid', 'fire', 'tool-mad', 'toe'] as const) expect(() => parseMethodSettings(method, { llm: { topP: 0.9, seed: 3 } }, 'x')).not.toThrow();
    expect(() => parseMethodSettings('fire', { llm: { temperature: 3 } }, 'parameters.fire')).toThrow(/parameters\.fire\.llm\.temperature/);
    expect(() => parseMethodSettings('fire', { llm: { roles: { boss: {} } } }, 'parameters.fire')).toThrow(/roles/);
    expect(samplingForRole({ temperature: 1, roles: { judge: { temperature: 0.5 } } }, 'judge')).toEqual({ temperature: 0.5 });
    expect(samplingForRole({ temperature: 1, roles: { judge: { temperature: 0.5 } } }, 'executor')).toEqual({ temperature: 1 });
  });

  it("sends the call's role's sampling to the endpoint, records it in the result and keys the cache by it", async () => {
    const { llmTask } = createLlmActivities({ gateway });
    const sampling = { temperature: 1, seed: 11, roles: { judge: { temperature: 0.5, topP: 0.9, maxTokens: 256 } } };
    bodies.length = 0;
    const judge = await llmTask({ task: 'test.sampling', variables: { text: 'a' }, sampling });
    const executor = await llmTask({ task: 'test.sampling', variables: { text: 'a' }, role: 'executor', sampling });
    const worker = await llmTask({ task: 'test.sampling', variables: { text: 'a' } });
    expect(bodies[0]).toMatchObject({ temperature: 0.5, seed: 11, top_p: 0.9, max_tokens: 256 });
    // Without a method's maxTokens, the task's own answer budget is sent.
    expect(bodies[1]).toMatchObject({ temperature: 1, seed: 11, max_tokens: task.maxTokens });
    expect(bodies[1]).not.toHaveProperty('top_p');
    expect(bodies[2]).toMatchObject({ temperature: 0, seed: 7, max_tokens: task.maxTokens });
    expect(judge).toMatchObject({ temperature: 0.5, seed: 11, topP: 0.9, maxTokens: 256 });
    expect(executor).toMatchObject({ temperature: 1, seed: 11, maxTokens: task.maxTokens });
    expect(worker).toMatchObject({ temperature: 0, seed: 7, maxTokens: task.maxTokens });
    expect(new Set([judge.requestHash, executor.requestHash, worker.requestHash]).size).toBe(3);
  });
});
