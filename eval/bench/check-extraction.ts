/**
 * `verity check` measured on Factcheck-Bench: how many of a text's gold atomic claims the claim
 * extraction recovers, and how the checked texts score. Factcheck-Bench's claims were extracted
 * from ChatGPT answers by its annotators and are stored in answer order (consecutive claims come
 * from the same answer); the shared data has no whole answers, so each document here is a window
 * of consecutive gold claims joined into one text. Recall of gold claims then asks whether the
 * extract → decontextualise steps keep every claim (token F1 ≥ 0.6 with an extracted claim, the
 * lexical matching of eval/bench/check/extraction-recall.ts). The documents run as a sweep with
 * `check` (real Temporal and Elasticsearch, embedded worker), so a run interrupted or repeated
 * resumes without paying twice; the report adds each document's label (REFUTED when any claim is)
 * against the window's gold (any false claim → false) and the documents' precision and F1@K.
 *
 *   npm run bench:check -- [--documents 10] [--claims-per-document 5] [--seed 7] [--method rag]
 *       [--llm local|simulator] [--model qwen2.5-coder-0.5b] [--prefix bench-real] [--out FILE]
 *
 * --llm local (the default) answers with the local model verity provisions; --llm simulator runs
 * the same mechanics on the simulator, whose figures are not accuracy (it splits sentences at
 * semicolons). A 0.5B model's figures are not those of the papers' GPT-4-class models.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { ensureInfra } from '../../infra';
import { main as cli } from '../../src/cli/main';
import { loadConfig } from '../../src/config/config';
import { ingestProgress } from '../../src/cli/ingest-progress';
import { DEFAULT_LOCAL_MODEL, LOCAL_MODELS, LOCAL_MODEL_NAMES, type LocalModelName } from '../../src/config/local-llm';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { projectRoot } from '../../src/project-root';
import { searchAll } from '../../src/runs/search-all';
import { METHOD_NAMES } from '../../src/methods/registry';
import { mulberry32, shuffled } from '../../src/shared/prng';
import type { DocumentVerdict } from '../../src/shared/check/document';
import { loadDataset } from '../../src/datasets';
import { loadRunReport } from '../../src/report';
import { RECOVERED_F1, scoreExtraction } from './check/extraction-recall';
import { runMain } from './support/bench-stack';
import { exitWithUsageIfAsked } from './support/usage';
import { SHARED_DATA_DIR as SHARED_DATA } from './support/claims-and-corpus';

exitWithUsageIfAsked(__filename);

const { values: args } = parseArgs({
  options: {
    documents: { type: 'string', default: '10' },
    'claims-per-document': { type: 'string', default: '5' },
    seed: { type: 'string', default: '7' },
    method: { type: 'string', default: 'rag' },
    llm: { type: 'string', default: 'local' },
    model: { type: 'string', default: DEFAULT_LOCAL_MODEL },
    prefix: { type: 'string', default: 'bench-real' },
    out: { type: 'string' },
  },
});

const FCBENCH = path.join(SHARED_DATA, 'dev', 'factcheckbench.jsonl');
const WIKI = path.join(SHARED_DATA, 'corpus', 'wiki.jsonl');

interface WindowDocument {
  id: string;
  text: string;
  gold: { id: string; claim: string; label: string }[];
  label: string;
}

/** Seeded, non-overlapping windows of consecutive claims, each joined into one text. */
function windowDocuments(claims: { id: string; claim: string; labelNorm: string }[], size: number, count: number, seed: number): WindowDocument[] {
  const starts = Array.from({ length: Math.floor(claims.length / size) }, (_, i) => i * size);
  return shuffled(starts, mulberry32(seed))
    .slice(0, count)
    .sort((a, b) => a - b)
    .map((start) => {
      const gold = claims.slice(start, start + size).map((c) => ({ id: c.id, claim: c.claim.trim(), label: c.labelNorm }));
      const labels = new Set(gold.map((g) => g.label));
      // Factcheck-Bench's own spelling, so the report maps it as it maps the claims'.
      const label = labels.has('REFUTED') ? 'false' : labels.has('SUPPORTED') ? 'true' : 'not_enough_evidence';
      return { id: `fcbench-window-${start}`, text: gold.map((g) => (/[.!?]$/.test(g.claim) ? g.claim : `${g.claim}.`)).join(' '), gold, label };
    });
}

async function main(): Promise<void> {
  const documents = Number(args.documents);
  const size = Number(args['claims-per-document']);
  const seed = Number(args.seed);
  if (![documents, size, seed].every(Number.isInteger) || documents < 1 || size < 1) throw new Error('--documents and --claims-per-document take whole numbers above 0, --seed a whole number');
  if (!(METHOD_NAMES as readonly string[]).includes(args.method!)) throw new Error(`--method: unknown method "${args.method}"; known: ${METHOD_NAMES.join(', ')}`);
  if (args.llm !== 'local' && args.llm !== 'simulator') throw new Error('--llm: local or simulator');
  const local = args.llm === 'local';
  const modelName = args.model as LocalModelName;
  if (local && !LOCAL_MODEL_NAMES.includes(modelName)) throw new Error(`--model: unknown local model "${modelName}"; known: ${LOCAL_MODEL_NAMES.join(', ')}`);
  const prefix = args.prefix!;
  const env: NodeJS.ProcessEnv = { ...process.env, ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, VERITY_LOG_LEVEL: 'warn', ...(local ? { VERITY_LLM: 'local', VERITY_LOCAL_MODEL: modelName } : {}) };
  if (!local) delete env.VERITY_LLM;
  Object.assign(process.env, env);
  const config = loadConfig(env);
  await ensureInfra(config, { log: (line) => process.stderr.write(`[infra] ${line}\n`) });
  const es = createEsClient(config.elasticsearch);
  if (!(await es.indices.exists({ index: indexName(prefix, 'wiki') }))) {
    const { progress, onProgress } = ingestProgress(`bench check-extraction: ingest wiki.jsonl into ${indexName(prefix, 'wiki')}`, config.progressIntervalMs);
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: WIKI, onProgress }).finally(() => progress.finish());
  }

  const model = local ? modelName : config.llm.models.default;
  const runId = `check-fcbench-${local ? modelName : 'simulator'}-${args.method}-d${documents}-k${size}-s${seed}`.replace(/[^A-Za-z0-9._-]/g, '-');
  const claims = (await loadDataset(FCBENCH, { format: 'verity' })).claims;
  const windows = windowDocuments(claims, size, documents, seed);
  // A stable file per run: a sweep refuses a dataset file that moved or changed.
  const dir = path.join(os.tmpdir(), 'verity-bench-check');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${runId}.jsonl`);
  fs.writeFileSync(file, windows.map((w) => JSON.stringify({ id: w.id, dataset: 'factcheck_bench', split: 'dev', claim: w.text, label: w.label, label_norm: w.label === 'false' ? 'REFUTED' : w.label === 'true' ? 'SUPPORTED' : 'NEI', gold_titles: [], gold_sentences: [], meta: { claims: w.gold.map((g) => g.id) } })).join('\n') + '\n');
  const configFile = path.join(dir, `${runId}.yaml`);
  fs.writeFileSync(configFile, YAML.stringify({ run: runId, datasets: [{ name: 'factcheck_bench', file }], methods: [args.method], models: [model], check: { window: 2 }, concurrency: 1, seed }));

  const started = Date.now();
  const code = await cli(['node', 'verity', 'sweep', 'run', configFile]);
  if (code !== 0) throw new Error(`sweep ${runId} ended with exit code ${code}`);
  const seconds = (Date.now() - started) / 1000;

  await es.indices.refresh({ index: indexName(prefix, 'documents') });
  const stored = (await searchAll(es, indexName(prefix, 'documents'), { term: { runId } })) as DocumentVerdict[];
  const byItem = new Map(stored.map((d) => [d.itemId, d]));
  const perDocument = windows.map((w) => {
    const document = byItem.get(w.id);
    const score = scoreExtraction(w.gold.map((g) => g.claim), (document?.claims ?? []).map((c) => c.claim));
    // The label of the extracted claim that recovers each gold claim, against that claim's gold label.
    const labelled = score.matches.flatMap((match, i) => {
      const label = match.recovered && match.position !== undefined ? document?.claims[match.position]?.label : undefined;
      return label ? [label === w.gold[i]!.label] : [];
    });
    return { id: w.id, checked: document !== undefined, score, labelled, skipped: (document?.claims ?? []).filter((c) => c.skipped && c.skipped !== 'duplicate').length };
  });
  const gold = perDocument.reduce((sum, d) => sum + d.score.gold, 0);
  const recovered = perDocument.reduce((sum, d) => sum + d.score.recovered, 0);
  const extracted = perDocument.reduce((sum, d) => sum + d.score.extracted, 0);
  const labelled = perDocument.flatMap((d) => d.labelled);
  const report = await loadRunReport(es, prefix, runId, { bootstrap: { resamples: 1000, seed } });
  const [group] = report.groups;
  const [documentScores] = report.documents ?? [];
  const spec = local ? LOCAL_MODELS[modelName] : undefined;
  const results = {
    command: `npm run bench:check -- ${process.argv.slice(2).join(' ')}`.trim(),
    generatedAt: new Date().toISOString(),
    model: spec ? { name: modelName, description: spec.description, quantisation: spec.quantisation, sizeBytes: spec.sizeBytes } : { name: model, description: 'the simulator: mechanics only, not accuracy' },
    method: args.method,
    runId,
    documents: windows.length,
    checked: perDocument.filter((d) => d.checked).length,
    claimsPerDocument: size,
    recoveredF1: RECOVERED_F1,
    extraction: { goldClaims: gold, extractedClaims: extracted, recovered, recall: gold === 0 ? 0 : recovered / gold, precision: extracted === 0 ? null : perDocument.reduce((s, d) => s + (d.score.precision ?? 0) * d.score.extracted, 0) / extracted, meanBestF1: perDocument.reduce((s, d) => s + d.score.meanBestF1 * d.score.gold, 0) / Math.max(gold, 1), skippedAsNotCheckWorthy: perDocument.reduce((s, d) => s + d.skipped, 0) },
    recoveredClaimLabelAccuracy: labelled.length === 0 ? null : labelled.filter(Boolean).length / labelled.length,
    recoveredClaimsWithLabel: labelled.length,
    documentLabel: group ? { accuracy: group.accuracy, macroF1: group.macroF1, failed: group.counts.failed } : null,
    documentScores: documentScores ?? null,
    secondsPerDocument: seconds / windows.length,
    perDocument: perDocument.map((d) => ({ id: d.id, checked: d.checked, gold: d.score.gold, extracted: d.score.extracted, recovered: d.score.recovered, meanBestF1: d.score.meanBestF1 })),
  };
  // Simulator figures are not results: they stay out of eval/bench/results unless --out says otherwise.
  const out = args.out ?? (local ? path.join(projectRoot(), 'eval', 'bench', 'results', `check-extraction-${modelName}.json`) : path.join(dir, `${runId}.results.json`));
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  const f = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : v.toFixed(3));
  process.stdout.write(
    [
      local ? `${spec!.description} ${spec!.quantisation} (${Math.round(spec!.sizeBytes / 1e6)} MB GGUF), method ${args.method}: not the papers' models' accuracy` : 'SIMULATOR: these figures exercise the pipeline; they are not accuracy',
      `documents: ${results.checked}/${windows.length} checked, ${size} gold claims each (windows of consecutive Factcheck-Bench claims), ${results.secondsPerDocument.toFixed(1)} s per document`,
      `extraction: recall of gold claims ${f(results.extraction.recall)} (${recovered}/${gold} at token F1 ≥ ${RECOVERED_F1}), precision ${f(results.extraction.precision)} (${extracted} extracted), mean best F1 ${f(results.extraction.meanBestF1)}, ${results.extraction.skippedAsNotCheckWorthy} judged not check-worthy`,
      `recovered claims' labels vs gold: ${f(results.recoveredClaimLabelAccuracy)} over ${labelled.length}`,
      group ? `document label (any false claim → false) vs gold: accuracy ${f(group.accuracy.estimate)} [${f(group.accuracy.lower)}, ${f(group.accuracy.upper)}], macro-F1 ${f(group.macroF1.estimate)}` : 'no document scored',
      documentScores ? `documents: mean precision ${f(documentScores.meanPrecision)}, mean F1@${documentScores.k} ${f(documentScores.meanF1AtK)}` : '',
      `written to ${path.relative(process.cwd(), out)}`,
    ]
      .filter(Boolean)
      .join('\n') + '\n',
  );
  await es.close();
}

runMain(main);
