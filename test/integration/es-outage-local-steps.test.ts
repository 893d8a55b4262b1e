import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../eval/chaos/tcp-proxy';
import { connectTemporal } from '../../src/client/temporal';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import { spawnCli, type CliResult, type RunningCli } from '../support/cli-process';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

/** Each CLI process bundles its workflows: seconds of CPU on a loaded machine. */
const CLI_START_MS = 120_000;
const LLM_LATENCY_MS = 4_000;

/**
 * Elasticsearch goes away while `verity verify` runs (a proxy in front of the shared node, never the
 * node itself): the short steps that run as local activities (verdict store, retrieval) honour
 * VERITY_RETRY_BUDGET_S like every other activity, `verify` names each retried step, and SIGTERM
 * or SIGINT end the process in bounded time while such a step retries.
 */
describe('Elasticsearch outage during local activities (real Temporal + Elasticsearch behind a proxy)', () => {
  const prefix = uniqueName('es-outage');
  let es: EsClient;
  let simulator: RunningSimulator;
  let proxy: TcpProxy;
  let env: Record<string, string>;
  /** Workflows left running by an interrupted `verify` (their task queue has no worker afterwards). */
  const leftRunning: string[] = [];

  beforeAll(async () => {
    const esUrl = new URL(process.env.ES_URL ?? 'http://127.0.0.1:9200');
    es = createEsClient({ url: esUrl.toString() });
    simulator = await startSimulator({ port: 0, latencyMs: LLM_LATENCY_MS });
    proxy = await startTcpProxy(0, { host: esUrl.hostname, port: Number(esUrl.port || 9200) });
    env = {
      ES_URL: proxy.url,
      ES_INDEX_PREFIX: prefix,
      TEMPORAL_TASK_QUEUE: prefix,
      OPENAI_BASE_URL: `${simulator.url}/v1`,
      OPENAI_API_KEY: 'sim',
      VERITY_LLM_CONTEXT_TOKENS: '16384',
    };
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
  });

  afterAll(async () => {
    if (leftRunning.length > 0) {
      const client = await connectTemporal(testConfig(env));
      for (const id of leftRunning) await client.workflow.getHandle(id).terminate('test over').catch(() => undefined);
      await client.connection.close();
    }
    await proxy?.close();
    await simulator?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it('a short step (local activity) that cannot reach Elasticsearch is retried within VERITY_RETRY_BUDGET_S, not its 15-minute preset', async () => {
    await proxy.up();
    const cli = spawnCli(['verify', 'The Eiffel Tower is located in Paris (store outage).'], { ...env, VERITY_RETRY_BUDGET_S: '5' });
    try {
      await cli.waitForStderr(/^started (verify\/\S+)$/m, CLI_START_MS);
      const downAt = Date.now();
      await proxy.down();
      const ended = await exitedWithin(cli, 45_000);
      expect(ended, 'verify still running 45 s into the outage').toBeDefined();
      const { code, stderr } = ended!;
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/Elasticsearch/);
      // 5 s of retries, then the failure reported and the in-process worker stopped.
      expect(Date.now() - downAt).toBeLessThan(45_000);
    } finally {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await proxy.up();
    }
  }, 3 * CLI_START_MS);

  it('`verify` prints each retried attempt of a short step (local activity), as it does for LLM calls', async () => {
    await proxy.up();
    const cli = spawnCli(['verify', 'The Louvre is a museum in Paris (retries shown).'], { ...env, VERITY_RETRY_BUDGET_S: '120' });
    try {
      const [, workflowId] = await cli.waitForStderr(/^started (verify\/\S+)$/m, CLI_START_MS);
      leftRunning.push(workflowId!);
      await proxy.down();
      // Retrieval (before the LLM call) or the verdict store (after it) fails and waits 1 s, 2 s, 4 s … between attempts.
      // `verify` polls every 5 s: it may miss the shortest waits, never the longer ones.
      const [, step, attempt] = await cli.waitForStderr(/^verity: retrying (retrievePassages|storeVerdict) \(attempt (\d+)\): .+$/m, 40_000);
      const [, later] = await cli.waitForStderr(new RegExp(`^verity: retrying ${step!} \\(attempt (?!${attempt!}\\))(\\d+)\\): .+$`, 'm'), 60_000);
      expect(Number(later)).toBeGreaterThan(Number(attempt));
    } finally {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await proxy.up();
    }
  }, 3 * CLI_START_MS);

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s ends `verify` in bounded time while a short step retries, saying the workflow keeps running', async (signal, exitCode) => {
    await proxy.up();
    const cli = spawnCli(['verify', `The Colosseum is in Rome (${signal} during a retry).`], { ...env, VERITY_RETRY_BUDGET_S: '600' });
    try {
      const [, workflowId] = await cli.waitForStderr(/^started (verify\/\S+)$/m, CLI_START_MS);
      leftRunning.push(workflowId!);
      await proxy.down();
      // The LLM call (4 s) ends, then the verdict store retries inside the worker's workflow task.
      await new Promise((resolve) => setTimeout(resolve, LLM_LATENCY_MS + 6_000));
      const signalledAt = Date.now();
      cli.child.kill(signal);
      const ended = await exitedWithin(cli, 25_000);
      expect(ended, `verify still running 25 s after ${signal}`).toBeDefined();
      const { code, stderr } = ended!;
      expect(Date.now() - signalledAt).toBeLessThan(25_000);
      expect(code).toBe(exitCode);
      expect(stderr).toContain(`${workflowId!} keeps running in Temporal`);
    } finally {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await proxy.up();
    }
  }, 3 * CLI_START_MS);
});

/** The process's end, or undefined when it is still running after `ms`. */
async function exitedWithin(cli: RunningCli, ms: number): Promise<CliResult | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([cli.exited, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  clearTimeout(timer);
  return ended;
}
