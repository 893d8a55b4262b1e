import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { type CliResult, runCli } from '../support/cli-process';
import { deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/** One line on stderr, no stack trace, no page of HTML. */
function expectOneLine(result: CliResult, pattern: RegExp): void {
  expect(result.stderr, result.stderr).toMatch(pattern);
  expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |<html|<!DOCTYPE|tonic::/i);
}

/** Small trust defects, each through a real `verity` process (real Elasticsearch where one is needed). */
describe('CLI: one-line errors, validated imports, safe terminal output, stdin', () => {
  const prefix = uniqueName('trust');
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-trust-'));
  let es: EsClient;
  let webPage: http.Server;
  let webPageUrl: string;

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    const corpus = path.join(dir, 'corpus.jsonl');
    const text = 'Zanzibar\x1b[2J is an archipelago;\rthe screen was cleared \u202eevil.';
    const hostile = { id: 'doc:1', title: 'Zanzibar\x1b]0;pwned\x07', text, sentences: [text], source: 'test' };
    fs.writeFileSync(corpus, `${JSON.stringify(hostile)}\n`);
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: corpus });
    await es.indices.refresh({ index: indexName(prefix, 'wiki') });
    // A web server where Elasticsearch should be: 404 pages in HTML.
    webPage = http.createServer((_, res) => {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1></body></html>\n');
    });
    await new Promise<void>((resolve) => webPage.listen(0, '127.0.0.1', resolve));
    webPageUrl = `http://127.0.0.1:${(webPage.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => webPage.close(resolve));
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.concurrent('memory export to a path that cannot be written: one line naming it, exit 2', async () => {
    const target = path.join(dir, 'no-such-dir', 'memory.jsonl');
    const result = await runCli(['memory', 'export', 'global', target], env);
    expect(result.code).toBe(2);
    expectOneLine(result, new RegExp(`^verity: cannot write ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOENT`));
  });

  it.concurrent('memory import refuses a scope the CLI refuses, before writing anything', async () => {
    const file = path.join(dir, 'bad-scope.jsonl');
    const entry = { id: 'e1', runScope: 'run:a b', claimId: 'c1', entityKeys: ['Paris'], keywords: ['paris'], tool: 'search_wikipedia', args: { query: 'Paris' }, dedupKey: 'k', observation: 'Paris.', createdAt: '2026-01-01T00:00:00.000Z' };
    fs.writeFileSync(file, `${JSON.stringify(entry)}\n`);
    const result = await runCli(['memory', 'import', file], env);
    expect(result.code).toBe(2);
    expectOneLine(result, /^verity: line 1: not a memory entry \(runScope: use 1-200 letters, digits and \. _ : \/ -\)$/m);
  });

  it.concurrent('a web page at ES_URL: one line saying the server is not Elasticsearch', async () => {
    for (const command of [['search', 'eiffel'], ['verify', 'The Eiffel Tower is in Paris.']]) {
      const result = await runCli(command, { ...env, ES_URL: webPageUrl });
      expect(result.code).toBe(1);
      expectOneLine(result, new RegExp(`^verity: the server at ${webPageUrl} is not Elasticsearch \\(HTTP 404, text/html instead of a JSON answer\\); set ES_URL`));
    }
  });

  it.concurrent('control characters in corpus text are shown escaped, never sent raw to the terminal', async () => {
    const result = await runCli(['search', 'Zanzibar archipelago'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Zanzibar\\x1b]0;pwned\\x07');
    expect(result.stdout).toContain('Zanzibar\\x1b[2J is an archipelago;\\x0dthe screen');
    expect(result.stdout).toContain('\\u202eevil');
    // eslint-disable-next-line no-control-regex
    expect(result.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
  });

  it.concurrent('verity worker with Temporal down: one line naming the address and the reason', async () => {
    const result = await runCli(['worker'], { ...env, TEMPORAL_ADDRESS: '127.0.0.1:9' }, 60_000);
    expect(result.code).not.toBe(0);
    const errorLines = result.stderr.split('\n').filter((line) => line.startsWith('verity: Temporal'));
    expect(errorLines).toEqual(['verity: Temporal is not reachable at 127.0.0.1:9 (connection refused); start it with `npm run infra:up` or set TEMPORAL_ADDRESS']);
    expect(result.stderr).not.toMatch(/tonic::|\n\s+at /);
  });

  it.concurrent.each([
    [['search', 'Eiffel Tower']],
    [['verify', 'The Eiffel Tower is in Paris.']],
    [['report', 'some-run']],
  ])('verity %j with Elasticsearch down: one line naming the service, the address and what to do, no raw Node text', async (args) => {
    const result = await runCli(args, { ...env, ES_URL: 'http://127.0.0.1:9' }, 60_000);
    expect(result.code).not.toBe(0);
    const esLines = result.stderr.split('\n').filter((line) => /elasticsearch/i.test(line));
    expect(esLines).toEqual(['verity: Elasticsearch at http://127.0.0.1:9 does not answer (connection refused); run `verity infra up` or set ES_URL']);
    expect(result.stderr).not.toMatch(/ECONNREFUSED|ConnectionError/);
  });

  it.concurrent('verity mcp ends by itself when its stdin closes', async () => {
    const result = await runCli(['mcp'], env, 60_000);
    expect(result.code).toBe(0);
  });
});
