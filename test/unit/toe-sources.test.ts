import { describe, expect, it } from 'vitest';
import { chunkText, documentsFromToolResult } from '../../src/methods/toe/sandbox/logic/documents';
import { toeSettingsSchema } from '../../src/methods/toe/settings-schema';
import { OFFLINE_SUBSTITUTES, sourceCall } from '../../src/methods/toe/sandbox/logic/sources';
import { toeTasks } from '../../src/methods/toe/tasks';
import { DEFAULT_TOE_SETTINGS, resolveToeSettings, type ToeSettings } from '../../src/methods/toe/sandbox/toe-settings';
import { toeResponders } from '../../src/methods/toe/simulator-responder';
import { readPrompt } from '../../src/simulator/prompt-reader';
import { TOE_DIMENSIONS } from '../../src/methods/toe/sandbox/logic/claim-features';

describe('ToE actions → evidence layer', () => {
  it('maps every search action onto a tool, naming the offline substitutes', () => {
    expect(sourceCall('web', 'q', 3, 'offline')).toEqual({ tool: 'web_search', args: { query: 'q', max_results: 3 }, provider: 'web_search' });
    expect(sourceCall('counter', 'q', 3, 'offline').substitute).toBeUndefined();
    expect(sourceCall('wikipedia', 'q', 3, 'offline')).toEqual({ tool: 'search_wikipedia', args: { query: 'q', limit: 3 }, provider: 'search_wikipedia' });
    expect(sourceCall('arxiv', 'q', 3, 'offline')).toMatchObject({ tool: 'rag_search', args: { query: 'q', k: 3 }, substitute: OFFLINE_SUBSTITUTES.arxiv });
    for (const action of ['social', 'factcheck', 'reddit'] as const) {
      expect(sourceCall(action, 'q', 3, 'offline')).toMatchObject({ tool: 'web_search', args: { query: 'q' }, substitute: OFFLINE_SUBSTITUTES[action] });
    }
    expect(sourceCall('arxiv', 'q', 3, 'live')).toEqual({ tool: 'scholar_search', args: { query: 'q', source: 'arxiv', max_results: 3 }, provider: 'scholar_search:arxiv' });
    expect(sourceCall('reddit', 'q', 3, 'live')).toMatchObject({ tool: 'web_search', args: { query: 'q site:reddit.com' } });
    expect(sourceCall('factcheck', 'q', 3, 'live').args.query).toBe('q site:politifact.com OR site:snopes.com');
  });

  it('reads documents out of each tool result shape', () => {
    expect(documentsFromToolResult('web_search', { results: [{ title: 'T', url: 'https://a.example/x', snippet: 'S', position: 1 }] })).toEqual([{ id: 'https://a.example/x', title: 'T', url: 'https://a.example/x', text: 'S' }]);
    expect(documentsFromToolResult('search_wikipedia', { results: [{ title: 'Eiffel Tower', snippet: 'The <span class="searchmatch">tower</span> &amp; more' }] })).toEqual([
      { id: 'wiki:Eiffel Tower', title: 'Eiffel Tower', url: '', text: 'The tower & more' },
    ]);
    expect(documentsFromToolResult('rag_search', { passages: [{ id: 'p#1', title: 'P', text: 'x', score: 1 }] })).toEqual([{ id: 'p#1', title: 'P', url: '', text: 'x' }]);
    expect(documentsFromToolResult('web_search', undefined)).toEqual([]);
  });

  it('chunks at sentence ends within the size', () => {
    expect(chunkText('One two. Three four! Five?', 12)).toEqual(['One two.', 'Three four!', 'Five?']);
    expect(chunkText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(chunkText('  ')).toEqual([]);
  });
});

describe('ToE settings', () => {
  it('defaults to the paper values and merges partial thresholds', () => {
    const resolved = resolveToeSettings({ thresholds: { convergence: 0.05 } as ToeSettings['thresholds'], policy: 'learned' });
    expect(resolved.thresholds).toEqual({ ...DEFAULT_TOE_SETTINGS.thresholds, convergence: 0.05 });
    expect(resolved).toMatchObject({ maxDepth: 5, maxIterations: 20, maxSearchSteps: 5, maxResultsPerSearch: 3, maxDocumentsPerNode: 10, policy: 'learned', finalMapping: { falseBelow: 0.4, trueAbove: 0.6 } });
  });

  it('validates CLI and sweep settings strictly', () => {
    expect(toeSettingsSchema.parse({ thresholds: { expandReliability: 0.6 }, policy: 'learned', policyWeights: 'w.json' })).toEqual({ thresholds: { expandReliability: 0.6 }, policy: 'learned', policyWeights: 'w.json' });
    expect(toeSettingsSchema.safeParse({ maxNodes: 20 }).success).toBe(false);
    expect(toeSettingsSchema.safeParse({ thresholds: { expand: 0.7 } }).success).toBe(false);
    expect(toeSettingsSchema.safeParse({ policy: 'random' }).success).toBe(false);
  });
});

describe('ToE simulator protocol', () => {
  const task = (id: string) => toeTasks.find((t) => t.id === id)!;
  const answer = (id: string, variables: Record<string, unknown>) => {
    const definition = task(id);
    const messages = definition.render(definition.variables.parse(variables));
    const value = toeResponders[definition.schemaName]!(readPrompt(messages), {}, messages);
    return definition.output.parse(value) as Record<string, unknown>;
  };

  it('decomposes into 2–4 sub-claims on distinct dimensions whose weights sum to 1', () => {
    for (const claim of ['Marie Curie won her Nobel Prize in Chemistry in 1921.', 'The tower is tall, and it was built in Paris, which hosted the fair.']) {
      const { subclaims } = answer('toe.decompose', { claim }) as { subclaims: { dimension: string; importance: number }[] };
      expect(subclaims.length).toBeGreaterThanOrEqual(2);
      expect(subclaims.length).toBeLessThanOrEqual(4);
      expect(new Set(subclaims.map((s) => s.dimension)).size).toBe(subclaims.length);
      for (const s of subclaims) expect(TOE_DIMENSIONS).toContain(s.dimension);
      expect(subclaims.reduce((sum, s) => sum + s.importance, 0)).toBeCloseTo(1, 2);
    }
  });

  it('cleans to the relevant sentences and analyses their stance and source', () => {
    const claim = 'The Eiffel Tower was completed in 1889.';
    const { statements } = answer('toe.clean', { claim, chunkId: 'd#c1', chunk: 'Bread needs flour. The Eiffel Tower was completed in 1889 in Paris.' }) as { statements: string[] };
    expect(statements).toEqual(['The Eiffel Tower was completed in 1889 in Paris.']);
    const analysis = answer('toe.analysis', { claim, documentId: 'd', source: 'Wikipedia (the title …)', title: 'Eiffel Tower', url: '', statements });
    expect(analysis).toMatchObject({ stance: 'support', authoritative: true, credibility: 0.85 });
    const refuting = answer('toe.analysis', { claim, documentId: 'd', source: 'Reddit discussions', title: '', url: '', statements: ['The Eiffel Tower was completed in 1887.'] });
    expect(refuting).toMatchObject({ stance: 'refute', authoritative: false, credibility: 0.3 });
  });
});
