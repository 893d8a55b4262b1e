import { describe, expect, it } from 'vitest';
import { DocumentInputError, documentText, MAX_DOCUMENT_BYTES } from '../../src/check/document-input';

const bytes = (text: string) => new TextEncoder().encode(text);
const problem = (input: Uint8Array, max?: number) => {
  try {
    documentText(input, 'doc.txt', max);
  } catch (err) {
    expect(err).toBeInstanceOf(DocumentInputError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected the input to be refused');
};

describe('documentText', () => {
  it('gives the text of UTF-8 input without its byte-order mark, line endings normalised', () => {
    expect(documentText(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('Zürich.\r\nBern.')]), 'doc.txt')).toBe('Zürich.\nBern.');
  });

  it('refuses empty input and input of white space only', () => {
    expect(problem(bytes(''))).toBe('doc.txt is empty: there is no text to check');
    expect(problem(bytes(' \n\t\n'))).toMatch(/is empty/);
  });

  it('refuses binary input (a NUL byte), naming its offset', () => {
    expect(problem(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x01]))).toBe('doc.txt looks binary (a NUL byte at offset 4); give a UTF-8 text file');
  });

  it('refuses text that is not UTF-8, naming the first bad byte', () => {
    // "café" in Latin-1.
    expect(problem(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b]))).toMatch(/^doc\.txt is not valid UTF-8 \(first bad byte at offset 3\)/);
  });

  it('refuses input over the size limit, with the limit', () => {
    expect(MAX_DOCUMENT_BYTES).toBe(200 * 1024);
    expect(problem(bytes('x'.repeat(11)), 10)).toMatch(/^doc\.txt has 11 bytes; at most 10 /);
    expect(problem(new Uint8Array(MAX_DOCUMENT_BYTES + 1).fill(0x61))).toMatch(/has 204,801 bytes; at most 204,800 \(200 KB\)/);
  });
});
