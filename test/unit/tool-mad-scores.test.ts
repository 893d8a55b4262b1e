import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_MAD_SETTINGS, type ToolMadSettings } from '../../src/methods/tool-mad/sandbox/tool-mad-settings';
import type { DebaterTurn } from '../../src/methods/tool-mad/sandbox/tool-mad-debate';
import {
  answerRelevanceOf,
  averageScores,
  decideRound,
  fallbackVerdict,
  faithfulnessOf,
  meetsThreshold,
  turnPassesGates,
} from '../../src/methods/tool-mad/sandbox/tool-mad-scores';
import { cosineSimilarity } from '../../src/retrieval/cosine';

function turn(debater: string, label: string | null, f: number | null, ar: number | null, tool: DebaterTurn['tool'] = 'rag'): DebaterTurn {
  const verdicts: Record<string, DebaterTurn['verdict']> = { SUPPORTS: 'SUPPORTED', REFUTES: 'REFUTED', 'NOT ENOUGH INFO': 'NEI' };
  return {
    debater,
    tool,
    round: 1,
    query: tool === 'vanilla' ? null : 'q',
    queryParsedOk: true,
    documents: [],
    answer: `...\n${label ?? ''}`,
    label,
    verdict: label === null ? null : verdicts[label]!,
    scores: { faithfulness: f, answerRelevance: ar, statements: 0, supportedStatements: 0, questions: [], cosines: [], noncommittal: false },
  };
}

const settings = (overrides: Partial<ToolMadSettings> = {}): ToolMadSettings => ({ ...DEFAULT_TOOL_MAD_SETTINGS, ...overrides });

describe('stability score arithmetic (spec §7)', () => {
  it('faithfulness is the share of supported statements; null without statements', () => {
    expect(faithfulnessOf([1, 0, 1, 1])).toBe(0.75);
    expect(faithfulnessOf([1, 1, 1, 1, 1, 1, 1, 0, 0, 0])).toBe(0.7);
    expect(faithfulnessOf([])).toBeNull();
  });

  it('answer relevance is the mean cosine; the noncommittal penalty only when configured; null without questions', () => {
    expect(answerRelevanceOf([0.9, 0.8, 0.7], true, false)).toBeCloseTo(0.8);
    expect(answerRelevanceOf([0.9, 0.8, 0.7], true, true)).toBe(0);
    expect(answerRelevanceOf([0.5, -0.5], false, false)).toBe(0);
    expect(answerRelevanceOf([], false, false)).toBeNull();
  });

  it('cosine of fixed vectors', () => {
    expect(cosineSimilarity([1, 0], [1, 0])).toBe(1);
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 1], [-1, -1])).toBeCloseTo(-1);
    expect(cosineSimilarity([3, 4], [4, 3])).toBeCloseTo(24 / 25);
    expect(cosineSimilarity([0, 0], [1, 2])).toBe(0);
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(/length/);
  });

  it('thresholds: exactly 0.7 fails with > (Algorithm 1) and passes with >=', () => {
    expect(meetsThreshold(0.7, 0.7, '>')).toBe(false);
    expect(meetsThreshold(0.7, 0.7, '>=')).toBe(true);
    expect(turnPassesGates(turn('rag', 'SUPPORTS', 0.7, 0.9), settings())).toBe(false);
    expect(turnPassesGates(turn('rag', 'SUPPORTS', 0.7, 0.8), settings({ thresholdComparison: '>=' }))).toBe(true);
    expect(turnPassesGates(turn('rag', 'SUPPORTS', 0.71, 0.8), settings())).toBe(false);
  });

  it('an undefined score fails a tool debater and does not apply to a vanilla one', () => {
    expect(turnPassesGates(turn('rag', 'SUPPORTS', null, 0.9), settings())).toBe(false);
    expect(turnPassesGates(turn('vanilla', 'SUPPORTS', null, 0.9, 'vanilla'), settings())).toBe(true);
    expect(turnPassesGates(turn('vanilla', 'SUPPORTS', null, 0.5, 'vanilla'), settings())).toBe(false);
  });
});

describe('stopping rule (spec §6, §10 #1, #7, #17)', () => {
  const agreeing = [turn('rag', 'SUPPORTS', 0.9, 0.9), turn('search', 'SUPPORTS', 0.8, 0.85)];
  const agreeingLowF = [turn('rag', 'SUPPORTS', 0.9, 0.9), turn('search', 'SUPPORTS', 0.5, 0.85)];

  it('stops on agreement with both gates passed on the current round', () => {
    expect(decideRound(agreeing, settings())).toEqual({ labelsAgree: true, gatesPassed: true, stops: true });
    expect(decideRound(agreeingLowF, settings())).toEqual({ labelsAgree: true, gatesPassed: false, stops: false });
  });

  it('never stops on disagreement or unparseable labels', () => {
    expect(decideRound([turn('rag', 'SUPPORTS', 1, 1), turn('search', 'REFUTES', 1, 1)], settings()).stops).toBe(false);
    expect(decideRound([turn('rag', null, 1, 1), turn('search', null, 1, 1)], settings()).labelsAgree).toBe(false);
  });

  it('without the gate, agreement alone stops; without early stop, nothing does', () => {
    expect(decideRound(agreeingLowF, settings({ stabilityGate: false })).stops).toBe(true);
    expect(decideRound(agreeing, settings({ earlyStop: false })).stops).toBe(false);
  });

  it('needs every debater to agree when there are more than two', () => {
    expect(decideRound([...agreeing, turn('vanilla', 'REFUTES', null, 0.9, 'vanilla')], settings()).labelsAgree).toBe(false);
  });
});

describe('judge inputs and fallback', () => {
  const rounds = [
    { turns: [turn('rag', 'SUPPORTS', 1, 0.9), turn('search', 'REFUTES', null, 0.6)] },
    { turns: [turn('rag', 'SUPPORTS', 0.5, 0.7), turn('search', 'REFUTES', 0.9, 0.8)] },
  ];

  it('averages each debater over rounds, leaving undefined scores out', () => {
    const averages = averageScores(rounds);
    expect(averages.map((a) => a.debater)).toEqual(['rag', 'search']);
    expect(averages[0]!.faithfulness).toBeCloseTo(0.75);
    expect(averages[0]!.answerRelevance).toBeCloseTo(0.8);
    expect(averages[1]!.faithfulness).toBeCloseTo(0.9);
    expect(averages[1]!.answerRelevance).toBeCloseTo(0.7);
  });

  it('falls back to the last label of the debater with the higher mean (F + AR) / 2, ties to the first', () => {
    // rag (0.75 + 0.8) / 2 = 0.775 < search (0.9 + 0.7) / 2 = 0.8
    expect(fallbackVerdict(rounds, averageScores(rounds))).toEqual({ debater: 'search', label: 'REFUTES', verdict: 'REFUTED' });
    const tied = [{ turns: [turn('rag', 'REFUTES', 0.8, 0.8), turn('search', 'SUPPORTS', 0.8, 0.8)] }];
    expect(fallbackVerdict(tied, averageScores(tied)).debater).toBe('rag');
    const unparsed = [{ turns: [turn('rag', null, 1, 1), turn('search', 'SUPPORTS', 0.1, 0.1)] }];
    expect(fallbackVerdict(unparsed, averageScores(unparsed))).toMatchObject({ debater: 'search', verdict: 'SUPPORTED' });
    const none = [{ turns: [turn('rag', null, 1, 1), turn('search', null, 1, 1)] }];
    expect(fallbackVerdict(none, averageScores(none))).toEqual({ debater: null, label: null, verdict: 'NEI' });
  });
});
