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
 *       [--rag-claims 30] [--claims 10] [--seed 7] [--prefix bench-real] [--standalone-requests 8]
 *       [--answer-orders rationale-first,label-first] [--out eval/bench/results/real-model-<model>.json]
 *
 * Each method runs on its own paper's datasets among the dev sets (PAPER_DATASETS; the baselines on all of
 * them) unless --datasets names others. The results file grows method by method: a run of some
 * methods replaces their rows and keeps the others', and a sweep interrupted or run again resumes
 * without paying twice, so the table can be measured over several invocations. Tool-MAD's
 * relevance gate is calibrated first by a pilot sweep on this model's embeddings; ToE and Tool-MAD
 * run with the bounded settings in BENCH_SETTINGS (recorded in the results), as a 2-core CPU
 * cannot afford ToE's up to ~760 calls per claim.
 *
 * Every method runs at the temperature the worker sends (VERITY_TEMPERATURE, default 0) unless its settings
 * say otherwise; the table prints the temperature its verdicts recorded next to the papers' (PAPER_TEMPERATURES).
 * `--answer-orders` runs the baselines (rag, llm-only) once per answer order (their `order` setting), as
 * rows `rag [label-first]` …, on the same claims.
 *
 * A 0.5B or 1.5B model's accuracy is not the accuracy of the papers' models (GPT-4o class): these
 * figures show what a small open model does with each method on this machine, nothing more.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { ensureInfra } from '../../infra';
import { main as cli } from '../../src/cli/main';
import { CommandProgress } from '../../src/cli/progress';
import { LOCAL_CONTEXT_PER_SLOT, LOCAL_MODELS, LOCAL_MODEL_NAMES, type LocalModelName } from '../../src/config/local-llm';
import { relevanceEmbedding } from '../../src/client/tool-mad-protocol';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { indexName } from '../../src/es/indices';
import { readManifest } from '../../src/runs/read-run';
import { projectRoot } from '../../src/project-root';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { METHOD_NAMES, type MethodName } from '../../src/methods/registry';
import { loadRunReport } from '../../src/report';
import { ingestIndex, runMain, writeReport } from './support/bench-stack';
import { measureStandaloneThroughput, recordedAnswers, spreadSample, type ThroughputSample, tokensOf, verdictWindow } from './real-model/standalone-throughput';
import { readServerCounters, serverBusy } from './real-model/server-metrics';
import { renderRealModelTable } from './real-model/table';
import { rowOf } from './real-model/row';
import { mergeResults, readResults, type MethodResult, type MethodThroughput } from './real-model/results-file';
import { calibratedThreshold, pilotRelevanceScores, type RelevanceCalibration } from './real-model/tool-mad-pilot';
import { exitWithUsageIfAsked } from './support/usage';
import { searchAll } from '../../src/runs/search-all';
import type { Verdict } from '../../src/shared/verify';
import { BASELINE_ANSWER_ORDERS } from '../../src/shared/methods/answer-order';

exitWithUsageIfAsked(__filename);

const SHARED_DATA = path.resolve(projectRoot(), '..', 'shared', 'data');
const DATASETS: Record<string, { file: string; index: 'wiki' | 'scifact' }> = {
  fever: { file: 'dev/fever.jsonl', index: 'wiki' },
  hover: { file: 'dev/hover.jsonl', index: 'wiki' },
  scifact: { file: 'dev/scifact.jsonl', index: 'scifact' },
  factcheck_bench: { file: 'dev/factcheckbench.jsonl', index: 'wiki' },
  factool_qa: { file: 'dev/factool_qa.jsonl', index: 'wiki' },
  bingcheck: { file: 'dev/bingcheck.jsonl', index: 'wiki' },
  felm_wk: { file: 'dev/felm_wk.jsonl', index: 'wiki' },
};
/** Each method's datasets in its paper, among the shared dev sets (specs/*.md); a baseline (rag, or any method not listed) on all. */
const PAPER_DATASETS: Partial<Record<MethodName, string[]>> = {
  mermaid: ['factool_qa', 'bingcheck', 'factcheck_bench', 'hover', 'scifact'],
  emulate: ['factcheck_bench', 'bingcheck', 'factool_qa', 'felm_wk'],
  fire: ['factcheck_bench', 'bingcheck', 'factool_qa', 'felm_wk'],
  'tool-mad': ['fever', 'hover'],
  toe: ['fever', 'scifact'],
};

/** MERMAID drops SciFact's and Factcheck-Bench's NEI claims (§7.1) before its ordered memory stream, as eval/sweeps/mermaid.yaml does. */
const DROP_LABELS: Partial<Record<MethodName, Record<string, string[]>>> = { mermaid: { scifact: ['NEI'], factcheck_bench: ['NEI'] } };

/**
 * Settings that differ from a method's defaults, and why. The bench's wiki index has no passage
 * vectors (embedding 7,912 passages with the local model would take hours), so Tool-MAD's RAG
 * debater retrieves with BM25 on purpose; ToE is bounded to a few dozen calls per claim, with the
 * heuristic retrieval policy (an online learner needs more claims than a bench sample). MERMAID keeps the
 * executor's tool-use hints (toolHints), without which the 0.5B model answered without calling a tool.
 */
const BENCH_SETTINGS: Partial<Record<MethodName, Record<string, unknown>>> = {
  // The committed MERMAID rows were measured with the executor's tool-use hints (before issue 37 made them an option, off by default).
  mermaid: { toolHints: true },
  'tool-mad': { ragMode: 'bm25' },
  toe: { maxDepth: 2, maxIterations: 3, minIterations: 1, maxSearchSteps: 2, maxResultsPerSearch: 3, maxDocumentsPerNode: 5, policy: 'heuristic' },
};

/** The temperature each paper states for its method (specs/*.md); Tool-MAD and ToE state none, rag and llm-only are verity's own. */
const PAPER_TEMPERATURES: Partial<Record<MethodName, string>> = {
  emulate: '1 (EMULATE §4, every agent)',
  fire: '1 (EMULATE §4 re-ran FIRE at 1; FIRE\'s code: 0.5)',
  mermaid: '1 (the API default; the code sets none)',
};

/** The baselines whose answer order (`order` setting) `--answer-orders` varies. */
const ORDERED_BASELINES: readonly MethodName[] = ['rag', 'llm-only'];

/** Claims of the Tool-MAD calibration pilot: FEVER, a seed of its own, so the sample's claims stay unseen. */
const PILOT = { dataset: 'fever', claims: 4, seedOffset: 1000 };

const CORPORA = {
  wiki: path.join(SHARED_DATA, 'corpus', 'wiki.jsonl'),
  scifact: path.join(SHARED_DATA, 'corpus', 'scifact.jsonl'),
  web: path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl'),
};

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: 'qwen2.5-coder-0.5b' },
    methods: { type: 'string', default: METHOD_NAMES.join(',') },
    datasets: { type: 'string' },
    'rag-claims': { type: 'string', default: '30' },
    claims: { type: 'string', default: '10' },
    seed: { type: 'string', default: '7' },
    prefix: { type: 'string', default: 'bench-real' },
    'standalone-requests': { type: 'string', default: '8' },
    'answer-orders': { type: 'string' },
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
  const methods = listArg(args.methods!, METHOD_NAMES, 'methods') as MethodName[];
  const datasetsOverride = args.datasets ? listArg(args.datasets, Object.keys(DATASETS), 'datasets') : undefined;
  const answerOrders = args['answer-orders'] ? listArg(args['answer-orders'], BASELINE_ANSWER_ORDERS, 'answer-orders') : undefined;
  const seed = Number(args.seed);
  const prefix = args.prefix!;
  const env = { ...process.env, VERITY_LLM: 'local', VERITY_LOCAL_MODEL: model, ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, VERITY_LOG_LEVEL: 'warn' };
  Object.assign(process.env, env);
  const config = loadConfig(env);
  const infra = await ensureInfra(config, { log: (line) => process.stderr.write(`[infra] ${line}\n`) });
  const server = infra.localLlm!;
  const es = createEsClient(config.elasticsearch);
  await ensureCorpora(es, prefix);

  const spec = LOCAL_MODELS[model];
  const out = args.out ?? path.join(projectRoot(), 'eval', 'bench', 'results', `real-model-${model}.json`);
  const command = `npm run bench:real-model -- ${process.argv.slice(2).join(' ')}`.trim();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-real-model-'));
  const runSweep = async (sweep: Record<string, unknown>): Promise<number> => {
    const configFile = path.join(workDir, `${String(sweep.run)}.yaml`);
    fs.writeFileSync(configFile, YAML.stringify(sweep));
    const started = Date.now();
    const code = await cli(['node', 'verity', 'sweep', 'run', configFile]);
    if (code !== 0) throw new Error(`sweep ${String(sweep.run)} ended with exit code ${code}`);
    // `sweep run` also returns on a paused or budget-exhausted sweep: only a completed one is scored.
    const { status } = await readManifest(es, prefix, String(sweep.run));
    if (status !== 'completed') throw new Error(`sweep ${String(sweep.run)} is ${status}, not completed: nothing recorded for it (\`verity sweep resume ${String(sweep.run)}\` with ES_INDEX_PREFIX=${prefix}, then run the bench again)`);
    return (Date.now() - started) / 1000;
  };
  const results: MethodResult[] = [];
  // Each method's sweep shows its own progress (verity sweep run); this line says where the whole bench stands.
  const benchProgress = new CommandProgress({ label: `bench real-model ${model}`, unit: 'methods', intervalMs: config.progressIntervalMs });
  try {
    const variants = methods.flatMap((method): { method: MethodName; order: string | undefined; label: string }[] =>
      answerOrders && ORDERED_BASELINES.includes(method) ? answerOrders.map((order) => ({ method, order, label: `${method} [${order}]` })) : [{ method, order: undefined, label: method }],
    );
    for (const [index, { method, order, label }] of variants.entries()) {
      benchProgress.update({ done: index, total: variants.length, detail: `now ${label}` });
      const perDataset = method === 'rag' ? Number(args['rag-claims']) : Number(args.claims);
      const datasets = datasetsOverride ?? PAPER_DATASETS[method] ?? Object.keys(DATASETS);
      let settings: Record<string, unknown> = { ...BENCH_SETTINGS[method], ...(order ? { order } : {}) };
      // Settings of their own make a run of their own (a run refuses changed parameters).
      const settingsTag = Object.keys(settings).length > 0 ? `-${createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 6)}` : '';
      const runId = `real-${model}-${method}-n${perDataset}-s${seed}${settingsTag}`.replace(/[^a-z0-9-]/gi, '-');
      let calibration: RelevanceCalibration | undefined;
      if (method === 'tool-mad') {
        calibration = await calibrateToolMad(es, prefix, runSweep, { model: config.llm.models.default, embeddingModel: relevanceEmbedding(config).model, seed, slots: server.slots, settings, command });
        settings = { ...settings, relevanceThreshold: calibration.threshold };
        process.stderr.write(`tool-mad: relevance threshold ${calibration.threshold} for ${calibration.embeddingModel} (${calibration.source})\n`);
      }
      process.stderr.write(`\n== ${method}: ${perDataset} claims per dataset × ${datasets.length} datasets (${datasets.join(', ')}; run ${runId})\n`);
      const methodStarted = new Date().toISOString();
      const countersBefore = await readServerCounters(server.baseUrl);
      const seconds = await runSweep(sweepConfig(runId, method, datasets, perDataset, seed, config.llm.models.default, server.slots, settings));
      // Read before the standalone measurement below, which uses the same server.
      const countersAfter = countersBefore ? await readServerCounters(server.baseUrl) : undefined;
      const busy = countersBefore && countersAfter ? serverBusy(countersBefore, countersAfter, seconds) : undefined;
      const report = await loadRunReport(es, prefix, runId, { bootstrap: { seed } });
      const rows = report.groups.map((group) => ({ ...rowOf(group, report.claims.filter((c) => c.dataset === group.key.dataset && c.method === group.key.method)), method: label }));
      const temperature = await temperatureSent(es, prefix, runId);
      const serverInfo = { baseUrl: server.baseUrl, model: config.llm.models.default, slots: server.slots };
      let throughput = await methodThroughput(es, prefix, label, { since: methodStarted, seconds }, serverInfo);
      // A sweep an earlier invocation ran (every answer reused now) is measured over its verdicts' window, unless already recorded.
      const window = throughput || readResults(out)?.throughput.some((entry) => entry.method === label) ? undefined : await verdictWindow(es, indexName(prefix, 'verdicts'), runId);
      if (window) throughput = await methodThroughput(es, prefix, label, window, serverInfo);
      if (throughput && busy && busy.busySeconds > 0) throughput = { ...throughput, server: busy };
      results.push({
        run: { method: label, command, generatedAt: new Date().toISOString(), runId, datasets, claimsPerDataset: perDataset, settings, temperature, ...(calibration ? { calibration: { ...calibration } } : {}) },
        rows,
        ...(throughput ? { throughput } : {}),
      });
      // Written after every method, so an interrupted bench keeps what it measured.
      const merged = mergeResults(
        readResults(out),
        {
          model: { name: model, description: spec.description, quantisation: spec.quantisation, sha256: spec.sha256, slots: server.slots, contextTokens: LOCAL_CONTEXT_PER_SLOT },
          seed,
          machine: `${os.cpus().length} CPU cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
        },
        results,
        variants.map((variant) => variant.label).concat(METHOD_NAMES),
      );
      writeReport(out, merged);
      const heading = `${spec.description} ${spec.quantisation} (${(spec.sizeBytes / 1e9).toFixed(2)} GB GGUF) on llama.cpp (${server.slots} slot, ${LOCAL_CONTEXT_PER_SLOT}-token window), ${merged.machine}`;
      process.stdout.write(`${renderRealModelTable(heading, merged.rows, merged.throughput, temperaturesOf(merged.runs))}\n`);
    }
    benchProgress.update({ done: methods.length, total: methods.length });
  } finally {
    benchProgress.finish();
    fs.rmSync(workDir, { recursive: true, force: true });
    await es.close();
  }
}

/** The sweep's tokens/s for one method next to the server's own on a spread sample of the same requests; undefined when nothing was paid. */
async function methodThroughput(
  es: EsClient,
  prefix: string,
  method: string,
  { since, until, seconds }: { since: string; until?: string; seconds: number },
  server: { baseUrl: string; model: string; slots: number },
): Promise<MethodThroughput | undefined> {
  const answers = await recordedAnswers(es, indexName(prefix, 'llm-cache'), since, until);
  if (answers.length === 0) return undefined;
  const tokens = tokensOf(answers);
  const sweep: ThroughputSample = { tokens, seconds, tokensPerSecond: seconds > 0 ? tokens / seconds : 0, requests: answers.length };
  const sample = spreadSample(answers, Number(args['standalone-requests']));
  process.stderr.write(`${method}: ${sample.length} of the sweep's ${answers.length} requests straight to the server …\n`);
  const standalone = await measureStandaloneThroughput({ answers: sample, baseUrl: server.baseUrl, model: server.model, concurrency: server.slots });
  return { method, sweep, standalone, ratio: standalone.tokensPerSecond > 0 ? sweep.tokensPerSecond / standalone.tokensPerSecond : null };
}

/** A pilot sweep with the gate open (threshold 0) on PILOT's claims; the threshold at the paper's place in its scores. */
async function calibrateToolMad(
  es: EsClient,
  prefix: string,
  runSweep: (sweep: Record<string, unknown>) => Promise<number>,
  options: { model: string; embeddingModel: string; seed: number; slots: number; settings: Record<string, unknown>; command: string },
): Promise<RelevanceCalibration> {
  const pilotRun = `real-pilot-tool-mad-relevance-s${options.seed + PILOT.seedOffset}`;
  process.stderr.write(`\n== tool-mad relevance pilot: ${PILOT.claims} ${PILOT.dataset} claims with the gate open (run ${pilotRun})\n`);
  const pilotSettings = { ...options.settings, relevanceThreshold: 0 };
  await runSweep(sweepConfig(pilotRun, 'tool-mad', [PILOT.dataset], PILOT.claims, options.seed + PILOT.seedOffset, options.model, options.slots, pilotSettings));
  return calibratedThreshold(await pilotRelevanceScores(es, prefix, pilotRun), options.embeddingModel, pilotRun, options.command);
}

function sweepConfig(run: string, method: MethodName, datasets: string[], sample: number, seed: number, model: string, slots: number, settings: Record<string, unknown>) {
  return {
    run,
    description: `bench:real-model — ${method} on ${model}`,
    datasets: datasets.map((name) => ({
      name,
      file: path.join(SHARED_DATA, DATASETS[name]!.file),
      format: 'verity',
      sample,
      ...(DROP_LABELS[method]?.[name] ? { dropLabels: DROP_LABELS[method]![name] } : {}),
      ...(DATASETS[name]!.index === 'scifact' ? { index: indexName(args.prefix!, 'scifact') } : {}),
    })),
    methods: [method],
    models: [model],
    seed,
    // One verification more than the server has slots, so one claim's retrieval and bookkeeping overlap
    // another's LLM call and the server never waits for verity; MERMAID's memory needs claims in order.
    ...(method === 'mermaid' ? { ordered: true, concurrency: 1 } : { concurrency: slots + 1 }),
    ...(Object.keys(settings).length > 0 ? { parameters: { [method]: settings } } : {}),
  };
}

/** Each measured method's temperature sent, next to its paper's. */
function temperaturesOf(runs: readonly { method: string; temperature?: string }[]) {
  return runs.map((run) => {
    const paper = PAPER_TEMPERATURES[run.method.split(' ')[0] as MethodName];
    return { method: run.method, sent: run.temperature ?? 'not recorded', ...(paper ? { paper } : {}) };
  });
}

/** The temperatures a run's LLM requests were sent with, as its verdicts record them: the verification's, and any role's own. */
async function temperatureSent(es: EsClient, prefix: string, runId: string): Promise<string> {
  const index = indexName(prefix, 'verdicts');
  await es.indices.refresh({ index });
  const verdicts = (await searchAll(es, index, { term: { runId } })) as Pick<Verdict, 'temperature' | 'sampling'>[];
  const values = new Set<string>();
  for (const verdict of verdicts) {
    values.add(String(verdict.sampling?.temperature ?? verdict.temperature));
    for (const [role, sampling] of Object.entries(verdict.sampling?.roles ?? {})) if (sampling.temperature !== undefined) values.add(`${sampling.temperature} (${role})`);
  }
  return [...values].sort().join(', ') || 'no verdicts';
}

async function ensureCorpora(es: EsClient, prefix: string): Promise<void> {
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
