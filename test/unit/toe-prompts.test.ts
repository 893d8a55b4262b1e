import { describe, expect, it } from 'vitest';
import { TOE_CREDIBILITY_RUBRIC, TOE_RELEVANCE_RUBRIC, toeAnalysisTask, toeDecomposeTask } from '../../src/methods/toe/tasks';

const text = (messages: { content: string }[]) => messages.map((message) => message.content).join('\n');

describe('ToE prompts', () => {
  it('gives the analysis LLM a rubric for relevance and credibility, which multiply into reliability', () => {
    const prompt = text(
      toeAnalysisTask.render(toeAnalysisTask.variables.parse({ claim: 'X won in 2019.', documentId: 'd1', source: 'Wikipedia', title: 'X', url: '', statements: ['X won in 2019.'] })),
    );
    expect(prompt).toContain(TOE_RELEVANCE_RUBRIC);
    expect(prompt).toContain(TOE_CREDIBILITY_RUBRIC);
    expect(prompt).toMatch(/Relevance: 1\.0 = .*0 = unrelated/);
    expect(prompt).toMatch(/Credibility: 1\.0 = official or primary record/);
  });

  it('shows the decomposer the evidence that left the node unreliable (paper §III-D)', () => {
    const variables = toeDecomposeTask.variables.parse({
      claim: 'X won the 2019 election in Y.',
      evidence: {
        veracity: 0.55,
        reliability: 0.31,
        items: [{ stance: 'refute', relevance: 0.8, credibility: 0.7, title: 'Y election 2019', snippet: 'Z won the 2019 election in Y.' }],
      },
    });
    const prompt = text(toeDecomposeTask.render(variables));
    expect(prompt).toContain('reliability 0.31');
    expect(prompt).toContain('[refute; relevance 0.80; credibility 0.70] Y election 2019: Z won the 2019 election in Y.');
    // Recorded runs (and the root before any evidence) still render the claim alone.
    expect(text(toeDecomposeTask.render(toeDecomposeTask.variables.parse({ claim: 'X won.' })))).not.toContain('evidence found so far');
  });
});
