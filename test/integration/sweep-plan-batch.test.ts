import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { Plan } from '../../src/plan/plan-figures';
import { runCli } from '../support/cli-process';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const HOUR_MS = 3_600_000;

/** `verity sweep plan` of a config with batch: the batch price next to the direct one, and the wall time at the assumed turnaround. */
describe('sweep plan with batch prices', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-plan-batch-'));
  let file: string;

  beforeAll(async () => {
    const prices = path.join(tmp, 'prices.json');
    fs.writeFileSync(prices, JSON.stringify({ 'gpt-4o-mini': { input: 0.15, output: 0.6, batchInput: 0.075, batchOutput: 0.3 } }));
    harness = await startWorkerHarness('plan-batch', { env: { VERITY_PRICES_FILE: prices } });
    file = path.join(tmp, 'sweep.yaml');
    const run = { run: uniqueName('plan-batch'), datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 4 }], methods: ['rag'], models: ['gpt-4o-mini'], concurrency: 2, batch: { models: ['gpt-4o-mini'] } };
    fs.writeFileSync(file, YAML.stringify(run));
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('shows the batch price (here half the list price) and the wall time of one turnaround per call, claims in rounds of the concurrency', async () => {
    const result = await runCli(['sweep', 'plan', file, '--json', '--pilot-claims', '2', '--batch-turnaround', '1'], harness.env, 600_000);
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout) as Plan;
    expect(plan.usd!.high).toBeGreaterThan(0);
    expect(plan.batchUsd!.low).toBeCloseTo(plan.usd!.low / 2, 12);
    expect(plan.batchUsd!.high).toBeCloseTo(plan.usd!.high / 2, 12);
    // rag: one call per claim; 4 claims, 2 at a time: 2 rounds of one turnaround.
    expect(plan.batchWallMs).toEqual({ low: 2 * HOUR_MS, high: 2 * HOUR_MS });

    // The pilot measures tokens with direct calls: no batch collector ran for it.
    const collectors: string[] = [];
    for await (const execution of harness.client.workflow.list({ query: `WorkflowType = 'batchCollectorWorkflow' AND WorkflowId STARTS_WITH "verity-batch/${harness.prefix}"` })) collectors.push(execution.workflowId);
    expect(collectors).toEqual([]);
  });
});
