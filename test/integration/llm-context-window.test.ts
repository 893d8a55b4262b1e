import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextWindows } from '../../src/llm/context-window';

/** A stand-in for a server's discovery routes (path → JSON body; anything else 404), logging what was asked. */
async function serverWith(routes: Record<string, unknown>) {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(`${req.url} ${req.headers.authorization ?? ''}`);
    const body = routes[req.url ?? ''];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: { message: 'not found' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, asked };
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const windowsOf = (baseUrl: string, configured?: number, retryAfterMs?: number) =>
  new ContextWindows({ baseUrl, apiKey: 'sk-test', timeoutMs: 2_000, ...(configured ? { configured } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

describe('context window discovery', () => {
  it("reads llama.cpp's /props when /v1/models does not say, once per model", async () => {
    const { baseUrl, asked } = await serverWith({
      '/v1/models': { object: 'list', data: [{ id: 'qwen.gguf', meta: { n_ctx_train: 32_768 } }] },
      '/props': { default_generation_settings: { n_ctx: 4096 } },
    });
    const windows = windowsOf(baseUrl);
    expect(await windows.of('gpt-4o-mini')).toBe(4096);
    expect(await windows.of('gpt-4o-mini')).toBe(4096);
    expect(asked).toEqual(['/v1/models Bearer sk-test', '/props Bearer sk-test']);
  });

  it("reads the model's own entry on /v1/models (vLLM's max_model_len, OpenRouter's context_length)", async () => {
    const { baseUrl } = await serverWith({ '/v1/models': { data: [{ id: 'a', max_model_len: 8192 }, { id: 'b', context_length: 128_000 }] } });
    expect(await windowsOf(baseUrl).of('a')).toBe(8192);
    expect(await windowsOf(baseUrl).of('b')).toBe(128_000);
  });

  it('is unknown when the server does not say (OpenAI), and the setting wins without asking', async () => {
    const { baseUrl, asked } = await serverWith({ '/v1/models': { data: [{ id: 'gpt-4o-mini' }, { id: 'gpt-4o' }] } });
    expect(await windowsOf(baseUrl).of('gpt-4o-mini')).toBeUndefined();
    const before = asked.length;
    expect(await windowsOf(baseUrl, 2048).of('gpt-4o-mini')).toBe(2048);
    expect(asked).toHaveLength(before);
  });

  it('a server that could not be reached is not asked on every call, but again after retryAfterMs', async () => {
    const free = http.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    const patient = windowsOf(`http://127.0.0.1:${port}/v1`, undefined, 3_600_000);
    const eager = windowsOf(`http://127.0.0.1:${port}/v1`, undefined, 0);
    expect(await patient.of('m')).toBeUndefined();
    expect(await eager.of('m')).toBeUndefined();
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ id: 'm', meta: { n_ctx: 2048 } }] }));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    servers.push(server);
    expect(await patient.of('m')).toBeUndefined();
    expect(await eager.of('m')).toBe(2048);
  });
});
