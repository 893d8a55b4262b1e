import { describe, expect, it } from 'vitest';
import { optionPairsToObject, parseMethodSettings } from '../../src/methods/settings-schemas';
import { parseQuery } from '../../src/methods/tool-mad/sandbox/tool-mad-query';
import { debaterIds, DEFAULT_TOOL_MAD_SETTINGS, findToolMadSettingsProblem, resolveToolMadSettings } from '../../src/methods/tool-mad/sandbox/tool-mad-settings';

describe('tool-mad settings', () => {
  it('parses CLI options: comma-separated debaters, numbers, booleans, ablation switches', () => {
    const options = optionPairsToObject(['debaters=rag,vanilla', 'maxRounds=4', 'queryFormulation=false', 'stabilityGate=false', 'labelSet=averitec']);
    expect(parseMethodSettings('tool-mad', options, '--option')).toEqual({
      'tool-mad': { debaters: ['rag', 'vanilla'], maxRounds: 4, queryFormulation: false, stabilityGate: false, labelSet: 'averitec' },
    });
    expect(parseMethodSettings('tool-mad', optionPairsToObject(['debaters=["search","search"]']), '--option')).toEqual({
      'tool-mad': { debaters: ['search', 'search'] },
    });
  });

  it('rejects unknown keys, tools and out-of-range values, naming the key', () => {
    expect(() => parseMethodSettings('tool-mad', { rounds: 3 }, '--option')).toThrow(/--option/);
    expect(() => parseMethodSettings('tool-mad', { debaters: 'rag,scholar' }, '--option')).toThrow(/--option\.debaters/);
    expect(() => parseMethodSettings('tool-mad', { debaters: ['rag'] }, '--option')).toThrow(/debaters/);
    expect(() => parseMethodSettings('tool-mad', { faithfulnessThreshold: 1.5 }, '--option')).toThrow(/faithfulnessThreshold/);
  });

  it('defaults follow the paper: RAG + search, T = 3, k = 3, gates 0.7 / 0.8 with >, n = 3', () => {
    expect(resolveToolMadSettings(undefined)).toMatchObject({
      debaters: ['rag', 'search'],
      maxRounds: 3,
      ragTopK: 3,
      searchResults: 3,
      faithfulnessThreshold: 0.7,
      relevanceThreshold: 0.8,
      thresholdComparison: '>',
      relevanceQuestions: 3,
      noncommittalPenalty: false,
    });
    expect(resolveToolMadSettings({ maxRounds: 2 }).maxRounds).toBe(2);
    expect(findToolMadSettingsProblem(DEFAULT_TOOL_MAD_SETTINGS)).toBeNull();
    expect(findToolMadSettingsProblem({ ...DEFAULT_TOOL_MAD_SETTINGS, debaters: ['rag'] })).toMatch(/2 to 4 debaters/);
    expect(findToolMadSettingsProblem({ ...DEFAULT_TOOL_MAD_SETTINGS, maxRounds: 0 })).toMatch(/maxRounds/);
  });

  it('debater ids number repeated tools', () => {
    expect(debaterIds(['rag', 'search'])).toEqual(['rag', 'search']);
    expect(debaterIds(['rag', 'rag', 'search', 'rag'])).toEqual(['rag', 'rag-2', 'search', 'rag-3']);
  });
});

describe('query parser (spec §5)', () => {
  it('takes the first bracketed text, else the whole output without quotes', () => {
    expect(parseQuery('[Guardian Media Limited ANSA McAL]', 'claim')).toEqual({ query: 'Guardian Media Limited ANSA McAL', parsedOk: true });
    expect(parseQuery('Sure! [Mel Ott career RBIs] [other]', 'claim')).toEqual({ query: 'Mel Ott career RBIs', parsedOk: true });
    expect(parseQuery('  "Mel Ott RBIs"\n', 'claim')).toEqual({ query: 'Mel Ott RBIs', parsedOk: true });
  });

  it('falls back to the previous query (or claim) when empty or too long', () => {
    expect(parseQuery('[]', 'previous')).toEqual({ query: 'previous', parsedOk: false });
    expect(parseQuery('   ', 'claim')).toEqual({ query: 'claim', parsedOk: false });
    expect(parseQuery('x'.repeat(401), 'claim')).toEqual({ query: 'claim', parsedOk: false });
  });
});
