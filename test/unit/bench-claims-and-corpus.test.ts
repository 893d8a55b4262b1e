import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MissingCorpusError, resolveClaimsAndCorpus, SHARED_DATA_DIR } from '../../eval/bench/support/claims-and-corpus';

describe('benchmark claims and corpus', () => {
  it('gives a named set its shared claims file and gold corpus', () => {
    expect(resolveClaimsAndCorpus('fever')).toEqual({
      claimsFile: path.join(SHARED_DATA_DIR, 'dev/fever.jsonl'),
      wikiFile: path.join(SHARED_DATA_DIR, 'corpus/wiki.jsonl'),
    });
  });

  it('lets --corpus replace the named corpus', () => {
    expect(resolveClaimsAndCorpus('fixture', 'my/corpus.jsonl').wikiFile).toBe(path.resolve('my/corpus.jsonl'));
  });

  it('needs --corpus for a claims file of one’s own', () => {
    expect(() => resolveClaimsAndCorpus('mine.jsonl')).toThrow(MissingCorpusError);
    expect(resolveClaimsAndCorpus('mine.jsonl', 'c.jsonl')).toEqual({ claimsFile: path.resolve('mine.jsonl'), wikiFile: path.resolve('c.jsonl') });
  });
});
