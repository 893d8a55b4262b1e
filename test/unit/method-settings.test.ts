import { describe, expect, it } from 'vitest';
import { InvalidMethodSettingsError, optionPairsToObject, parseMethodSettings } from '../../src/methods/settings-schemas';
import { settingsOfMethod } from '../../src/shared/method-settings';

describe('method settings from the command line', () => {
  it('reads key=value pairs, nesting dotted keys and taking JSON values as such', () => {
    expect(optionPairsToObject(['memory=false', 'maxSteps=5', 'recall.mode=substring', 'tools=["a","b"]', 'label=true claim'])).toEqual({
      memory: false,
      maxSteps: 5,
      recall: { mode: 'substring' },
      tools: ['a', 'b'],
      label: 'true claim',
    });
  });

  it('refuses a pair without a key', () => {
    expect(() => optionPairsToObject(['=3'])).toThrow(InvalidMethodSettingsError);
    expect(() => optionPairsToObject(['memory'])).toThrow(/expected key=value/);
  });

  it('takes only the answer order for the rag baseline (its retrieval has options of its own), and accepts none', () => {
    expect(parseMethodSettings('rag', undefined, '--option')).toEqual({});
    expect(parseMethodSettings('rag', { order: 'label-first' }, '--option')).toEqual({ rag: { order: 'label-first' } });
    expect(() => parseMethodSettings('rag', { topK: 3 }, '--option')).toThrow(/topK/);
  });

  it('picks one method’s entry for a verification', () => {
    expect(settingsOfMethod({ toe: { maxDepth: 3 } as never, mermaid: {} }, 'toe')).toEqual({ toe: { maxDepth: 3 } });
    expect(settingsOfMethod({ mermaid: {} }, 'toe')).toBeUndefined();
    expect(settingsOfMethod(undefined, 'toe')).toBeUndefined();
  });
});
