import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { batchCount, batchRange, expectedGeneratedChecksum } from '../../src/corpus/bulk-ingest';
import { generatedPassage, generatedRange, loadSourcePassages } from '../../src/corpus/generated-passages';
import { checksumOfPassages } from '../../src/corpus/passage-digest';
import { addChecksums, EMPTY_CHECKSUM } from '../../src/shared/passage-checksum';
import { DEMO_CORPUS } from '../support/test-env';

const source = loadSourcePassages(path.resolve(DEMO_CORPUS));
const words = (text: string) => text.split(/\s+/).filter(Boolean).sort();

describe('the generated corpus', () => {
  it('gives the same passage for the same (seed, index), whatever was generated before', () => {
    expect(generatedPassage(source, 3, 1234)).toEqual(generatedRange(source, 3, 1200, 1300)[34]);
    expect(generatedPassage(source, 3, 1234)).not.toEqual(generatedPassage(source, 4, 1234));
  });

  it('has distinct ids and shuffles the words of a source passage', () => {
    const passages = generatedRange(source, 1, 0, 2000);
    expect(new Set(passages.map((passage) => passage.docId)).size).toBe(2000);
    const bySource = new Map(source.passages.map((passage) => [`${passage.docId}#${passage.passage}`, passage]));
    for (const passage of passages) expect(words(passage.text)).toEqual(words(bySource.get(passage.from)!.text));
    expect(passages.filter((passage) => passage.text !== bySource.get(passage.from)!.text).length).toBeGreaterThan(1900);
    // Spread over the source, not stuck on a few passages.
    expect(new Set(passages.map((passage) => passage.from)).size).toBeGreaterThan(Math.min(source.passages.length, 2000) / 4);
  });

  it('splits into batches that cover every passage once, the last one short', () => {
    expect(batchCount(10_001, 1000)).toBe(11);
    expect(batchRange(10, 1000, 10_001)).toEqual({ start: 10_000, end: 10_001 });
    const covered = Array.from({ length: batchCount(10_001, 1000) }, (_, batch) => batchRange(batch, 1000, 10_001)).reduce((sum, { start, end }) => sum + end - start, 0);
    expect(covered).toBe(10_001);
  });
});

describe('the passage checksum', () => {
  const passages = Array.from({ length: 50 }, (_, i) => ({ id: `p${i}`, content: `text ${i}` }));

  it('does not depend on order or on how the set is cut into batches', () => {
    const whole = checksumOfPassages(passages);
    expect(checksumOfPassages([...passages].reverse())).toBe(whole);
    expect(addChecksums(checksumOfPassages(passages.slice(0, 17)), checksumOfPassages(passages.slice(17)))).toBe(whole);
    expect(addChecksums(EMPTY_CHECKSUM, whole)).toBe(whole);
  });

  it('changes when a passage is missing, duplicated or altered', () => {
    const whole = checksumOfPassages(passages);
    expect(checksumOfPassages(passages.slice(1))).not.toBe(whole);
    expect(checksumOfPassages([...passages, passages[3]!])).not.toBe(whole);
    expect(checksumOfPassages(passages.map((passage, i) => (i === 7 ? { ...passage, content: 'text 7.' } : passage)))).not.toBe(whole);
  });

  it('of the generator equals the sum of its batches', () => {
    const spec = { sourceFile: DEMO_CORPUS, sourceSha256: source.sha256, seed: 9, total: 2500 };
    const expected = expectedGeneratedChecksum(source, spec, 700);
    expect(expected).toEqual(expectedGeneratedChecksum(source, spec, 1000));
    expect(expected.passages).toBe(2500);
  });
});
