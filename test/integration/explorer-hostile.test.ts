import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { ensureIndex } from '../../src/es/ensure-index';
import { indexName } from '../../src/es/indices';
import { ExplorerData, startExplorerServer, type RunningExplorer } from '../../src/explorer';
import { VERDICT_INDEX } from '../../src/verdicts/verdict-index';
import { spawnCli } from '../support/cli-process';
import { deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

const prefix = uniqueName('explorer-hostile');
const config = testConfig({ ES_INDEX_PREFIX: prefix });
const es = createEsClient({ url: config.elasticsearch.url, requestTimeoutMs: 120_000 });
const runId = 'deep-run';
/** More verdicts than Elasticsearch's default max_result_window (10,000) lets `from` reach. */
const VERDICTS = 10_060;

/** Sends raw bytes and reads the whole answer (the server closes the connection). */
function rawRequest(port: number, host: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    // A bound on a failure (no answer at all), not a timing the test depends on.
    socket.setTimeout(30_000, () => {
      socket.destroy();
      reject(new Error(`no answer to ${JSON.stringify(bytes.split('\r\n')[0])}`));
    });
    socket.write(bytes);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const get = (explorer: RunningExplorer, path: string, host: string) => {
  const { hostname, port } = new URL(explorer.url);
  return rawRequest(Number(port), hostname.replace(/^\[|\]$/g, ''), `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
};

/** `verity view`'s server against malformed requests, foreign Host headers and runs larger than one search window. */
describe('explorer server under hostile requests', () => {
  let explorer: RunningExplorer;

  beforeAll(async () => {
    const verdicts = indexName(prefix, 'verdicts');
    await ensureIndex(es, verdicts, VERDICT_INDEX);
    for (let start = 0; start < VERDICTS; start += 2_000) {
      const operations = [];
      for (let i = start; i < Math.min(VERDICTS, start + 2_000); i++) {
        const claimId = `c${String(i).padStart(6, '0')}`;
        const workflowId = `verify/${claimId}`;
        operations.push({ index: { _index: verdicts, _id: workflowId } }, { workflowId, runId, claimId, method: 'rag', model: 'm', claim: `claim ${i}`, label: 'NEI', usage: { llmCalls: 1, totalTokens: 1, costUsd: 0 } });
      }
      const response = await es.bulk({ operations, refresh: 'wait_for' });
      expect(response.errors).toBe(false);
    }
    explorer = await startExplorerServer(new ExplorerData({ client: es, prefix, runId, workflowUrl: () => undefined }), { port: 0 });
  });

  afterAll(async () => {
    await explorer?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it('answers a request whose target is no URL with 400 and keeps serving', async () => {
    const { port } = new URL(explorer.url);
    const answer = await rawRequest(Number(port), '127.0.0.1', 'GET //[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(statusOf(answer)).toBe(400);
    expect(statusOf(await get(explorer, '/api/summary', `127.0.0.1:${port}`))).toBe(200);
  });

  it('refuses a Host header that is not a loopback name or the bound address (DNS rebinding)', async () => {
    const { port } = new URL(explorer.url);
    for (const host of [`attacker.example:${port}`, 'attacker.example', `localhost.attacker.example:${port}`]) {
      const answer = await get(explorer, '/api/summary', host);
      expect(statusOf(answer), host).toBe(403);
      expect(answer).not.toContain(runId);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'LOCALHOST']) expect(statusOf(await get(explorer, '/api/summary', host)), host).toBe(200);
  });

  it('prints an IPv6 address in brackets and serves it', async () => {
    const v6 = await startExplorerServer(new ExplorerData({ client: es, prefix, runId, workflowUrl: () => undefined }), { port: 0, host: '::1' });
    try {
      expect(v6.url).toMatch(/^http:\/\/\[::1\]:\d+\/$/);
      expect(statusOf(await get(v6, '/api/summary', new URL(v6.url).host))).toBe(200);
      expect(statusOf(await get(v6, '/api/summary', `evil.example:${new URL(v6.url).port}`))).toBe(403);
    } finally {
      await v6.close();
    }
  });

  it('`verity view --host 0.0.0.0` needs a token, and then warns that every interface is served', async () => {
    const env = { ES_URL: config.elasticsearch.url, ES_INDEX_PREFIX: prefix };
    const refused = await spawnCli(['view', runId, '--host', '0.0.0.0', '--port', '0'], env).exited;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/beyond loopback: give a token .* --token or VERITY_VIEW_TOKEN/);
    const view = spawnCli(['view', runId, '--host', '0.0.0.0', '--port', '0'], { ...env, VERITY_VIEW_TOKEN: 'a-token-for-the-hostile-test' });
    try {
      await view.waitForStderr(/explorer for run/, 60_000);
      expect(view.output().stderr).toMatch(/--host 0\.0\.0\.0 serves every prompt and raw response .* to anyone who can reach this machine/);
    } finally {
      view.child.kill('SIGTERM');
      await view.exited;
    }
  });

  it('pages past Elasticsearch\'s 10,000-row window', async () => {
    const page = async (from: number) => {
      const response = await fetch(`${explorer.url}api/claims?from=${from}&size=50`);
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json()) as { total: number; rows: { claimId: string }[] };
    };
    const deep = await page(9_990);
    expect(deep.total).toBe(VERDICTS);
    expect(deep.rows.map((row) => row.claimId)).toEqual(Array.from({ length: 50 }, (_, i) => `c${String(9_990 + i).padStart(6, '0')}`));
    const last = await page(VERDICTS - 10);
    expect(last.rows.map((row) => row.claimId)).toEqual(Array.from({ length: 10 }, (_, i) => `c${String(VERDICTS - 10 + i).padStart(6, '0')}`));
    expect((await page(VERDICTS + 100)).rows).toEqual([]);
    const failures = await fetch(`${explorer.url}api/claims?from=10000&size=5&status=failed`);
    expect(failures.status).toBe(200);
  });
});
