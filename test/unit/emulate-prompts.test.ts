import { describe, expect, it } from 'vitest';
import {
  EMPTY_MEMORY,
  MEMORY_HEADER,
  NEW_RESULT_HEADER,
  parseMemorySection,
  parseQueryLine,
  parseRankSection,
  renderMemoryBank,
  renderMemoryItem,
  renderRankList,
} from '../../src/methods/emulate/prompt-sections';
import { emulateHelpfulTask, emulateSearchRankTask } from '../../src/methods/emulate/tasks';
import { parseClaim } from '../../src/llm/prompt-conventions';

const item = { title: 'Jack Dorsey', link: 'https://en.wikipedia.org/wiki/Jack_Dorsey', content: 'Dorsey returned\nas CEO in 2015.' };

describe('EMULATE prompt sections (spec §2.0 formats)', () => {
  it('renders a memory item as Title/URL/Content with the code’s trailing spaces, items joined by a blank line', () => {
    expect(renderMemoryItem(item)).toBe('Title: Jack Dorsey \nURL: https://en.wikipedia.org/wiki/Jack_Dorsey \nContent: Dorsey returned as CEO in 2015.');
    expect(renderMemoryBank([item, item])).toBe(`${renderMemoryItem(item)}\n\n${renderMemoryItem(item)}`);
    expect(renderMemoryBank([])).toBe('The set is currently empty.');
    expect(EMPTY_MEMORY).toBe('The set is currently empty.');
  });

  it('renders SearchRank results as position/title/link/snippet, joined by one newline', () => {
    const results = [
      { position: 1, title: 'A', link: 'https://a.example', snippet: 'first' },
      { position: 2, title: 'B', link: 'https://b.example', snippet: 'second' },
    ];
    expect(renderRankList(results)).toBe('position: 1 \ntitle: A \nlink: https://a.example\nsnippet: first\nposition: 2 \ntitle: B \nlink: https://b.example\nsnippet: second');
  });

  it('the simulator reads back the claim, the memory, the new result, the query and the ranked list', () => {
    const [helpful] = emulateHelpfulTask.render({ claim: 'Jack Dorsey returned as CEO of Twitter in 2015', memory: [item], result: { ...item, title: 'New' } });
    expect(helpful!.role).toBe('user');
    expect(parseClaim(helpful!.content)).toBe('Jack Dorsey returned as CEO of Twitter in 2015');
    expect(parseMemorySection(helpful!.content, MEMORY_HEADER)).toEqual([{ ...item, content: 'Dorsey returned as CEO in 2015.' }]);
    expect(parseMemorySection(helpful!.content, NEW_RESULT_HEADER)[0]?.title).toBe('New');

    const [rank] = emulateSearchRankTask.render({ query: 'dorsey ceo', results: [{ position: 3, title: 'C', link: 'https://c.example', snippet: 's' }] });
    expect(parseQueryLine(rank!.content)).toBe('dorsey ceo');
    expect(parseRankSection(rank!.content)).toEqual([{ position: 3, title: 'C', link: 'https://c.example', snippet: 's' }]);
  });

  it('an empty memory bank reads back as no items', () => {
    const [message] = emulateHelpfulTask.render({ claim: 'x', memory: [], result: item });
    expect(message!.content).toContain(`${MEMORY_HEADER}\n${EMPTY_MEMORY}`);
    expect(parseMemorySection(message!.content, MEMORY_HEADER)).toEqual([]);
  });
});
