/**
 * Sandbox-safe arithmetic of Tool-MAD's stability score (spec §7) and stopping rule (spec §6,
 * §10 #1: the gate uses the current round's scores; the judge gets means over rounds).
 */
import type { VerdictLabel } from '../../../shared/constants';
import type { AverageScores, DebaterTurn } from './tool-mad-debate';
import type { ToolMadSettings } from './tool-mad-settings';

/** F = supported statements / statements; null without statements (RAGAS: NaN). */
export function faithfulnessOf(verdicts: readonly number[]): number | null {
  if (verdicts.length === 0) return null;
  return verdicts.filter((v) => v === 1).length / verdicts.length;
}

/** AR = mean cosine of the claim and the generated questions; null without questions. */
export function answerRelevanceOf(cosines: readonly number[], noncommittal: boolean, penalty: boolean): number | null {
  if (cosines.length === 0) return null;
  if (penalty && noncommittal) return 0;
  return cosines.reduce((sum, c) => sum + c, 0) / cosines.length;
}

export function meetsThreshold(score: number, threshold: number, comparison: ToolMadSettings['thresholdComparison']): boolean {
  return comparison === '>' ? score > threshold : score >= threshold;
}

/**
 * Both scores above their thresholds. An undefined score fails for a debater with a tool and does
 * not apply to a vanilla debater (spec §7.4 #2), whose faithfulness has no documents to check.
 */
export function turnPassesGates(turn: DebaterTurn, settings: ToolMadSettings): boolean {
  const gate = (score: number | null, threshold: number, vanillaExempt: boolean) =>
    score === null ? vanillaExempt && turn.tool === 'vanilla' : meetsThreshold(score, threshold, settings.thresholdComparison);
  return (
    gate(turn.scores.faithfulness, settings.faithfulnessThreshold, true) && gate(turn.scores.answerRelevance, settings.relevanceThreshold, true)
  );
}

/** Every debater parsed a label and all are the same (spec §10 #7: an unparseable label never agrees). */
export function labelsAgree(turns: readonly DebaterTurn[]): boolean {
  const first = turns[0]?.label ?? null;
  return first !== null && turns.every((turn) => turn.label === first);
}

export interface RoundDecision {
  labelsAgree: boolean;
  gatesPassed: boolean;
  /** The round ends the debate (Algorithm 1's early return). */
  stops: boolean;
}

export function decideRound(turns: readonly DebaterTurn[], settings: ToolMadSettings): RoundDecision {
  const agree = labelsAgree(turns);
  const gatesPassed = turns.every((turn) => turnPassesGates(turn, settings));
  return { labelsAgree: agree, gatesPassed, stops: settings.earlyStop && agree && (gatesPassed || !settings.stabilityGate) };
}

/** Each debater's mean faithfulness and answer relevance over the rounds, in debater order. */
export function averageScores(rounds: readonly { turns: readonly DebaterTurn[] }[]): AverageScores[] {
  const order: string[] = [];
  const byDebater = new Map<string, DebaterTurn[]>();
  for (const round of rounds) {
    for (const turn of round.turns) {
      if (!byDebater.has(turn.debater)) {
        order.push(turn.debater);
        byDebater.set(turn.debater, []);
      }
      byDebater.get(turn.debater)!.push(turn);
    }
  }
  return order.map((debater) => {
    const turns = byDebater.get(debater)!;
    return {
      debater,
      faithfulness: meanOf(turns.map((t) => t.scores.faithfulness)),
      answerRelevance: meanOf(turns.map((t) => t.scores.answerRelevance)),
    };
  });
}

/**
 * When the judge's label is unparseable (spec §10 #9): the last label of the debater with the higher
 * mean (F + AR) / 2 (undefined scores count as 0), ties to the first debater; NEI if none parsed.
 */
export function fallbackVerdict(
  rounds: readonly { turns: readonly DebaterTurn[] }[],
  averages: readonly AverageScores[],
): { debater: string | null; label: string | null; verdict: VerdictLabel } {
  const last = rounds.at(-1)?.turns ?? [];
  const ranked = averages
    .map((a, index) => ({ ...a, index, mean: ((a.faithfulness ?? 0) + (a.answerRelevance ?? 0)) / 2 }))
    .sort((a, b) => b.mean - a.mean || a.index - b.index);
  for (const candidate of ranked) {
    const turn = last.find((t) => t.debater === candidate.debater);
    if (turn?.label && turn.verdict) return { debater: turn.debater, label: turn.label, verdict: turn.verdict };
  }
  return { debater: null, label: null, verdict: 'NEI' };
}

function meanOf(values: readonly (number | null)[]): number | null {
  const defined = values.filter((v): v is number => v !== null);
  return defined.length === 0 ? null : defined.reduce((sum, v) => sum + v, 0) / defined.length;
}
