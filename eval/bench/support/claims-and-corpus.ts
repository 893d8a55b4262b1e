import path from 'node:path';
import { projectRoot } from '../../../src/project-root';

/** The shared evaluation data beside the repository. */
export const SHARED_DATA_DIR = path.resolve(projectRoot(), '..', 'shared', 'data');

/** The recorded web offline runs search (Factcheck-Bench's stored pages). */
export const DEFAULT_RECORDED_WEB = path.join(SHARED_DATA_DIR, 'corpus', 'web_factcheckbench.jsonl');

/** Named claim sets and the Wikipedia-style corpus their gold evidence lives in. */
const NAMED: Record<string, { claims: string; wiki: string }> = {
  fixture: { claims: 'fixture/claims.jsonl', wiki: 'fixture/corpus.jsonl' },
  fever: { claims: 'dev/fever.jsonl', wiki: 'corpus/wiki.jsonl' },
  hover: { claims: 'dev/hover.jsonl', wiki: 'corpus/wiki.jsonl' },
  scifact: { claims: 'dev/scifact.jsonl', wiki: 'corpus/scifact.jsonl' },
  factcheckbench: { claims: 'dev/factcheckbench.jsonl', wiki: 'fixture/corpus.jsonl' },
};

export class MissingCorpusError extends Error {
  override name = 'MissingCorpusError';
}

/**
 * `--dataset` (a name above or a claims file) and `--corpus` into files: a named set brings its
 * corpus, a claims file of one's own needs `--corpus`.
 */
export function resolveClaimsAndCorpus(dataset: string, corpus?: string): { claimsFile: string; wikiFile: string } {
  const named = NAMED[dataset];
  const claimsFile = named ? path.join(SHARED_DATA_DIR, named.claims) : path.resolve(dataset);
  if (corpus) return { claimsFile, wikiFile: path.resolve(corpus) };
  if (!named) throw new MissingCorpusError('--corpus is required with a dataset file');
  return { claimsFile, wikiFile: path.join(SHARED_DATA_DIR, named.wiki) };
}
