import { describe, expect, it } from 'vitest';
import { buildReport, type GroupReport } from '../../src/report';
import type { RunRecords, RunVerdict } from '../../src/runs/run-records';
import { NO_VALID_ANSWER_RATIONALE } from '../../src/shared/methods/invalid-answer-fallbacks';
import { manifest, verdict } from '../support/report-fixtures';

/** How each method records that its label is the fallback of no valid answer (issue 37 §2.1). */
const NO_ANSWER: Record<string, { label: string; marks: Partial<RunVerdict> }> = {
  rag: { label: 'NEI', marks: { rationale: `${NO_VALID_ANSWER_RATIONALE}: not JSON` } },
  'llm-only': { label: 'NEI', marks: { rationale: `${NO_VALID_ANSWER_RATIONALE}: cut off` } },
  'tool-mad': { label: 'NEI', marks: { trace: { decidedBy: 'judge', judge: { label: null, fallbackFrom: null } } } },
  mermaid: { label: 'REFUTED', marks: { methodLabel: 'False', trace: { fallback: true } } },
};

/** hover (binary): c1 gold SUPPORTED answered SUPPORTED; c2 gold NOT_SUPPORTED got the no-answer fallback. */
function run(method: string, protocol: 'verity' | 'paper'): RunRecords {
  const base = manifest(`run-${method}`);
  const { label, marks } = NO_ANSWER[method]!;
  return {
    manifest: { ...base, config: { ...base.config, methods: [method], protocol } },
    verdicts: [verdict('c1', 'SUPPORTED', { method }), verdict('c2', label, { method, ...marks })],
    claims: [],
    failures: [],
    warnings: [],
  };
}

const gold = new Map<string, string>([
  ['c1', 'SUPPORTED'],
  ['c2', 'NOT_SUPPORTED'],
]);

function hover(method: string, protocol: 'verity' | 'paper'): GroupReport {
  return buildReport(run(method, protocol), gold, { bootstrap: { resamples: 0 } }).groups.find((g) => g.key.dataset === 'hover')!;
}

describe('a no-answer fallback is not an answer (issue 37 §2.1)', () => {
  for (const method of Object.keys(NO_ANSWER)) {
    it(`${method}: under protocol verity it lands in the invalid column, not on REFUTED`, () => {
      const group = hover(method, 'verity');
      expect(group.counts.invalid).toBe(1);
      expect(group.accuracy.estimate).toBe(0.5);
    });
  }

  it("under protocol paper Tool-MAD and MERMAID score the fallback label as their papers' code does; rag and llm-only have no paper and stay invalid", () => {
    expect(hover('tool-mad', 'paper').accuracy.estimate).toBe(1);
    expect(hover('mermaid', 'paper').accuracy.estimate).toBe(1);
    expect(hover('rag', 'paper').counts.invalid).toBe(1);
    expect(hover('llm-only', 'paper').counts.invalid).toBe(1);
  });

  it('an answered verdict is still scored as its label', () => {
    const answered = verdict('c2', 'REFUTED', { method: 'tool-mad', trace: { decidedBy: 'judge', judge: { label: 'REFUTES', fallbackFrom: null } } });
    const records = { ...run('tool-mad', 'verity'), verdicts: [verdict('c1', 'SUPPORTED', { method: 'tool-mad' }), answered] };
    const group = buildReport(records, gold, { bootstrap: { resamples: 0 } }).groups.find((g) => g.key.dataset === 'hover')!;
    expect(group.counts.invalid).toBe(0);
    expect(group.accuracy.estimate).toBe(1);
  });
});

describe('MERMAID answers off the label vocabulary are counted (issue 37 §2.2)', () => {
  it('the group counts them and report.md says so', async () => {
    const { renderMarkdown } = await import('../../src/report');
    const records = { ...run('mermaid', 'verity'), verdicts: [verdict('c1', 'SUPPORTED', { method: 'mermaid', trace: { answerClass: 'positive' } }), verdict('c2', 'REFUTED', { method: 'mermaid', methodLabel: 'maybe', trace: { answerClass: 'invalid' } })] };
    const report = buildReport(records, gold, { bootstrap: { resamples: 0 } });
    expect(report.groups.find((g) => g.key.dataset === 'hover')!.answers.offVocabulary).toBe(1);
    expect(renderMarkdown(report)).toContain('1 final answers off the label vocabulary');
  });
});
