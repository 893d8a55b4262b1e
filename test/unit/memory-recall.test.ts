import { describe, expect, it } from 'vitest';
import { keywordsOf } from '../../src/memory/keys';
import { recalledLine } from '../../src/memory/recall-format';
import { cosineSimilarity } from '../../src/retrieval/cosine';
import { keywordScore, rankByKeywords, rankBySimilarity, type RankableEntry } from '../../src/memory/recall-match';
import { embed } from '../../src/simulator/embeddings';
import { MEMORY_RECALL_TOP_K } from '../../src/shared/memory';

interface TestEntry extends RankableEntry {
  name: string;
}

/** Entries in insertion order, like the released code's list. */
function memoryOf(...keywordLists: string[][]): TestEntry[] {
  return keywordLists.map((keywords, index) => ({ name: `e${index}`, keywords, insertionOrder: index }));
}

const names = (ranked: { entry: TestEntry }[]) => ranked.map(({ entry }) => entry.name);

describe('memory keys (spec §3.2, §4)', () => {
  it('turns the released FacTool-QA decomposition into its memory keys', () => {
    // "The United States has 94 operating reactors" → subject and object, lower-cased and trimmed.
    expect(keywordsOf(['The United States', '94 operating reactors'])).toEqual(['the united states', '94 operating reactors']);
  });

  it('skips empty keys, so a failed decomposition (no triplets) recalls nothing', () => {
    expect(keywordsOf(['  ', ''])).toEqual([]);
    expect(rankByKeywords(memoryOf(['hurling']), [], 'substring', 3)).toEqual([]);
  });
});

describe('substring recall: the released code (spec §3.2)', () => {
  it('matches containment in either direction, case-insensitively', () => {
    const memory = memoryOf(['the united states', 'nuclear power'], ['united states'], ['france']);
    expect(names(rankByKeywords(memory, ['United States'], 'substring', 3))).toEqual(['e0', 'e1']); // claim key ⊆ entry keyword
    expect(names(rankByKeywords(memory, ['United States Navy'], 'substring', 3))).toEqual(['e1']); // entry keyword ⊆ claim key
  });

  it('scores the number of distinct claim keys matched, not the number of matching keywords', () => {
    expect(keywordScore('substring', ['united states'], ['the united states', 'united states navy'])).toBe(1);
    expect(keywordScore('substring', ['the united states', '94 operating reactors'], ['united states', 'operating reactors'])).toBe(2);
  });

  it('keeps score > 0, sorts by score with ties oldest first, and returns the first top_k = 3', () => {
    const memory = memoryOf(['hurling'], ['the united states'], ['hurling', '94 operating reactors'], ['hurling'], ['hurling'], ['chess']);
    const ranked = rankByKeywords(memory, ['hurling', '94 operating reactors'], 'substring', MEMORY_RECALL_TOP_K);
    expect(names(ranked)).toEqual(['e2', 'e0', 'e3']);
    expect(ranked.map(({ score }) => score)).toEqual([2, 1, 1]);
  });

  it('lets a generic key pull in many entries, of which only three are shown (31 entries under "hurling")', () => {
    const memory = memoryOf(...Array.from({ length: 31 }, () => ['hurling']));
    expect(rankByKeywords(memory, ['Hurling'], 'substring', 3)).toHaveLength(3);
    expect(names(rankByKeywords(memory, ['Hurling'], 'substring', 3))).toEqual(['e0', 'e1', 'e2']);
  });

  it('recalls unrelated evidence through short generic keys (the Limitations section)', () => {
    const memory = memoryOf(['the song', 'billboard hot 100'], ['artists']);
    expect(names(rankByKeywords(memory, ['song'], 'substring', 3))).toEqual(['e0']);
    expect(names(rankByKeywords(memory, ['the song "hello" by adele'], 'substring', 3))).toEqual(['e0']);
  });
});

describe('exact recall', () => {
  it('matches only equal keys, so it recalls a subset of substring recall (§10.2: 317 vs 436 claims on FactCheck-Bench)', () => {
    const memory = memoryOf(['the united states'], ['united states'], ['france']);
    expect(names(rankByKeywords(memory, ['United States'], 'exact', 3))).toEqual(['e1']);
    expect(names(rankByKeywords(memory, ['United States'], 'substring', 3))).toEqual(['e0', 'e1']);
  });
});

describe('semantic recall', () => {
  const withEmbeddings = (...texts: string[]) =>
    texts.map((text, index) => ({ name: `e${index}`, keywords: [text], insertionOrder: index, embedding: embed(text) }));

  it('ranks by the best cosine to any claim key and drops entries below the threshold', () => {
    const memory = withEmbeddings('the eiffel tower, 330 metres', 'louvre museum', 'eiffel tower');
    const ranked = rankBySimilarity(memory, [embed('Eiffel Tower')], 0.5, 3);
    expect(names(ranked)).toEqual(['e2', 'e0']);
    expect(ranked[0]!.score).toBeCloseTo(1);
    expect(rankBySimilarity(memory, [embed('Eiffel Tower')], 0.99, 3)).toHaveLength(1);
  });

  it('leaves out an entry embedded by a model of another dimension instead of truncating it', () => {
    const [same, other] = withEmbeddings('eiffel tower', 'eiffel tower');
    const shorter = { ...other!, name: 'short', embedding: other!.embedding.slice(0, 8) };
    expect(names(rankBySimilarity([same!, shorter], [embed('eiffel tower')], 0, 3))).toEqual(['e0']);
  });

  it('ignores entries stored without an embedding', () => {
    expect(rankBySimilarity(memoryOf(['eiffel tower']), [embed('eiffel tower')], 0, 3)).toEqual([]);
  });

  it('computes cosine similarity of unnormalised vectors', () => {
    expect(cosineSimilarity([2, 0], [5, 0])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 3])).toBeCloseTo(0);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
  });
});

describe('recalled history lines (spec §3.2 Injection)', () => {
  it("renders \"[Memory] Previous evidence for '<query>': <evidence>\" without '...' when nothing was cut", () => {
    expect(recalledLine({ query: 'US nuclear reactors', evidence: 'There are 94 reactors.' })).toBe(
      "[Memory] Previous evidence for 'US nuclear reactors': There are 94 reactors.",
    );
  });

  it('cuts evidence to 2000 characters and then adds "..."', () => {
    const line = recalledLine({ query: 'q', evidence: 'x'.repeat(2001) });
    expect(line).toBe(`[Memory] Previous evidence for 'q': ${'x'.repeat(2000)}...`);
    expect(recalledLine({ query: 'q', evidence: 'x'.repeat(2000) }).endsWith('...')).toBe(false);
  });

  it('counts characters as Python does (code points), not UTF-16 units', () => {
    const line = recalledLine({ query: 'q', evidence: '😀'.repeat(2000) });
    expect(line.endsWith('...')).toBe(false);
  });
});
