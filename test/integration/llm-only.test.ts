import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { loadRunReport } from '../../src/report';
import type { Verdict } from '../../src/shared/verify';
import { runCliInProcess } from '../support/cli-in-process';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { expectTaskQueueReplays, scheduledActivities } from '../support/workflow-history';

const DEMO_CLAIM_COUNT = 10;

/** `verity verify … --json` in this process, against the harness's worker; stdout captured. */
async function verifyWithCli(harness: WorkerHarness, args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    const result = await runCliInProcess(['verify', ...args, '--no-embedded-worker'], harness.env);
    return { ...result, stdout };
  } finally {
    spy.mockRestore();
  }
}

describe('llm-only (the no-retrieval baseline) on real Temporal and Elasticsearch', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-llm-only-'));

  beforeAll(async () => {
    harness = await startWorkerHarness('llm-only');
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('verity verify --method llm-only: one LLM call on the claim alone, no retrieval, no tools, no evidence', async () => {
    const claim = 'The Eiffel Tower is in Paris.';
    const { code, stdout, stderr } = await verifyWithCli(harness, [claim, '--method', 'llm-only', '--json']);
    expect(code, stderr).toBe(0);
    const verdict = JSON.parse(stdout) as Verdict;
    expect(verdict).toMatchObject({ method: 'llm-only', claim, citedPassageIds: [], evidence: [], trace: { method: 'llm-only' } });
    expect(['SUPPORTED', 'REFUTED', 'NEI']).toContain(verdict.label);
    expect(verdict.rationale).toContain(claim);
    expect(verdict.usage).toMatchObject({ llmCalls: 1, toolCalls: 0 });
    // Rationale first by default (issue 37, defect 12); the label-first prompt keeps its identity.
    expect(verdict.promptVersion).toBe('llm-only.verdict-rationale-first@1');
    const activities = await scheduledActivities(harness.client.workflow.getHandle(verdict.workflowId));
    expect(Object.keys(activities).sort()).toEqual(['llmCachedAnswer', 'llmTask', 'storeVerdict']);
    expect(activities.llmTask).toBe(1);
    expect(await harness.deps.verdicts.get(verdict.workflowId)).toMatchObject({ label: verdict.label, method: 'llm-only' });
  });

  it('takes the sampling settings every method takes, and refuses any other', async () => {
    const refused = await verifyWithCli(harness, ['The Moon orbits the Earth.', '--method', 'llm-only', '-o', 'topK=3']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/--option/);
    const sampled = await verifyWithCli(harness, ['The Moon orbits the Earth.', '--method', 'llm-only', '-o', 'llm.temperature=0.7', '--json']);
    expect(sampled.code, sampled.stderr).toBe(0);
    expect((JSON.parse(sampled.stdout) as Verdict).temperature).toBe(0.7);
    const labelFirst = await verifyWithCli(harness, ['The Moon orbits the Earth.', '--method', 'llm-only', '-o', 'order=label-first', '--json']);
    expect(labelFirst.code, labelFirst.stderr).toBe(0);
    expect((JSON.parse(labelFirst.stdout) as Verdict).promptVersion).toBe('llm-only.verdict@1');
  });

  it('runs in a sweep (methods: [llm-only]) and its verdicts make a report', async () => {
    const runId = uniqueName('llm-only-sweep');
    const file = path.join(tmp, 'llm-only.yaml');
    fs.writeFileSync(
      file,
      YAML.stringify({ run: runId, datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity' }], methods: ['llm-only'], models: ['gpt-4o-mini'], concurrency: 4, parameters: { 'llm-only': { llm: { seed: 3 } } } }),
    );
    const sweep = await runCliInProcess(['sweep', 'run', file, '--no-embedded-worker'], harness.env);
    expect(sweep.code, sweep.stderr).toBe(0);

    const report = await loadRunReport(harness.es, harness.prefix, runId);
    expect([...new Set(report.groups.map((group) => group.key.method))]).toEqual(['llm-only']);
    expect(report.claims).toHaveLength(DEMO_CLAIM_COUNT);
    for (const row of report.claims) expect(row).toMatchObject({ method: 'llm-only', status: 'verdict', llmCalls: 1, toolCalls: 0 });
    // Different claims, different closed-book answers: the simulator's knowledge is a function of the claim.
    expect(new Set(report.claims.map((row) => row.predicted)).size).toBeGreaterThan(1);
  });

  it('replays every workflow it ran with the current code', async () => {
    expect(await expectTaskQueueReplays(harness.client, harness.config.temporal.taskQueue)).toBeGreaterThanOrEqual(3);
  });
});
