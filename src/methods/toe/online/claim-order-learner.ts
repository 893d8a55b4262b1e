/**
 * ToE's online learner on the claim-order schedule (online-schedule.ts, patch
 * toe-policy-by-claim-order): claim i acts with version seq(i) and waits until it exists; version 0
 * is the starting network fitted to the heuristic on the warm-up claims' episodes, version k ≥ 1 a
 * GRPO update of version k − 1 on the episodes of the claims that acted with it. A version is built
 * once every claim of its block has finished or failed, by whichever worker sees that first (the
 * store's create-once ids settle races), so which version a claim acts with and what each version
 * learned from depend on the claim order only, not on the concurrency or on finishing order.
 */
import { STATE_LAYOUT_VERSION } from '../sandbox/logic/state';
import { toPolicyEpisode, type ToeEpisodeStore } from '../episode-store';
import { discountedReturn, PAPER_GRPO } from '../policy/grpo';
import { deserialiseWeights } from '../policy/weights';
import { trainPolicy } from '../training/train-policy';
import { startingWeights } from './online-learner';
import { onlineGrpoHyperparameters } from './online-hyperparameters';
import { trainingPositionsOfVersion, updateSeed, versionSeqOfPosition } from './online-schedule';
import { WARMUP_CLONE_SEQ, type PolicyVersionRecord, type PolicyVersionStore } from './policy-version-store';
import { warmupClone } from './warmup-clone';

/** Bounds the versions one call builds (a backlog is worked off by the next calls). */
const MAX_BUILDS_PER_CALL = 8;

export interface ClaimOrderSchedule {
  scope: string;
  warmupClaims: number;
  claimsPerVersion: number;
  groupSize: number;
  startWeights?: string;
  /** Positions of the scope's claims whose verification failed for good (they count as finished, without episodes). */
  failedPositions: () => Promise<ReadonlySet<number>>;
}

export interface ActingVersion {
  seq: number | null;
  version: string | null;
}

export class ClaimOrderLearner {
  constructor(
    private readonly versions: PolicyVersionStore,
    private readonly episodes: ToeEpisodeStore,
  ) {}

  /** The version the claim at `position` acts with, once it exists (`waitStep` runs between checks: heartbeat and pause). */
  async actingVersion(schedule: ClaimOrderSchedule, position: number, waitStep: () => Promise<void>): Promise<ActingVersion> {
    const seq = versionSeqOfPosition(position, schedule.warmupClaims, schedule.claimsPerVersion);
    if (seq === null) return { seq, version: null };
    for (;;) {
      await this.buildDue(schedule);
      const found = (await this.versions.versions(schedule.scope)).find((v) => v.seq === seq);
      if (found) return { seq, version: found.version };
      await waitStep();
    }
  }

  /** Records a finished claim, then builds the versions whose blocks are complete; returns their seqs. */
  async claimFinished(schedule: ClaimOrderSchedule, claim: { verificationId: string; position: number; actedWith: string | null }): Promise<number[]> {
    await this.versions.recordClaim({ scope: schedule.scope, verificationId: claim.verificationId, policyVersion: claim.actedWith, position: claim.position, completedAt: new Date().toISOString() });
    return this.buildDue(schedule);
  }

  /** Builds the next versions in order while their blocks are complete. */
  async buildDue(schedule: ClaimOrderSchedule): Promise<number[]> {
    const built: number[] = [];
    for (let i = 0; i < MAX_BUILDS_PER_CALL; i++) {
      const history = await this.versions.versions(schedule.scope);
      const seq = history.length === 0 ? WARMUP_CLONE_SEQ : history.at(-1)!.seq + 1;
      const block = trainingPositionsOfVersion(seq, schedule.warmupClaims, schedule.claimsPerVersion);
      const finished = new Map<number, string>();
      for (const claim of await this.versions.claims(schedule.scope)) {
        if (claim.position !== undefined && claim.position >= block.from && claim.position < block.to) finished.set(claim.position, claim.verificationId);
      }
      const failed = finished.size < block.to - block.from ? await schedule.failedPositions() : new Set<number>();
      for (let position = block.from; position < block.to; position++) {
        if (!finished.has(position) && !failed.has(position)) return built;
      }
      const record = await this.buildVersion(schedule, seq, block, new Set(finished.values()), history.at(-1)?.version);
      if (await this.versions.create(record)) built.push(seq);
    }
    return built;
  }

  private async buildVersion(
    schedule: ClaimOrderSchedule,
    seq: number,
    block: { from: number; to: number },
    verifications: ReadonlySet<string>,
    latestVersion: string | undefined,
  ): Promise<PolicyVersionRecord> {
    const stored = (await this.episodes.ofLearner(schedule.scope)).filter(
      (e) => verifications.has(e.workflowId) && e.steps.length > 0 && e.stateLayoutVersion === STATE_LAYOUT_VERSION,
    );
    const episodes = stored.map(toPolicyEpisode).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const meanReturn = episodes.length === 0 ? 0 : episodes.reduce((sum, e) => sum + discountedReturn(e.steps.map((s) => s.reward), PAPER_GRPO.gamma), 0) / episodes.length;
    const source = `es:${this.versions.index}#${schedule.scope}`;
    const base = { scope: schedule.scope, seq, trainedOnPositions: block, meanReturn, createdAt: new Date().toISOString() };
    const start = startingWeights(schedule.startWeights);
    if (seq === WARMUP_CLONE_SEQ) {
      // No warm-up episodes with steps: version 0 is the starting weights themselves.
      const weights = episodes.length > 0 ? warmupClone(start, episodes, updateSeed(schedule.scope, seq), source).weights : start.file;
      return { ...base, update: 'warmup-clone', version: weights.version, parentVersion: start.file.version, referenceVersion: weights.version, episodeIds: [], clonedFrom: episodes.map((e) => e.id), weights };
    }
    const parent = await this.weightsOf(schedule.scope, latestVersion!);
    const reference = await this.weightsOf(schedule.scope, (await this.versions.versions(schedule.scope)).find((v) => v.seq === WARMUP_CLONE_SEQ)!.version);
    // GRPO needs two episodes with steps; a block with fewer carries its parent's weights over unchanged.
    const weights =
      episodes.length >= 2
        ? trainPolicy({ mlp: parent.mlp, version: parent.file.version, stateLayoutVersion: parent.file.stateLayoutVersion, reference: reference.mlp }, episodes, {
            seed: updateSeed(schedule.scope, seq),
            hyperparameters: onlineGrpoHyperparameters(schedule.groupSize),
            source,
          }).weights
        : parent.file;
    return { ...base, update: 'grpo', version: weights.version, parentVersion: parent.file.version, referenceVersion: reference.file.version, episodeIds: episodes.length >= 2 ? episodes.map((e) => e.id) : [], weights };
  }

  private async weightsOf(scope: string, version: string) {
    const record = await this.versions.get(scope, version);
    if (!record) throw new Error(`ToE online policy version ${version} of ${scope} is not in ${this.versions.index}`);
    return deserialiseWeights(record.weights, `${this.versions.index}/${version}`);
  }
}
