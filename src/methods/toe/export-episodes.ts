/**
 * Exports ToE's logged retrieval episodes to JSON Lines for `verity toe train`:
 *   npx tsx src/methods/toe/export-episodes.ts <out.jsonl> [--run <runId>]
 * Reads `<ES_INDEX_PREFIX>-toe-episodes` on ES_URL (the configuration's defaults otherwise).
 */
import { loadConfig } from '../../config/config';
import { createEsClient } from '../../es/client';
import { ToeEpisodeStore, toeEpisodesIndex } from './episode-store';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const out = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--run');
  const runAt = args.indexOf('--run');
  const runId = runAt >= 0 ? args[runAt + 1] : undefined;
  if (!out) {
    process.stderr.write('usage: npx tsx src/methods/toe/export-episodes.ts <out.jsonl> [--run <runId>]\n');
    process.exitCode = 2;
    return;
  }
  const config = loadConfig(process.env);
  const es = createEsClient(config.elasticsearch);
  try {
    const store = new ToeEpisodeStore(es, toeEpisodesIndex(config.elasticsearch.indexPrefix));
    const count = await store.exportJsonl(out, runId);
    process.stdout.write(`${count} episode(s) from ${store.index} written to ${out}\n`);
  } finally {
    await es.close();
  }
}

void main();
