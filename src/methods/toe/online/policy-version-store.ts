/**
 * The online learner's ledger in Elasticsearch, `<prefix>-toe-policy-versions`: one document per
 * weights version (the weights themselves, the version it was trained from and the episodes it
 * consumed) and one per finished claim (the warm-up count). Version documents are created with
 * `op_type: create` under `<scope>#<seq>`, so two workers that train the same update concurrently
 * cannot both write it: the second sees a conflict and re-reads.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { ensureIndex, type IndexDefinition } from '../../../es/ensure-index';
import { indexName } from '../../../es/indices';
import { searchPages } from '../../../runs/search-all';
import type { PolicyWeightsFile } from '../policy/weights';

export const TOE_POLICY_VERSIONS_INDEX = 'toe-policy-versions';

export function toePolicyVersionsIndex(prefix: string): string {
  return indexName(prefix, TOE_POLICY_VERSIONS_INDEX);
}

/** The seq of the version that ends the warm-up (the heuristic's fit); GRPO updates are 1, 2, … */
export const WARMUP_CLONE_SEQ = 0;

/** One weights version of a learner scope. */
export interface PolicyVersionRecord {
  scope: string;
  /** 0 for the warm-up's fit to the heuristic, 1 for the first GRPO update, then 2, 3, … */
  seq: number;
  /** How it was made (absent on versions written before the warm-up fit existed: GRPO). */
  update?: 'warmup-clone' | 'grpo';
  version: string;
  /** The version this one was trained from (the starting weights for seq 1). */
  parentVersion: string;
  /** π_ref: the policy at the end of the warm-up (version 0), frozen. */
  referenceVersion: string;
  /** The group of episodes this update consumed, oldest first (none for the warm-up fit). */
  episodeIds: string[];
  /** The warm-up fit: the episodes whose states it was fitted on. */
  clonedFrom?: string[];
  /** Claim-order schedule: the claim positions [from, to) whose episodes made this version. */
  trainedOnPositions?: { from: number; to: number };
  meanReturn: number;
  createdAt: string;
  weights: PolicyWeightsFile;
}

/** A finished claim of a learner scope and the version it acted with (null: the warm-up heuristic). */
export interface LearnerClaimRecord {
  scope: string;
  verificationId: string;
  policyVersion: string | null;
  completedAt: string;
  /** Claim-order schedule: the claim's position in the run's claim order. */
  position?: number;
}

const DEFINITION: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: {
      kind: { type: 'keyword' },
      scope: { type: 'keyword' },
      seq: { type: 'integer' },
      version: { type: 'keyword' },
      parentVersion: { type: 'keyword' },
      referenceVersion: { type: 'keyword' },
      verificationId: { type: 'keyword' },
      policyVersion: { type: 'keyword' },
      createdAt: { type: 'date' },
      completedAt: { type: 'date' },
      // Stored, not searched.
      episodeIds: { type: 'object', enabled: false },
      clonedFrom: { type: 'object', enabled: false },
      trainedOnPositions: { type: 'object', enabled: false },
      weights: { type: 'object', enabled: false },
    },
  },
};

/** Scopes may be long; document ids carry a short hash of them. */
function scopeKey(scope: string): string {
  return crypto.createHash('sha256').update(scope).digest('hex').slice(0, 20);
}

export class PolicyVersionStore {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly client: Client,
    readonly index: string,
  ) {}

  /** The newest version of the scope, or null while it is still warming up. */
  async latest(scope: string): Promise<PolicyVersionRecord | null> {
    await this.ensureReady();
    await this.client.indices.refresh({ index: this.index });
    const response = await this.client.search<PolicyVersionRecord>({
      index: this.index,
      size: 1,
      query: { bool: { filter: [{ term: { kind: 'version' } }, { term: { scope } }] } },
      sort: [{ seq: 'desc' }],
    });
    return response.hits.hits[0]?._source ?? null;
  }

  /** One version of the scope by its name, or null. */
  async get(scope: string, version: string): Promise<PolicyVersionRecord | null> {
    await this.ensureReady();
    const query = { bool: { filter: [{ term: { kind: 'version' } }, { term: { scope } }, { term: { version } }] } };
    let response = await this.client.search<PolicyVersionRecord>({ index: this.index, size: 1, query });
    if (response.hits.hits.length === 0) {
      // Written by another worker since this index was last refreshed.
      await this.client.indices.refresh({ index: this.index });
      response = await this.client.search<PolicyVersionRecord>({ index: this.index, size: 1, query });
    }
    return response.hits.hits[0]?._source ?? null;
  }

  /** Every version of the scope without its weights, oldest first. */
  async versions(scope: string): Promise<Omit<PolicyVersionRecord, 'weights'>[]> {
    await this.ensureReady();
    await this.client.indices.refresh({ index: this.index });
    const records: Omit<PolicyVersionRecord, 'weights'>[] = [];
    const query = { bool: { filter: [{ term: { kind: 'version' } }, { term: { scope } }] } };
    for await (const page of searchPages(this.client, this.index, query, { sourceExcludes: ['weights'] })) {
      records.push(...(page as Omit<PolicyVersionRecord, 'weights'>[]));
    }
    return records.sort((a, b) => a.seq - b.seq);
  }

  /** Writes `record` unless its seq exists already; false when another writer got there first. */
  async create(record: PolicyVersionRecord): Promise<boolean> {
    await this.ensureReady();
    try {
      await this.client.create({ index: this.index, id: `version:${scopeKey(record.scope)}:${record.seq}`, document: { kind: 'version', ...record } });
      return true;
    } catch (err) {
      if ((err as { meta?: { statusCode?: number } }).meta?.statusCode === 409) return false;
      throw err;
    }
  }

  /** Records a finished claim (idempotent per verification). */
  async recordClaim(record: LearnerClaimRecord): Promise<void> {
    await this.ensureReady();
    await this.client.index({ index: this.index, id: `claim:${scopeKey(record.scope)}:${record.verificationId}`, document: { kind: 'claim', ...record } });
  }

  /** Finished claims of the scope, in no particular order. */
  async claims(scope: string): Promise<LearnerClaimRecord[]> {
    await this.ensureReady();
    await this.client.indices.refresh({ index: this.index });
    const records: LearnerClaimRecord[] = [];
    for await (const page of searchPages(this.client, this.index, { bool: { filter: [{ term: { kind: 'claim' } }, { term: { scope } }] } })) {
      records.push(...(page as LearnerClaimRecord[]));
    }
    return records;
  }

  /** Finished claims of the scope. */
  async claimsDone(scope: string): Promise<number> {
    await this.ensureReady();
    await this.client.indices.refresh({ index: this.index });
    const { count } = await this.client.count({ index: this.index, query: { bool: { filter: [{ term: { kind: 'claim' } }, { term: { scope } }] } } });
    return count;
  }

  private async ensureReady(): Promise<void> {
    this.ready ??= ensureIndex(this.client, this.index, DEFINITION).catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    await this.ready;
  }
}

/** Writes a version's weights as a weights file (`policy=learned -o policyWeights=<file>` loads it). */
export function writeVersionWeights(record: PolicyVersionRecord, file: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(record.weights, null, 1)}\n`);
}
