/**
 * ToE's online learner (paper §III-B, toe.md §3.6): which weights version a claim acts with, and
 * after each finished claim the GRPO updates that are due — each a new version in Elasticsearch,
 * trained from the newest version on the next group of the scope's episodes, with π_ref the
 * starting weights frozen at the end of the warm-up.
 */
import type { Mlp } from '../policy/mlp';
import { defaultWeightsPath, policyFromMlp, readWeightsFile, type LearnedPolicy } from '../policy/learned-policy';
import { deserialiseWeights, type PolicyWeightsFile } from '../policy/weights';
import { toPolicyEpisode, type ToeEpisodeStore } from '../episode-store';
import { trainPolicy } from '../training/train-policy';
import { STATE_LAYOUT_VERSION } from '../../../shared/methods/toe-logic/state';
import { nextUpdateGroup, updateSeed } from './online-schedule';
import type { PolicyVersionRecord, PolicyVersionStore } from './policy-version-store';

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

  /** Records the finished claim, then runs the GRPO updates that are due (each written as a new version). */
  async claimFinished(claim: ClaimFinished): Promise<OnlineUpdateReport> {
    await this.versions.recordClaim({ scope: claim.scope, verificationId: claim.verificationId, policyVersion: claim.actedWith, completedAt: new Date().toISOString() });
    const claimsDone = await this.versions.claimsDone(claim.scope);
    const updates: OnlineUpdate[] = [];
    const start = startingWeights(claim.startWeights);
    for (let attempt = 0; attempt < MAX_UPDATES_PER_CLAIM; attempt += 1) {
      const history = await this.versions.versions(claim.scope);
      const trainable = (await this.episodes.ofLearner(claim.scope)).filter((e) => e.steps.length > 0 && e.stateLayoutVersion === STATE_LAYOUT_VERSION);
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
      const seq = (latest?.seq ?? 0) + 1;
      const byId = new Map(trainable.map((e) => [e.id, e]));
      const result = trainPolicy(
        { mlp: parent.mlp, version: parent.file.version, stateLayoutVersion: parent.file.stateLayoutVersion, reference: start.mlp },
        group.map((id) => toPolicyEpisode(byId.get(id)!)),
        { seed: updateSeed(claim.scope, seq), hyperparameters: { groupSize: claim.groupSize }, source: `es:${this.versions.index}#${claim.scope}` },
      );
      const record: PolicyVersionRecord = {
        scope: claim.scope,
        seq,
        version: result.weights.version,
        parentVersion: parent.file.version,
        referenceVersion: start.file.version,
        episodeIds: group,
        meanReturn: result.meanReturn,
        createdAt: new Date().toISOString(),
        weights: result.weights,
      };
      // A concurrent claim of the scope may have written this seq: re-read and go on from there.
      if (await this.versions.create(record)) {
        updates.push({ seq, version: record.version, parentVersion: record.parentVersion, episodes: group.length, meanReturn: result.meanReturn });
      }
    }
    return { claimsDone, updates };
  }

  private async weightsOf(scope: string, version: string): Promise<{ file: PolicyWeightsFile; mlp: Mlp }> {
    const record = await this.versions.get(scope, version);
    if (!record) throw new Error(`ToE online policy version ${version} of ${scope} is not in ${this.versions.index}`);
    return deserialiseWeights(record.weights, `${this.versions.index}/${version}`);
  }
}

function startingWeights(file: string | undefined): { file: PolicyWeightsFile; mlp: Mlp } {
  const { weights, mlp } = readWeightsFile(file ?? defaultWeightsPath());
  return { file: weights, mlp };
}
