import { type Command } from 'commander';
import { loadConfig } from '../../config/config';
import { wikiIndexName } from '../../corpus/wiki-index';
import { createEsClient } from '../../es/client';
import { ownIndexProblem } from '../../es/indices';
import { searchPassages, type Passage } from '../../retrieval/bm25';
import { IndexNotFoundError, InvalidQueryError } from '../../retrieval/errors';
import { CliError } from '../errors';
import { printJson, printText } from '../output';
import { parsePositiveInt, toCliError } from '../common';

interface SearchOptions {
  k: number;
  index?: string;
  json?: boolean;
}

const SNIPPET_CHARS = 200;

function snippet(text: string): string {
  return text.length <= SNIPPET_CHARS ? text : `${text.slice(0, SNIPPET_CHARS).trimEnd()}…`;
}

function formatHit(hit: Passage, position: number): string {
  const rank = position + 1;
  return `${String(rank).padStart(2)}. ${hit.score.toFixed(2)}  ${hit.title || '(untitled)'}  [${hit.id}]\n    ${snippet(hit.text)}`;
}

async function search(query: string, options: SearchOptions): Promise<void> {
  const config = loadConfig();
  const indexProblem = options.index === undefined ? undefined : ownIndexProblem(options.index, config.elasticsearch.indexPrefix);
  if (indexProblem) throw new CliError(`--index: ${indexProblem}`, 2);
  const index = wikiIndexName(config.elasticsearch.indexPrefix, options.index);
  const client = createEsClient(config.elasticsearch);
  try {
    const hits = await searchPassages(client, index, query, options.k);
    if (options.json) printJson({ index, query, hits });
    else printText(hits.length === 0 ? `no passages match in ${index}\n` : `${hits.map(formatHit).join('\n')}\n`);
  } catch (err) {
    if (err instanceof InvalidQueryError) throw new CliError(err.message, 2);
    if (err instanceof IndexNotFoundError) throw new CliError(err.message, 1);
    throw toCliError(err, config.elasticsearch.url);
  } finally {
    await client.close();
  }
}

export function registerSearchCommand(program: Command): void {
  program
    .command('search')
    .description('BM25 search over the ingested wiki passages; prints ranked hits (score, title, passage id, snippet).')
    .argument('<query>', 'search text, e.g. a claim')
    .option('-k, --k <n>', 'number of passages to return', parsePositiveInt, 5)
    .option('--index <name>', 'index to search (default: <ES_INDEX_PREFIX>-wiki)')
    .option('--json', 'print the hits as JSON on stdout')
    .action((query: string, options: SearchOptions) => search(query, options));
}
