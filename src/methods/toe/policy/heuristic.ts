/**
 * The category/recency heuristic retrieval policy (toe.md §3.6, the paper's warm-up policy and
 * verity's default): source preferences per claim category after the paper's Fig. 5 (political and
 * health → fact-check, scientific → arXiv, celebrity → social, historical → web/Wikipedia/fact-check,
 * other → web), recent claims lean to social and web, counter-evidence from the third search on,
 * sources already searched lose weight, and STOP once r ≥ 0.8. Reads only the 29-dim state, so it
 * shares the learned policy's interface. Pure and deterministic.
 */
import { TOE_ACTIONS } from '../sandbox/toe-policy';
import { TOE_CATEGORIES, type ToeCategory } from '../sandbox/logic/claim-features';

/** Preferences over web, counter, arxiv, wikipedia, social, factcheck, reddit. */
export const CATEGORY_PREFERENCES: Record<ToeCategory, readonly number[]> = {
  political: [0.2, 0.15, 0.02, 0.15, 0.08, 0.35, 0.05],
  health: [0.2, 0.15, 0.1, 0.12, 0.04, 0.35, 0.04],
  scientific: [0.18, 0.15, 0.3, 0.15, 0.04, 0.14, 0.04],
  historical: [0.27, 0.1, 0.03, 0.27, 0.03, 0.27, 0.03],
  celebrity: [0.22, 0.12, 0.01, 0.15, 0.25, 0.15, 0.1],
  other: [0.32, 0.14, 0.05, 0.2, 0.08, 0.15, 0.06],
};

export const HEURISTIC_RULES = {
  recentBoost: { web: 1.3, social: 1.5 },
  historicalBoost: { wikipedia: 1.3 },
  /** From this share of the search budget on (the 3rd of 5 searches), counter-evidence comes first if unused. */
  counterFromSearchShare: 0.4,
  /** A source's weight is divided by 1 + this × (its searches / budget). */
  repeatPenalty: 10,
  stopAtReliability: 0.8,
  /** STOP's share while searching is still useful. */
  idleStop: 0.02,
  /** STOP's share once r ≥ 0.8. */
  confidentStop: 0.9,
} as const;

const STOP = TOE_ACTIONS.indexOf('stop');
const COUNTER = TOE_ACTIONS.indexOf('counter');

export const HEURISTIC_POLICY_NAME = 'heuristic';

/** π(·|state) in TOE_ACTIONS order, summing to 1. */
export function heuristicActionProbabilities(state: readonly number[]): number[] {
  const rules = HEURISTIC_RULES;
  const category = TOE_CATEGORIES[Math.max(0, state.slice(0, 6).indexOf(1))] ?? 'other';
  const recent = state[9] === 1;
  const historical = state[10] === 1;
  const searchShare = state[14] ?? 0;
  const budgetLeft = state[15] ?? 1;
  const reliability = state[28] ?? 0;

  const probabilities = new Array<number>(TOE_ACTIONS.length).fill(0);
  if (searchShare >= 1 || budgetLeft <= 0) {
    probabilities[STOP] = 1;
    return probabilities;
  }
  const scores = CATEGORY_PREFERENCES[category].map((preference, i) => {
    let score = preference;
    const action = TOE_ACTIONS[i]!;
    if (recent && action in rules.recentBoost) score *= rules.recentBoost[action as keyof typeof rules.recentBoost];
    if (historical && action in rules.historicalBoost) score *= rules.historicalBoost[action as keyof typeof rules.historicalBoost];
    return score / (1 + rules.repeatPenalty * (state[20 + i] ?? 0));
  });
  if (searchShare >= rules.counterFromSearchShare - 1e-9 && (state[20 + COUNTER] ?? 0) === 0) {
    scores[COUNTER] = 2 * Math.max(...scores);
  }
  const stop = searchShare === 0 ? 0 : reliability >= rules.stopAtReliability ? rules.confidentStop : rules.idleStop;
  const total = scores.reduce((sum, s) => sum + s, 0);
  scores.forEach((score, i) => {
    probabilities[i] = ((1 - stop) * score) / total;
  });
  probabilities[STOP] = stop;
  return probabilities;
}
