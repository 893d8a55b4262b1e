/**
 * Bounded-memory check of `verity export`: writes a generated run of 100,000 verdicts (plus
 * failures) into Elasticsearch under a prefix of its own, exports it as Parquet, JSONL and CSV, each
 * in a child process of its own, and reports each child's peak RSS next to a child that loads every
 * verdict into memory at once (what a non-streaming export would do). Deletes its indices at the end.
 *
 *   npm run bench:export [-- --verdicts 100000]
 *
 * The verdicts are synthetic (labels, usage and text made up): the figures are about memory, not
 * about any method.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Client } from '@elastic/elasticsearch';
import { CommandProgress } from '../../src/cli/progress';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { ensureIndex } from '../../src/es/ensure-index';
import { indexName } from '../../src/es/indices';
import { exportRun } from '../../src/runs/export/export-run';
import { EXPORT_FORMATS, type ExportFormat } from '../../src/runs/export/row-writers';
import { RUN_CLAIMS_INDEX, RUN_FAILURES_INDEX } from '../../src/runs/run-indices';
import { RunStore } from '../../src/runs/run-store';
import { searchAll } from '../../src/runs/search-all';
import { VERDICT_INDEX } from '../../src/verdicts/verdict-index';
import { runMain } from './support/bench-stack';
import { exitWithUsageIfAsked } from './support/usage';

exitWithUsageIfAsked(__filename);

const RUN_ID = 'export-bench';
const METHODS = ['rag', 'mermaid', 'emulate', 'fire', 'tool-mad'];
const MODELS = ['gpt-4o-mini', 'gpt-4.1'];
const BULK = 5_000;
const LABELS = ['SUPPORTED', 'REFUTED', 'NEI'];

function esUrl(): string {
  return process.env.ES_URL ?? 'http://127.0.0.1:9200';
}

async function bulk(client: Client, index: string, docs: { id: string; doc: object }[]): Promise<void> {
  const response = await client.bulk({ operations: docs.flatMap(({ id, doc }) => [{ index: { _index: index, _id: id } }, doc]) });
  if (response.errors) throw new Error(`bulk indexing into ${index} failed: ${JSON.stringify(response.items.find((i) => i.index?.error)?.index?.error)}`);
}

/** A run of `verdicts` verifications (claims × 10 variants); every 50th is a failure instead. */
async function generateRun(client: Client, prefix: string, verdicts: number, progress: CommandProgress): Promise<{ verdicts: number; failures: number }> {
  const variants = METHODS.flatMap((method) => MODELS.map((model) => ({ method, model })));
  const claims = Math.ceil(verdicts / variants.length);
  await ensureIndex(client, indexName(prefix, 'verdicts'), VERDICT_INDEX);
  await ensureIndex(client, indexName(prefix, 'run-claims'), RUN_CLAIMS_INDEX);
  await ensureIndex(client, indexName(prefix, 'run-failures'), RUN_FAILURES_INDEX);
  const now = new Date().toISOString();
  await new RunStore(client, indexName(prefix, 'runs')).save({
    schemaVersion: 1, runId: RUN_ID,
    config: { run: RUN_ID, datasets: [{ name: 'generated', file: 'generated.jsonl', format: 'verity' }], methods: METHODS, models: MODELS, parameters: {}, seed: 7, concurrency: 8, ordered: false, budget: {} },
    status: 'completed', gitCommit: 'bench', datasetHashes: {}, modelIds: MODELS, promptVersions: [], llmProvider: 'simulator', createdAt: now, updatedAt: now,
  });
  let verdictDocs: { id: string; doc: object }[] = [];
  let failureDocs: { id: string; doc: object }[] = [];
  let claimDocs: { id: string; doc: object }[] = [];
  const counts = { verdicts: 0, failures: 0 };
  const flush = async (force = false) => {
    if (force || verdictDocs.length >= BULK) {
      if (verdictDocs.length > 0) await bulk(client, indexName(prefix, 'verdicts'), verdictDocs);
      if (failureDocs.length > 0) await bulk(client, indexName(prefix, 'run-failures'), failureDocs);
      if (claimDocs.length > 0) await bulk(client, indexName(prefix, 'run-claims'), claimDocs);
      verdictDocs = [];
      failureDocs = [];
      claimDocs = [];
    }
  };
  for (let ordinal = 0; ordinal < claims; ordinal += 1) {
    const claimId = `gen-${ordinal}`;
    const claim = `Generated claim ${ordinal}: the tower number ${ordinal} was completed in ${1800 + (ordinal % 200)} in city ${ordinal % 97}.`;
    const gold = LABELS[ordinal % 3]!;
    claimDocs.push({ id: `${RUN_ID}/${ordinal}`, doc: { runId: RUN_ID, ordinal, claimId, dataset: 'generated', datasetPosition: 0, claim, label: gold, labelNorm: gold } });
    for (const [v, { method, model }] of variants.entries()) {
      const workflowId = `verify/${RUN_ID}/${claimId}/${method}/${encodeURIComponent(model)}`;
      const n = ordinal * variants.length + v;
      if (n % 50 === 49) {
        failureDocs.push({ id: workflowId, doc: { runId: RUN_ID, workflowId, ordinal, claimId, dataset: 'generated', method, model, reason: 'LlmOutputInvalid: no valid verdict after 3 attempts', type: 'LlmOutputInvalid', failedAt: now } });
        counts.failures += 1;
        continue;
      }
      verdictDocs.push({
        id: workflowId,
        doc: {
          schemaVersion: 1, workflowId, runId: RUN_ID, claimId, dataset: 'generated', method, model, claim, label: LABELS[n % 3],
          rationale: `Generated rationale ${n}: `.padEnd(400, 'x'), citedPassageIds: ['p1', 'p2'],
          evidence: [{ id: 'p1', docId: 'd1', title: 'Tower', text: 'Generated evidence passage. '.repeat(10), score: 1 }],
          temperature: 0, seed: 7, promptVersion: `${method}.verdict@1`,
          usage: { llmCalls: 1 + (n % 4), cachedLlmCalls: 0, toolCalls: n % 5, promptTokens: 800 + (n % 500), completionTokens: 60 + (n % 90), totalTokens: 860 + (n % 500) + (n % 90), costUsd: 0.0002 + (n % 7) * 1e-5 },
          trace: { method, steps: Array.from({ length: 4 }, (_, i) => ({ thought: `step ${i} `.padEnd(200, 'y') })) },
          startedAt: now, finishedAt: now, durationMs: 500 + (n % 3000),
        },
      });
      counts.verdicts += 1;
    }
    await flush();
    progress.update({ done: (ordinal + 1) * variants.length, total: claims * variants.length });
  }
  await flush(true);
  progress.finish();
  await client.indices.refresh({ index: `${prefix}-*` });
  return counts;
}

/** Runs this script as a child doing one thing; returns its report (last stdout line, JSON). */
function child(args: string[]): { rows: number; peakRssMb: number; seconds: number } {
  const out = execFileSync(process.execPath, [...process.execArgv, __filename, '--child', ...args], { encoding: 'utf8', env: process.env, maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as { rows: number; peakRssMb: number; seconds: number };
}

async function childMain(task: string, prefix: string, file: string): Promise<void> {
  const client = createEsClient({ url: esUrl() });
  const started = Date.now();
  let rows: number;
  if (task === 'load-all') {
    rows = (await searchAll(client, indexName(prefix, 'verdicts'), { term: { runId: RUN_ID } })).length;
  } else {
    const stats = await exportRun(client, prefix, RUN_ID, task as ExportFormat, file);
    rows = stats.verdicts + stats.failures;
  }
  await client.close();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ rows, peakRssMb, seconds: (Date.now() - started) / 1000 })}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { verdicts: { type: 'string', default: '100000' }, child: { type: 'boolean', default: false } }, allowPositionals: true, strict: false });
  if (values.child) {
    const [task, prefix, file] = process.argv.slice(process.argv.indexOf('--child') + 1);
    return childMain(task!, prefix!, file!);
  }
  const wanted = Number(values.verdicts);
  const prefix = `bench-export-${process.pid}-${Date.now()}`;
  const client = createEsClient({ url: esUrl() });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-export-bench-'));
  try {
    const intervalMs = loadConfig().progressIntervalMs;
    const generated = await generateRun(client, prefix, wanted, new CommandProgress({ label: `bench export-memory (generating ${prefix}-*)`, unit: 'verifications', intervalMs }));
    process.stderr.write(`generated ${generated.verdicts} verdicts and ${generated.failures} failures\n`);
    const rows: string[][] = [];
    // Each measurement is a child process of its own; the bar counts them (load-all, then every format).
    const measured = new CommandProgress({ label: 'bench export-memory', unit: 'measurements', intervalMs });
    const total = 1 + EXPORT_FORMATS.length;
    measured.update({ done: 0, total, detail: 'load all' });
    const baseline = child(['load-all', prefix, '-']);
    for (const [i, format] of EXPORT_FORMATS.entries()) {
      measured.update({ done: 1 + i, total, detail: format });
      const file = path.join(dir, `run.${format}`);
      const result = child([format, prefix, file]);
      if (result.rows !== generated.verdicts + generated.failures) throw new Error(`${format}: exported ${result.rows} rows, expected ${generated.verdicts + generated.failures}`);
      rows.push([format, String(result.rows), (fs.statSync(file).size / 2 ** 20).toFixed(1), result.peakRssMb.toFixed(0), (result.peakRssMb / baseline.peakRssMb).toFixed(2), result.seconds.toFixed(1)]);
    }
    measured.update({ done: total, total });
    measured.finish();
    rows.push(['(load all verdicts in memory)', String(baseline.rows), '-', baseline.peakRssMb.toFixed(0), '1.00', baseline.seconds.toFixed(1)]);
    const header = ['export', 'rows', 'file MB', 'peak RSS MB', 'RSS vs load-all', 'seconds'];
    process.stdout.write(`${[header, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`);
    process.stdout.write('Synthetic verdicts: the figures are about the export\'s memory, not about any method.\n');
  } finally {
    const indices = Object.keys(await client.indices.get({ index: `${prefix}-*`, allow_no_indices: true, ignore_unavailable: true }));
    if (indices.length > 0) await client.indices.delete({ index: indices });
    await client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runMain(main);
