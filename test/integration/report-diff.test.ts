import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRunReport } from '../../src/report';
import { Command } from 'commander';
import { registerDiffCommand } from '../../src/cli/commands/diff';
import { registerReportCommand } from '../../src/cli/commands/report';
import { CliError } from '../../src/cli/errors';
import { createEsClient } from '../../src/es/client';
import { SHARED_DATA, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';
import { seedSyntheticRun, type SyntheticRunSpec } from '../support/synthetic-run';

const prefix = uniqueName('report');
const config = testConfig({ ES_INDEX_PREFIX: prefix });
const client = createEsClient({ url: config.elasticsearch.url, requestTimeoutMs: 120_000 });
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-report-'));

const base: SyntheticRunSpec = {
  runId: 'report-a',
  // 600 HoVer claims × 2 models: more verdicts than one search page holds.
  datasets: [
    { name: 'hover', file: path.join(SHARED_DATA, 'dev', 'hover.jsonl') },
    { name: 'fever', file: path.join(SHARED_DATA, 'dev', 'fever.jsonl'), sample: 60 },
  ],
  methods: ['rag'],
  models: ['gpt-4o-mini', 'gpt-4o'],
  skill: { 'gpt-4o-mini': 0.6, 'gpt-4o': 0.8 },
  failEvery: 40,
};

async function runCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  // The commands as main() runs them (main itself reads package.json relative to dist/).
  const program = new Command('verity').exitOverride();
  registerReportCommand(program);
  registerDiffCommand(program);
  try {
    await program.parseAsync(['node', 'verity', ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    process.stderr.write(`verity: ${(error as Error).message.split('\n')[0]}\n`);
    return { code: error instanceof CliError ? error.exitCode : 1, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

let seeded: { verdicts: number; failures: number };

beforeAll(async () => {
  process.env.ES_INDEX_PREFIX = prefix;
  seeded = await seedSyntheticRun(client, prefix, base);
  await seedSyntheticRun(client, prefix, { ...base, runId: 'report-b', salt: 'b', skill: { 'gpt-4o-mini': 0.75, 'gpt-4o': 0.8 } });
  await client.index({ index: `${prefix}-runs`, id: 'empty-run', document: { ...(await client.get({ index: `${prefix}-runs`, id: 'report-a' }))._source as object, runId: 'empty-run' }, refresh: 'wait_for' });
});

afterAll(async () => {
  delete process.env.ES_INDEX_PREFIX;
  await deleteIndicesWithPrefix(client, prefix);
  await client.close();
  fs.rmSync(outDir, { recursive: true, force: true });
});

describe('report and diff against Elasticsearch', () => {
  it('reads every verdict and failure of a run and joins gold labels from the dataset files', async () => {
    const report = await loadRunReport(client, prefix, 'report-a', { bootstrap: { resamples: 200 } });
    expect(seeded.verdicts).toBeGreaterThan(1000);
    expect(report.claims.filter((row) => row.status === 'verdict')).toHaveLength(seeded.verdicts);
    expect(report.claims.filter((row) => row.status === 'failed')).toHaveLength(seeded.failures);
    expect(report.groups.map((g) => `${g.key.dataset}/${g.key.model}`)).toEqual(['fever/gpt-4o', 'fever/gpt-4o-mini', 'hover/gpt-4o', 'hover/gpt-4o-mini']);
    const hover = report.groups.find((g) => g.key.dataset === 'hover' && g.key.model === 'gpt-4o');
    expect(hover?.counts.claims).toBe(600);
    // Every claim of hover has a gold label: failed verifications are scored too (as wrong answers).
    expect(hover?.counts.scored).toBe(hover?.counts.claims);
    expect(hover?.counts.failed).toBeGreaterThan(0);
    expect(hover?.accuracy.estimate).toBeGreaterThan(0.7);
    expect(hover?.macroF1.upper).toBeGreaterThan(hover?.macroF1.lower ?? 1);
    expect(report.banner).toMatch(/^Simulator run/);
    expect(report.warnings).toEqual([]);
  });

  it('verity report writes Markdown, HTML, CSV and JSON', async () => {
    const { code, stdout, stderr } = await runCli('report', 'report-a', '--out', outDir);
    expect(code).toBe(0);
    expect(stderr).toContain('Simulator run');
    for (const name of ['report.md', 'report.html', 'claims.csv', 'groups.csv', 'report.json']) {
      expect(stdout).toContain(path.join(outDir, name));
      expect(fs.statSync(path.join(outDir, name)).size).toBeGreaterThan(0);
    }
    const html = fs.readFileSync(path.join(outDir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/https?:\/\//);
    const json = JSON.parse(fs.readFileSync(path.join(outDir, 'report.json'), 'utf8')) as { runId: string };
    expect(json.runId).toBe('report-a');
  });

  it('verity diff reports claim changes and metric deltas per group', async () => {
    const { code, stdout } = await runCli('diff', 'report-a', 'report-b', '--json');
    expect(code).toBe(0);
    const diff = JSON.parse(stdout) as { summary: Record<string, number>; groups: { key: { model: string; dataset: string }; delta: { accuracy: number } | null }[] };
    expect(diff.summary['label-changed']).toBeGreaterThan(0);
    expect(diff.summary.becameCorrect).toBeGreaterThan(diff.summary.becameIncorrect ?? 0);
    const mini = diff.groups.find((g) => g.key.dataset === 'hover' && g.key.model === 'gpt-4o-mini');
    expect(mini?.delta?.accuracy).toBeGreaterThan(0);
    const text = await runCli('diff', 'report-a', 'report-b');
    expect(text.stdout).toContain('diff report-a → report-b');
  });

  it('fails with one line for an unknown run and for a run without verdicts', async () => {
    const unknown = await runCli('report', 'no-such-run', '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`verity: unknown run "no-such-run" (no manifest in ${prefix}-runs)\n`);
    const empty = await runCli('diff', 'report-a', 'empty-run');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe('verity: run "empty-run" has no verdicts or failed verifications yet\n');
  });
});
