import { wikipediaUrl } from './title';
import type { WikiPage, WikiSection } from './page';

export interface PagePassage {
  doc_id: string;
  title: string;
  passage: number;
  text: string;
}

/** Section titles of an offline page: its passages in order. */
export function passageSectionTitle(index: number): string {
  return `Section ${index + 1}`;
}

/**
 * Reassembles a page from its passages (sorted by document, then passage number). The corpus has
 * no section markup, so each passage window stands in for a top-level section, "Section 1", "Section 2", …,
 * and the lead (summary) is the first passage. Documents sharing a title (several source collections)
 * follow each other, separated by a blank line.
 */
export function pageFromPassages(passages: readonly PagePassage[]): WikiPage {
  const first = passages[0];
  if (!first) throw new Error('a page needs at least one passage');
  const documents = groupByDocument(passages);
  const sections: WikiSection[] = passages.map((passage, index) => ({ title: passageSectionTitle(index), level: 0, text: passage.text, sections: [] }));
  return {
    title: first.title,
    pageid: first.doc_id,
    url: wikipediaUrl(first.title),
    summary: first.text,
    text: documents.map((document) => document.map((passage) => passage.text).join(' ')).join('\n\n'),
    sections,
    categories: [],
    links: [],
  };
}

function groupByDocument(passages: readonly PagePassage[]): PagePassage[][] {
  const documents = new Map<string, PagePassage[]>();
  for (const passage of passages) documents.set(passage.doc_id, [...(documents.get(passage.doc_id) ?? []), passage]);
  return [...documents.values()];
}
