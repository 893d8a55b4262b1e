import { describe, expect, it } from 'vitest';
import { MAX_SUBSTRING_TERMS, keywordCandidateQuery, substringsOf } from '../../src/memory/candidate-query';
import { dedupKeyOf, entryId, normalizeArgs, queryOf } from '../../src/memory/dedup';
import { entryToJsonLine, MemoryFileError, parseEntryLine, rescope } from '../../src/memory/jsonl';
import { planUpdate, type MemoryUpdateRequest } from '../../src/memory/plan-update';
import { rankByKeywords } from '../../src/memory/recall-match';
import { memoryScope } from '../../src/memory/scope';
import { invalidReason } from '../../src/memory/validity';
import { MEMORY_CODE_COMPAT, memoryWriteDue, type MemoryObservation } from '../../src/shared/memory';

const CLOCK = { timestamp: '2026-01-16T10:00:00.000Z', firstOrder: 1_000 };
const RECOMMENDED = { dedup: 'toolArgs', storeInvalid: false } as const;

function request(observations: MemoryObservation[], entities = ['The United States', '94 operating reactors']): MemoryUpdateRequest {
  return { scope: 'run:r1/dataset:factool', claimId: 'c1', entities, observations };
}

const search = (query: string, evidence = `results for ${query}`, tool = 'search_google'): MemoryObservation => ({
  tool,
  args: { query },
  evidence,
});

describe('validity filter (spec §3.1 "valid evidence", §9.19)', () => {
  it.each([
    ["Input validation error: 'title' is a required property", 'error'],
    ['Error executing tool get_article: timeout', 'error'],
    ['   ', 'empty'],
    ['[]', 'empty'],
    ['Page does not exist', 'notFound'],
    ['{"title": "Foo", "exists": false}', 'notFound'],
    ['No results found for "foo bar"', 'notFound'],
    ['{"query": "foo", "results": [], "count": 0}', 'notFound'],
  ])('drops %j as %s', (evidence, reason) => {
    expect(invalidReason({ evidence })).toBe(reason);
  });

  it('drops observations the tool flagged as errors', () => {
    expect(invalidReason({ evidence: 'some text', isError: true })).toBe('error');
  });

  it('keeps evidence that merely mentions errors or "not found"', () => {
    expect(invalidReason({ evidence: 'The species was not found in Europe until 1900.' })).toBeUndefined();
    expect(invalidReason({ evidence: '{"results": [{"title": "Error (band)"}]}' })).toBeUndefined();
  });
});

describe('dedup keys (spec §3.2, §9.3)', () => {
  it('normalises args: case, surrounding and repeated whitespace, key order', () => {
    expect(dedupKeyOf({ tool: 'Search_Google', args: { query: '  US   Reactors ', n: 3 }, evidence: '' }, 'toolArgs')).toBe(
      dedupKeyOf({ tool: 'search_google', args: { n: 3, query: 'us reactors' }, evidence: '' }, 'toolArgs'),
    );
    expect(normalizeArgs({ a: [' X '], b: { c: 'Y  Z' } })).toEqual({ a: ['x'], b: { c: 'y z' } });
  });

  it('toolArgs: the same query to another tool is a different entry; query: the code’s case-insensitive rule, any tool', () => {
    const google = search('US reactors');
    const wiki = search('us REACTORS', 'wiki text', 'search_wikipedia');
    expect(dedupKeyOf(google, 'toolArgs')).not.toBe(dedupKeyOf(wiki, 'toolArgs'));
    expect(dedupKeyOf(google, 'query')).toBe(dedupKeyOf(wiki, 'query'));
  });

  it('hashes scope and dedup key into the document id', () => {
    expect(entryId('global', 'k')).toBe(entryId('global', 'k'));
    expect(entryId('global', 'k')).not.toBe(entryId('run:r2', 'k'));
  });

  it('shows the query, else the first string argument', () => {
    expect(queryOf({ args: { query: 'q' } })).toBe('q');
    expect(queryOf({ args: { limit: 3, title: 'Eiffel Tower' } })).toBe('Eiffel Tower');
    expect(queryOf({ args: {}, query: 'explicit' })).toBe('explicit');
  });

  it('query-only dedup removes at least as many calls as (tool, query) dedup (§10.1: 188 vs 148 of 757)', () => {
    const trace = [search('a'), search('A', 'x', 'search_wikipedia'), search('a'), search('b'), search('B', 'y', 'search_google_scholar')];
    const distinct = (dedup: 'toolArgs' | 'query') => new Set(trace.map((obs) => dedupKeyOf(obs, dedup))).size;
    expect(trace.length - distinct('toolArgs')).toBe(1);
    expect(trace.length - distinct('query')).toBe(3);
  });
});

describe('planUpdate', () => {
  it('tags every entry with all of the claim’s keys and records tool, args, query, sources and time (§3.2, §9.1)', () => {
    const planned = planUpdate(request([{ ...search('US reactors'), sources: ['https://example.org'] }]), RECOMMENDED, CLOCK);
    expect(planned.entries).toHaveLength(1);
    expect(planned.entries[0]).toMatchObject({
      runScope: 'run:r1/dataset:factool',
      claimId: 'c1',
      entityKeys: ['The United States', '94 operating reactors'],
      keywords: ['the united states', '94 operating reactors'],
      tool: 'search_google',
      args: { query: 'US reactors' },
      query: 'US reactors',
      sources: ['https://example.org'],
      timestamp: CLOCK.timestamp,
      insertionOrder: 1_000,
    });
  });

  it('filters invalid observations by default and keeps them in code-compat mode', () => {
    const observations = [search('a'), { tool: 'get_article', args: { query: 'Eiffel' }, evidence: "Input validation error: 'title' is a required property" }];
    const filtered = planUpdate(request(observations), RECOMMENDED, CLOCK);
    expect(filtered.entries.map((entry) => entry.tool)).toEqual(['search_google']);
    expect(filtered.invalid).toEqual({ error: 1 });
    expect(planUpdate(request(observations), MEMORY_CODE_COMPAT.update, CLOCK).entries).toHaveLength(2);
  });

  it('keeps the first of repeated observations in a batch, numbering insertion order without gaps', () => {
    const planned = planUpdate(request([search('a', 'first'), search('b'), search(' A ', 'second')]), RECOMMENDED, CLOCK);
    expect(planned.entries.map((entry) => [entry.evidence, entry.insertionOrder])).toEqual([
      ['first', 1_000],
      ['results for b', 1_001],
    ]);
    expect(planned.duplicatesInBatch).toBe(1);
  });

  it('stores evidence of a claim without keys under no keywords, so it is never recalled (§2.2 failure handling)', () => {
    const planned = planUpdate(request([search('a')], []), RECOMMENDED, CLOCK);
    expect(planned.entries[0]!.keywords).toEqual([]);
    expect(rankByKeywords(planned.entries, ['a', 'results'], 'substring', 3)).toEqual([]);
  });
});

describe('update modes', () => {
  it('perCall writes after every tool call (the code); endOfClaim writes once at the end (the paper)', () => {
    expect(memoryWriteDue('perCall', 'afterToolCall')).toBe(true);
    expect(memoryWriteDue('perCall', 'claimEnd')).toBe(false);
    expect(memoryWriteDue('endOfClaim', 'afterToolCall')).toBe(false);
    expect(memoryWriteDue('endOfClaim', 'claimEnd')).toBe(true);
  });
});

describe('scopes', () => {
  it('names a namespace per run and dataset, or the global one', () => {
    expect(memoryScope()).toBe('global');
    expect(memoryScope({ dataset: 'factool' })).toBe('dataset:factool');
    expect(memoryScope({ runId: 'r1', dataset: 'hover' })).toBe('run:r1/dataset:hover');
  });
});

describe('candidate query', () => {
  it('lists every substring of a key', () => {
    expect(substringsOf('abc').sort()).toEqual(['a', 'ab', 'abc', 'b', 'bc', 'c']);
  });

  it('asks for exact keys, or for keys containing / contained in the claim keys, within the scope', () => {
    expect(keywordCandidateQuery('s', ['x'], 'exact')).toEqual({ bool: { filter: [{ term: { runScope: 's' } }, { terms: { keywords: ['x'] } }] } });
    const substring = keywordCandidateQuery('s', ['a*b'], 'substring');
    expect(JSON.stringify(substring)).toContain('"value":"*a\\\\*b*"');
    expect(JSON.stringify(substring)).toContain('"terms":{"keywords":["a","a*","a*b","*","*b","b"]}');
  });

  it('falls back to the whole scope when the keys have too many substrings', () => {
    const longKey = Array.from({ length: 300 }, (_, i) => String.fromCharCode(0x4e00 + i)).join(''); // 45,150 distinct substrings
    expect(substringsOf(longKey).length).toBeGreaterThan(MAX_SUBSTRING_TERMS);
    expect(keywordCandidateQuery('s', [longKey], 'substring')).toEqual({ bool: { filter: [{ term: { runScope: 's' } }] } });
  });
});

describe('JSONL entries', () => {
  const entry = planUpdate(request([search('a')]), RECOMMENDED, CLOCK).entries[0]!;

  it('round-trips an entry through one canonical line', () => {
    const line = entryToJsonLine(entry);
    expect(line.endsWith('\n')).toBe(true);
    expect(parseEntryLine(line, 1)).toEqual(entry);
    expect(entryToJsonLine(parseEntryLine(line, 1))).toBe(line);
  });

  it('reports the line number of a bad line', () => {
    expect(() => parseEntryLine('{oops', 7)).toThrow(MemoryFileError);
    expect(() => parseEntryLine('{"id": "x"}', 3)).toThrow(/line 3: not a memory entry/);
  });

  it('moves an entry to another scope with a matching id', () => {
    const moved = rescope(entry, 'dataset:other');
    expect(moved.runScope).toBe('dataset:other');
    expect(moved.id).toBe(entryId('dataset:other', entry.dedupKey));
  });
});
