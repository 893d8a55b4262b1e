import { describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../src/corpus/document';
import { packSentences, splitIntoPassages, splitSentences } from '../../src/corpus/passages';
import { passageId, toWikiPassageDoc } from '../../src/corpus/wiki-index';

function documentOf(sentences: string[] | null, text = sentences?.join(' ') ?? ''): CorpusDocument {
  return { id: 'test:Doc', title: 'Doc', text, sentences, source: 'test' };
}

const sentence = (n: number) => `Sentence number ${n} talks about something.`; // 42 characters

describe('splitSentences', () => {
  it('splits at sentence ends followed by a capital, digit or quote', () => {
    expect(splitSentences('It rains. 2024 was hot! "Why?" she asked. Is it? yes it is.')).toEqual([
      'It rains.',
      '2024 was hot!',
      '"Why?" she asked.',
      'Is it? yes it is.',
    ]);
  });

  it('does not split decimals or initials followed by lower case, and splits at line breaks', () => {
    expect(splitSentences('Pi is 3.14 roughly. e.g. this stays\nNew line here')).toEqual([
      'Pi is 3.14 roughly. e.g. this stays',
      'New line here',
    ]);
  });
});

describe('packSentences', () => {
  it('packs consecutive sentences up to the limit', () => {
    expect(packSentences(['aaaa.', 'bbbb.', 'cccc.'], 11)).toEqual(['aaaa. bbbb.', 'cccc.']);
  });

  it('cuts an overlong sentence at spaces', () => {
    const windows = packSentences(['one two three four five six'], 10);
    expect(windows).toEqual(['one two', 'three four', 'five six']);
    expect(windows.every((w) => w.length <= 10)).toBe(true);
  });
});

describe('splitIntoPassages', () => {
  it('windows sentence lists into passages of at most N characters, in order', () => {
    const sentences = Array.from({ length: 30 }, (_, i) => sentence(i));
    const passages = splitIntoPassages(documentOf(sentences), 200);
    expect(passages.every((p) => p.text.length <= 200)).toBe(true);
    expect(passages.map((p) => p.passage)).toEqual(passages.map((_, i) => i));
    expect(passages.map((p) => p.text).join(' ')).toBe(sentences.join(' '));
    expect(passages[0]).toMatchObject({ docId: 'test:Doc', title: 'Doc', passage: 0 });
  });

  it('ignores empty sentences (FEVER keeps them as placeholders)', () => {
    expect(splitIntoPassages(documentOf(['A first one.', '', 'A third one.'])).map((p) => p.text)).toEqual([
      'A first one. A third one.',
    ]);
  });

  it('splits unsplit text at sentence boundaries', () => {
    const text = Array.from({ length: 30 }, (_, i) => sentence(i)).join(' ');
    const passages = splitIntoPassages(documentOf(null, text), 200);
    expect(passages.length).toBeGreaterThan(5);
    expect(passages.every((p) => p.text.length <= 200 && p.text.endsWith('.'))).toBe(true);
  });

  it('is deterministic and uses about 600 characters by default', () => {
    const text = Array.from({ length: 100 }, (_, i) => sentence(i)).join(' ');
    const first = splitIntoPassages(documentOf(null, text));
    expect(splitIntoPassages(documentOf(null, text))).toEqual(first);
    expect(first.every((p) => p.text.length <= 600)).toBe(true);
    expect(first.slice(0, -1).every((p) => p.text.length > 550)).toBe(true);
  });

  it('gives no passages for an empty document and rejects a bad size', () => {
    expect(splitIntoPassages(documentOf(null, '  '))).toEqual([]);
    expect(() => splitIntoPassages(documentOf(null, 'x'), 0)).toThrow(RangeError);
  });
});

describe('wiki passage documents', () => {
  it('prefixes content with the title and builds deterministic ids', () => {
    const [passage] = splitIntoPassages(documentOf(['Hello there.']));
    expect(toWikiPassageDoc(passage!, 'test')).toEqual({
      doc_id: 'test:Doc',
      title: 'Doc',
      passage: 0,
      text: 'Hello there.',
      content: 'Doc: Hello there.',
      source: 'test',
    });
    expect(passageId('test:Doc', 3)).toBe('test:Doc#3');
  });

  it('keeps ids within the 512-byte limit of Elasticsearch', () => {
    const long = `x:${'é'.repeat(400)}`;
    const id = passageId(long, 1);
    expect(Buffer.byteLength(id)).toBeLessThanOrEqual(512);
    expect(passageId(long, 1)).toBe(id);
    expect(passageId(long, 2)).not.toBe(id);
  });
});
