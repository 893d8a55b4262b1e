import { describe, expect, it } from 'vitest';
import { labelAgreement, wilsonInterval } from '../../eval/bench/parity/agreement';
import { firstDivergence, identicalPromptShare, lineDiff, normalisePrompt } from '../../eval/bench/parity/prompt-diff';
import { renderMessages } from '../../eval/bench/parity/recording-proxy';
import { serperRequestSchema, toSerperResponse } from '../../eval/bench/parity/serper-shape';

describe('parity prompt comparison', () => {
  it('normalises whitespace only', () => {
    expect(normalisePrompt('  Claim:\n\n  the  sky\tis blue \n')).toBe('Claim: the sky is blue');
    expect(normalisePrompt('Claim: Sky')).not.toBe(normalisePrompt('Claim: sky'));
  });

  it('counts identical prompts at the same step only', () => {
    const reference = [{ prompt: 'a  b', answer: 'x' }, { prompt: 'c', answer: 'y' }, { prompt: 'd', answer: 'z' }];
    const verity = [{ prompt: 'a b', answer: 'x' }, { prompt: 'C', answer: 'y' }];
    expect(identicalPromptShare(reference, verity)).toEqual({ identical: 1, compared: 2 });
  });

  it('finds the first diverging step: prompt, then answer, then length', () => {
    const base = [{ prompt: 'p1', answer: 'a1' }, { prompt: 'line one\nline two', answer: 'a2' }];
    expect(firstDivergence(base, base)).toBeUndefined();
    const prompt = firstDivergence(base, [base[0]!, { prompt: 'line one\nline 2', answer: 'a2' }]);
    expect(prompt).toMatchObject({ step: 1, kind: 'prompt' });
    expect(prompt!.diff).toBe('  line one\n- line two\n+ line 2');
    expect(firstDivergence(base, [{ prompt: 'p1', answer: 'other' }])).toMatchObject({ step: 0, kind: 'answer' });
    expect(firstDivergence(base, [base[0]!])).toMatchObject({ step: 1, kind: 'length' });
  });

  it('diffs lines with reference-only and verity-only marks', () => {
    expect(lineDiff('a\nb\nc', 'a\nc\nd')).toBe('  a\n- b\n  c\n+ d');
  });
});

describe('parity agreement interval', () => {
  it('matches the Wilson score interval', () => {
    const ci = wilsonInterval(29, 30);
    expect(ci.share).toBeCloseTo(0.9667, 4);
    expect(ci.low).toBeCloseTo(0.8328, 3);
    expect(ci.high).toBeCloseTo(0.9941, 3);
  });

  it('is not degenerate at all-agree and rejects impossible counts', () => {
    const all = wilsonInterval(30, 30);
    expect(all.high).toBeCloseTo(1, 10);
    expect(all.low).toBeLessThan(0.9);
    expect(() => wilsonInterval(31, 30)).toThrow(RangeError);
  });

  it('compares labels case-insensitively', () => {
    const result = labelAgreement([
      { reference: 'True', verity: 'true' },
      { reference: 'False', verity: 'true' },
    ]);
    expect(result.successes).toBe(1);
    expect(result.n).toBe(2);
  });
});

describe('parity evidence server shape', () => {
  it('answers with Serper organic results ranked from 1', () => {
    const body = toSerperResponse('eiffel tower', [
      { title: 'Eiffel', url: 'https://recorded.invalid/a', snippet: 'Paris' },
      { title: 'Tower', url: 'https://recorded.invalid/b', snippet: '1889' },
    ]);
    expect(body.organic).toEqual([
      { title: 'Eiffel', link: 'https://recorded.invalid/a', snippet: 'Paris', position: 1 },
      { title: 'Tower', link: 'https://recorded.invalid/b', snippet: '1889', position: 2 },
    ]);
    expect(body.searchParameters.q).toBe('eiffel tower');
  });

  it('validates the request body the released code sends', () => {
    expect(serperRequestSchema.parse({ q: 'x' }).q).toBe('x');
    expect(() => serperRequestSchema.parse({ q: '' })).toThrow();
  });
});

describe('parity recording proxy', () => {
  it('renders every message with its role, so a system prompt on one side is a difference', () => {
    expect(renderMessages([{ role: 'user', content: 'Claim: x' }])).toBe('[user]\nClaim: x');
    expect(renderMessages([{ role: 'system', content: 'S' }, { role: 'user', content: 'Claim: x' }])).toBe('[system]\nS\n[user]\nClaim: x');
  });
});
