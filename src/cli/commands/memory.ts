import { type Command } from 'commander';
import { loadConfig } from '../../config/config';
import { inputFileProblem, MAX_DATA_FILE_BYTES } from '../../config/input-file';
import { createEsClient } from '../../es/client';
import { indexName } from '../../es/indices';
import { assertValidScope, InvalidMemoryScopeError } from '../../memory/scope';
import { MemoryFileError } from '../../memory/jsonl';
import { EvidenceMemoryStore, type MemoryStats } from '../../memory/memory-store';
import { exportMemory, importMemory } from '../../memory/transfer';
import { CliError } from '../errors';
import { printJson, printText } from '../output';
import { toCliError } from '../common';

interface JsonOption {
  json?: boolean;
}

/** Runs an operation on the configured evidence-memory index, turning fixable failures into one-line errors. */
async function withMemoryStore<T>(operation: (store: EvidenceMemoryStore) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const client = createEsClient({ ...config.elasticsearch, requestTimeoutMs: 120_000 });
  try {
    return await operation(new EvidenceMemoryStore(client, indexName(config.elasticsearch.indexPrefix, 'evidence-memory')));
  } catch (err) {
    if (err instanceof InvalidMemoryScopeError || err instanceof MemoryFileError) throw new CliError(err.message, 2);
    throw toCliError(err, config.elasticsearch.url);
  } finally {
    await client.close();
  }
}

function formatStats(stats: MemoryStats): string {
  const lines = [
    `scope ${stats.scope}: ${stats.entries} entries from ${stats.claims} claims, ${stats.embedded} with embeddings`,
    stats.oldest ? `written ${stats.oldest} … ${stats.newest ?? ''}` : undefined,
    `tools: ${Object.entries(stats.tools).map(([tool, count]) => `${tool} ${count}`).join(', ') || '-'}`,
    `busiest keywords: ${stats.topKeywords.map(({ keyword, entries }) => `"${keyword}" ${entries}`).join(', ') || '-'}`,
  ];
  return `${lines.filter(Boolean).join('\n')}\n`;
}

export function registerMemoryCommand(program: Command): void {
  const memory = program
    .command('memory')
    .description('Inspect and move the MERMAID evidence memory (<ES_INDEX_PREFIX>-evidence-memory) by scope, e.g. "global" or "run:<id>/dataset:<name>".');

  memory
    .command('export')
    .description('Write every entry of a scope to a JSON Lines file, oldest first (embeddings included).')
    .argument('<scope>', 'memory scope to export')
    .argument('<file>', 'JSONL file to write')
    .option('--json', 'print the summary as JSON on stdout')
    .action((scope: string, file: string, options: JsonOption) =>
      withMemoryStore(async (store) => {
        const entries = await exportMemory(store, scope, file);
        if (options.json) printJson({ scope, file, entries });
        else printText(`exported ${entries} entries of scope ${scope} to ${file}\n`);
      }),
    );

  memory
    .command('import')
    .description('Load an exported JSONL file; entries with the same id are replaced, so importing twice changes nothing.')
    .argument('<file>', 'JSONL file written by `verity memory export`')
    .option('--scope <scope>', 'put every entry into this scope instead of the one it was exported from')
    .option('--json', 'print the summary as JSON on stdout')
    .action((file: string, options: JsonOption & { scope?: string }) => {
      const problem = inputFileProblem(file, MAX_DATA_FILE_BYTES);
      if (problem) throw new CliError(`cannot import memory: ${problem}`, 2);
      return withMemoryStore(async (store) => {
        const result = await importMemory(store, file, options.scope);
        if (options.json) printJson({ file, ...result });
        else printText(`imported ${result.entries} entries into ${result.scopes.join(', ') || 'no scope'}\n`);
      });
    });

  memory
    .command('stats')
    .description('Count the entries, claims, tools and busiest keywords of a scope.')
    .argument('<scope>', 'memory scope')
    .option('--json', 'print the statistics as JSON on stdout')
    .action((scope: string, options: JsonOption) =>
      withMemoryStore(async (store) => {
        const stats = await store.stats(assertValidScope(scope));
        if (options.json) printJson(stats);
        else printText(formatStats(stats));
      }),
    );
}
