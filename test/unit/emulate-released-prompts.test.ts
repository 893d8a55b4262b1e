import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReleasedFiles } from '../../src/methods/released-checkout';
import { emulateSettingsSchema } from '../../src/methods/emulate/settings-schema';
import { releasedAnswerAsOutput, renderReleasedPrompt, replaceInOrder } from '../../src/methods/emulate/sandbox/released-prompts';
import { emulateReleasedTasks } from '../../src/methods/emulate/tasks';

// Templates written for these tests (the released ones stay in the user's checkout): they use the
// released code's placeholders, so the rendering rules are checked without its text.
const MEMORY_TEMPLATE = 'Claim: {{claim}}\n\n{{memory_bank}}\n\n\nNew: {{new_result}}\nYes or No.';
const RANK_TEMPLATE = 'Query: {{search_query}}\n\nResults:\n{{results}}\n\nRank them.';

describe("EMULATE's released prompts, rendered as agents.py does", () => {
  it("replaces every occurrence, in the code's order, so a placeholder inside an earlier value is replaced too (Python str.replace)", () => {
    expect(replaceInOrder('{{claim}} / {{claim}} / {{memory_bank}}', [['claim', 'x {{memory_bank}}'], ['memory_bank', 'M']])).toBe('x M / x M / M');
    expect(replaceInOrder('{{claim}}', [['claim', 'costs $1 and $& more']])).toBe('costs $1 and $& more');
  });

  it('renders an empty memory bank as the code does, and memory items joined by a blank line, fields untouched', () => {
    const result = { title: '  Eiffel  Tower ', link: 'https://e.example/t', content: 'Completed\nin 1889.' };
    expect(renderReleasedPrompt(MEMORY_TEMPLATE, { agent: 'selfContained', claim: 'C', memory: [], result })).toBe(
      'Claim: C\n\nThe set is currently empty.\n\n\nNew: Title:   Eiffel  Tower  \nURL: https://e.example/t \nContent: Completed\nin 1889.\nYes or No.',
    );
    const two = renderReleasedPrompt('{{memory_bank}}', { agent: 'sufficient', claim: 'C', memory: [result, { title: 'B', link: 'l', content: 'c' }] });
    expect(two).toBe('Title:   Eiffel  Tower  \nURL: https://e.example/t \nContent: Completed\nin 1889.\n\nTitle: B \nURL: l \nContent: c');
  });

  it("renders SearchRank's results as SerperResult.__str__ joined by one newline", () => {
    const results = [
      { position: 1, title: 'A', link: 'https://a', snippet: 's1' },
      { position: 2, title: '', link: 'https://b', snippet: 's2' },
    ];
    expect(renderReleasedPrompt(RANK_TEMPLATE, { agent: 'searchRank', query: 'q', results })).toBe(
      'Query: q\n\nResults:\nposition: 1 \ntitle: A \nlink: https://a\nsnippet: s1\nposition: 2 \ntitle:  \nlink: https://b\nsnippet: s2\n\nRank them.',
    );
  });

  it('sends one user message with the template filled in, capped at the code max_completion_tokens, answered as plain text', () => {
    const task = emulateReleasedTasks.find((t) => t.id === 'emulate.released.selfContained')!;
    const variables = task.variables.parse({ template: MEMORY_TEMPLATE, claim: 'C', memory: [], result: { title: 't', link: 'l', content: 'c' }, count: 1 });
    expect(task.render(variables)).toEqual([{ role: 'user', content: 'Claim: C\n\nThe set is currently empty.\n\n\nNew: Title: t \nURL: l \nContent: c\nYes or No.' }]);
    expect(task.answer).toBe('text');
    expect(task.maxTokens).toBe(10);
    expect(emulateReleasedTasks.find((t) => t.id === 'emulate.released.initialQuery')!.maxTokens).toBe(100);
  });

  it("hands the workflow each plain-text answer in its agent's structured shape", () => {
    expect(releasedAnswerAsOutput('initialQuery', '"Eiffel Tower 1889"')).toEqual({ queries: ['"Eiffel Tower 1889"'] });
    expect(releasedAnswerAsOutput('searchRank', '2 | 1')).toEqual({ ranking: '2 | 1' });
    expect(releasedAnswerAsOutput('classifier', 'True')).toEqual({ answer: 'True' });
    expect(releasedAnswerAsOutput('webPageExtractor', 'text')).toEqual({ extractedText: 'text' });
  });
});

describe('reading the templates from a checkout (releasedPromptsFrom)', () => {
  function checkout(): { dir: string; commit: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'released-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();
    git('init', '-q');
    fs.mkdirSync(path.join(dir, 'prompts'));
    fs.writeFileSync(path.join(dir, 'prompts', 'A.txt'), 'Claim: {{claim}}\n');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x');
    return { dir, commit: git('rev-parse', 'HEAD') };
  }

  it('reads the files at the pinned commit, byte for byte', () => {
    const { dir, commit } = checkout();
    expect(readReleasedFiles(dir, { repository: 'o/r', commit }, { a: 'prompts/A.txt' })).toEqual({ a: 'Claim: {{claim}}\n' });
  });

  it('refuses, in one line, a checkout at another commit, with local changes, or no checkout at all', () => {
    const { dir, commit } = checkout();
    const other = '0'.repeat(40);
    expect(() => readReleasedFiles(dir, { repository: 'o/r', commit: other }, { a: 'prompts/A.txt' })).toThrow(new RegExp(`is at ${commit.slice(0, 7)}, not 0000000`));
    fs.appendFileSync(path.join(dir, 'prompts', 'A.txt'), 'edited');
    expect(() => readReleasedFiles(dir, { repository: 'o/r', commit }, { a: 'prompts/A.txt' })).toThrow(/local changes to prompts\/A\.txt/);
    expect(() => readReleasedFiles(path.join(dir, 'nope'), { repository: 'o/r', commit }, { a: 'prompts/A.txt' })).toThrow(/is not a directory \(clone https:\/\/github\.com\/o\/r/);
  });

  it('turns a wrong releasedPromptsFrom into a settings error naming the key, not a crash', () => {
    const { dir } = checkout();
    const parsed = emulateSettingsSchema.safeParse({ releasedPromptsFrom: dir });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['releasedPromptsFrom']);
    expect(parsed.error!.issues[0]!.message).toMatch(/^released prompts: .* is at [0-9a-f]{7}, not ebd86c8/);
    expect(parsed.error!.issues[0]!.message).not.toContain('\n');
  });
});
