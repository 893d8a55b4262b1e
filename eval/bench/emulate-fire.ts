/**
 * EMULATE and FIRE side by side: LLM calls, searches, tokens and cost per claim, per dataset and
 * method, from verifications run on the real Temporal and Elasticsearch with the simulator as LLM
 * and the recorded web as search engine.
 *
 *   npx tsx eval/bench/emulate-fire.ts [--sample N] [--seed 7] [--model gpt-4o-mini]
 *       [--datasets factcheck_bench,bingcheck,factool_qa] [--methods emulate,fire] [--concurrency 6]
 *       [-o emulate.contentMode=page ...] [--out eval/bench/results/emulate-fire.json]
 *
 * The simulator's answers come from word overlap: the labels it produces are no method's accuracy.
 * Cost is the price table's price of --model for the simulator's token counts.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { buildVerifyInput, workflowIdOf } from '../../src/client/start-verification';
import { optionPairsToObject, parseMethodSettings } from '../../src/methods/settings-schemas';
import { projectRoot } from '../../src/project-root';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import type { MethodName } from '../../src/shared/constants';
import type { MethodSettings } from '../../src/shared/method-settings';
import { fullVerdict, type Verdict } from '../../src/shared/verify';
import { verifyClaimWorkflow } from '../../workflows';
import { loadDataset, stratifiedSample, type DatasetClaim } from '../../src/datasets';
import { claimCost, groupStats, renderStatsTable } from './emulate-fire/claim-stats';
import { ingestIndex, runMain, SAMPLED_BENCH_OPTIONS, startBenchStack, writeReport } from './support/bench-stack';
import { pool } from './support/pool';
import { exitWithUsageIfAsked } from './support/usage';

exitWithUsageIfAsked(__filename);

const SHARED_DATA = path.resolve(projectRoot(), '..', 'shared', 'data');
const DATASET_FILES: Record<string, string> = {
  factcheck_bench: 'dev/factcheckbench.jsonl',
  bingcheck: 'dev/bingcheck.jsonl',
  factool_qa: 'dev/factool_qa.jsonl',
};
const RECORDED_WEB = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');

const { values: args } = parseArgs({
  options: {
    ...SAMPLED_BENCH_OPTIONS,
    datasets: { type: 'string', default: Object.keys(DATASET_FILES).join(',') },
    methods: { type: 'string', default: 'emulate,fire' },
    out: { type: 'string', default: path.join(projectRoot(), 'eval', 'bench', 'results', 'emulate-fire.json') },
  },
});

/** `-o emulate.contentMode=page` → settings of the method named first. */
function methodSettings(methods: MethodName[]): MethodSettings {
  const all = optionPairsToObject(args.option ?? []);
  return Object.assign({}, ...methods.map((m) => parseMethodSettings(m, all[m], `-o ${m}`))) as MethodSettings;
}

/** Binary sets only: Factcheck-Bench's 30 not_enough_evidence claims are left out, as EMULATE does (631). */
async function claimsOf(dataset: string): Promise<DatasetClaim[]> {
  const file = DATASET_FILES[dataset];
  if (!file) throw new Error(`unknown dataset ${dataset}; known: ${Object.keys(DATASET_FILES).join(', ')}`);
  const { claims } = await loadDataset(path.join(SHARED_DATA, file));
  const binary = claims.filter((c) => c.labelNorm !== 'NEI');
  const n = args.sample ? Number(args.sample) : 0;
  return n > 0 && n < binary.length ? stratifiedSample(binary, n, { seed: Number(args.seed) }) : binary;
}

async function main(): Promise<void> {
  const methods = args.methods!.split(',') as MethodName[];
  const settings = methodSettings(methods);
  const datasets = args.datasets!.split(',');
  const runId = `bench-ef-${randomBytes(3).toString('hex')}`;
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const stack = await startBenchStack({
    prefix: `b-ef-${randomBytes(4).toString('hex')}`,
    esRequestTimeoutMs: 120_000,
    ingest: (es, prefix) => ingestIndex(es, webIndexName(prefix), RECORDED_WEB, WEB_TARGET),
    deleteIndices: true,
  });
  const started = Date.now();
  const verdicts: Verdict[] = [];
  try {
    const jobs: { claim: DatasetClaim; method: MethodName }[] = [];
    for (const dataset of datasets) for (const claim of await claimsOf(dataset)) for (const method of methods) jobs.push({ claim, method });
    process.stderr.write(`${jobs.length} verifications (${datasets.join(', ')} × ${methods.join(', ')}), model ${args.model}, run ${runId}\n`);
    await pool(jobs, Number(args.concurrency), async ({ claim, method }) => {
      const input = buildVerifyInput(stack.config, {
        claim: claim.claim,
        method,
        runId,
        claimId: claim.id,
        dataset: claim.dataset,
        model: args.model!,
        ...(settings[method as keyof MethodSettings] ? { settings: { [method]: settings[method as keyof MethodSettings] } } : {}),
      });
      const verdict = await stack.client.workflow.execute(verifyClaimWorkflow, {
        workflowId: workflowIdOf(input),
        taskQueue: stack.config.temporal.taskQueue,
        args: [input],
      });
      verdicts.push(fullVerdict(verdict));
    }, { progress: { label: 'bench emulate-fire', unit: 'verifications', intervalMs: stack.config.progressIntervalMs } });
  } finally {
    await stack.close();
  }
  const rows = groupStats(verdicts.map(claimCost));
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`${renderStatsTable(rows)}\n\n${verdicts.length} verifications in ${seconds.toFixed(0)} s; model ${args.model} (simulator, priced from the price table)${args.sample ? `; stratified sample of ${args.sample} per dataset, seed ${args.seed}` : '; full binary sets'}\n`);
  writeReport(args.out!, { runId, model: args.model, sample: args.sample ? Number(args.sample) : null, seed: Number(args.seed), settings, seconds, rows });
}

runMain(main);
