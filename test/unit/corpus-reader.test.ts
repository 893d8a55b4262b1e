import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../src/corpus/document';
import { FEVER_WIKI_SOURCE, normalizeFeverTitle, parseCorpusLine, parseFeverLines } from '../../src/corpus/formats';
import { CorpusFormatError, emptyReadStats, readCorpus, type ReadCorpusOptions } from '../../src/corpus/reader';

const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-corpus-'));
afterAll(() => fs.rmSync(tmpDir, { recursive: true, force: true }));

function writeLines(name: string, lines: string[]): string {
  const file = path.join(tmpDir, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function readAll(file: string, options: ReadCorpusOptions = {}) {
  const stats = emptyReadStats();
  const documents: CorpusDocument[] = [];
  for await (const document of readCorpus(file, options, stats)) documents.push(document);
  return { documents, stats };
}

const verityRecord = {
  id: 'demo:Mount Fuji',
  title: 'Mount Fuji',
  text: 'Mount Fuji is in Japan. It is a volcano.',
  sentences: ['Mount Fuji is in Japan.', 'It is a volcano.'],
  source: 'verity_demo',
};

// A small sample in the shape of FEVER's wiki-pages dump, written for this test.
const feverPages = [
  {
    id: 'Soul_Food_-LRB-film-RRB-',
    text: 'Soul Food is a 1997 film . It was directed by George Tillman Jr. .',
    lines: '0\tSoul Food is a 1997 film .\tfilm\n1\tIt was directed by George Tillman Jr. .\n2\t',
  },
  { id: 'Empty_page', text: '', lines: '' },
  { id: 'Star_Trek_-COLON-_The_-LSB-Lost-RSB-_Era', text: 'A book -LRB- novel -RRB- .', lines: '0\tA book -LRB- novel -RRB- .' },
];

describe('FEVER helpers', () => {
  it('normalises page ids to titles', () => {
    expect(normalizeFeverTitle('Soul_Food_-LRB-film-RRB-')).toBe('Soul Food (film)');
    expect(normalizeFeverTitle('Star_Trek_-COLON-_The_-LSB-Lost-RSB-_Era')).toBe('Star Trek : The [Lost] Era');
  });

  it('keeps sentence numbers as array positions and drops link columns', () => {
    expect(parseFeverLines('0\tFirst .\tlink\tLink\n1\t\n2\tThird -LRB- x -RRB- .')).toEqual(['First .', '', 'Third ( x ) .']);
  });
});

describe('parseCorpusLine', () => {
  it('parses verity corpus records', () => {
    expect(parseCorpusLine(JSON.stringify(verityRecord))).toEqual({ kind: 'document', document: verityRecord });
  });

  it('accepts null sentences for unsplit paragraphs', () => {
    const parsed = parseCorpusLine(JSON.stringify({ ...verityRecord, sentences: null }));
    expect(parsed.kind === 'document' && parsed.document.sentences).toBeNull();
  });

  it('names missing fields', () => {
    const parsed = parseCorpusLine(JSON.stringify({ id: 'x', text: 'y' }));
    expect(parsed.kind).toBe('malformed');
    expect(parsed.kind === 'malformed' && parsed.reason).toContain('title');
  });

  it('rejects a FEVER page when the format is forced to verity', () => {
    expect(parseCorpusLine(JSON.stringify(feverPages[0]), 'verity').kind).toBe('malformed');
  });
});

describe('readCorpus', () => {
  it('reads the verity format', async () => {
    const file = writeLines('verity.jsonl', [JSON.stringify(verityRecord), '', JSON.stringify({ ...verityRecord, id: 'demo:2' })]);
    const { documents, stats } = await readAll(file);
    expect(documents.map((d) => d.id)).toEqual(['demo:Mount Fuji', 'demo:2']);
    expect(stats).toMatchObject({ documents: 2, skipped: 0, malformedCount: 0, bytesRead: fs.statSync(file).size });
  });

  it('reads FEVER wiki-pages, normalising titles and skipping empty pages', async () => {
    const file = writeLines('fever.jsonl', feverPages.map((page) => JSON.stringify(page)));
    const { documents, stats } = await readAll(file);
    expect(stats).toMatchObject({ documents: 2, skipped: 1, malformedCount: 0 });
    expect(documents[0]).toEqual({
      id: 'fever-wiki:Soul Food (film)',
      title: 'Soul Food (film)',
      text: 'Soul Food is a 1997 film . It was directed by George Tillman Jr. .',
      sentences: ['Soul Food is a 1997 film .', 'It was directed by George Tillman Jr. .', ''],
      source: FEVER_WIKI_SOURCE,
    });
    expect(documents[1]?.text).toBe('A book ( novel ) .');
  });

  it('detects the format per line in a mixed file', async () => {
    const file = writeLines('mixed.jsonl', [JSON.stringify(verityRecord), JSON.stringify(feverPages[0])]);
    const { documents } = await readAll(file);
    expect(documents.map((d) => d.source)).toEqual(['verity_demo', FEVER_WIKI_SOURCE]);
  });

  it('skips and reports malformed lines with their line numbers', async () => {
    const file = writeLines('bad.jsonl', [
      JSON.stringify(verityRecord),
      '{not json',
      JSON.stringify({ id: 'demo:x', title: 'X' }),
      JSON.stringify(verityRecord),
    ]);
    const { documents, stats } = await readAll(file);
    // Line 4 repeats line 1's id: skipped and reported, not stored over it.
    expect(documents).toHaveLength(1);
    expect(stats.duplicates).toEqual({ count: 1, first: [{ line: 4, id: verityRecord.id }] });
    expect(stats.malformedCount).toBe(2);
    expect(stats.malformed.map((m) => m.line)).toEqual([2, 3]);
    expect(stats.malformed[0]?.reason).toMatch(/invalid JSON/);
    expect(stats.malformed[1]?.reason).toMatch(/text/);
  });

  it('fails on the first malformed line in strict mode', async () => {
    const file = writeLines('strict.jsonl', [JSON.stringify(verityRecord), '[1, 2]', '{not json']);
    const error = await readAll(file, { strict: true }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(CorpusFormatError);
    expect(error).toMatchObject({ line: 2 });
    expect((error as Error).message).toContain('strict.jsonl:2');
  });
});
