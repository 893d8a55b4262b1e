/**
 * ToE's online learner (paper §III-B, toe.md §3.6): which weights version a claim acts with, and
 * after each finished claim the updates that are due, each a new version in Elasticsearch. When the
 * warm-up ends, version 0 is the starting network fitted to the heuristic on the warm-up episodes
 * (warmup-clone.ts); it is π_ref, frozen. Then every group of the scope's episodes a GRPO update
 * trains the newest version (online-hyperparameters.ts). Scopes whose first version predates the
 * warm-up fit keep the starting weights as π_ref.
 */
import type { Mlp } from '../policy/mlp';
import { defaultWeightsPath, policyFromMlp, readWeightsFile, type LearnedPolicy } from '../policy/learned-policy';
import { deserialiseWeights, type PolicyWeightsFile } from '../policy/weights';
import { toPolicyEpisode, type StoredToeEpisode, type ToeEpisodeStore } from '../episode-store';
import { discountedReturn, PAPER_GRPO } from '../policy/grpo';
import { trainPolicy } from '../training/train-policy';
import { STATE_LAYOUT_VERSION } from '../sandbox/logic/state';
import { onlineGrpoHyperparameters } from './online-hyperparameters';
import { nextUpdateGroup, updateSeed } from './online-schedule';
import { WARMUP_CLONE_SEQ, type PolicyVersionRecord, type PolicyVersionStore } from './policy-version-store';
import { warmupClone } from './warmup-clone';

/** Bounds the updates one finished claim triggers (a backlog is worked off by the next claims). */
const MAX_UPDATES_PER_CLAIM = 8;

export interface ClaimFinished {
  scope: string;
  verificationId: string;
  /** The version the claim acted with; null during the warm-up. */
  actedWith: string | null;
  warmupClaims: number;
  groupSize: number;
  /** Starting weights file (default: the shipped weights). */
  startWeights?: string;
}

export interface OnlineUpdate {
  /** warmup-clone: version 0, the heuristic's fit at the end of the warm-up; grpo: a GRPO update. */
  kind: 'warmup-clone' | 'grpo';
  seq: number;
  version: string;
  parentVersion: string;
  episodes: number;
  meanReturn: number;
}

export interface OnlineUpdateReport {
  claimsDone: number;
  updates: OnlineUpdate[];
}

export class OnlineLearner {
  private readonly policies = new Map<string, LearnedPolicy>();

  constructor(
    private readonly versions: PolicyVersionStore,
    private readonly episodes: ToeEpisodeStore,
  ) {}

  /** The version a claim starting now acts with: the scope's newest, or null (warm-up: the heuristic acts). */
  async actingVersion(scope: string): Promise<string | null> {
    return (await this.versions.latest(scope))?.version ?? null;
  }

  /** The policy of one stored version (versions are immutable, so they are cached by name). */
  async policy(scope: string, version: string): Promise<LearnedPolicy> {
    const key = `${scope}\u0000${version}`;
    const cached = this.policies.get(key);
    if (cached) return cached;
    const record = await this.versions.get(scope, version);
    if (!record) throw new Error(`ToE online policy version ${version} of ${scope} is not in ${this.versions.index}`);
    const { file, mlp } = deserialiseWeights(record.weights, `${this.versions.index}/${version}`);
    const policy = policyFromMlp(mlp, file.version, file.stateLayoutVersion);
    this.policies.set(key, policy);
    return policy;
  }

  /** Records the finished claim, then the updates that are due: the warm-up fit once, then GRPO updates (each a new version). */
  async claimFinished(claim: ClaimFinished): Promise<OnlineUpdateReport> {
    await this.versions.recordClaim({ scope: claim.scope, verificationId: claim.verificationId, policyVersion: claim.actedWith, completedAt: new Date().toISOString() });
    const claimsDone = await this.versions.claimsDone(claim.scope);
    const updates: OnlineUpdate[] = [];
    const start = startingWeights(claim.startWeights);
    for (let attempt = 0; attempt < MAX_UPDATES_PER_CLAIM; attempt += 1) {
      const history = await this.versions.versions(claim.scope);
      const trainable = (await this.episodes.ofLearner(claim.scope)).filter((e) => e.steps.length > 0 && e.stateLayoutVersion === STATE_LAYOUT_VERSION);
      if (history.length === 0 && claimsDone >= claim.warmupClaims && trainable.length > 0) {
        const clone = await this.endWarmup(claim.scope, start, trainable);
        if (clone) updates.push(clone);
        continue;
      }
      const group = nextUpdateGroup({
        claimsDone,
        warmupClaims: claim.warmupClaims,
        groupSize: claim.groupSize,
        episodeIds: trainable.map((e) => e.id),
        consumed: new Set(history.flatMap((v) => v.episodeIds)),
      });
      if (!group) break;
      const latest = history.at(-1);
      const parent = latest ? await this.weightsOf(claim.scope, latest.version) : start;
      const cloned = history.find((v) => v.seq === WARMUP_CLONE_SEQ);
      const reference = cloned ? await this.weightsOf(claim.scope, cloned.version) : start;
      const seq = (latest?.seq ?? 0) + 1;
      const byId = new Map(trainable.map((e) => [e.id, e]));
      const result = trainPolicy(
        { mlp: parent.mlp, version: parent.file.version, stateLayoutVersion: parent.file.stateLayoutVersion, reference: reference.mlp },
        group.map((id) => toPolicyEpisode(byId.get(id)!)),
        { seed: updateSeed(claim.scope, seq), hyperparameters: onlineGrpoHyperparameters(claim.groupSize), source: `es:${this.versions.index}#${claim.scope}` },
      );
      const record: PolicyVersionRecord = {
        scope: claim.scope,
        seq,
        update: 'grpo',
        version: result.weights.version,
        parentVersion: parent.file.version,
        referenceVersion: reference.file.version,
        episodeIds: group,
        meanReturn: result.meanReturn,
        createdAt: new Date().toISOString(),
        weights: result.weights,
      };
      // A concurrent claim of the scope may have written this seq: re-read and go on from there.
      if (await this.versions.create(record)) {
        updates.push({ kind: 'grpo', seq, version: record.version, parentVersion: record.parentVersion, episodes: group.length, meanReturn: result.meanReturn });
      }
    }
    return { claimsDone, updates };
  }

  /**
   * Version 0: the starting weights fitted to the heuristic on the episodes it acted in during the
   * warm-up (toe.md §10 #8). It trains on states only, so GRPO still consumes those episodes.
   */
  private async endWarmup(scope: string, start: { file: PolicyWeightsFile; mlp: Mlp }, warmup: readonly StoredToeEpisode[]): Promise<OnlineUpdate | null> {
    const episodes = warmup.map(toPolicyEpisode);
    const clone = warmupClone(start, episodes, updateSeed(scope, WARMUP_CLONE_SEQ), `es:${this.versions.index}#${scope}`);
    const returns = episodes.map((e) => discountedReturn(e.steps.map((step) => step.reward), PAPER_GRPO.gamma));
    const meanReturn = returns.reduce((a, b) => a + b, 0) / returns.length;
    const record: PolicyVersionRecord = {
      scope,
      seq: WARMUP_CLONE_SEQ,
      update: 'warmup-clone',
      version: clone.weights.version,
      parentVersion: start.file.version,
      referenceVersion: clone.weights.version,
      episodeIds: [],
      clonedFrom: episodes.map((e) => e.id),
      meanReturn,
      createdAt: new Date().toISOString(),
      weights: clone.weights,
    };
    if (!(await this.versions.create(record))) return null;
    return { kind: 'warmup-clone', seq: WARMUP_CLONE_SEQ, version: record.version, parentVersion: record.parentVersion, episodes: episodes.length, meanReturn };
  }

  private async weightsOf(scope: string, version: string): Promise<{ file: PolicyWeightsFile; mlp: Mlp }> {
    const record = await this.versions.get(scope, version);
    if (!record) throw new Error(`ToE online policy version ${version} of ${scope} is not in ${this.versions.index}`);
    return deserialiseWeights(record.weights, `${this.versions.index}/${version}`);
  }
}

export function startingWeights(file: string | undefined): { file: PolicyWeightsFile; mlp: Mlp } {
  const { weights, mlp } = readWeightsFile(file ?? defaultWeightsPath());
  return { file: weights, mlp };
}
