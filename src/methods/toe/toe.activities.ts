import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import { z } from 'zod';
import { ToeEpisodeStore, type StoredToeEpisode } from './episode-store';
import { OnlineLearner, type OnlineUpdateReport } from './online/online-learner';
import { ClaimOrderLearner, type ClaimOrderSchedule } from './online/claim-order-learner';
import { PolicyVersionStore } from './online/policy-version-store';
import { heuristicActionProbabilities, HEURISTIC_POLICY_NAME } from './policy/heuristic';
import { loadLearnedPolicy } from './policy/learned-policy';
import { chooseAction, type ActionChoice } from './policy/select-action';
import { STATE_LAYOUT_VERSION } from './sandbox/logic/state';
import { FAILURE_TYPES } from '../../shared/constants';
import { TOE_ACTIONS, TOE_STATE_DIM } from './sandbox/toe-policy';
import type { ActivityDependencies } from '../../../activities/index';

const selectActionInput = z.object({
  state: z.array(z.number().finite()).length(TOE_STATE_DIM),
  policy: z.enum(['heuristic', 'learned', 'online']),
  policyWeights: z.string().min(1).optional(),
  /** Policy `online`: the learner scope and the version the claim acts with (null: the warm-up heuristic). */
  online: z.object({ scope: z.string().min(1), version: z.string().min(1).nullable() }).optional(),
  sampling: z.enum(['argmax', 'sample']),
  /** Seeds the draw: `<verification workflow id>/<node>/<step>`. */
  key: z.string().min(1),
});
export type ToeSelectActionInput = z.infer<typeof selectActionInput>;

export interface ToeSelectActionResult extends ActionChoice {
  /** 'heuristic' or `learned@<weights version>`, as logged in the episode. */
  policy: string;
}

const episodeInput = z.object({
  schemaVersion: z.literal(1),
  id: z.string().min(1),
  claim: z.string(),
  policy: z.string().min(1),
  stateLayoutVersion: z.string().min(1),
  steps: z.array(
    z.object({
      state: z.array(z.number().finite()).length(TOE_STATE_DIM),
      action: z.enum(TOE_ACTIONS),
      probability: z.number().gt(0).max(1),
      reward: z.number().finite(),
    }),
  ),
  runId: z.string(),
  workflowId: z.string().min(1),
  nodeId: z.string().min(1),
  totalReward: z.number().finite(),
  recordedAt: z.string(),
  learner: z.string().min(1).optional(),
  policyVersion: z.string().min(1).optional(),
});

const onlineScopeInput = z.object({ scope: z.string().min(1) });

const claimFinishedInput = z.object({
  scope: z.string().min(1),
  verificationId: z.string().min(1),
  actedWith: z.string().min(1).nullable(),
  warmupClaims: z.number().int().min(0),
  groupSize: z.number().int().min(2),
  startWeights: z.string().min(1).optional(),
});
export type ToeClaimFinishedInput = z.infer<typeof claimFinishedInput>;

/** A claim of a sweep run on the claim-order schedule: where it stands in the run's claim order and the schedule's settings. */
const claimOrderInput = z.object({
  scope: z.string().min(1),
  runId: z.string().min(1),
  claimId: z.string().min(1),
  dataset: z.string().min(1).optional(),
  model: z.string().min(1),
  warmupClaims: z.number().int().min(0),
  claimsPerVersion: z.number().int().min(1),
  groupSize: z.number().int().min(2),
  startWeights: z.string().min(1).optional(),
});
export type ToeClaimOrderInput = z.infer<typeof claimOrderInput>;

const claimOrderFinishedInput = claimOrderInput.extend({
  verificationId: z.string().min(1),
  position: z.number().int().min(0),
  actedWith: z.string().min(1).nullable(),
});
export type ToeClaimOrderFinishedInput = z.infer<typeof claimOrderFinishedInput>;

export interface ToeClaimOrderVersion {
  /** The claim's position in the run's claim order; null when the run has no such claim (then the newest version acts). */
  position: number | null;
  /** The version's seq on the schedule (null: the warm-up heuristic, or no position). */
  seq: number | null;
  version: string | null;
}

/** Pause between checks for a version that is not built yet. */
const VERSION_POLL_MS = 1_000;

/** ToE's indices sit next to the verdicts index (`<prefix>-verdicts` → `<prefix>-toe-episodes`). */
function indexBesides(verdictsIndex: string, logical: string): string {
  return `${verdictsIndex.replace(/-verdicts$/, '')}-${logical}`;
}

/** Activities of the `toe` method beyond LLM tasks and tool calls: choosing retrieval actions and logging episodes. */
export function createToeActivities(deps: ActivityDependencies) {
  const episodes = new ToeEpisodeStore(deps.es, indexBesides(deps.verdicts.index, 'toe-episodes'));
  const versionStore = new PolicyVersionStore(deps.es, indexBesides(deps.verdicts.index, 'toe-policy-versions'));
  const learner = new OnlineLearner(versionStore, episodes);
  const claimOrder = new ClaimOrderLearner(versionStore, episodes);
  const scheduleOf = (input: ToeClaimOrderInput): ClaimOrderSchedule => ({
    scope: input.scope,
    warmupClaims: input.warmupClaims,
    claimsPerVersion: input.claimsPerVersion,
    groupSize: input.groupSize,
    ...(input.startWeights ? { startWeights: input.startWeights } : {}),
    failedPositions: async () => {
      const failures = await deps.runFailures.list(input.runId);
      return new Set(failures.filter((f) => (f.method ?? 'toe') === 'toe' && (f.model ?? input.model) === input.model).map((f) => f.ordinal));
    },
  });
  return {
    /** π(·|state) of the heuristic or learned policy, masked, and one deterministic choice. */
    async toeSelectAction(raw: ToeSelectActionInput): Promise<ToeSelectActionResult> {
      const input = parse(selectActionInput, raw, 'toeSelectAction');
      if (input.policy === 'online') {
        const online = input.online;
        if (!online) throw ApplicationFailure.nonRetryable('toeSelectAction: policy online needs its scope and version', FAILURE_TYPES.invalidInput);
        if (online.version === null) {
          return { ...chooseAction(heuristicActionProbabilities(input.state), input.state, input.sampling, input.key), policy: HEURISTIC_POLICY_NAME };
        }
        const policy = await learner.policy(online.scope, online.version);
        return { ...chooseAction(policy.actionProbabilities(input.state), input.state, input.sampling, input.key), policy: `online@${policy.version}` };
      }
      if (input.policy === 'heuristic') {
        return { ...chooseAction(heuristicActionProbabilities(input.state), input.state, input.sampling, input.key), policy: HEURISTIC_POLICY_NAME };
      }
      let learned;
      try {
        learned = loadLearnedPolicy(input.policyWeights);
      } catch (err) {
        throw ApplicationFailure.nonRetryable(`ToE learned policy: ${(err as Error).message}`, FAILURE_TYPES.invalidInput);
      }
      if (learned.stateLayoutVersion !== STATE_LAYOUT_VERSION) {
        throw ApplicationFailure.nonRetryable(
          `ToE learned policy ${learned.version} was trained on state layout ${learned.stateLayoutVersion}, the state builder has ${STATE_LAYOUT_VERSION}`,
          FAILURE_TYPES.invalidInput,
        );
      }
      return { ...chooseAction(learned.actionProbabilities(input.state), input.state, input.sampling, input.key), policy: `learned@${learned.version}` };
    },

    /** The online policy version a claim starting now acts with (null during the warm-up). */
    async toeOnlinePolicyVersion(raw: { scope: string }): Promise<{ version: string | null }> {
      const { scope } = parse(onlineScopeInput, raw, 'toeOnlinePolicyVersion');
      return { version: await learner.actingVersion(scope) };
    },

    /**
     * Claim-order schedule: the version the claim acts with, by its position in the run's claim order.
     * Waits (heartbeating) until that version exists, building due versions itself, so no claim
     * depends on another worker's call. A claim the run does not hold acts with the newest version.
     */
    async toeOnlineClaimOrderVersion(raw: ToeClaimOrderInput): Promise<ToeClaimOrderVersion> {
      const input = parse(claimOrderInput, raw, 'toeOnlineClaimOrderVersion');
      const position = await deps.runClaims.ordinalOf(input.runId, input.claimId, input.dataset);
      if (position === null) return { position, seq: null, version: await learner.actingVersion(input.scope) };
      const context = Context.current();
      const acting = await claimOrder.actingVersion(scheduleOf(input), position, async () => {
        context.heartbeat({ position });
        await context.sleep(VERSION_POLL_MS);
      });
      return { position, ...acting };
    },

    /** Claim-order schedule: a claim finished; record it with its position and build the versions now due. */
    async toeOnlineClaimOrderFinished(raw: ToeClaimOrderFinishedInput): Promise<{ built: number[] }> {
      const input = parse(claimOrderFinishedInput, raw, 'toeOnlineClaimOrderFinished');
      return { built: await claimOrder.claimFinished(scheduleOf(input), input) };
    },

    /** A claim of the scope finished: count it, and run the GRPO updates now due (each a new weights version). */
    async toeOnlineClaimFinished(raw: ToeClaimFinishedInput): Promise<OnlineUpdateReport> {
      const input = parse(claimFinishedInput, raw, 'toeOnlineClaimFinished');
      return learner.claimFinished(input);
    },

    /** Writes one node's retrieval episode under its stable id (idempotent). */
    async toeRecordEpisode(raw: StoredToeEpisode): Promise<{ index: string; id: string }> {
      const episode = parse(episodeInput, raw, 'toeRecordEpisode');
      await episodes.put(episode);
      return { index: episodes.index, id: episode.id };
    },
  };
}

function parse<T>(schema: z.ZodType<T>, raw: unknown, activity: string): T {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw ApplicationFailure.nonRetryable(`${activity}: invalid input at ${issue.path.join('.') || '(root)'}: ${issue.message}`, FAILURE_TYPES.invalidInput);
  }
  return result.data;
}

export type ToeActivities = ReturnType<typeof createToeActivities>;
