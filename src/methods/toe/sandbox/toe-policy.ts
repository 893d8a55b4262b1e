/**
 * Sandbox-safe contract between ToE's retrieval agent (workflow + state builder + reward) and its
 * retrieval policies (heuristic, learned MLP): the action space, the state size and the logged
 * episode a learned policy trains from (toe.md §3).
 */

/** The 8 discrete actions of the retrieval agent, in the paper's order (toe.md §3.1). */
export const TOE_ACTIONS = ['web', 'counter', 'arxiv', 'wikipedia', 'social', 'factcheck', 'reddit', 'stop'] as const;
export type ToeAction = (typeof TOE_ACTIONS)[number];

/** Length of the policy's input vector (toe.md §3.3). */
export const TOE_STATE_DIM = 29;

/** One decision of a retrieval episode: the state the policy saw, what it chose, the Eq. 5 reward. */
export interface PolicyStep {
  state: number[];
  action: ToeAction;
  /** Probability the acting policy gave `action` (π_old in the GRPO ratio). */
  probability: number;
  reward: number;
}

/** One node's retrieval episode, as logged for training (one trajectory in the GRPO group). */
export interface PolicyEpisode {
  schemaVersion: 1;
  /** Stable id, e.g. `<verification workflow id>/<node id>`. */
  id: string;
  claim: string;
  /** 'heuristic' or `learned@<weights version>`. */
  policy: string;
  /** Version of the state layout the states were built with. */
  stateLayoutVersion: string;
  steps: PolicyStep[];
}
