/** Where `toe train` reads logged episodes from: a JSONL file and/or the `<prefix>-toe-episodes` ES index. */
import fs from 'node:fs';
import type { Client } from '@elastic/elasticsearch';
import { type PolicyEpisode } from '../sandbox/toe-policy';
import { indexName } from '../../../es/indices';
import { searchAll } from '../../../runs/search-all';
import { parseEpisode } from './episode-schema';
import { MAX_DATA_FILE_BYTES, readInputText } from '../../../config/input-file';

export const TOE_EPISODES_LOGICAL_INDEX = 'toe-episodes';

export function episodesIndex(prefix: string): string {
  return indexName(prefix, TOE_EPISODES_LOGICAL_INDEX);
}

export function readEpisodesJsonl(file: string): PolicyEpisode[] {
  const text = readInputText(file, MAX_DATA_FILE_BYTES);
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), index }))
    .filter(({ line }) => line.length > 0)
    .map(({ line, index }) => {
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        throw new Error(`${file}:${index + 1}: not JSON`);
      }
      return parseEpisode(raw, `${file}:${index + 1}`);
    });
}

export function writeEpisodesJsonl(file: string, episodes: readonly PolicyEpisode[]): void {
  fs.writeFileSync(file, episodes.map((e) => JSON.stringify(e)).join('\n') + (episodes.length ? '\n' : ''));
}

/**
 * Episodes stored in ES. With `runId`, only those of that run: episode ids start with the
 * verification workflow id `verify/<run>/…`, or the document carries `runId`.
 */
export async function readEpisodesFromEs(client: Client, index: string, runId?: string): Promise<PolicyEpisode[]> {
  await client.indices.refresh({ index }, { ignore: [404] });
  const sources = await searchAll(client, index, runId !== undefined ? { bool: { should: [{ term: { runId } }, { prefix: { id: `verify/${runId}/` } }] } } : { match_all: {} });
  const episodes: PolicyEpisode[] = [];
  for (const source of sources) {
    const doc = source as { id?: unknown; runId?: unknown };
    if (runId !== undefined) {
      const inRun = doc.runId === runId || (typeof doc.id === 'string' && doc.id.startsWith(`verify/${runId}/`));
      if (!inRun) continue;
    }
    episodes.push(parseEpisode(source, `${index}/${String(doc.id)}`));
  }
  return episodes;
}
