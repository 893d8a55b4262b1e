import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { createSweepActivities } from '../../activities/sweep.activities';
import { startInProcessWorker } from '../../eval/bench/support/bench-stack';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { createLogger } from '../../src/logging/logger';
import { planSweep } from '../../src/plan/plan-sweep';
import { checkRunDatasets } from '../../src/runs/dataset-check';
import { readManifest, readRun, RunNotFoundError } from '../../src/runs/read-run';
import { exportRun } from '../../src/runs/export/export-run';
import { ExplorerData } from '../../src/explorer';
import { explorerFilterSchema } from '../../src/explorer/explorer-filter';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { describeFailure } from '../../src/shared/failure';
import { sweepWorkflowId } from '../../src/shared/identity';
import type { RunClaim, SweepInput } from '../../src/shared/sweep';
import { runPlacementOf } from '../../src/config/config-identity';
import type { sweepWorkflow } from '../../workflows';
import { runCliInProcess } from '../support/cli-in-process';
import { seedSyntheticRun } from '../support/synthetic-run';
import { runCli, spawnCli } from '../support/cli-process';
import { DEMO_CLAIMS, testConfig, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/** How long a sweep that works takes at most here; one that wedges (the bugs these tests pin) never ends. */
const SWEEP_DEADLINE_MS = 90_000;
/** VERITY_RETRY_BUDGET_S of the sweep whose failure cannot be recorded: short, yet long enough for its other activities on a loaded machine. */
const RECORD_RETRY_BUDGET_MS = 10_000;

function claimLine(id: string, claim = `Claim ${id.slice(0, 20)} is about the Eiffel Tower.`): string {
  return JSON.stringify({ id, dataset: 'demo', claim, label: 'SUPPORTED', label_norm: 'SUPPORTED' });
}

/** The workflow's result, or its failure, or a test failure once `ms` have passed. */
async function settledWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error })), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Hostile inputs to sweeps (issue 27): long ids, huge claims, failures that cannot be recorded,
 * datasets swapped under a detached sweep, duplicate variants and an interrupted pilot, on real
 * Temporal and Elasticsearch with the simulator as the endpoint.
 */
describe('sweeps under hostile inputs', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-hostile-'));
  const started: WorkflowHandle<typeof sweepWorkflow>[] = [];

  function writeDataset(name: string, lines: string[]): string {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  }

  function sweepInput(file: string, overrides: Record<string, unknown> = {}): SweepInput {
    const run = runConfigSchema.parse({ run: uniqueName('hostile'), datasets: [{ name: 'demo', file, format: 'verity' }], methods: ['rag'], models: ['gpt-4o-mini'], concurrency: 4, ...overrides });
    return buildSweepInput(harness.config, run, tmp);
  }

  async function sweep(input: SweepInput, options: { retryBudgetMs?: number } = {}) {
    const { handle } = await startSweep(harness.client, harness.config.temporal.taskQueue, input, options);
    started.push(handle);
    return handle;
  }

  beforeAll(async () => {
    harness = await startWorkerHarness('hostile', { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
  });

  afterAll(async () => {
    // A sweep wedged by a regression would otherwise fail workflow tasks for good.
    for (const handle of started) await handle.terminate('test over').catch(() => undefined);
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('verifies claims whose ids are far too long to spell out in a workflow id or a document _id', async () => {
    const ids = ['L'.repeat(1200), '长'.repeat(120), '长'.repeat(70), `${'长'.repeat(70)}-other`, 'short-1'];
    const input = sweepInput(writeDataset('long-ids.jsonl', ids.map((id, i) => claimLine(id, `Claim number ${i} is about the Eiffel Tower.`))));
    const outcome = await settledWithin((await sweep(input)).result(), SWEEP_DEADLINE_MS, 'the sweep with long claim ids');
    expect(outcome).toMatchObject({ ok: true, value: { status: 'completed', done: ids.length, failed: 0 } });
    await harness.es.indices.refresh({ index: `${harness.prefix}-verdicts` });
    const verdicts = await harness.es.search<{ claimId: string; workflowId: string }>({ index: `${harness.prefix}-verdicts`, size: 20, query: { term: { runId: input.runId } } });
    expect(verdicts.hits.hits.map((hit) => hit._source!.claimId).sort()).toEqual([...ids].sort());
    for (const hit of verdicts.hits.hits) expect(Buffer.byteLength(hit._id!)).toBeLessThanOrEqual(512);
  });

  it('refuses a run config with a 3,000-character model name or a 1,100-character run id, in one line', async () => {
    const file = path.join(tmp, 'long-model.yaml');
    fs.writeFileSync(file, YAML.stringify({ run: uniqueName('long-model'), datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 2 }], methods: ['rag'], models: ['m'.repeat(3000)] }));
    const model = await runCli(['sweep', 'plan', file], harness.env, 120_000);
    expect(model.code).toBe(2);
    expect(model.stderr.trim().split('\n')).toEqual([expect.stringMatching(/models\.0: model names have at most 200 characters/)]);

    fs.writeFileSync(file, YAML.stringify({ run: uniqueName('long-run'), datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 2 }], methods: ['rag'], models: ['gpt-4o-mini'] }));
    const run = await runCliInProcess(['sweep', 'run', file, '--run', 'r'.repeat(1100)], harness.env);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/--run: run ids have at most 100 characters/)]);
  });

  it('skips a 3 MB line and a 6,000-character claim in the dataset check, with their lines and limits, and the sweep verifies the rest', async () => {
    const file = writeDataset('huge.jsonl', [
      claimLine('huge', 'The Eiffel Tower '.repeat(180_000)),
      claimLine('small-1'),
      claimLine('long', 'The Eiffel Tower '.repeat(353)),
      claimLine('small-2'),
    ]);
    const [check] = await checkRunDatasets([{ name: 'demo', file, format: 'verity' }], { strict: false });
    expect(check).toMatchObject({ claims: 2, skippedCount: 2 });
    expect(check!.skipped).toEqual([
      { position: { line: 1 }, reason: 'line is longer than 1 MiB' },
      { position: { line: 3 }, reason: expect.stringMatching(/^claim: the claim has 6000 characters; at most 5000 are accepted/) },
    ]);
    await expect(checkRunDatasets([{ name: 'demo', file, format: 'verity' }], { strict: true })).rejects.toThrow(/huge\.jsonl: line 1: line is longer than 1 MiB/);

    const outcome = await settledWithin((await sweep(sweepInput(file))).result(), SWEEP_DEADLINE_MS, 'the sweep with a huge claim line');
    expect(outcome).toMatchObject({ ok: true, value: { status: 'completed', total: 2, done: 2 } });
  });

  it('pages claims by size: a page of 50 long claims is cut to what fits well within one Temporal payload', async () => {
    const runId = uniqueName('pages');
    // Control characters take 6 bytes each in JSON: 50 such claims of 5,000 characters are 1.5 MB.
    const claims: RunClaim[] = Array.from({ length: 50 }, (_, ordinal) => ({
      runId, ordinal, claimId: `c-${ordinal}`, dataset: 'demo', datasetPosition: 0, claim: '\u0001'.repeat(5000), label: 'SUPPORTED', labelNorm: 'SUPPORTED',
    }));
    await harness.deps.runClaims.storeAll(claims);
    const activities = createSweepActivities(harness.deps);
    const first = await activities.loadRunClaims({ runId, fromOrdinal: 0, size: 50 });
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(50);
    expect(Buffer.byteLength(JSON.stringify(first))).toBeLessThanOrEqual(512 * 1024);
    const next = await activities.loadRunClaims({ runId, fromOrdinal: first.length, size: 50 });
    expect(next[0]?.ordinal).toBe(first.length);
  });

  it('fails with the reason when a failure cannot be recorded; `sweep status` says so and a re-run resumes', async () => {
    const failures = `${harness.prefix}-run-failures`;
    await harness.deps.runFailures.ensureIndex();
    await harness.es.indices.putSettings({ index: failures, settings: { 'index.blocks.write': true } });
    const other = writeDataset('unrecordable.jsonl', [claimLine('fails-1')]);
    const run = runConfigSchema.parse({
      run: uniqueName('unrecorded'),
      datasets: [
        { name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 1 },
        { name: 'demo', file: other, format: 'verity', index: `${harness.prefix}-missing` },
      ],
      methods: ['rag'],
      models: ['gpt-4o-mini'],
    });
    const input = buildSweepInput(harness.config, run, tmp);
    try {
      const outcome = await settledWithin((await sweep(input, { retryBudgetMs: RECORD_RETRY_BUDGET_MS })).result(), SWEEP_DEADLINE_MS, 'the sweep whose failure cannot be recorded');
      expect(outcome.ok).toBe(false);
      const error = (outcome as { error: unknown }).error;
      expect(error).toBeInstanceOf(WorkflowFailedError);
      expect(describeFailure(error as Error)).toMatch(/outcome of verify\/.*fails-1.* could not be recorded: .*; the sweep stopped: run `verity sweep run` again to resume it/);

      const status = await runCliInProcess(['sweep', 'status', run.run], harness.env);
      expect(status.code).toBe(1);
      expect(status.stderr.trim().split('\n')).toEqual([expect.stringMatching(/sweep \S+ failed: .*could not be recorded.*run `verity sweep run <config>` again to resume it/)]);
    } finally {
      await harness.es.indices.putSettings({ index: failures, settings: { 'index.blocks.write': false } });
    }
    const resumed = await settledWithin((await sweep(input)).result(), SWEEP_DEADLINE_MS, 'the re-run');
    expect(resumed).toMatchObject({ ok: true, value: { status: 'completed', done: 1, reused: 1, failed: 1 } });
    expect((await harness.deps.runFailures.list(run.run)).map((failure) => failure.claimId)).toEqual(['fails-1']);
  });

  it('refuses duplicate methods or models in one line instead of verifying and counting them twice', async () => {
    for (const [key, values] of [['methods', ['rag', 'rag']], ['models', ['gpt-4o-mini', 'gpt-4o', 'gpt-4o-mini']]] as const) {
      const file = path.join(tmp, `duplicate-${key}.yaml`);
      const runId = uniqueName(`dup-${key}`);
      fs.writeFileSync(file, YAML.stringify({ run: runId, datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 2 }], methods: ['rag'], models: ['gpt-4o-mini'], [key]: values }));
      const result = await runCliInProcess(['sweep', 'run', file], harness.env);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`${key}: "${values[0]}" is listed twice`))]);
      expect(await harness.deps.runs.get(runId)).toBeUndefined();
    }
  });

  it('a detached sweep whose dataset file is replaced before a worker reads it fails with one line, not with the new claims', async () => {
    const file = writeDataset('swapped.jsonl', [claimLine('original-1'), claimLine('original-2')]);
    const yaml = path.join(tmp, 'swapped.yaml');
    const runId = uniqueName('swapped');
    fs.writeFileSync(yaml, YAML.stringify({ run: runId, datasets: [{ name: 'demo', file, format: 'verity' }], methods: ['rag'], models: ['gpt-4o-mini'] }));
    // A task queue no worker polls yet: the sweep waits, as after `--detach` with workers busy or down.
    const env = { ...harness.env, TEMPORAL_TASK_QUEUE: `${harness.prefix}-detached` };
    const detached = await runCliInProcess(['sweep', 'run', yaml, '--detach', '--no-embedded-worker'], env);
    expect(detached.code).toBe(0);
    writeDataset('swapped.jsonl', [claimLine('replaced-1'), claimLine('replaced-2'), claimLine('replaced-3')]);

    const config = testConfig(env);
    const worker = await startInProcessWorker(config, createLogger('warn'));
    try {
      const handle = worker.client.workflow.getHandle<typeof sweepWorkflow>(sweepWorkflowId(runId, runPlacementOf(config)));
      started.push(handle);
      const outcome = await settledWithin(handle.result(), SWEEP_DEADLINE_MS, 'the detached sweep');
      expect(outcome.ok).toBe(false);
      expect(describeFailure((outcome as { error: Error }).error)).toMatch(/swapped\.jsonl changed after the run was recorded \(sha256 [0-9a-f]{12}…, now [0-9a-f]{12}…\)/);
      await harness.es.indices.refresh({ index: `${harness.prefix}-verdicts` });
      const verified = await harness.es.count({ index: `${harness.prefix}-verdicts`, query: { term: { runId } } });
      expect(verified.count).toBe(0);
    } finally {
      await worker.close({ ignoreWorkerFailure: true });
    }
  });

  it('verify --run and --claim-id take the limits sweeps apply: a 1,100-character claim id is verified, a longer run id or claim id refused in one line', async () => {
    const result = await runCliInProcess(['verify', '--run', uniqueName('long-claim-id'), '--claim-id', 'c'.repeat(1100), 'The Eiffel Tower is in Paris.'], harness.env);
    expect(result).toMatchObject({ code: 0 });
    const run = await runCliInProcess(['verify', '--run', 'r'.repeat(1100), 'The Eiffel Tower is in Paris.'], harness.env);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^verity: invalid claim: run id: run ids have at most 100 characters$/)]);
    const spaced = await runCliInProcess(['verify', '--run', 'a b', 'The Eiffel Tower is in Paris.'], harness.env);
    expect(spaced.stderr.trim().split('\n')).toEqual([expect.stringMatching(/run id: run ids use letters, digits/)]);
    const claimId = await runCliInProcess(['verify', '--claim-id', 'c'.repeat(2100), 'The Eiffel Tower is in Paris.'], harness.env);
    expect(claimId.stderr.trim().split('\n')).toEqual([expect.stringMatching(/claim id: a claim id has at most 2000 characters$/)]);
  });

  it('refuses a claim of zero-width characters only, before anything is paid', async () => {
    const result = await runCliInProcess(['verify', '\u200b\u200c\u200d\u2060\ufeff'], harness.env);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual(['verity: invalid claim: the claim has no visible character']);
  });

  it("a finished sweep's run takes no ad-hoc verification, and its report and export count only the sweep's own verifications", async () => {
    const input = { runId: uniqueName('owned') };
    const config = path.join(tmp, 'owned.yaml');
    const dataset = writeDataset('owned.jsonl', [claimLine('own-1'), claimLine('own-2')]);
    fs.writeFileSync(config, YAML.stringify({ run: input.runId, datasets: [{ name: 'demo', file: dataset, format: 'verity' }], methods: ['rag'], models: ['gpt-4o-mini'] }));
    const swept = await runCliInProcess(['sweep', 'run', config, '--no-embedded-worker'], harness.env);
    expect(swept.code, swept.stderr).toBe(0);
    for (const args of [
      ['verify', 'Claim own-1 is about the Eiffel Tower.', '--run', input.runId, '--claim-id', 'own-1', '-k', '1'],
      ['verify', 'A new claim about the Eiffel Tower.', '--run', input.runId, '--claim-id', 'new'],
    ]) {
      const result = await runCliInProcess(args, harness.env);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([`verity: --run ${input.runId}: that run belongs to a sweep and takes no ad-hoc verifications; choose another --run id, or add claims, methods or models to the sweep's config and \`verity sweep run\` it again`]);
    }

    // Verdicts written under the run id from outside (as `verify --run` did before it was refused: no dataset) stay out of its numbers.
    const verdicts = `${harness.prefix}-verdicts`;
    await harness.es.indices.refresh({ index: verdicts });
    const stored = await harness.es.search<Record<string, unknown>>({ index: verdicts, size: 10, query: { term: { runId: input.runId } } });
    expect(stored.hits.hits).toHaveLength(2);
    const own = stored.hits.hits[0]!._source!;
    const foreign = [
      { ...own, workflowId: 'foreign-k1', dataset: undefined, label: 'REFUTED' },
      { ...own, workflowId: 'foreign-new', dataset: undefined, claimId: 'new', claim: 'A new claim about the Eiffel Tower.' },
      { ...own, workflowId: 'foreign-model', model: 'another-model' },
    ];
    for (const doc of foreign) await harness.es.index({ index: verdicts, id: doc.workflowId, document: doc, refresh: 'wait_for' });
    const records = await readRun(harness.es, harness.prefix, input.runId);
    expect(records.verdicts.map((v) => v.workflowId).sort()).toEqual(stored.hits.hits.map((hit) => hit._id).sort());
    expect(records.warnings).toContain(`3 verdict(s) stored under run "${input.runId}" are not of its sweep's (claim, method, model, repeat) set and are left out`);
    const file = path.join(tmp, 'owned.csv');
    const stats = await exportRun(harness.es, harness.prefix, input.runId, 'csv', file);
    expect(stats).toMatchObject({ verdicts: 2, skipped: 3 });
    expect(fs.readFileSync(file, 'utf8')).not.toMatch(/foreign-/);
    const view = new ExplorerData({ client: harness.es, prefix: harness.prefix, runId: input.runId, workflowUrl: () => undefined });
    expect(await view.summary()).toMatchObject({ verdicts: 2, facets: { model: ['gpt-4o-mini'] } });
    expect((await view.claims(explorerFilterSchema.parse({}))).total).toBe(2);
    expect(await view.compare(String(own.claimId))).toHaveLength(1);
    expect(await view.claim('foreign-k1')).toBeUndefined();
    expect(await view.claim(String(own.workflowId))).toBeDefined();
  });

  it('reads the run id "" as an unknown run, not as Elasticsearch\'s 405 page', async () => {
    await harness.deps.runs.ensureIndex();
    expect(await harness.deps.runs.get('')).toBeUndefined();
    await expect(readManifest(harness.es, harness.prefix, '')).rejects.toBeInstanceOf(RunNotFoundError);
  });

  it('plans a real endpoint from a pilot, not from runs that the embedded simulator answered', async () => {
    const model = uniqueName('model');
    await seedSyntheticRun(harness.es, harness.prefix, { runId: uniqueName('simulated'), datasets: [{ name: 'demo', file: DEMO_CLAIMS, sample: 5 }], methods: ['rag'], models: [model], llmProvider: 'simulator' });
    expect(harness.config.llm.provider).toBe('openai-compatible');
    const run = runConfigSchema.parse({ run: uniqueName('real'), datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 2 }], methods: ['rag'], models: [model] });
    const plan = await planSweep({ config: harness.config, env: { ...process.env, ...harness.env }, es: harness.es, run, input: buildSweepInput(harness.config, run, tmp), configDir: tmp, pilotClaims: 1, logger: createLogger('warn') });
    expect(plan.rows.map((row) => row.source.kind)).toEqual(['pilot']);
  });

  it('SIGTERM during `sweep plan --pilot` stops the pilot, deletes its indices and ends with one line', async () => {
    const file = path.join(tmp, 'pilot.yaml');
    fs.writeFileSync(
      file,
      YAML.stringify({ run: uniqueName('pilot'), datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity' }], methods: ['rag', 'mermaid', 'fire'], models: ['gpt-4o-mini'], ordered: true, parameters: { mermaid: { memory: 'off' } } }),
    );
    const cli = spawnCli(['sweep', 'plan', file, '--pilot', '--pilot-claims', '10'], harness.env);
    try {
      let pilotId: string | undefined;
      await waitFor(
        'the pilot sweep to start',
        async () => {
          for await (const execution of harness.client.workflow.list({ query: `WorkflowType = 'sweepWorkflow' AND ExecutionStatus = 'Running'` })) {
            if (execution.workflowId.includes(`/${harness.prefix}-plan-`)) pilotId = execution.workflowId;
          }
          return pilotId !== undefined || cli.child.exitCode !== null;
        },
        SWEEP_DEADLINE_MS,
        500,
      );
      expect(pilotId).toBeDefined();
      cli.child.kill('SIGTERM');
      const ended = await settledWithin(cli.exited, 60_000, 'the interrupted plan');
      expect(ended.ok).toBe(true);
      const result = (ended as { value: { code: number | null; stderr: string } }).value;
      expect(result.code).toBe(143);
      expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^verity: interrupted: pilot plan-[0-9a-f]+ stopped and its indices deleted; no plan$/);
      expect((await harness.client.workflow.getHandle(pilotId!).describe()).status.name).toBe('TERMINATED');
      expect(Object.keys(await harness.es.indices.get({ index: `${harness.prefix}-plan-*`, allow_no_indices: true }))).toEqual([]);
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});
