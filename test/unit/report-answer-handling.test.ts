import { describe, expect, it } from 'vitest';
import { buildReport, renderMarkdown } from '../../src/report';
import { runVerdictSchema } from '../../src/runs/run-records';
import { goldLabels, runB } from '../support/report-fixtures';

describe('report: how the model answers had to be handled, per dataset × method × model', () => {
  it('adds up invalid answers, response-format fallbacks and trimmed prompts over verdicts and says so in report.md', () => {
    const report = buildReport(runB(), goldLabels());
    // One verdict of run B (claim c2) spent 1 invalid answer, 2 fallback answers and 1 trimmed prompt; the others none.
    const withC2 = report.claims.find((row) => row.claimId === 'c2')!;
    const group = report.groups.find((g) => g.key.dataset === withC2.dataset && g.key.method === withC2.method && g.key.model === withC2.model);
    expect(group?.answers).toEqual({ invalid: 1, formatFallbacks: 2, trimmedPrompts: 1 });
    expect(report.groups.filter((g) => g !== group).every((g) => g.answers.invalid + g.answers.formatFallbacks + g.answers.trimmedPrompts === 0)).toBe(true);
    expect(renderMarkdown(report)).toContain('LLM answers: 1 invalid (handled as the method\'s paper does), 2 given without json_schema');
  });

  it("adds up reasoning tokens, when a server reported some, and says so in report.md", () => {
    const run = runB();
    const c2 = run.verdicts.find((v) => v.claimId === 'c2')!;
    c2.usage = { ...c2.usage, reasoningTokens: 48 };
    const parsed = runVerdictSchema.parse(c2);
    expect(parsed.usage.reasoningTokens).toBe(48);
    const report = buildReport(run, goldLabels());
    const group = report.groups.find((g) => g.key.dataset === c2.dataset && g.key.method === c2.method && g.key.model === c2.model);
    expect(group?.answers).toEqual({ invalid: 1, formatFallbacks: 2, trimmedPrompts: 1, reasoningTokens: 48 });
    expect(renderMarkdown(report)).toContain('48 reasoning tokens (in the completion tokens, billed as output)');
  });

  it("says the temperature was not sent to a model that refuses it", () => {
    expect(renderMarkdown(buildReport(runB(), goldLabels()))).not.toContain('Temperature: not sent');
    const run = runB();
    for (const verdict of run.verdicts) verdict.model = 'gpt-5-mini';
    const markdown = renderMarkdown(buildReport(run, goldLabels()));
    expect(markdown).toContain('Temperature: not sent (the model refuses it; its default applies).');
  });

  it('reads verdicts stored before these counts existed as zero', () => {
    const stored = { workflowId: 'w', runId: 'r', claimId: 'c', method: 'rag', model: 'm', label: 'NEI', usage: { llmCalls: 1 } };
    expect(runVerdictSchema.parse(stored).usage).toMatchObject({ invalidAnswers: 0, formatFallbacks: 0, trimmedPrompts: 0 });
  });
});
