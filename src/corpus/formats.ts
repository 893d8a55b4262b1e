import { z } from 'zod';
import type { CorpusDocument, CorpusFormat } from './document';

export const FEVER_WIKI_SOURCE = 'fever_wiki_pages';

const verityRecordSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  text: z.string(),
  sentences: z.array(z.string()).nullable(),
  source: z.string(),
  url: z.string().optional(),
});

const feverWikiPageSchema = z.object({
  id: z.string(),
  text: z.string(),
  lines: z.string(),
});

/** The outcome of parsing one line: a document, a page to skip, or a malformed line. */
export type ParsedLine =
  | { kind: 'document'; document: CorpusDocument }
  | { kind: 'skipped'; reason: string }
  | { kind: 'malformed'; reason: string };

const FEVER_TOKENS: Record<string, string> = {
  '-LRB-': '(',
  '-RRB-': ')',
  '-LSB-': '[',
  '-RSB-': ']',
  '-LCB-': '{',
  '-RCB-': '}',
  '-COLON-': ':',
};
const FEVER_TOKEN_PATTERN = new RegExp(Object.keys(FEVER_TOKENS).join('|'), 'g');

export function replaceFeverTokens(text: string): string {
  return text.replace(FEVER_TOKEN_PATTERN, (token) => FEVER_TOKENS[token] ?? token);
}

/** `Soul_Food_-LRB-film-RRB-` → `Soul Food (film)`. */
export function normalizeFeverTitle(pageId: string): string {
  return replaceFeverTokens(pageId.replace(/_/g, ' '));
}

/**
 * FEVER `lines` hold one "<n>\t<sentence>\t<link>…" row per sentence. The array index stays
 * the sentence number (FEVER evidence cites it), so empty sentences stay as "".
 */
export function parseFeverLines(lines: string): string[] {
  const sentences: string[] = [];
  for (const row of lines.split('\n')) {
    const [number, sentence = ''] = row.split('\t');
    const index = Number(number);
    if (number === undefined || number === '' || !Number.isInteger(index) || index < 0) continue;
    sentences[index] = replaceFeverTokens(sentence.trim());
  }
  return Array.from(sentences, (sentence) => sentence ?? '');
}

function feverPageToDocument(page: z.infer<typeof feverWikiPageSchema>): ParsedLine {
  if (page.text.trim() === '') return { kind: 'skipped', reason: `empty FEVER page ${page.id}` };
  const title = normalizeFeverTitle(page.id);
  const sentences = parseFeverLines(page.lines);
  return {
    kind: 'document',
    document: {
      id: `fever-wiki:${title}`,
      title,
      text: replaceFeverTokens(page.text),
      sentences: sentences.some((sentence) => sentence !== '') ? sentences : null,
      source: FEVER_WIKI_SOURCE,
    },
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(record)'}: ${issue.message}`).join('; ');
}

function detectFormat(record: unknown): Exclude<CorpusFormat, 'auto'> {
  const isFever = typeof record === 'object' && record !== null && 'lines' in record && !('sentences' in record);
  return isFever ? 'fever-wiki-pages' : 'verity';
}

/** Parses one JSONL line; `auto` decides the format per line (FEVER pages carry `lines`). */
export function parseCorpusLine(line: string, format: CorpusFormat = 'auto'): ParsedLine {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch (err) {
    return { kind: 'malformed', reason: `invalid JSON: ${(err as Error).message}` };
  }
  const effective = format === 'auto' ? detectFormat(record) : format;
  if (effective === 'fever-wiki-pages') {
    const page = feverWikiPageSchema.safeParse(record);
    return page.success ? feverPageToDocument(page.data) : { kind: 'malformed', reason: describeIssues(page.error) };
  }
  const parsed = verityRecordSchema.safeParse(record);
  return parsed.success ? { kind: 'document', document: parsed.data } : { kind: 'malformed', reason: describeIssues(parsed.error) };
}
