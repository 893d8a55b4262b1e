/**
 * Tool-MAD's cost and control flow on FEVER and HoVer: LLM calls per claim (the paper's bounds are
 * 14 at best and 43 at worst), rounds used, gated-consensus rounds, how often the judge decides,
 * and the distribution of answer-relevance scores (histogram, share passing the gate, quantiles) to
 * calibrate the 0.8 threshold for the embedding model in use (`-o relevanceEmbeddingModel=…`).
 * Every claim is a real verification on Temporal and Elasticsearch (round child workflows, wiki
 * RAG, recorded-web search) with the simulator as LLM.
 *
 *   npx tsx eval/bench/tool-mad.ts [--sample N] [--seed 7] [--datasets fever,hover] [--concurrency 6]
 *       [-o key=value ...] [--out eval/bench/tool-mad/results.json]
 *
 * Without --sample the whole dev files run (600 claims each). The simulator decides from word
 * overlap: its labels are no method's accuracy, and so neither are the figures' label counts.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildVerifyInput, workflowIdOf } from '../../src/client/start-verification';
import { optionPairsToObject, parseMethodSettings } from '../../src/methods/settings-schemas';
import { indexName } from '../../src/es/indices';
import { projectRoot } from '../../src/project-root';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { resolveToolMadSettings } from '../../src/methods/tool-mad/sandbox/tool-mad-settings';
import { fullVerdict, type Verdict } from '../../src/shared/verify';
import { verifyClaimWorkflow } from '../../workflows';
import { loadDataset, stratifiedSample, type DatasetClaim } from '../../src/datasets';
import { ingestIndex, runMain, SAMPLED_BENCH_OPTIONS, startBenchStack, writeReport } from './support/bench-stack';
import { pool } from './support/pool';
import { debateRecord, debateStats, renderDebateStats } from './tool-mad/debate-stats';
import { exitWithUsageIfAsked } from './support/usage';

exitWithUsageIfAsked(__filename);

const SHARED_DATA = path.resolve(projectRoot(), '..', 'shared', 'data');
const DATASET_FILES: Record<string, string> = { fever: 'dev/fever.jsonl', hover: 'dev/hover.jsonl' };
const CORPORA = { wiki: path.join(SHARED_DATA, 'corpus', 'wiki.jsonl'), web: path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl') };

const { values: args } = parseArgs({
  options: {
    ...SAMPLED_BENCH_OPTIONS,
    datasets: { type: 'string', default: Object.keys(DATASET_FILES).join(',') },
    out: { type: 'string', default: path.join(projectRoot(), 'eval', 'bench', 'tool-mad', 'results.json') },
  },
});

async function claimsOf(dataset: string): Promise<DatasetClaim[]> {
  const file = DATASET_FILES[dataset];
  if (!file) throw new Error(`unknown dataset ${dataset}; known: ${Object.keys(DATASET_FILES).join(', ')}`);
  const { claims } = await loadDataset(path.join(SHARED_DATA, file));
  const n = args.sample ? Number(args.sample) : 0;
  return n > 0 && n < claims.length ? stratifiedSample(claims, n, { seed: Number(args.seed) }) : claims;
}

async function main(): Promise<void> {
  const settings = parseMethodSettings('tool-mad', args.option!.length > 0 ? optionPairsToObject(args.option!) : undefined, '-o');
  const { maxRounds, relevanceThreshold } = resolveToolMadSettings(settings['tool-mad']);
  const datasets = args.datasets!.split(',');
  const runId = `bench-tm-${randomBytes(3).toString('hex')}`;
  process.stderr.write(`ingesting the wiki corpus and the recorded web …\n`);
  // The wiki corpus in `<prefix>-wiki` (RAG debater), the recorded web in `<prefix>-web` (search debater); deleted on close.
  const stack = await startBenchStack({
    prefix: `b-tm-${randomBytes(4).toString('hex')}`,
    esRequestTimeoutMs: 120_000,
    ingest: async (es, prefix) => {
      await ingestIndex(es, indexName(prefix, 'wiki'), CORPORA.wiki);
      await ingestIndex(es, webIndexName(prefix), CORPORA.web, WEB_TARGET);
    },
    deleteIndices: true,
  });
  const started = Date.now();
  const verdicts: Verdict[] = [];
  try {
    const claims = (await Promise.all(datasets.map(claimsOf))).flat();
    process.stderr.write(`${claims.length} verifications (${datasets.join(', ')}), run ${runId}\n`);
    await pool(claims, Number(args.concurrency), async (claim) => {
      const input = buildVerifyInput(stack.config, {
        claim: claim.claim,
        method: 'tool-mad',
        runId,
        claimId: claim.id,
        dataset: claim.dataset,
        model: args.model!,
        ...(settings['tool-mad'] ? { settings } : {}),
      });
      verdicts.push(
        fullVerdict(
          await stack.client.workflow.execute(verifyClaimWorkflow, {
            workflowId: workflowIdOf(input),
            taskQueue: stack.config.temporal.taskQueue,
            args: [input],
          }),
        ),
      );
    }, { progress: { label: 'bench tool-mad', unit: 'verifications', intervalMs: stack.config.progressIntervalMs } });
  } finally {
    await stack.close();
  }
  const records = verdicts.map(debateRecord);
  const rows = datasets.map((dataset) => debateStats(dataset, records.filter((r) => r.dataset === dataset), relevanceThreshold));
  const seconds = (Date.now() - started) / 1000;
  const sampleNote = args.sample ? `seeded label-stratified sample of ${args.sample} per dataset (seed ${args.seed})` : 'full dev files';
  process.stdout.write(`${renderDebateStats(rows, maxRounds)}\n\n${verdicts.length} verifications in ${seconds.toFixed(0)} s; ${sampleNote}; simulator LLM\n`);
  writeReport(args.out!, { runId, model: args.model, sample: args.sample ? Number(args.sample) : null, seed: Number(args.seed), settings, seconds, rows });
}

runMain(main);
