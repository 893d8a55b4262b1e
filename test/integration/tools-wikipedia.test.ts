import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { OBSERVATION_MAX_CHARS } from '../../src/shared/constants';
import { createToolRegistry } from '../../src/tools/create-registry';
import { ToolError } from '../../src/tools/errors';
import type { ToolRegistry } from '../../src/tools/registry';
import { IndexWikipediaProvider } from '../../src/tools/wikipedia/index-provider';
import { searchPassages } from '../../src/retrieval/bm25';
import { FIXTURE_CLAIMS, FIXTURE_CORPUS, hasFixtureCorpus, ingestWiki } from '../support/tool-indices';
import { DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200', requestTimeoutMs: 120_000 });
const prefixes: string[] = [];

async function registryOver(file: string, label: string): Promise<ToolRegistry> {
  const prefix = uniqueName(label);
  prefixes.push(prefix);
  const index = await ingestWiki(es, prefix, file);
  return createToolRegistry({ wikipedia: new IndexWikipediaProvider(es, index), searchPassages: (query, k) => searchPassages(es, index, query, k) });
}

async function data<T>(registry: ToolRegistry, name: string, args: unknown): Promise<T> {
  return (await registry.invoke(name, args)).data as T;
}

async function toolError(registry: ToolRegistry, name: string, args: unknown): Promise<ToolError> {
  const error = await registry.invoke(name, args).catch((err: unknown) => err);
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

afterAll(async () => {
  for (const prefix of prefixes) await deleteIndicesWithPrefix(es, prefix);
  await es.close();
});

describe.skipIf(!hasFixtureCorpus)('Wikipedia tools on the fixture corpus (real Elasticsearch)', () => {
  let tools: ToolRegistry;
  beforeAll(async () => {
    tools = await registryOver(FIXTURE_CORPUS, 'tools-fixture');
  });

  it('search_wikipedia finds the gold title of fixture claims, one result per page, MediaWiki shape', async () => {
    const claims = fs.readFileSync(FIXTURE_CLAIMS, 'utf8').trim().split('\n').slice(0, 5).map((line) => JSON.parse(line) as { claim: string; gold_titles: string[] });
    for (const claim of claims) {
      const result = await data<{ results: { title: string }[] }>(tools, 'search_wikipedia', { query: claim.claim, limit: 10 });
      expect(result.results.map((hit) => hit.title)).toContain(claim.gold_titles[0]);
    }
    const walker = await data<{ query: string; status: string; count: number; language: string; results: { title: string; snippet: string; pageid: string }[] }>(
      tools,
      'search_wikipedia',
      { query: 'Andrew Kevin Walker screenwriter', limit: 3 },
    );
    expect(walker).toMatchObject({ query: 'Andrew Kevin Walker screenwriter', status: 'success', count: 3, language: 'en' });
    expect(walker.results[0]).toMatchObject({ title: 'Andrew Kevin Walker', pageid: 'fever:Andrew Kevin Walker' });
    expect(walker.results[0]?.snippet).toContain('<span class="searchmatch">');
    expect(new Set(walker.results.map((hit) => hit.title)).size).toBe(walker.results.length);
  });

  it('search_wikipedia clamps limit to 1..500', async () => {
    expect((await data<{ count: number }>(tools, 'search_wikipedia', { query: 'tennis', limit: 0 })).count).toBe(1);
    expect((await data<{ count: number }>(tools, 'search_wikipedia', { query: 'tennis', limit: 100_000 })).count).toBeLessThanOrEqual(500);
  });

  it('get_article reassembles the page from its passages', async () => {
    const article = await data<Record<string, unknown>>(tools, 'get_article', { title: 'Andrew Kevin Walker' });
    expect(article).toMatchObject({ title: 'Andrew Kevin Walker', exists: true, pageid: 'fever:Andrew Kevin Walker', categories: [], links: [] });
    expect(article.text).toContain('1964');
    expect(article.text).toContain('Sleepy Hollow');
    expect(article.url).toBe('https://en.wikipedia.org/wiki/Andrew_Kevin_Walker');
  });

  it('get_article joins documents that share a title, in passage order', async () => {
    const article = await data<{ text: string; sections: unknown[] }>(tools, 'get_article', { title: 'Kentucky' });
    expect(article.text.split('\n\n')).toHaveLength(2);
    expect(article.sections.length).toBeGreaterThanOrEqual(2);
  });

  it('title lookup falls back to normalised and case-insensitive titles', async () => {
    expect((await data<{ title: string }>(tools, 'get_summary', { title: 'andrew_kevin_walker' })).title).toBe('Andrew Kevin Walker');
    expect((await data<{ title: string }>(tools, 'get_summary', { title: 'ANDREW KEVIN WALKER' })).title).toBe('Andrew Kevin Walker');
  });

  it('a missing page is a notFound error listing close titles', async () => {
    const error = await toolError(tools, 'get_article', { title: 'Andrew Kevin Walkr' });
    expect(error.kind).toBe('notFound');
    expect(error.message).toContain('Page does not exist');
    expect(error.details.suggestions).toContain('Andrew Kevin Walker');
    expect(error.message).toContain('Andrew Kevin Walker');
  });

  it('a title-based tool called MERMAID-style with {query} is an invalid-arguments error', async () => {
    const error = await toolError(tools, 'get_article', { query: 'Andrew Kevin Walker' });
    expect(error.kind).toBe('invalidArguments');
    expect(error.message).toContain("'title'");
  });

  it('get_related_topics returns other pages sharing terms, each with a 200-character summary', async () => {
    const related = await data<{ title: string; related_topics: { title: string; summary: string; type: string }[] }>(tools, 'get_related_topics', {
      title: 'Andrew Kevin Walker',
      limit: 4,
    });
    expect(related.related_topics.length).toBeGreaterThan(0);
    expect(related.related_topics.length).toBeLessThanOrEqual(4);
    for (const topic of related.related_topics) {
      expect(topic.title).not.toBe('Andrew Kevin Walker');
      expect(topic.type).toBe('similar');
      expect(topic.summary.length).toBeGreaterThan(0);
      expect(topic.summary.length).toBeLessThanOrEqual(200);
    }
  });

  it('observations are cut to OBSERVATION_MAX_CHARS while the data stays whole', async () => {
    const longest = await data<{ results: { title: string }[] }>(tools, 'search_wikipedia', { query: 'United States history war', limit: 5 });
    const invocation = await tools.invoke('get_article', { title: 'United States' });
    const text = (invocation.data as { text: string }).text;
    expect(longest.results.length).toBeGreaterThan(0);
    expect(text.length).toBeGreaterThan(OBSERVATION_MAX_CHARS);
    expect(invocation.observation.length).toBe(OBSERVATION_MAX_CHARS);
    expect(invocation.truncated).toBe(true);
  });

  it('rag_search returns passages with ids and text', async () => {
    const result = await data<{ passages: { id: string; title: string; text: string }[] }>(tools, 'rag_search', { query: 'Andrew Kevin Walker born 1964', k: 3 });
    expect(result.passages).toHaveLength(3);
    expect(result.passages[0]).toMatchObject({ id: 'fever:Andrew Kevin Walker#0', title: 'Andrew Kevin Walker' });
    expect(result.passages[0]?.text).toContain('1964');
  });
});

describe('Wikipedia tools on the demo corpus (real Elasticsearch)', () => {
  let tools: ToolRegistry;
  beforeAll(async () => {
    tools = await registryOver(DEMO_CORPUS, 'tools-demo');
  });

  it('search_wikipedia ranks the matching page first', async () => {
    const result = await data<{ results: { title: string }[] }>(tools, 'search_wikipedia', { query: 'who discovered penicillin' });
    expect(result.results[0]?.title).toBe('Penicillin');
  });

  it('get_summary is the first passage', async () => {
    const summary = await data<{ title: string; summary: string }>(tools, 'get_summary', { title: 'Eiffel Tower' });
    expect(summary.title).toBe('Eiffel Tower');
    expect(summary.summary).toMatch(/^The Eiffel Tower is a wrought-iron lattice tower/);
  });

  it('get_sections lists passage windows as sections', async () => {
    const { sections } = await data<{ sections: { title: string; level: number; text: string; sections: unknown[] }[] }>(tools, 'get_sections', { title: 'Eiffel Tower' });
    expect(sections[0]).toMatchObject({ title: 'Section 1', level: 0, sections: [] });
    expect(sections.map((section) => section.text).join(' ')).toContain('Chrysler Building');
  });

  it('summarize_article_section returns the first max_length characters of the named section', async () => {
    const section = await data<{ section_title: string; summary: string }>(tools, 'summarize_article_section', { title: 'Eiffel Tower', section_title: 'section 1', max_length: 40 });
    expect(section.section_title).toBe('Section 1');
    expect(section.summary).toHaveLength(40);
    expect(section.summary.startsWith('The Eiffel Tower')).toBe(true);
    const missing = await toolError(tools, 'summarize_article_section', { title: 'Eiffel Tower', section_title: 'History' });
    expect(missing.kind).toBe('notFound');
    expect(missing.message).toContain('Section 1');
  });

  it('extract_key_facts: leading sentences, or the sentences about a topic', async () => {
    const lead = await data<{ facts: string[] }>(tools, 'extract_key_facts', { title: 'Eiffel Tower', count: 2 });
    expect(lead.facts).toHaveLength(2);
    expect(lead.facts[0]).toMatch(/^The Eiffel Tower is a wrought-iron/);
    const topical = await data<{ topic_within_article: string; facts: string[] }>(tools, 'extract_key_facts', {
      title: 'Eiffel Tower',
      topic_within_article: 'Chrysler Building height',
      count: 1,
    });
    expect(topical.topic_within_article).toBe('Chrysler Building height');
    expect(topical.facts).toHaveLength(1);
    expect(topical.facts[0]).toContain('Chrysler Building');
  });

  it('get_related_topics finds pages about similar things', async () => {
    const related = await data<{ related_topics: { title: string }[] }>(tools, 'get_related_topics', { title: 'Mars', limit: 5 });
    expect(related.related_topics.map((topic) => topic.title)).not.toContain('Mars');
    expect(related.related_topics.length).toBeGreaterThan(0);
  });

  it('a missing index is an indexNotFound error', async () => {
    const missing = createToolRegistry({
      wikipedia: new IndexWikipediaProvider(es, `${uniqueName('none')}-wiki`),
      searchPassages: (query, k) => searchPassages(es, `${uniqueName('none')}-wiki`, query, k),
    });
    expect((await toolError(missing, 'get_article', { title: 'Mars' })).kind).toBe('indexNotFound');
    expect((await toolError(missing, 'rag_search', { query: 'Mars' })).kind).toBe('indexNotFound');
  });
});
