/**
 * A documented scripted world (toe.md §11) that produces retrieval episodes when no recorded ToE
 * runs exist: claims with a category (6), locale (3) and flags (5); each source returns relevant
 * evidence with a category-dependent probability (Fig. 5's preferences: scientific → arXiv,
 * political/health → fact-check, celebrity → social, other → web); a relevant hit raises the
 * node's reliability. States follow the §3.3 layout and rewards Eq. 5 with Table I's weights.
 * The behaviour policy is uniform over the 8 actions (probability 1/8 logged) unless an acting
 * policy is given (the online learning curve), at most 5 searches.
 * Only for tests and for the policy benchmark's fallback — never a substitute for real episodes.
 */
import { TOE_ACTIONS, TOE_STATE_DIM, type PolicyEpisode, type PolicyStep, type ToeAction } from '../sandbox/toe-policy';
import { mulberry32 } from '../../../shared/prng';

export const SYNTHETIC_CATEGORIES = ['political', 'health', 'scientific', 'historical', 'celebrity', 'other'] as const;
const SEARCH_ACTIONS = TOE_ACTIONS.filter((a) => a !== 'stop');
const MAX_STEPS = 5;

/** P(relevant evidence | category, source). */
const RELEVANCE: Record<(typeof SYNTHETIC_CATEGORIES)[number], Partial<Record<ToeAction, number>>> = {
  political: { factcheck: 0.8, web: 0.4, counter: 0.35, wikipedia: 0.3 },
  health: { factcheck: 0.8, arxiv: 0.4, web: 0.35, counter: 0.3 },
  scientific: { arxiv: 0.85, wikipedia: 0.35, web: 0.3, counter: 0.3 },
  historical: { wikipedia: 0.6, web: 0.55, factcheck: 0.55 },
  celebrity: { social: 0.8, web: 0.45, reddit: 0.4 },
  other: { web: 0.8, wikipedia: 0.35, reddit: 0.3, counter: 0.3 },
};
const BASE_RELEVANCE = 0.1;

export function relevanceOf(category: (typeof SYNTHETIC_CATEGORIES)[number], action: ToeAction): number {
  return RELEVANCE[category][action] ?? BASE_RELEVANCE;
}

interface WorldState {
  category: number;
  locale: number;
  flags: number[];
  searches: number;
  evidence: number;
  stance: [number, number, number];
  perSource: number[];
  authoritative: boolean;
  reliability: number;
}

function encode(w: WorldState): number[] {
  const state = new Array<number>(TOE_STATE_DIM).fill(0);
  state[w.category] = 1;
  state[6 + w.locale] = 1;
  w.flags.forEach((f, i) => (state[9 + i] = f));
  state[14] = w.searches / MAX_STEPS;
  state[15] = 1 - Math.min(w.evidence, 10) / 10;
  state[16] = Math.min(w.evidence, 10) / 10;
  const total = Math.max(1, w.evidence);
  w.stance.forEach((s, i) => (state[17 + i] = s / total));
  w.perSource.forEach((n, i) => (state[20 + i] = n / MAX_STEPS));
  state[27] = w.authoritative ? 1 : 0;
  state[28] = w.reliability;
  return state;
}

/** Chooses an action at a state (key: a stable draw key), with the probability it had. */
export type SyntheticActor = (state: number[], key: string) => { action: ToeAction; probability: number };

/** `count` episodes, reproducible from `seed` (and the actor). */
export function syntheticEpisodes(count: number, seed: number, stateLayoutVersion: string, act?: SyntheticActor): PolicyEpisode[] {
  const random = mulberry32(seed);
  const episodes: PolicyEpisode[] = [];
  for (let e = 0; e < count; e += 1) {
    const category = Math.floor(random() * SYNTHETIC_CATEGORIES.length);
    const categoryName = SYNTHETIC_CATEGORIES[category] as (typeof SYNTHETIC_CATEGORIES)[number];
    const world: WorldState = {
      category,
      locale: Math.floor(random() * 3),
      flags: Array.from({ length: 5 }, () => (random() < 0.3 ? 1 : 0)),
      searches: 0,
      evidence: 0,
      stance: [0, 0, 0],
      perSource: new Array<number>(SEARCH_ACTIONS.length).fill(0),
      authoritative: false,
      reliability: 0,
    };
    const steps: PolicyStep[] = [];
    let highReliabilityPaid = false;
    while (world.searches < MAX_STEPS) {
      const state = encode(world);
      const chosen = act ? act(state, `synthetic/${seed}/${e}/${world.searches}`) : { action: TOE_ACTIONS[Math.floor(random() * TOE_ACTIONS.length)] as ToeAction, probability: 1 / TOE_ACTIONS.length };
      const { action, probability } = chosen;
      if (action === 'stop') {
        steps.push({ state, action, probability, reward: 0 });
        break;
      }
      const relevant = random() < relevanceOf(categoryName, action);
      const newItems = relevant ? Math.min(3, 10 - world.evidence) : 0;
      const before = world.reliability;
      if (relevant) {
        world.reliability = Math.min(1, world.reliability + (1 - world.reliability) * 0.45);
        world.stance[random() < 0.7 ? 0 : 2] += newItems;
      }
      let bonus = 0;
      if (relevant && !world.authoritative && (action === 'factcheck' || action === 'arxiv' || action === 'wikipedia')) {
        world.authoritative = true;
        bonus += 0.1;
      }
      if (!highReliabilityPaid && world.reliability >= 0.8) {
        highReliabilityPaid = true;
        bonus += 0.2;
      }
      const deltaVeracity = relevant ? 0.1 : 0;
      const reward = 1.0 * (world.reliability - before) + 0.5 * deltaVeracity + 0.05 * Math.min(newItems, 4) * (newItems > 0 ? 1 : 0) + bonus - 0.01;
      steps.push({ state, action, probability, reward });
      world.searches += 1;
      world.evidence += newItems;
      world.perSource[SEARCH_ACTIONS.indexOf(action)]! += 1;
    }
    episodes.push({ schemaVersion: 1, id: `synthetic/${seed}/${String(e).padStart(5, '0')}`, claim: `synthetic ${categoryName} claim ${e}`, policy: act ? 'acting' : 'uniform', stateLayoutVersion, steps });
  }
  return episodes;
}
