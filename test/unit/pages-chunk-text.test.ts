import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/pages/chunk-text';

const TEXT = 'First sentence is here. Second sentence follows it.\n\nA new paragraph starts now and goes on for a while. It ends here.';

describe('chunkText', () => {
  it('returns one chunk when the text fits', () => {
    expect(chunkText('  short text ', { maxChars: 100 })).toEqual([{ text: 'short text', start: 2, end: 12 }]);
  });

  it('never exceeds maxChars, cuts at boundaries, and offsets point into the input', () => {
    const chunks = chunkText(TEXT, { maxChars: 60 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(60);
      expect(TEXT.slice(chunk.start, chunk.end)).toBe(chunk.text);
      expect(chunk.text).toBe(chunk.text.trim());
    }
    expect(chunks[0]?.text).toBe('First sentence is here. Second sentence follows it.');
    expect(chunks[1]?.text.startsWith('A new paragraph')).toBe(true);
  });

  it('covers all the words in order without overlap', () => {
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    expect(chunkText(TEXT, { maxChars: 30 }).flatMap((chunk) => words(chunk.text))).toEqual(words(TEXT));
  });

  it('repeats about `overlap` characters, starting on a word', () => {
    const chunks = chunkText(TEXT, { maxChars: 40, overlap: 15 });
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1]!;
      const current = chunks[i]!;
      expect(current.start).toBeLessThan(previous.end);
      expect(current.start).toBeGreaterThan(previous.start);
      expect(/\s/.test(TEXT[current.start - 1] ?? ' ')).toBe(true);
    }
  });

  it('hard-cuts a single word longer than maxChars', () => {
    expect(chunkText('x'.repeat(25), { maxChars: 10 }).map((chunk) => chunk.text.length)).toEqual([10, 10, 5]);
  });

  it('validates its options', () => {
    expect(() => chunkText(TEXT, { maxChars: 0 })).toThrow(RangeError);
    expect(() => chunkText(TEXT, { maxChars: 10, overlap: 10 })).toThrow(RangeError);
    expect(chunkText('', { maxChars: 10 })).toEqual([]);
  });
});
