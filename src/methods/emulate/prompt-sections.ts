/**
 * How EMULATE prompts show search results (spec §2.0), and how the simulator reads them back.
 * Contents are put on one line so that each item is exactly three lines.
 */

export const EMPTY_MEMORY = 'The set is currently empty.';
export const MEMORY_HEADER = 'Collected search results:';
export const NEW_RESULT_HEADER = 'New search result:';
export const RANK_RESULTS_HEADER = 'Search results:';
export const QUERY_PREFIX = 'Search query: ';

export interface MemoryItem {
  title: string;
  link: string;
  content: string;
}

export interface RankItem {
  position: number;
  title: string;
  link: string;
  snippet: string;
}

/** The code's evidence format: `Title: {title} \nURL: {link} \nContent: {content}`. */
export function renderMemoryItem(item: MemoryItem): string {
  return `Title: ${oneLine(item.title)} \nURL: ${item.link} \nContent: ${oneLine(item.content)}`;
}

export function renderMemoryBank(items: readonly MemoryItem[]): string {
  return items.length === 0 ? EMPTY_MEMORY : items.map(renderMemoryItem).join('\n\n');
}

/** The code's SearchRank format: `position: {p} \ntitle: {t} \nlink: {l}\nsnippet: {s}`, joined by one newline. */
export function renderRankItem(item: RankItem): string {
  return `position: ${item.position} \ntitle: ${oneLine(item.title)} \nlink: ${item.link}\nsnippet: ${oneLine(item.snippet)}`;
}

export function renderRankList(items: readonly RankItem[]): string {
  return items.map(renderRankItem).join('\n');
}

/** The memory items under `header` (up to the next header line that is not part of an item). */
export function parseMemorySection(text: string, header: string): MemoryItem[] {
  const lines = sectionLines(text, header);
  const items: MemoryItem[] = [];
  for (let i = 0; i + 2 < lines.length; i++) {
    const [title, url, content] = [lines[i]!, lines[i + 1]!, lines[i + 2]!];
    if (title.startsWith('Title: ') && url.startsWith('URL: ') && content.startsWith('Content: ')) {
      items.push({ title: title.slice(7).trim(), link: url.slice(5).trim(), content: content.slice(9).trim() });
      i += 2;
    }
  }
  return items;
}

export function parseRankSection(text: string): RankItem[] {
  const lines = sectionLines(text, RANK_RESULTS_HEADER);
  const items: RankItem[] = [];
  for (let i = 0; i + 3 < lines.length; i++) {
    const position = /^position: (\d+)/.exec(lines[i]!);
    if (!position || !lines[i + 1]!.startsWith('title: ') || !lines[i + 2]!.startsWith('link: ') || !lines[i + 3]!.startsWith('snippet: ')) continue;
    items.push({
      position: Number(position[1]),
      title: lines[i + 1]!.slice(7).trim(),
      link: lines[i + 2]!.slice(6).trim(),
      snippet: lines[i + 3]!.slice(9).trim(),
    });
    i += 3;
  }
  return items;
}

export function parseQueryLine(text: string): string | undefined {
  return text
    .split('\n')
    .find((line) => line.startsWith(QUERY_PREFIX))
    ?.slice(QUERY_PREFIX.length)
    .trim();
}

function sectionLines(text: string, header: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === header);
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') continue;
    if (!/^(Title|URL|Content): |^(position|title|link|snippet): /.test(line)) break;
    out.push(line);
  }
  return out;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
