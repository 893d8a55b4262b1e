/** How a policy acts on a set of recorded states: mean probability per action and argmax shares. */
import { TOE_ACTIONS, type PolicyEpisode, type ToeAction } from '../sandbox/toe-policy';
import { type LearnedPolicy } from '../policy/learned-policy';

export interface ActionDistribution {
  states: number;
  /** Mean π(a|s) over the states. */
  meanProbability: Record<ToeAction, number>;
  /** Share of states where the action is the most probable. */
  argmaxShare: Record<ToeAction, number>;
}

function zeros(): Record<ToeAction, number> {
  return Object.fromEntries(TOE_ACTIONS.map((a) => [a, 0])) as Record<ToeAction, number>;
}

export function actionDistribution(policy: Pick<LearnedPolicy, 'actionProbabilities'>, states: readonly (readonly number[])[]): ActionDistribution {
  const meanProbability = zeros();
  const argmaxShare = zeros();
  for (const state of states) {
    const probs = policy.actionProbabilities(state);
    let best = 0;
    probs.forEach((p, index) => {
      meanProbability[TOE_ACTIONS[index] as ToeAction] += p / states.length;
      if (p > (probs[best] as number)) best = index;
    });
    argmaxShare[TOE_ACTIONS[best] as ToeAction] += 1 / states.length;
  }
  return { states: states.length, meanProbability, argmaxShare };
}

/** The actions the logged (behaviour) policy actually took, as shares. */
export function loggedActionShares(episodes: readonly PolicyEpisode[]): Record<ToeAction, number> {
  const shares = zeros();
  const total = episodes.reduce((n, e) => n + e.steps.length, 0);
  for (const episode of episodes) for (const step of episode.steps) shares[step.action] += 1 / Math.max(total, 1);
  return shares;
}

export function allStates(episodes: readonly PolicyEpisode[]): number[][] {
  return episodes.flatMap((e) => e.steps.map((s) => s.state));
}

export function formatDistributionTable(rows: { name: string; values: Record<ToeAction, number> }[]): string {
  const width = Math.max(...rows.map((r) => r.name.length), 8);
  const header = `${''.padEnd(width)} ${TOE_ACTIONS.map((a) => a.padStart(9)).join(' ')}`;
  const lines = rows.map((r) => `${r.name.padEnd(width)} ${TOE_ACTIONS.map((a) => r.values[a].toFixed(4).padStart(9)).join(' ')}`);
  return [header, ...lines].join('\n');
}
