import { describe, expect, it } from 'vitest';
import { parseTrueFalse, parseYesNo } from '../../src/methods/emulate/sandbox/emulate-labels';
import { cleanQuery } from '../../src/methods/emulate/sandbox/emulate-query';
import { parseRanking } from '../../src/methods/emulate/sandbox/emulate-ranking';
import { DEFAULT_EMULATE_SETTINGS, resolveEmulateSettings } from '../../src/methods/emulate/sandbox/emulate-settings';

describe('EMULATE one-word answers', () => {
  it('strict reading is the code’s: exact yes/true after trim and lower-case, anything else is No/False', () => {
    expect(parseYesNo('  Yes \n', true)).toEqual({ value: true, understood: true });
    expect(parseYesNo('NO', true)).toEqual({ value: false, understood: true });
    for (const chatty of ['Yes.', '**Yes**', 'Yes, because the page says so']) expect(parseYesNo(chatty, true)).toEqual({ value: false, understood: false });
    expect(parseTrueFalse('true', true)).toEqual({ value: true, understood: true });
    expect(parseTrueFalse('"True"', true)).toEqual({ value: false, understood: false });
  });

  it('lenient reading strips markdown, quotes and punctuation and takes the first word', () => {
    for (const yes of ['Yes.', '**Yes**', '"yes"', 'Yes, because the page says so', '> yes']) expect(parseYesNo(yes, false)).toEqual({ value: true, understood: true });
    expect(parseYesNo('No.', false)).toEqual({ value: false, understood: true });
    expect(parseYesNo('Maybe', false)).toEqual({ value: false, understood: false });
    expect(parseYesNo('', false)).toEqual({ value: false, understood: false });
    expect(parseTrueFalse('**False**', false)).toEqual({ value: false, understood: true });
    expect(parseTrueFalse('True. The results confirm it.', false)).toEqual({ value: true, understood: true });
  });
});

describe('SearchRank answers', () => {
  const known = [1, 2, 3];
  it('reads "3 | 1 | 2" and "3|1" in both modes; the output may leave results out', () => {
    for (const compat of [true, false]) {
      expect(parseRanking('3 | 1 | 2', known, compat)).toEqual({ positions: [3, 1, 2], fallback: false });
      expect(parseRanking('3|1', known, compat)).toEqual({ positions: [3, 1], fallback: false });
    }
  });

  it('code-compat falls back to engine order on any non-integer or unknown position, and keeps duplicates', () => {
    expect(parseRanking('<3> | <1>', known, true)).toEqual({ positions: known, fallback: true });
    expect(parseRanking('3 | 7', known, true)).toEqual({ positions: known, fallback: true });
    expect(parseRanking('', known, true)).toEqual({ positions: known, fallback: true });
    expect(parseRanking('2 | 2', known, true)).toEqual({ positions: [2, 2], fallback: false });
  });

  it('otherwise keeps the known positions in order, once each, and falls back only when none is left', () => {
    expect(parseRanking('<3> | <1>', known, false)).toEqual({ positions: [3, 1], fallback: false });
    expect(parseRanking('3 | 7 | 3 | 2', known, false)).toEqual({ positions: [3, 2], fallback: false });
    expect(parseRanking('none of them', known, false)).toEqual({ positions: known, fallback: true });
    expect(parseRanking('', [], false)).toEqual({ positions: [], fallback: true });
  });
});

describe('query cleaning', () => {
  it('code-compat removes every quote, apostrophes inside words included, without trimming', () => {
    expect(cleanQuery(` "Newton's laws" `, true)).toBe(' Newtons laws ');
  });
  it('otherwise strips surrounding whitespace and quotes only', () => {
    expect(cleanQuery(` "Newton's laws" `, false)).toBe("Newton's laws");
    expect(cleanQuery('“Jack Dorsey CEO”', false)).toBe('Jack Dorsey CEO');
  });
});

describe('EMULATE settings', () => {
  it('defaults are the released code’s; code-compat implies strict parsing unless set', () => {
    expect(resolveEmulateSettings(undefined)).toEqual(DEFAULT_EMULATE_SETTINGS);
    expect(DEFAULT_EMULATE_SETTINGS).toMatchObject({ maxSearchQueries: 4, maxSearchResultsPerQuery: 2, contentMode: 'snippet', strictParsing: false });
    expect(resolveEmulateSettings({ codeCompat: true }).strictParsing).toBe(true);
    expect(resolveEmulateSettings({ codeCompat: true, strictParsing: false }).strictParsing).toBe(false);
  });
});
