import { ToolError } from '../errors';
import type { WikiPage, WikiSection } from './page';

const LEAD_NAMES = new Set(['summary', 'introduction', 'intro', 'lead', 'abstract']);

/** Every section of the tree, parents before their subsections. */
export function flattenSections(sections: readonly WikiSection[]): WikiSection[] {
  return sections.flatMap((section) => [section, ...flattenSections(section.sections)]);
}

/**
 * The section a caller names: by title (any case), by number ("Section 2", "2"), or the lead
 * ("Summary", "Introduction"). Returns undefined when there is no such section.
 */
export function findSection(page: WikiPage, name: string): WikiSection | undefined {
  const wanted = name.trim().toLowerCase();
  if (LEAD_NAMES.has(wanted)) return { title: 'Summary', level: 0, text: page.summary, sections: [] };
  const all = flattenSections(page.sections);
  const byTitle = all.find((section) => section.title.toLowerCase() === wanted);
  if (byTitle) return byTitle;
  const number = /^(?:section\s*)?(\d+)$/.exec(wanted)?.[1];
  return number === undefined ? undefined : all[Number(number) - 1];
}

export function sectionNotFound(page: WikiPage, name: string): ToolError {
  const titles = flattenSections(page.sections).map((section) => section.title);
  return new ToolError('notFound', `Section "${name}" not found in article "${page.title}". Sections: ${titles.join('; ') || '(none)'}.`, {
    suggestions: titles,
  });
}
