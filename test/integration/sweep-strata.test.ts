import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunReport, writeReport, type RunReport } from '../../src/report';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { readRun } from '../../src/runs/read-run';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { SHARED_DATA, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const HOVER_DEV = path.join(SHARED_DATA, 'dev', 'hover.jsonl');
const PER_HOP = 4;

/**
 * MERMAID's HoVer protocol (Table 2: 100 claims per hop, each hop reported on its own) as a sweep
 * against real Temporal and Elasticsearch with the simulator: `stratify` draws the same number of
 * claims for every hop count of the shared HoVer dev file, and the report has a group per hop.
 */
describe('a sweep over a dataset stratified by a field', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-strata-'));
  const runId = uniqueName('strata');
  let report: RunReport;

  beforeAll(async () => {
    harness = await startWorkerHarness('strata', { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
    const { config, deps, client, es, prefix } = harness;
    const run = runConfigSchema.parse({
      run: runId,
      datasets: [{ name: 'hover', file: HOVER_DEV, format: 'verity', stratify: { field: 'num_hops', perValue: PER_HOP } }],
      methods: ['rag'],
      models: ['gpt-4o-mini'],
      concurrency: 4,
    });
    const input = buildSweepInput(config, run, tmp);
    await deps.runs.save(await buildRunManifest(config, run, input));
    const { handle } = await startSweep(client, config.temporal.taskQueue, input);
    expect(await handle.result()).toMatchObject({ status: 'completed', total: 3 * PER_HOP, failed: 0 });
    report = await loadRunReport(es, prefix, runId, { bootstrap: { resamples: 100 } });
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('samples the same number of claims for every hop count, half of each hop SUPPORTED', async () => {
    const { claims } = await readRun(harness.es, harness.prefix, runId);
    const hover = fs.readFileSync(HOVER_DEV, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; label_norm: string; meta: { num_hops: number } });
    const byId = new Map(hover.map((record) => [record.id, record]));
    const perHop = new Map<string, { claims: number; supported: number }>();
    for (const claim of claims) {
      const record = byId.get(claim.claimId)!;
      expect(claim.stratum).toBe(String(record.meta.num_hops));
      const counts = perHop.get(claim.stratum!) ?? { claims: 0, supported: 0 };
      counts.claims += 1;
      if (record.label_norm === 'SUPPORTED') counts.supported += 1;
      perHop.set(claim.stratum!, counts);
    }
    expect(Object.fromEntries(perHop)).toEqual({
      '2': { claims: PER_HOP, supported: PER_HOP / 2 },
      '3': { claims: PER_HOP, supported: PER_HOP / 2 },
      '4': { claims: PER_HOP, supported: PER_HOP / 2 },
    });
  });

  it('reports the dataset and then each hop as its own group', () => {
    expect(report.groups.map((group) => [group.key.stratum?.value ?? 'all', group.counts.claims])).toEqual([
      ['all', 3 * PER_HOP],
      ['2', PER_HOP],
      ['3', PER_HOP],
      ['4', PER_HOP],
    ]);
    const hop3 = report.groups[2]!;
    expect(hop3.key).toEqual({ dataset: 'hover', method: 'rag', model: 'gpt-4o-mini', stratum: { field: 'num_hops', value: '3' } });
    // The dataset group's correct answers are its hops' correct answers.
    const correct = (group: (typeof report.groups)[number]) => Math.round(group.accuracy.estimate * group.counts.scored);
    expect(correct(report.groups[0]!)).toBe(report.groups.slice(1).reduce((sum, group) => sum + correct(group), 0));
  });

  it('writes a row per hop into report.md, groups.csv and report.json', async () => {
    const dir = path.join(tmp, 'report');
    await writeReport(report, dir, 'all');
    const markdown = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
    for (const hops of ['2', '3', '4']) expect(markdown).toMatch(new RegExp(`^\\| hover \\[num_hops=${hops}\\] \\| rag \\| gpt-4o-mini \\| ${PER_HOP} \\|`, 'm'));
    expect(markdown).toContain(`| ${PER_HOP} per num_hops |`);
    const csv = fs.readFileSync(path.join(dir, 'groups.csv'), 'utf8').trim().split('\n').map((line) => line.split(','));
    const column = csv[0]!.indexOf('stratum');
    expect(csv.slice(1).map((cells) => cells[column])).toEqual(['', 'num_hops=2', 'num_hops=3', 'num_hops=4']);
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')) as RunReport;
    expect(json.groups.map((group) => group.key.stratum?.value ?? null)).toEqual([null, '2', '3', '4']);
  });
});
