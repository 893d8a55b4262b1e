import { z } from 'zod';
import { truncate } from '../../shared/text';
import { clampedInt, queryArgument } from '../arguments';
import { defineTool, type Tool } from '../tool';
import { leadingSentences, sentencesAboutTopic } from './key-facts';
import type { WikiPage, WikipediaProvider } from './page';
import { findSection, sectionNotFound } from './sections';

export const MAX_SEARCH_WIKIPEDIA_LIMIT = 500;
export const MAX_ARTICLE_LINKS = 100;
export const DEFAULT_SECTION_SUMMARY_CHARS = 300;

const OFFLINE_NOTE =
  'Offline (index provider) pages have no section markup: sections are the page\'s passages in order ("Section 1", "Section 2", …) and the summary is the first passage.';

const title = z.string().trim().min(1).describe('Exact Wikipedia page title, e.g. "Eiffel Tower" (underscores and FEVER -LRB-/-RRB- are accepted)');
/** The seven Wikipedia tools of MERMAID (§2.4), same names, arguments and output shapes, over any provider. */
export function createWikipediaTools(wikipedia: WikipediaProvider): Tool[] {
  return [
    defineTool({
      name: 'search_wikipedia',
      description: 'Search Wikipedia for articles matching a query. Returns titles with a matching snippet; use get_article or get_summary on a title.',
      input: z.object({
        query: queryArgument,
        limit: clampedInt(10, MAX_SEARCH_WIKIPEDIA_LIMIT).describe(`Maximum number of results (1-${MAX_SEARCH_WIKIPEDIA_LIMIT}, default 10)`),
      }),
      async run({ query, limit }) {
        const { hits } = await wikipedia.search(query, limit);
        return { query, results: hits, status: 'success', count: hits.length, language: wikipedia.language };
      },
    }),
    defineTool({
      name: 'get_article',
      description: `Get the full content of a Wikipedia article: summary, text, sections, categories and up to ${MAX_ARTICLE_LINKS} links. ${OFFLINE_NOTE}`,
      input: z.object({ title }),
      async run(args) {
        const page = await wikipedia.getPage(args.title);
        return { ...page, links: page.links.slice(0, MAX_ARTICLE_LINKS), exists: true };
      },
    }),
    defineTool({
      name: 'get_summary',
      description: `Get the summary (lead) of a Wikipedia article. ${OFFLINE_NOTE}`,
      input: z.object({ title }),
      async run(args) {
        const page = await wikipedia.getPage(args.title);
        return { title: page.title, summary: page.summary };
      },
    }),
    defineTool({
      name: 'get_sections',
      description: `Get the sections of a Wikipedia article as a tree (title, level, text, subsections). ${OFFLINE_NOTE}`,
      input: z.object({ title }),
      async run(args) {
        const page = await wikipedia.getPage(args.title);
        return { title: page.title, sections: page.sections };
      },
    }),
    defineTool({
      name: 'summarize_article_section',
      description: `Get the beginning (max_length characters) of one section of a Wikipedia article, named by its title, its number, or "Summary". ${OFFLINE_NOTE}`,
      input: z.object({
        title,
        section_title: z.string().trim().min(1).describe('Section title as get_sections lists it, a section number, or "Summary"'),
        max_length: clampedInt(DEFAULT_SECTION_SUMMARY_CHARS, 5000).describe(`Characters to return (default ${DEFAULT_SECTION_SUMMARY_CHARS})`),
      }),
      async run(args) {
        const page = await wikipedia.getPage(args.title);
        const section = findSection(page, args.section_title);
        if (!section) throw sectionNotFound(page, args.section_title);
        return { title: page.title, section_title: section.title, summary: truncate(section.text, args.max_length) };
      },
    }),
    defineTool({
      name: 'extract_key_facts',
      description:
        'Extract key facts (sentences) from a Wikipedia article: the first sentences of its summary, or, with topic_within_article, of the section of that name or else the article sentences sharing most words with the topic.',
      input: z.object({
        title,
        topic_within_article: z.string().trim().default('').describe('Optional section title or topic to focus on'),
        count: clampedInt(5, 20).describe('Number of facts (default 5)'),
      }),
      async run(args) {
        const page = await wikipedia.getPage(args.title);
        return { title: page.title, topic_within_article: args.topic_within_article, facts: keyFacts(page, args.topic_within_article, args.count) };
      },
    }),
    defineTool({
      name: 'get_related_topics',
      description:
        'Get topics related to a Wikipedia article, each with a 200-character summary: its links and categories (live MediaWiki), or the pages sharing most terms with it (offline index).',
      input: z.object({ title, limit: clampedInt(10, 50).describe('Maximum number of topics (default 10)') }),
      async run(args) {
        const page = await wikipedia.getPage(args.title);
        return { title: page.title, related_topics: await wikipedia.relatedTopics(page, args.limit) };
      },
    }),
  ];
}

function keyFacts(page: WikiPage, topic: string, count: number): string[] {
  if (topic === '') return leadingSentences(page.summary, count);
  const section = findSection(page, topic);
  return section ? leadingSentences(section.text, count) : sentencesAboutTopic(page.text, topic, count);
}
