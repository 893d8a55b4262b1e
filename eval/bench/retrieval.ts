/**
 * Retrieval benchmark: gold-page recall@1/5/10 of BM25, dense and hybrid retrieval on the dev
 * sets (FEVER non-NEI, HoVer all-gold, SciFact all-gold) over the shared Wikipedia sample and
 * SciFact abstracts. Run with `npm run bench:retrieval [-- --embeddings e5 --limit N --pool N --out file]`;
 * eval/bench/README.md explains every option and how each published number was produced.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Client } from '@elastic/elasticsearch';
import { loadConfig, type VerityConfig } from '../../src/config/config';
import { DEFAULT_PASSAGE_CHARS } from '../../src/corpus/passages';
import { createEsClient } from '../../src/es/client';
import { createLlmGateway } from '../../src/llm/create-gateway';
import { describeEmbeddings, embeddingEndpointOf } from '../../src/llm/embedding-endpoint';
import { resolveLlmEndpoint } from '../../src/llm/endpoint';
import type { LlmGateway } from '../../src/llm/gateway';
import { projectRoot } from '../../src/project-root';
import { humanDuration } from '../../src/shared/human-duration';
import type { EmbedTexts } from '../../src/retrieval/dense';
import { passageEmbedder, queryEmbedder, SIMULATED_EMBEDDINGS_NOTICE } from '../../src/retrieval/embedder';
import { DEFAULT_HYBRID_FUSION, type HybridFusion } from '../../src/retrieval/hybrid';
import type { Passage } from '../../src/retrieval/passage';
import { RETRIEVAL_MODES, retrievePassages, type RetrievalMode } from '../../src/retrieval/retrieve';
import { loadDataset, type DatasetClaim } from '../../src/datasets';
import { ensureBenchIndex } from './bench-index';
import { E5_LABEL, e5Environment, startE5Server } from './e5-server';
import { collapseToPages, recallAtKs, type GoldCriterion } from './page-recall';
import { exitWithUsageIfAsked } from './support/usage';
import { pool } from './support/pool';
import { ingestProgress } from '../../src/cli/ingest-progress';

exitWithUsageIfAsked(__filename);

const DATA = path.resolve(projectRoot(), '..', 'shared', 'data');
const KS = [1, 5, 10] as const;

interface BenchDataset {
  name: string;
  claimsFile: string;
  corpus: 'wiki' | 'scifact';
  criterion: GoldCriterion;
  /** Gold page keys of a claim (empty: the claim is not scored). */
  gold: (claim: DatasetClaim) => string[];
  pageOf: (passage: Passage) => string;
}

const byTitle = (passage: Passage) => passage.title;
const byDocId = (passage: Passage) => passage.docId;

/** SciFact gold documents: `gold_sentences[].doc_id`, matched to corpus ids `scifact:<doc_id>`. */
function scifactGold(claim: DatasetClaim): string[] {
  const sentences = (claim.meta.goldSentences ?? []) as { doc_id?: unknown }[];
  return [...new Set(sentences.map((s) => s.doc_id).filter((id) => id !== undefined).map((id) => `scifact:${String(id)}`))];
}

const DATASETS: BenchDataset[] = [
  { name: 'fever', claimsFile: 'dev/fever.jsonl', corpus: 'wiki', criterion: 'any', gold: (c) => (c.labelNorm === 'NEI' ? [] : c.goldTitles), pageOf: byTitle },
  { name: 'hover', claimsFile: 'dev/hover.jsonl', corpus: 'wiki', criterion: 'all', gold: (c) => c.goldTitles, pageOf: byTitle },
  { name: 'scifact', claimsFile: 'dev/scifact.jsonl', corpus: 'scifact', criterion: 'all', gold: scifactGold, pageOf: byDocId },
];

const CORPORA = { wiki: 'corpus/wiki.jsonl', scifact: 'corpus/scifact.jsonl' } as const;

interface Row {
  dataset: string;
  criterion: GoldCriterion;
  mode: RetrievalMode;
  claims: number;
  recall: Record<number, number>;
}

const EMBEDDINGS = ['configured', 'e5'] as const;

function parseOptions() {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string' },
      skip: { type: 'string', default: '0' },
      pool: { type: 'string', default: '50' },
      modes: { type: 'string', default: RETRIEVAL_MODES.join(',') },
      datasets: { type: 'string', default: DATASETS.map((d) => d.name).join(',') },
      embeddings: { type: 'string', default: 'configured' },
      'rrf-k': { type: 'string', default: String(DEFAULT_HYBRID_FUSION.rrfK) },
      candidates: { type: 'string', default: String(DEFAULT_HYBRID_FUSION.candidates) },
      'bm25-weight': { type: 'string', default: String(DEFAULT_HYBRID_FUSION.bm25Weight) },
      'dense-weight': { type: 'string', default: String(DEFAULT_HYBRID_FUSION.denseWeight) },
      out: { type: 'string' },
    },
  });
  const embeddings = values.embeddings as (typeof EMBEDDINGS)[number];
  if (!EMBEDDINGS.includes(embeddings)) throw new Error(`--embeddings must be one of ${EMBEDDINGS.join(', ')}`);
  const resultFile = embeddings === 'e5' ? 'retrieval-e5.json' : 'retrieval.json';
  return {
    limit: values.limit ? Number(values.limit) : Infinity,
    skip: Number(values.skip),
    pool: Number(values.pool),
    modes: values.modes.split(',') as RetrievalMode[],
    datasets: DATASETS.filter((d) => values.datasets.split(',').includes(d.name)),
    embeddings,
    fusion: {
      rrfK: Number(values['rrf-k']),
      candidates: Number(values.candidates),
      bm25Weight: Number(values['bm25-weight']),
      denseWeight: Number(values['dense-weight']),
    } satisfies HybridFusion,
    out: values.out ?? path.join(projectRoot(), 'eval', 'bench', 'results', resultFile),
  };
}

type BenchOptions = ReturnType<typeof parseOptions>;

function formatTable(rows: Row[], header: string): string {
  const lines = [header, '', '| dataset (gold) | claims | mode | R@1 | R@5 | R@10 |', '|---|---:|---|---:|---:|---:|'];
  for (const row of rows) {
    const cells = KS.map((k) => (row.recall[k] ?? 0).toFixed(3));
    lines.push(`| ${row.dataset} (${row.criterion}) | ${row.claims} | ${row.mode} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Queries are embedded once per run, although dense and hybrid both ask. */
function memoized(embed: EmbedTexts): EmbedTexts {
  const vectors = new Map<string, Promise<number[][]>>();
  return (texts) => {
    const key = JSON.stringify(texts);
    const known = vectors.get(key) ?? embed(texts);
    vectors.set(key, known);
    return known;
  };
}

interface BenchContext {
  es: Client;
  gateway: LlmGateway;
  config: VerityConfig;
  /** Part of each index's content hash: the passage model and dims, never the (ephemeral) URL. */
  embeddingId: string;
}

async function prepareIndices(context: BenchContext, options: BenchOptions): Promise<Record<string, string>> {
  const { es, gateway, config } = context;
  const indices: Record<string, string> = {};
  for (const corpus of new Set(options.datasets.map((d) => d.corpus))) {
    const file = path.join(DATA, CORPORA[corpus]);
    const started = Date.now();
    const { progress, onProgress } = ingestProgress(`bench retrieval index ${corpus}`, config.progressIntervalMs);
    const { index, reused } = await ensureBenchIndex(
      es,
      config.elasticsearch.indexPrefix,
      { name: corpus, file, passageChars: DEFAULT_PASSAGE_CHARS, embeddingId: context.embeddingId },
      passageEmbedder(gateway),
      onProgress,
    ).finally(() => progress.finish());
    process.stderr.write(`${corpus}: ${reused ? 'reusing' : 'built'} ${index} (${humanDuration(Date.now() - started)})\n`);
    indices[corpus] = index;
  }
  return indices;
}

async function measure(context: BenchContext, options: BenchOptions, indices: Record<string, string>): Promise<Row[]> {
  const deps = { es: context.es, embedQuery: memoized(queryEmbedder(context.gateway)) };
  const rows: Row[] = [];
  for (const dataset of options.datasets) {
    const { claims } = await loadDataset(path.join(DATA, dataset.claimsFile));
    const scored = claims.filter((claim) => dataset.gold(claim).length > 0).slice(options.skip, options.skip + options.limit);
    for (const mode of options.modes) {
      const rankings: { pages: string[]; gold: string[] }[] = [];
      const progress = { label: `bench retrieval ${dataset.name} ${mode}`, unit: 'claims', intervalMs: context.config.progressIntervalMs };
      await pool([...scored.entries()], 8, async ([i, claim]) => {
        const request = { index: indices[dataset.corpus]!, query: claim.claim, k: options.pool, mode, fusion: options.fusion };
        const passages = await retrievePassages(deps, request);
        rankings[i] = { pages: collapseToPages(passages, dataset.pageOf), gold: dataset.gold(claim) };
      }, { progress });
      const row = { dataset: dataset.name, criterion: dataset.criterion, mode, claims: scored.length, recall: recallAtKs(rankings, KS, dataset.criterion) };
      rows.push(row);
      process.stderr.write(`${row.dataset} ${mode}: ${KS.map((k) => `R@${k}=${row.recall[k]!.toFixed(3)}`).join(' ')}\n`);
    }
  }
  return rows;
}

/** `label` names the embeddings in the table and JSON (default: model and endpoint). */
async function runBench(options: BenchOptions, config: VerityConfig, label?: string): Promise<void> {
  const es = createEsClient({ ...config.elasticsearch, requestTimeoutMs: 300_000 });
  const endpoint = await resolveLlmEndpoint(config);
  const gateway = createLlmGateway({ config, endpoint });
  const embeddingEndpoint = embeddingEndpointOf(config, endpoint);
  const embeddings = label ?? describeEmbeddings(config, embeddingEndpoint);
  if (embeddingEndpoint.simulated) process.stderr.write(`${SIMULATED_EMBEDDINGS_NOTICE}\n`);
  const { model, dimensions } = config.embedding;
  const embeddingId = embeddingEndpoint.simulated ? 'simulator' : `${model}${dimensions ? `@${dimensions}` : ''}`;
  try {
    const context = { es, gateway, config, embeddingId };
    const indices = await prepareIndices(context, options);
    const rows = await measure(context, options, indices);
    const fusion = options.fusion;
    const header =
      `Gold-page recall (page level: ${options.pool} passages ranked, collapsed to distinct pages); embeddings: ${embeddings}; ` +
      `hybrid: RRF k=${fusion.rrfK}, ${fusion.candidates} candidates per retriever, weights bm25 ${fusion.bm25Weight} / dense ${fusion.denseWeight}`;
    process.stdout.write(`${formatTable(rows, header)}\n`);
    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    const claims = { skip: options.skip, limit: Number.isFinite(options.limit) ? options.limit : null };
    const report = { createdAt: new Date().toISOString(), embeddings, passagePool: options.pool, claims, fusion, indices, rows };
    fs.writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
    process.stderr.write(`wrote ${options.out}\n`);
  } finally {
    await es.close();
    await endpoint.close();
  }
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options.embeddings !== 'e5') return runBench(options, loadConfig());
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const server = await startE5Server(loadConfig().dataDir, log);
  try {
    await runBench(options, loadConfig({ ...process.env, ...e5Environment(server.baseUrl) }), E5_LABEL);
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:retrieval: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
