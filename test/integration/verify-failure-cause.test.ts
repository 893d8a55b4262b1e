import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import { runCli } from '../support/cli-process';
import { DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/** `verity verify` says in one line why a verification failed, not only "Workflow execution failed". */
describe('verify prints the cause of a failure (CLI processes against real Temporal + Elasticsearch)', () => {
  const prefix = uniqueName('cause');
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix };
  let es: EsClient;
  let simulator: RunningSimulator;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-cause-'));

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    // FIRE searches the recorded web.
    const web = path.join(tmp, 'web.jsonl');
    fs.writeFileSync(web, `${JSON.stringify({ id: 'web:eiffel', title: 'Eiffel Tower', text: 'The Eiffel Tower is in Paris.', sentences: null, source: 'test-web' })}\n`);
    await ingestCorpus({ client: es, index: webIndexName(prefix), file: web, target: WEB_TARGET });
    simulator = await startSimulator({ port: 0, faults: [{ kind: 'malformed', probability: 1 }] });
  });

  afterAll(async () => {
    await simulator?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses -k beyond what retrieval accepts before starting anything', async () => {
    const result = await runCli(['verify', 'The Eiffel Tower is in Paris.', '-k', '1e9'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/-k, --top-k <n>.*expected a whole number from 1 to 1000/);
    expect(result.stderr).not.toMatch(/Workflow execution failed/);
  });

  it('names the request-cache miss in replay mode', async () => {
    const result = await runCli(['verify', 'The Eiffel Tower is in Paris (never recorded).'], { ...env, VERITY_LLM_CACHE: 'replay' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^verity: verification failed: LLM cache miss in replay mode for request [0-9a-f]+: record it first with VERITY_LLM_CACHE=readwrite.*\[LlmCacheMiss\]$/m);
  });

  it("names an endpoint that answers 404, with the server's message", async () => {
    const result = await runCli(['verify', 'The Eiffel Tower is in Paris (404).'], { ...env, OPENAI_BASE_URL: simulator.url.replace(/\/v1$/, '/nowhere/v1'), OPENAI_API_KEY: 'sk-test' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^verity: verification failed: model or endpoint not found \(404\): .*no route POST \/nowhere\/v1\/chat\/completions.*\[ConfigurationError\]$/m);
  });

  it('verify --json of FIRE whose answers are all invalid shows their usage, seed and prompt versions', async () => {
    const result = await runCli(['verify', 'The Eiffel Tower is in Paris (fire).', '--method', 'fire', '--json'], { ...env, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-test' });
    expect(result.code).toBe(0);
    const verdict = JSON.parse(result.stdout) as { seed: number; promptVersion: string; usage: { llmCalls: number; invalidAnswers: number; totalTokens: number }; transcript: { llmCalls: unknown[] } };
    expect(verdict.usage).toMatchObject({ llmCalls: 22, invalidAnswers: 22 });
    expect(verdict.usage.totalTokens).toBeGreaterThan(0);
    expect(verdict.transcript.llmCalls).toHaveLength(22);
    expect(verdict.seed).toBe(7);
    expect(verdict.promptVersion).toMatch(/fire\.finalAnswer@\d+,fire\.step@\d+/);
  });

  it('shows why the answers were invalid when the method falls back (rag: NEI, "no valid answer")', async () => {
    const result = await runCli(['verify', 'The Eiffel Tower is in Paris (malformed).'], { ...env, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-test' });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^NEI {2}The Eiffel Tower is in Paris \(malformed\)\.$/m);
    expect(result.stdout).toMatch(/rationale: no valid answer: gpt-4o-mini answered (without parseable JSON|JSON that does not match the schema)/);
    expect(result.stdout).toMatch(/usage: 2 LLM call\(s\) \(0 cached, 2 invalid\), 1 tool call\(s\), [1-9]\d* tokens/);
  });
});
