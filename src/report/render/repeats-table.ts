import type { SpreadAcrossRepeats } from '../../metrics';
import { groupLabel } from '../group-key';
import type { GroupReport } from '../report-types';
import { fixed, withCI } from './format';
import type { Table } from './report-tables';

/** Groups verified in more than one repeat. */
export function repeatedGroups(groups: readonly GroupReport[]): GroupReport[] {
  return groups.filter((g) => g.repeats !== null);
}

function meanSd(spread: SpreadAcrossRepeats): string {
  return `${fixed(spread.mean)} ± ${fixed(spread.sd)} [${fixed(spread.lower)}, ${fixed(spread.upper)}]`;
}

/** Per group: accuracy and macro-F1 across repeats (mean ± sd [95% t-interval]) next to the pooled bootstrap CI, majority vote and pass^k. */
export function repeatsTable(groups: readonly GroupReport[]): Table {
  return {
    header: ['group', 'repeats', 'accuracy mean ± sd [95%]', 'accuracy bootstrap [95% CI]', 'macro-F1 mean ± sd [95%]', 'macro-F1 bootstrap [95% CI]', 'majority-vote accuracy', 'pass^k'],
    rows: repeatedGroups(groups).map((g) => {
      const repeats = g.repeats!;
      return [groupLabel(g.key), String(repeats.k), meanSd(repeats.accuracy), withCI(g.accuracy), meanSd(repeats.macroF1), withCI(g.macroF1), fixed(repeats.majorityVoteAccuracy), fixed(repeats.passHatK)];
    }),
  };
}

export const REPEATS_NOTE =
  'Each (claim, method, model) was verified once per repeat. Across repeats: the metric of each repeat, their mean ± sample sd and the 95% t-interval of the mean; ' +
  'the bootstrap CI pools every repeat\'s verifications (as do the results above). Majority vote: each claim\'s most frequent answer (a tie is wrong); ' +
  'pass^k: the share of claims answered correctly in all k repeats.';
