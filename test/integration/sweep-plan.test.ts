import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { createLogger } from '../../src/logging/logger';
import { maxUsdRefusal, type Plan } from '../../src/plan/plan-figures';
import { planSweep } from '../../src/plan/plan-sweep';
import { type RunConfig, runConfigSchema } from '../../src/runs/run-manifest';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { runCliInProcess } from '../support/cli-in-process';

const CLAIMS = 4;
const PILOT_CLAIMS = 2;

/** `verity sweep plan` and `sweep run --max-usd` on real Temporal and ES, with the simulator as the endpoint. */
describe('sweep plan', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-plan-'));
  let run: RunConfig;

  async function plan(): Promise<Plan> {
    const { config, es } = harness;
    return planSweep({
      config,
      env: { ...process.env, ...harness.env },
      es,
      run,
      input: buildSweepInput(config, run, tmp),
      configDir: tmp,
      pilotClaims: PILOT_CLAIMS,
      logger: createLogger('warn'),
    });
  }

  beforeAll(async () => {
    // The simulator listens on this machine: like any local server it is priced only by a prices file.
    const prices = path.join(tmp, 'prices.json');
    fs.writeFileSync(prices, JSON.stringify({ 'gpt-4o-mini': { input: 0.15, output: 0.6 } }));
    harness = await startWorkerHarness('plan', { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } }, env: { VERITY_PRICES_FILE: prices } });
    run = runConfigSchema.parse({ run: uniqueName('plan'), datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: CLAIMS }], methods: ['rag', 'mermaid'], models: ['gpt-4o-mini'], concurrency: 8, parameters: { mermaid: { memory: 'off' } } });
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("brackets the actual LLM calls of the same config on the simulator, from a pilot first and from the run's verdicts after", async () => {
    const { client, config, simulator, es, prefix } = harness;

    const piloted = await plan();
    expect(piloted.rows.map((row) => [row.method, row.claims, row.source.kind])).toEqual([
      ['rag', CLAIMS, 'pilot'],
      ['mermaid', CLAIMS, 'pilot'],
    ]);
    // The pilot ran on a simulator and indices of its own, all gone now; the corpus is untouched.
    expect(simulator.arrivals()).toHaveLength(0);
    expect(Object.keys(await es.indices.get({ index: `${prefix}-plan-*`, allow_no_indices: true }))).toEqual([]);
    expect(await es.indices.exists({ index: `${prefix}-wiki` })).toBe(true);
    for (const row of piloted.rows) expect(row.usd!.high).toBeGreaterThan(0);

    const { handle } = await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, tmp));
    expect(await handle.result()).toMatchObject({ status: 'completed', done: 2 * CLAIMS, failed: 0 });
    const actual = simulator.arrivals().length;
    expect(piloted.llmCalls.low).toBeLessThanOrEqual(actual);
    expect(piloted.llmCalls.high).toBeGreaterThanOrEqual(actual);
    const actualPerMethod = await llmCallsPerMethod(harness, run.run);
    for (const row of piloted.rows) {
      expect(row.llmCalls!.low).toBeLessThanOrEqual(actualPerMethod[row.method]!);
      expect(row.llmCalls!.high).toBeGreaterThanOrEqual(actualPerMethod[row.method]!);
    }

    const fromRuns = await plan();
    expect(fromRuns.rows.map((row) => row.source)).toEqual([
      { kind: 'earlier-runs', verdicts: CLAIMS },
      { kind: 'earlier-runs', verdicts: CLAIMS },
    ]);
    expect(fromRuns.llmCalls.low).toBeLessThanOrEqual(actual);
    expect(fromRuns.llmCalls.high).toBeGreaterThanOrEqual(actual);
    expect(maxUsdRefusal(fromRuns, fromRuns.usd!.high * 2)).toBeUndefined();
    expect(maxUsdRefusal(fromRuns, fromRuns.usd!.high / 2)).toMatch(/^refusing to start: the plan's upper estimate \$\S+ is above --max-usd/);
  });

  it('sweep run --max-usd refuses to start, with one line, when the upper estimate is above it', async () => {
    const file = path.join(tmp, 'plan.yaml');
    // The run's own id: another test file may start sweeps whose ids contain any shorter word.
    const runId = uniqueName('max-usd-refused');
    fs.writeFileSync(file, YAML.stringify({ ...run, run: runId }));
    const result = await runCliInProcess(['sweep', 'run', file, '--max-usd', '0.0000001'], harness.env);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^verity: refusing to start: the plan's upper estimate \$\S+ is above --max-usd 1e-7/)]);
    const started = await harness.client.workflow.list({ query: `WorkflowId STARTS_WITH "sweep/"` });
    for await (const workflow of started) expect(workflow.workflowId).not.toContain(runId);
  });

  it('sweep run --max-usd refuses a model named like an Object member (its price was $NaN, so nothing was ever above the limit)', async () => {
    const file = path.join(tmp, 'constructor.yaml');
    const runId = uniqueName('max-usd-ctor');
    fs.writeFileSync(file, YAML.stringify({ ...run, run: runId, methods: ['rag'], models: ['constructor'] }));
    const result = await runCliInProcess(['sweep', 'run', file, '--max-usd', '1'], harness.env);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^verity: cannot check --max-usd 1: model constructor has no price/);
    const started = await harness.client.workflow.list({ query: `WorkflowId STARTS_WITH "sweep/"` });
    for await (const workflow of started) expect(workflow.workflowId).not.toContain(runId);
  });
});

async function llmCallsPerMethod(harness: WorkerHarness, runId: string): Promise<Record<string, number>> {
  const index = `${harness.prefix}-verdicts`;
  await harness.es.indices.refresh({ index });
  const response = await harness.es.search<{ method: string; usage: { llmCalls: number } }>({ index, size: 100, query: { term: { runId } } });
  const calls: Record<string, number> = {};
  for (const hit of response.hits.hits) calls[hit._source!.method] = (calls[hit._source!.method] ?? 0) + hit._source!.usage.llmCalls;
  return calls;
}
