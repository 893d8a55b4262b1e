/**
 * The plain-text layout of Tool-MAD's prompts beyond the shared claim/evidence markers: other
 * debaters' answers quoted line by line (so their text never reads as a claim or evidence line),
 * the answer under review, the allowed final answers, numbered statements. The simulator reads
 * prompts back with the parsers below.
 */

export const OPTIONS_PREFIX = 'Final answer options: ';
export const PREVIOUS_QUERY_PREFIX = 'Before you used query: ';
export const ANSWER_HEADER = 'Answer under review:';
export const STATEMENTS_HEADER = 'Statements:';
export const QUESTION_NUMBER = /^Question (\d+) of (\d+)\b/m;
const QUOTE = '> ';

export function renderOptions(labels: readonly string[]): string {
  return `${OPTIONS_PREFIX}${labels.join(' | ')}`;
}

export function parseOptions(text: string): string[] {
  const line = text.split('\n').find((l) => l.startsWith(OPTIONS_PREFIX));
  return line ? line.slice(OPTIONS_PREFIX.length).split(' | ').map((s) => s.trim()).filter(Boolean) : [];
}

/** `<heading>` then the text, each line quoted. */
export function renderQuoted(heading: string, text: string): string {
  return [heading, ...text.split('\n').map((line) => `${QUOTE}${line}`)].join('\n');
}

/** Every quoted block, in order, each with the heading line above it. */
export function parseQuotedBlocks(text: string): { heading: string; text: string }[] {
  const blocks: { heading: string; text: string }[] = [];
  let current: { heading: string; lines: string[] } | null = null;
  let previousLine = '';
  for (const line of text.split('\n')) {
    if (line.startsWith(QUOTE) || line === QUOTE.trimEnd()) {
      if (!current) current = { heading: previousLine, lines: [] };
      current.lines.push(line.slice(QUOTE.length));
    } else {
      if (current) blocks.push({ heading: current.heading, text: current.lines.join('\n') });
      current = null;
      previousLine = line;
    }
  }
  if (current) blocks.push({ heading: current.heading, text: current.lines.join('\n') });
  return blocks;
}

export function renderStatements(statements: readonly string[]): string {
  return [STATEMENTS_HEADER, ...statements.map((s, i) => `${i + 1}. ${s.replace(/\s+/g, ' ').trim()}`)].join('\n');
}

export function parseStatements(text: string): string[] {
  const at = text.indexOf(`${STATEMENTS_HEADER}\n`);
  if (at < 0) return [];
  const out: string[] = [];
  for (const line of text.slice(at + STATEMENTS_HEADER.length + 1).split('\n')) {
    const match = /^\d+\. (.*)$/.exec(line);
    if (!match) break;
    out.push(match[1]!);
  }
  return out;
}

export function parsePreviousQuery(text: string): string | undefined {
  return text
    .split('\n')
    .find((line) => line.startsWith(PREVIOUS_QUERY_PREFIX))
    ?.slice(PREVIOUS_QUERY_PREFIX.length)
    .trim();
}
