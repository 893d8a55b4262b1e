/**
 * Retrieval benchmark: gold-page recall@1/5/10 of BM25, dense and hybrid retrieval on the dev
 * sets (FEVER non-NEI, HoVer all-gold, SciFact all-gold) over the shared Wikipedia sample and
 * SciFact abstracts. Run with `npm run bench:retrieval [-- --limit N --pool N --out file]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/config';
import { DEFAULT_PASSAGE_CHARS } from '../../src/corpus/passages';
import { createEsClient } from '../../src/es/client';
import { createLlmGateway } from '../../src/llm/create-gateway';
import { resolveLlmEndpoint } from '../../src/llm/endpoint';
import { projectRoot } from '../../src/project-root';
import { passageEmbedder, SIMULATED_EMBEDDINGS_NOTICE } from '../../src/retrieval/embedder';
import type { Passage } from '../../src/retrieval/passage';
import { RETRIEVAL_MODES, retrievePassages, type RetrievalMode } from '../../src/retrieval/retrieve';
import { loadDataset, type DatasetClaim } from '../datasets';
import { ensureBenchIndex } from './bench-index';
import { collapseToPages, recallAtKs, type GoldCriterion } from './page-recall';

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

async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string' },
      pool: { type: 'string', default: '50' },
      modes: { type: 'string', default: RETRIEVAL_MODES.join(',') },
      datasets: { type: 'string', default: DATASETS.map((d) => d.name).join(',') },
      out: { type: 'string', default: path.join(projectRoot(), 'eval', 'bench', 'results', 'retrieval.json') },
    },
  });
  return {
    limit: values.limit ? Number(values.limit) : Infinity,
    pool: Number(values.pool),
    modes: values.modes.split(',') as RetrievalMode[],
    datasets: DATASETS.filter((d) => values.datasets.split(',').includes(d.name)),
    out: values.out,
  };
}

function formatTable(rows: Row[], header: string): string {
  const lines = [header, '', '| dataset (gold) | claims | mode | R@1 | R@5 | R@10 |', '|---|---:|---|---:|---:|---:|'];
  for (const row of rows) {
    const cells = KS.map((k) => (row.recall[k] ?? 0).toFixed(3));
    lines.push(`| ${row.dataset} (${row.criterion}) | ${row.claims} | ${row.mode} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const options = parseOptions();
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearch.url, requestTimeoutMs: 300_000 });
  const endpoint = await resolveLlmEndpoint(config);
  const gateway = createLlmGateway({ config, endpoint });
  const embed = passageEmbedder(gateway);
  const embeddings = endpoint.simulated
    ? 'simulator embeddings (hashed bag-of-words)'
    : `${config.llm.embeddingModel} at ${endpoint.baseUrl}`;
  if (endpoint.simulated) process.stderr.write(`${SIMULATED_EMBEDDINGS_NOTICE}\n`);
  try {
    const indices: Record<string, string> = {};
    for (const corpus of new Set(options.datasets.map((d) => d.corpus))) {
      const file = path.join(DATA, CORPORA[corpus]);
      const started = Date.now();
      const { index, reused } = await ensureBenchIndex(
        es,
        config.elasticsearch.indexPrefix,
        { name: corpus, file, passageChars: DEFAULT_PASSAGE_CHARS, embeddingId: endpoint.simulated ? 'simulator' : `${config.llm.embeddingModel}@${endpoint.baseUrl}` },
        embed,
        (p) => process.stderr.write(`\r${corpus}: ${p.documents} docs, ${p.passages} passages, ${p.embedded} embedded`),
      );
      process.stderr.write(`\n${corpus}: ${reused ? 'reusing' : 'built'} ${index} (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
      indices[corpus] = index;
    }

    const rows: Row[] = [];
    for (const dataset of options.datasets) {
      const { claims } = await loadDataset(path.join(DATA, dataset.claimsFile));
      const scored = claims.filter((claim) => dataset.gold(claim).length > 0).slice(0, options.limit);
      for (const mode of options.modes) {
        const rankings = await mapConcurrent(scored, 8, async (claim) => {
          const passages = await retrievePassages({ es, embed }, { index: indices[dataset.corpus]!, query: claim.claim, k: options.pool, mode });
          return { pages: collapseToPages(passages, dataset.pageOf), gold: dataset.gold(claim) };
        });
        const row = { dataset: dataset.name, criterion: dataset.criterion, mode, claims: scored.length, recall: recallAtKs(rankings, KS, dataset.criterion) };
        rows.push(row);
        process.stderr.write(`${row.dataset} ${mode}: ${KS.map((k) => `R@${k}=${row.recall[k]!.toFixed(3)}`).join(' ')}\n`);
      }
    }

    const header = `Gold-page recall (page level: ${options.pool} passages ranked, collapsed to distinct pages); embeddings: ${embeddings}`;
    process.stdout.write(`${formatTable(rows, header)}\n`);
    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    const report = { createdAt: new Date().toISOString(), embeddings, passagePool: options.pool, indices, rows };
    fs.writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
    process.stderr.write(`wrote ${options.out}\n`);
  } finally {
    await es.close();
    await endpoint.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:retrieval: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
