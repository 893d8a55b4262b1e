/**
 * Where every node's retrieval episode is logged for policy training: `<prefix>-toe-episodes`,
 * one document per episode with its stable id as `_id` (a retried or replayed write is a no-op),
 * plus a JSONL export (`npx tsx src/methods/toe/export-episodes.ts`).
 */
import fs from 'node:fs';
import type { Client } from '@elastic/elasticsearch';
import { ensureIndex, type IndexDefinition } from '../../es/ensure-index';
import { indexName } from '../../es/indices';
import { searchAll } from '../../runs/search-all';
import type { PolicyEpisode } from './sandbox/toe-policy';

export const TOE_EPISODES_INDEX = 'toe-episodes';

export function toeEpisodesIndex(prefix: string): string {
  return indexName(prefix, TOE_EPISODES_INDEX);
}

/** The logged document: the episode, plus what lets training filter it. */
export interface StoredToeEpisode extends PolicyEpisode {
  runId: string;
  workflowId: string;
  nodeId: string;
  totalReward: number;
  recordedAt: string;
  /** Online policy only: the learner scope the episode trains, and the weights version it acted with (absent: the warm-up heuristic). */
  learner?: string;
  policyVersion?: string;
}

const EPISODES_DEFINITION: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: {
      id: { type: 'keyword' },
      runId: { type: 'keyword' },
      workflowId: { type: 'keyword' },
      nodeId: { type: 'keyword' },
      claim: { type: 'text' },
      policy: { type: 'keyword' },
      stateLayoutVersion: { type: 'keyword' },
      totalReward: { type: 'float' },
      recordedAt: { type: 'date' },
      learner: { type: 'keyword' },
      policyVersion: { type: 'keyword' },
      // States, actions and rewards are stored, not searched.
      steps: { type: 'object', enabled: false },
    },
  },
};

export class ToeEpisodeStore {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly client: Client,
    readonly index: string,
  ) {}

  async put(episode: StoredToeEpisode): Promise<void> {
    await this.ensureReady();
    await this.client.index({ index: this.index, id: episode.id, document: episode });
  }

  /** Episodes of one online learner scope, oldest first (recordedAt, then id). */
  async ofLearner(learner: string): Promise<StoredToeEpisode[]> {
    await this.client.indices.refresh({ index: this.index }, { ignore: [404] });
    const sources = (await searchAll(this.client, this.index, { term: { learner } })) as StoredToeEpisode[];
    return sources.sort((a, b) => (a.recordedAt < b.recordedAt ? -1 : a.recordedAt > b.recordedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private async ensureReady(): Promise<void> {
    this.ready ??= this.prepare().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    await this.ready;
  }

  /** Creates the index; an index created before the online fields existed gets them added (an additive mapping change). */
  private async prepare(): Promise<void> {
    await ensureIndex(this.client, this.index, EPISODES_DEFINITION);
    await this.client.indices.putMapping({ index: this.index, properties: { learner: { type: 'keyword' }, policyVersion: { type: 'keyword' } } });
  }

  /** Every stored episode (of one run when `runId` is given), ordered by id. */
  async all(runId?: string): Promise<StoredToeEpisode[]> {
    await this.client.indices.refresh({ index: this.index }, { ignore: [404] });
    const sources = (await searchAll(this.client, this.index, runId ? { term: { runId } } : { match_all: {} })) as StoredToeEpisode[];
    return sources.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Writes the episodes as JSON Lines (one PolicyEpisode per line); returns how many. */
  async exportJsonl(file: string, runId?: string): Promise<number> {
    const episodes = await this.all(runId);
    fs.writeFileSync(file, episodes.map((e) => JSON.stringify(toPolicyEpisode(e))).join('\n') + (episodes.length > 0 ? '\n' : ''));
    return episodes.length;
  }
}

export function toPolicyEpisode(stored: PolicyEpisode): PolicyEpisode {
  const { schemaVersion, id, claim, policy, stateLayoutVersion, steps } = stored;
  return { schemaVersion, id, claim, policy, stateLayoutVersion, steps };
}
