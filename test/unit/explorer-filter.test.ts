import { describe, expect, it } from 'vitest';
import { EXPLORER_MAX_PAGE, explorerFilterSchema, failureQuery, INVALID_CALLS_FIELD, needsGold, verdictQuery } from '../../src/explorer/explorer-filter';

describe('explorer filters as Elasticsearch queries', () => {
  it('parses query-string values, bounds the page and rejects unknown outcomes', () => {
    expect(explorerFilterSchema.parse({ minCost: '0.5', from: '100' })).toMatchObject({ minCost: 0.5, from: 100, size: 50 });
    expect(explorerFilterSchema.safeParse({ size: String(EXPLORER_MAX_PAGE + 1) }).success).toBe(false);
    expect(explorerFilterSchema.safeParse({ outcome: 'maybe' }).success).toBe(false);
    expect(explorerFilterSchema.safeParse({ method: '  ' }).success).toBe(false);
  });

  it('turns field filters into term and range clauses under the run', () => {
    const query = verdictQuery('run-1', explorerFilterSchema.parse({ method: 'mermaid', predicted: 'NEI', minCalls: '2', maxCost: '0.01' }));
    expect(query.bool?.must).toEqual([
      { term: { runId: 'run-1' } },
      { term: { method: 'mermaid' } },
      { term: { label: 'NEI' } },
      { range: { 'usage.costUsd': { lte: 0.01 } } },
      { range: { 'usage.llmCalls': { gte: 2 } } },
    ]);
  });

  it('joins gold labels through claim-id terms: correct means the label equals the gold label', () => {
    const gold = new Map([
      ['SUPPORTED', ['a', 'b']],
      ['REFUTED', ['c']],
    ]);
    const filter = explorerFilterSchema.parse({ outcome: 'correct' });
    expect(needsGold(filter)).toBe(true);
    const must = verdictQuery('r', filter, gold).bool!.must as object[];
    expect(JSON.stringify(must[1])).toContain('{"term":{"label":"SUPPORTED"}},{"bool":{"should":[{"terms":{"claimId":["a","b"]}}]');
    const incorrect = verdictQuery('r', explorerFilterSchema.parse({ outcome: 'incorrect' }), gold).bool!;
    expect(JSON.stringify(incorrect.must)).toContain('"claimId":["a","b","c"]');
    expect(incorrect.must_not).toHaveLength(1);
    const noGold = verdictQuery('r', explorerFilterSchema.parse({ gold: 'NEI' }), gold).bool!.must as object[];
    expect(noGold[1]).toEqual({ bool: { must_not: { match_all: {} } } });
  });

  it('filters invalid verdicts on the stored count of failed LLM calls, and failures on their own fields', () => {
    expect(verdictQuery('r', explorerFilterSchema.parse({ status: 'invalid' })).bool?.must).toContainEqual({ range: { [INVALID_CALLS_FIELD]: { gte: 1 } } });
    expect(explorerFilterSchema.safeParse({ status: 'broken' }).success).toBe(false);
    expect(failureQuery('r', explorerFilterSchema.parse({ status: 'failed', method: 'rag', text: 'missing index', outcome: 'correct' })).bool?.must).toEqual([
      { term: { runId: 'r' } },
      { term: { method: 'rag' } },
      { match: { reason: { query: 'missing index', operator: 'and' } } },
    ]);
  });
});
