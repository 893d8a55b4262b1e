import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../src/tools/errors';
import { createToolRegistry } from '../../src/tools/create-registry';
import type { ToolRegistry } from '../../src/tools/registry';
import { MediaWikiProvider } from '../../src/tools/wikipedia/mediawiki-provider';
import { fixture, startFixtureServer, type FixtureServer } from '../fixtures/http/fixture-server';

const USER_AGENT = 'verity-test/1.0 (tests@example.org)';

/** Answers like en.wikipedia.org/w/api.php from recorded responses, chosen by the request's parameters. */
function mediawiki(request: IncomingMessage, response: ServerResponse): void {
  const params = new URL(request.url ?? '/', 'http://fixture').searchParams;
  const name = recordedResponse(params);
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(fixture(`mediawiki/${name}`));
}

function recordedResponse(params: URLSearchParams): string {
  if (params.get('list') === 'search') return params.get('srsearch') === 'Eifel Towr' ? 'search-eifel.json' : 'search-eiffel.json';
  if (params.get('exintro') === '1') return 'related-extracts.json';
  if (params.get('titles') === 'Ratelimited') return 'ratelimited.json';
  return params.get('titles') === 'Eifel Towr' ? 'page-missing.json' : 'page-eiffel.json';
}

describe('MediaWiki provider against recorded responses', () => {
  let server: FixtureServer;
  let tools: ToolRegistry;

  beforeAll(async () => {
    server = await startFixtureServer({ 'GET /w/api.php': mediawiki });
    const wikipedia = new MediaWikiProvider({ baseUrl: `${server.baseUrl}/w/api.php`, userAgent: USER_AGENT });
    tools = createToolRegistry({ wikipedia, searchPassages: async () => [] });
  });

  afterAll(async () => {
    await server.close();
  });

  const data = async <T>(name: string, args: unknown) => (await tools.invoke(name, args)).data as T;

  it('search_wikipedia sends list=search with the User-Agent and keeps MediaWiki fields', async () => {
    const result = await data<{ count: number; language: string; results: Record<string, unknown>[] }>('search_wikipedia', { query: 'Eiffel Tower', limit: 3 });
    expect(result).toMatchObject({ count: 3, language: 'en' });
    expect(result.results[0]).toEqual({
      title: 'Eiffel Tower',
      pageid: 9232,
      wordcount: 12345,
      timestamp: '2025-01-02T10:11:12Z',
      snippet: expect.stringContaining('<span class="searchmatch">Eiffel</span>'),
    });
    const request = server.requests.at(-1);
    expect(request?.headers['user-agent']).toBe(USER_AGENT);
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toMatchObject({ action: 'query', list: 'search', srsearch: 'Eiffel Tower', srlimit: '3', format: 'json', formatversion: '2' });
  });

  it('get_article parses the plain-text extract into summary, section tree, categories and links', async () => {
    const article = await data<Record<string, unknown>>('get_article', { title: 'eiffel_tower' });
    expect(server.requests.at(-1)?.url.searchParams.get('titles')).toBe('Eiffel tower');
    expect(article).toMatchObject({
      title: 'Eiffel Tower',
      pageid: 9232,
      url: 'https://en.wikipedia.org/wiki/Eiffel_Tower',
      exists: true,
      categories: ['Towers in Paris', "World's fairs in Paris"],
      links: ['Champ de Mars', 'Gustave Eiffel', 'Maurice Koechlin'],
      summary: expect.stringMatching(/^The Eiffel Tower is a wrought-iron.*1889\.$/),
      sections: [
        {
          title: 'History',
          level: 0,
          text: '',
          sections: [
            { title: 'Origin', level: 1, text: expect.stringContaining('Maurice Koechlin'), sections: [] },
            { title: 'Construction', level: 1, text: expect.stringContaining('28 January 1887'), sections: [] },
          ],
        },
        { title: 'Design', level: 0, text: expect.stringContaining('330 metres'), sections: [] },
      ],
    });
    expect(article.text).not.toContain('==');
  });

  it('summarize_article_section and extract_key_facts use the real sections', async () => {
    const section = await data<{ section_title: string; summary: string }>('summarize_article_section', { title: 'Eiffel Tower', section_title: 'construction', max_length: 30 });
    expect(section).toEqual({ title: 'Eiffel Tower', section_title: 'Construction', summary: 'Work on the foundations start…' });
    const facts = await data<{ facts: string[] }>('extract_key_facts', { title: 'Eiffel Tower', topic_within_article: 'Construction', count: 5 });
    expect(facts.facts).toEqual(['Work on the foundations started on 28 January 1887.', 'The tower was completed on 31 March 1889.']);
  });

  it('get_related_topics gives links with 200-character intros, then categories', async () => {
    const related = await data<{ related_topics: Record<string, unknown>[] }>('get_related_topics', { title: 'Eiffel Tower', limit: 4 });
    expect(related.related_topics.map((topic) => [topic.title, topic.type])).toEqual([
      ['Champ de Mars', 'link'],
      ['Gustave Eiffel', 'link'],
      ['Towers in Paris', 'category'],
      ["World's fairs in Paris", 'category'],
    ]);
    expect((related.related_topics[0]?.summary as string).length).toBe(200);
  });

  it('a missing page is notFound with the search results as close titles', async () => {
    const error = (await tools.invoke('get_summary', { title: 'Eifel Towr' }).catch((err: unknown) => err)) as ToolError;
    expect(error).toBeInstanceOf(ToolError);
    expect(error.kind).toBe('notFound');
    expect(error.details.suggestions).toEqual(['Eiffel Tower', 'Eifel']);
  });

  it('maps the API error "ratelimited" to a retryable rateLimited error', async () => {
    const error = (await tools.invoke('get_article', { title: 'Ratelimited' }).catch((err: unknown) => err)) as ToolError;
    expect(error).toMatchObject({ kind: 'rateLimited', retryable: true });
  });

  it('maps HTTP 503 to a retryable unavailable error', async () => {
    const down = await startFixtureServer({ 'GET /w/api.php': { status: 503, body: 'upstream down' } });
    const offline = createToolRegistry({ wikipedia: new MediaWikiProvider({ baseUrl: `${down.baseUrl}/w/api.php` }), searchPassages: async () => [] });
    const error = (await offline.invoke('search_wikipedia', { query: 'x' }).catch((err: unknown) => err)) as ToolError;
    await down.close();
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true });
  });
});
