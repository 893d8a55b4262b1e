/**
 * ToE cost and tree-control figures with the simulator (issue 8 "Measure"): nodes, iterations,
 * searches and LLM calls per claim over a seeded, label-stratified sample of FEVER and SciFact dev
 * claims, through the real Temporal and Elasticsearch (an in-process worker on its own task queue).
 *
 *   npx tsx eval/bench/toe.ts [--per-dataset 10] [--seed 7] [--prefix toe-bench] [--concurrency 2] [--out file.json]
 *
 * Indices `<prefix>-wiki` (Wikipedia sample + SciFact abstracts: rag_search is the offline arXiv
 * substitute and reads this index) and `<prefix>-web` (Factcheck-Bench's stored web passages) are
 * ingested once and kept. The simulator's labels are not a method's accuracy and are not reported.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { ingestCorpus } from '../../src/corpus/ingest';
import { indexName } from '../../src/es/indices';
import { projectRoot } from '../../src/project-root';
import { WEB_TARGET } from '../../src/search/web-index';
import { fullVerdict, type Verdict } from '../../src/shared/verify';
import { stratifiedSample } from '../../src/datasets/sampling';
import { startBenchStack } from './support/bench-stack';
import { pool } from './support/pool';
import { exitWithUsageIfAsked } from './support/usage';

exitWithUsageIfAsked(__filename);

const DATA = path.resolve(projectRoot(), '..', 'shared', 'data');
const DATASETS = [
  { name: 'fever', file: path.join(DATA, 'dev', 'fever.jsonl') },
  { name: 'scifact', file: path.join(DATA, 'dev', 'scifact.jsonl') },
];

interface ClaimRecord {
  id: string;
  claim: string;
  label_norm: string;
  labelNorm?: string;
}

interface ClaimFigures {
  dataset: string;
  claimId: string;
  nodesCreated: number;
  nodesEvaluated: number;
  iterations: number;
  maxDepth: number;
  searches: number;
  toolCalls: number;
  llmCalls: number;
  termination: string;
  durationMs: number;
}

interface TraceNode {
  depth: number;
  status: string;
  steps?: { action: string }[];
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

function readClaims(file: string): ClaimRecord[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const record = JSON.parse(line) as ClaimRecord;
      return { ...record, labelNorm: record.label_norm };
    });
}

function figuresOf(dataset: string, claimId: string, verdict: Verdict): ClaimFigures {
  const trace = verdict.trace as unknown as { iterations: number; termination: string; nodes: TraceNode[] };
  const evaluated = trace.nodes.filter((n) => n.status === 'evaluated');
  return {
    dataset,
    claimId,
    nodesCreated: trace.nodes.length,
    nodesEvaluated: evaluated.length,
    iterations: trace.iterations,
    maxDepth: Math.max(...evaluated.map((n) => n.depth)),
    searches: evaluated.reduce((sum, n) => sum + (n.steps ?? []).filter((s) => s.action !== 'stop').length, 0),
    toolCalls: verdict.usage.toolCalls,
    llmCalls: verdict.usage.llmCalls,
    termination: trace.termination,
    durationMs: verdict.durationMs,
  };
}

const METRICS = ['nodesCreated', 'nodesEvaluated', 'iterations', 'maxDepth', 'searches', 'toolCalls', 'llmCalls', 'durationMs'] as const;

function summarise(label: string, rows: readonly ClaimFigures[]): string[] {
  const lines = [`${label} (${rows.length} claims)`];
  for (const metric of METRICS) {
    const values = rows.map((r) => r[metric]);
    const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    lines.push(`  ${metric.padEnd(15)} mean ${mean.toFixed(1).padStart(8)}  min ${String(Math.min(...values)).padStart(6)}  max ${String(Math.max(...values)).padStart(6)}`);
  }
  const reasons = new Map<string, number>();
  for (const row of rows) reasons.set(row.termination, (reasons.get(row.termination) ?? 0) + 1);
  lines.push(`  termination     ${[...reasons].map(([reason, n]) => `${reason} ${n}`).join(', ')}`);
  return lines;
}

async function ensureIngested(es: EsClient, prefix: string, say: (line: string) => void): Promise<void> {
  const wiki = indexName(prefix, 'wiki');
  if (!(await es.indices.exists({ index: wiki }))) {
    for (const file of ['wiki.jsonl', 'scifact.jsonl']) {
      const result = await ingestCorpus({ client: es, index: wiki, file: path.join(DATA, 'corpus', file) });
      say(`ingested ${result.documents} documents of ${file} into ${wiki}`);
    }
  }
  const web = indexName(prefix, 'web');
  if (!(await es.indices.exists({ index: web }))) {
    const result = await ingestCorpus({ client: es, index: web, file: path.join(DATA, 'corpus', 'web_factcheckbench.jsonl'), target: WEB_TARGET });
    say(`ingested ${result.documents} recorded web passages into ${web}`);
  }
  await es.indices.refresh({ index: [wiki, web] });
}

async function main(): Promise<void> {
  const perDataset = Number(option('per-dataset', '10'));
  const seed = Number(option('seed', '7'));
  const prefix = option('prefix', 'toe-bench');
  const concurrency = Number(option('concurrency', '2'));
  const out = option('out', '');
  const say = (line: string) => process.stdout.write(`${line}\n`);

  const taskQueue = `toe-bench-${randomBytes(3).toString('hex')}`;
  // The indices are ingested once and kept for the next run; the task queue is this run's own.
  const stack = await startBenchStack({
    prefix,
    env: {
      TEMPORAL_TASK_QUEUE: taskQueue,
      // The simulator is local: let the LLM queue run as fast as the machine allows.
      VERITY_LLM_RPS: '200',
    },
    ingest: (es) => ensureIngested(es, prefix, say),
  });
  const { client, config } = stack;
  const runId = `toe-bench-${seed}-${randomBytes(3).toString('hex')}`;

  const work = DATASETS.flatMap(({ name, file }) => stratifiedSample(readClaims(file), perDataset, { seed }).map((claim) => ({ dataset: name, claim })));
  say(`ToE bench: ${work.length} claims (${perDataset} per dataset, seed ${seed}), run ${runId}, task queue ${config.temporal.taskQueue}`);
  const rows: ClaimFigures[] = [];
  try {
    const verifyOne = async ({ dataset, claim }: (typeof work)[number]): Promise<void> => {
      const input = buildVerifyInput(config, { claim: claim.claim, method: 'toe', runId, claimId: claim.id, dataset });
      const { handle } = await startVerification(client, config.temporal.taskQueue, input);
      const row = figuresOf(dataset, claim.id, fullVerdict(await handle.result()));
      rows.push(row);
      say(
        `${claim.id.padEnd(28)} nodes ${row.nodesEvaluated}/${row.nodesCreated} it ${row.iterations} depth ${row.maxDepth} ` +
          `searches ${row.searches} llm ${row.llmCalls} ${row.termination} ${(row.durationMs / 1000).toFixed(1)}s`,
      );
    };
    await pool(work, concurrency, verifyOne, { progress: { label: 'bench toe', unit: 'claims', intervalMs: config.progressIntervalMs } });
  } finally {
    await stack.close();
  }
  const lines = [
    '',
    `ToE per claim (simulator LLM, heuristic policy, offline sources, defaults of toe.md §2.4); run ${runId}`,
    ...DATASETS.flatMap(({ name }) => summarise(name, rows.filter((r) => r.dataset === name))),
    ...summarise('all', rows),
  ];
  say(lines.join('\n'));
  if (out) fs.writeFileSync(out, `${JSON.stringify({ runId, seed, perDataset, rows }, null, 1)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
