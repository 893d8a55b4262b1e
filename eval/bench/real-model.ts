/**
 * verity's first real numbers: every method on a fixed, seeded, label-stratified sample of the
 * shared dev sets, answered by the local model verity provisions (VERITY_LLM=local, llama.cpp),
 * run as real sweeps (`verity sweep run`, embedded worker) and scored by the run report (`verity
 * report`'s figures: failures and invalid answers count against a method, as the papers score every
 * claim). Per dataset × method it prints accuracy and macro-F1 with 95% bootstrap intervals, the
 * invalid-answer and failure rates, tool calls, tokens and wall time per claim; then the model
 * server's own standalone tokens/s on the same requests, measured in the same run, next to the
 * sweeps' tokens/s.
 *
 *   npm run bench:real-model -- [--model qwen2.5-coder-0.5b] [--methods rag,mermaid,…] [--datasets fever,hover,…]
 *       [--rag-claims 30] [--claims 10] [--seed 7] [--prefix bench-real] [--out eval/bench/results/real-model-<model>.json]
 *
 * A 0.5B or 1.5B model's accuracy is not the accuracy of the papers' models (GPT-4o class): these
 * figures show what a small open model does with each method on this machine, nothing more.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { ensureInfra } from '../../infra';
import { main as cli } from '../../src/cli/main';
import { LOCAL_MODELS, LOCAL_MODEL_NAMES, type LocalModelName } from '../../src/config/local-llm';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { projectRoot } from '../../src/project-root';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { METHODS, type MethodName } from '../../src/shared/constants';
import { loadRunReport } from '../report';
import type { ClaimRow, GroupReport } from '../report/report-types';
import { ingestIndex, runMain, writeReport } from './support/bench-stack';
import { measureStandaloneThroughput, recordedAnswers, spreadSample, type ThroughputSample, tokensOf } from './real-model/standalone-throughput';
import { renderRealModelTable, type RealModelRow } from './real-model/table';
import { exitWithUsageIfAsked } from './support/usage';

exitWithUsageIfAsked(__filename);

const SHARED_DATA = path.resolve(projectRoot(), '..', 'shared', 'data');
const DATASETS: Record<string, { file: string; index: 'wiki' | 'scifact' }> = {
  fever: { file: 'dev/fever.jsonl', index: 'wiki' },
  hover: { file: 'dev/hover.jsonl', index: 'wiki' },
  scifact: { file: 'dev/scifact.jsonl', index: 'scifact' },
  factcheckbench: { file: 'dev/factcheckbench.jsonl', index: 'wiki' },
  factool_qa: { file: 'dev/factool_qa.jsonl', index: 'wiki' },
  bingcheck: { file: 'dev/bingcheck.jsonl', index: 'wiki' },
  felm_wk: { file: 'dev/felm_wk.jsonl', index: 'wiki' },
};
const CORPORA = {
  wiki: path.join(SHARED_DATA, 'corpus', 'wiki.jsonl'),
  scifact: path.join(SHARED_DATA, 'corpus', 'scifact.jsonl'),
  web: path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl'),
};

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: 'qwen2.5-coder-0.5b' },
    methods: { type: 'string', default: METHODS.join(',') },
    datasets: { type: 'string', default: Object.keys(DATASETS).join(',') },
    'rag-claims': { type: 'string', default: '30' },
    claims: { type: 'string', default: '10' },
    seed: { type: 'string', default: '7' },
    prefix: { type: 'string', default: 'bench-real' },
    'standalone-requests': { type: 'string', default: '24' },
    out: { type: 'string' },
  },
});

function listArg(value: string, known: readonly string[], what: string): string[] {
  const items = value.split(',').map((item) => item.trim()).filter(Boolean);
  const unknown = items.find((item) => !known.includes(item));
  if (unknown) throw new Error(`--${what}: unknown ${what.replace(/s$/, '')} "${unknown}"; known: ${known.join(', ')}`);
  return items;
}

async function main(): Promise<void> {
  const model = listArg(args.model!, LOCAL_MODEL_NAMES, 'model')[0] as LocalModelName;
  const methods = listArg(args.methods!, METHODS, 'methods') as MethodName[];
  const datasets = listArg(args.datasets!, Object.keys(DATASETS), 'datasets');
  const seed = Number(args.seed);
  const prefix = args.prefix!;
  const env = { ...process.env, VERITY_LLM: 'local', VERITY_LOCAL_MODEL: model, ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, VERITY_LOG_LEVEL: 'warn' };
  Object.assign(process.env, env);
  const config = loadConfig(env);
  const infra = await ensureInfra(config, { log: (line) => process.stderr.write(`[infra] ${line}\n`) });
  const server = infra.localLlm!;
  const es = createEsClient(config.elasticsearch);
  await ensureCorpora(es, prefix);

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-real-model-'));
  const benchStarted = new Date().toISOString();
  const rows: RealModelRow[] = [];
  let sweepSeconds = 0;
  try {
    for (const method of methods) {
      const perDataset = method === 'rag' ? Number(args['rag-claims']) : Number(args.claims);
      const runId = `real-${model}-${method}-n${perDataset}-s${seed}`.replace(/[^a-z0-9-]/gi, '-');
      const configFile = path.join(workDir, `${runId}.yaml`);
      fs.writeFileSync(configFile, YAML.stringify(sweepConfig(runId, method, datasets, perDataset, seed, config.llm.models.default, server.slots)));
      process.stderr.write(`\n== ${method}: ${perDataset} claims per dataset × ${datasets.length} datasets (run ${runId})\n`);
      const started = Date.now();
      const code = await cli(['node', 'verity', 'sweep', 'run', configFile]);
      const seconds = (Date.now() - started) / 1000;
      if (code !== 0) throw new Error(`sweep ${runId} ended with exit code ${code}`);
      const report = await loadRunReport(es, prefix, runId, { bootstrap: { seed } });
      for (const group of report.groups) {
        rows.push(rowOf(group, report.claims.filter((c) => c.dataset === group.key.dataset && c.method === group.key.method)));
      }
      sweepSeconds += seconds;
    }
    // What the server processed for the sweeps: every paid answer recorded in the request cache.
    const answers = await recordedAnswers(es, indexName(prefix, 'llm-cache'), benchStarted);
    const sweepTokens = tokensOf(answers);
    const sweepRate: ThroughputSample = { tokens: sweepTokens, seconds: sweepSeconds, tokensPerSecond: sweepSeconds > 0 ? sweepTokens / sweepSeconds : 0, requests: answers.length };
    process.stderr.write(`\nstandalone: ${Math.min(answers.length, Number(args['standalone-requests']))} of the sweeps' requests straight to the server …\n`);
    const standalone = await measureStandaloneThroughput({
      answers: spreadSample(answers, Number(args['standalone-requests'])),
      baseUrl: server.baseUrl,
      model: config.llm.models.default,
      concurrency: server.slots,
    });
    const spec = LOCAL_MODELS[model];
    const heading = `${spec.description} ${spec.quantisation} (${(spec.sizeBytes / 1e9).toFixed(2)} GB GGUF) on llama.cpp (${server.slots} slots), 2 CPU cores`;
    process.stdout.write(`${renderRealModelTable(heading, rows, sweepRate, standalone)}\n`);
    const out = args.out ?? path.join(projectRoot(), 'eval', 'bench', 'results', `real-model-${model}.json`);
    writeReport(out, {
      command: `npm run bench:real-model -- ${process.argv.slice(2).join(' ')}`.trim(),
      generatedAt: new Date().toISOString(),
      model: { name: model, description: spec.description, quantisation: spec.quantisation, sha256: spec.sha256, slots: server.slots },
      seed,
      rows,
      throughput: { sweep: sweepRate, standalone, ratio: standalone.tokensPerSecond > 0 ? sweepRate.tokensPerSecond / standalone.tokensPerSecond : null },
    });
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
    await es.close();
  }
}

function sweepConfig(run: string, method: MethodName, datasets: string[], sample: number, seed: number, model: string, slots: number) {
  return {
    run,
    description: `bench:real-model — ${method} on ${model}`,
    datasets: datasets.map((name) => ({
      name,
      file: path.join(SHARED_DATA, DATASETS[name]!.file),
      format: 'verity',
      sample,
      ...(DATASETS[name]!.index === 'scifact' ? { index: indexName(args.prefix!, 'scifact') } : {}),
    })),
    methods: [method],
    models: [model],
    seed,
    // As many verifications at once as the server has slots: more only queue at the server.
    concurrency: slots,
    ...(method === 'mermaid' ? { ordered: true } : {}),
  };
}

function rowOf(group: GroupReport, claims: readonly ClaimRow[]): RealModelRow {
  const { counts, usage } = group;
  const claimsRun = Math.max(counts.claims, 1);
  const invalidAnswers = claims.reduce((sum, claim) => sum + ((claim as Partial<Record<'invalidAnswers', number>>).invalidAnswers ?? 0), 0);
  return {
    dataset: group.key.dataset,
    method: group.key.method,
    claims: counts.claims,
    scheme: group.scheme,
    accuracy: group.accuracy,
    macroF1: group.macroF1,
    failed: counts.failed,
    invalidLabels: counts.invalid,
    invalidAnswers,
    llmCalls: usage.total.llmCalls,
    toolCallsPerClaim: usage.total.toolCalls / claimsRun,
    claimsWithToolCalls: claims.filter((c) => c.toolCalls > 0).length,
    tokensPerClaim: usage.total.totalTokens / claimsRun,
    secondsPerClaim: group.latencyMs.mean / 1000,
  };
}

async function ensureCorpora(es: ReturnType<typeof createEsClient>, prefix: string): Promise<void> {
  const targets = [
    { index: indexName(prefix, 'wiki'), file: CORPORA.wiki },
    { index: indexName(prefix, 'scifact'), file: CORPORA.scifact },
    { index: webIndexName(prefix), file: CORPORA.web, target: WEB_TARGET },
  ];
  for (const { index, file, target } of targets) {
    if (await es.indices.exists({ index })) continue;
    process.stderr.write(`ingesting ${path.basename(file)} into ${index} …\n`);
    await ingestIndex(es, index, file, target);
  }
}

runMain(main);
