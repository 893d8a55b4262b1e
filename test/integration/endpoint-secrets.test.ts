import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { runCli } from '../support/cli-process';
import { DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const PASSWORD = 'S3cretPw42';
const QUERY_SECRET = 'QuerySecret9876';
const API_KEY = 'sk-test-endpoint-secrets';

/** A history as text with every payload decoded (payloads are base64 JSON). */
function readableHistory(history: unknown): string {
  return JSON.stringify(history).replace(/"data":"([A-Za-z0-9+/=]+)"/g, (_, data: string) => JSON.stringify(Buffer.from(data, 'base64').toString('utf8')));
}

/** Credentials written into OPENAI_BASE_URL (user info, `?api_key=`) appear in no CLI line, workflow history or failure. */
describe('secrets in OPENAI_BASE_URL', () => {
  let endpoint: http.Server;
  let port: number;

  beforeAll(async () => {
    // An endpoint that refuses every request, as a real one does with a wrong key.
    endpoint = http.createServer((_, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'invalid key', type: 'invalid_request_error' } }));
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    port = (endpoint.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => endpoint?.close(resolve));
  });

  it('the unreachable-endpoint line names the endpoint without its password or query secret', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const prefix = uniqueName('endpoint-secrets');
    const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    const result = await runCli(['verify', 'The Eiffel Tower is in Paris.'], {
      OPENAI_BASE_URL: `http://admin:${PASSWORD}@127.0.0.1:${closedPort}/v1?api_key=${QUERY_SECRET}`,
      OPENAI_API_KEY: API_KEY,
      ES_INDEX_PREFIX: prefix,
    }).finally(async () => {
      await deleteIndicesWithPrefix(es, prefix);
      await es.close();
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/LLM endpoint http:\/\/127\.0\.0\.1:\d+\/v1.* is not reachable/);
    for (const secret of [PASSWORD, QUERY_SECRET, 'admin:']) expect(result.stderr + result.stdout).not.toContain(secret);
  });

  describe('through a worker', () => {
    let harness: WorkerHarness;

    beforeAll(async () => {
      harness = await startWorkerHarness('endpoint-secrets', {
        env: { OPENAI_BASE_URL: `http://admin:${PASSWORD}@127.0.0.1:${port}/v1?api_key=${QUERY_SECRET}`, OPENAI_API_KEY: API_KEY },
      });
    });

    afterAll(async () => {
      await harness?.close();
    });

    it('neither the workflow history nor its failure carries the password or the query secret', async () => {
      const { client, config } = harness;
      const { handle } = await startVerification(client, config.temporal.taskQueue, buildVerifyInput(config, { claim: 'Water boils at 100 °C at sea level.', method: 'rag' }), { retryBudgetMs: 5_000 });
      const failure = await handle.result().then(
        () => undefined,
        (err: unknown) => err as Error & { cause?: Error & { cause?: Error } },
      );
      expect(failure).toBeDefined();
      const history = readableHistory(await handle.fetchHistory());
      expect(history).toMatch(/LLM endpoint http:\/\/127\.0\.0\.1:\d+\/v1/);
      const failureText = `${failure!.message} ${failure!.cause?.message} ${failure!.cause?.cause?.message}`;
      for (const secret of [PASSWORD, QUERY_SECRET, API_KEY]) {
        expect(history, secret).not.toContain(secret);
        expect(failureText, secret).not.toContain(secret);
      }
    });
  });
});
