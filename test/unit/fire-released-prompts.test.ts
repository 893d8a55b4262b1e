import { describe, expect, it } from 'vitest';
import { evaluatePythonFString, pythonStringConstants } from '../../src/methods/fire/released-source';
import { extractReleasedJson, readReleasedFinal, readReleasedStep, releasedKnowledge, releasedSearchText, renderFireReleased } from '../../src/methods/fire/sandbox/released-prompts';
import { fireReleasedTasks } from '../../src/methods/fire/tasks';
import { fireSettingsSchema } from '../../src/methods/fire/settings-schema';

// A module written for these tests in the released code's shape (its own text stays in the user's checkout).
const SOURCE = [
  "_YES = 'True'",
  '_NO = "False"',
  "_S = '[STATEMENT]'",
  "_K = '[KNOWLEDGE]'",
  '',
  'TEMPLATE = f"""\\',
  'Answer {_YES} or {_NO} as JSON: ',
  '   {{',
  '     "final_answer": "{_YES}"',
  '   }}',
  '',
  'KNOWLEDGE:',
  '{_K}',
  '',
  'STATEMENT:',
  '{_S}',
  '"""',
].join('\n');

describe("FIRE's released prompts, evaluated and rendered as Python does", () => {
  it('evaluates the f-string: line continuation, doubled braces, module string constants, trailing spaces kept', () => {
    const constants = pythonStringConstants(SOURCE);
    expect(constants).toMatchObject({ _YES: 'True', _NO: 'False', _S: '[STATEMENT]', _K: '[KNOWLEDGE]' });
    expect(evaluatePythonFString(SOURCE, 'TEMPLATE', constants)).toBe('Answer True or False as JSON: \n   {\n     "final_answer": "True"\n   }\n\nKNOWLEDGE:\n[KNOWLEDGE]\n\nSTATEMENT:\n[STATEMENT]\n');
    expect(() => evaluatePythonFString(SOURCE.replace('{_NO}', '{_MAYBE}'), 'TEMPLATE', constants)).toThrow(/uses \{_MAYBE\}/);
  });

  it('fills the statement, then the knowledge (so a claim naming [KNOWLEDGE] gets it too), then strips spaces and newlines at both ends', () => {
    const template = ' \nK: [KNOWLEDGE]\nS: [STATEMENT]\n';
    expect(renderFireReleased(template, 'c', releasedKnowledge([], 'step'))).toBe('K: N/A\nS: c');
    expect(renderFireReleased(template, 'c', releasedKnowledge([], 'final'))).toBe('K: \nS: c');
    expect(renderFireReleased(template, 'about [KNOWLEDGE]', releasedKnowledge(['r1', 'r2'], 'step'))).toBe('K: r1\nr2\nS: about r1\nr2');
  });

  it('sends the system prompt and the filled template, capped at the rater max_tokens, answered as plain text', () => {
    const task = fireReleasedTasks.find((t) => t.id === 'fire.released.step')!;
    const messages = task.render(task.variables.parse({ system: 'SYS', template: 'S: [STATEMENT] K: [KNOWLEDGE]', claim: 'c', results: ['r'] }));
    expect(messages).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'S: c K: r' },
    ]);
    expect(task.answer).toBe('text');
    expect(task.maxTokens).toBe(2048);
  });

  it('reads answers as extract_json_from_output does: the greedy {...} span, a final_answer key first (any value), then search_query', () => {
    expect(extractReleasedJson('Reasoning... {"a": {"b": 1}} done')).toEqual({ a: { b: 1 } });
    expect(extractReleasedJson('{"a": 1} and {"b": 2}')).toBeUndefined();
    expect(readReleasedStep('```json\n{"final_answer": "False", "search_query": "x"}\n```')).toEqual({ kind: 'answer', answer: 'False' });
    expect(readReleasedStep('{"final_answer": "Maybe"}')).toEqual({ kind: 'answer', answer: 'Maybe' });
    expect(readReleasedStep('{"search_query": "Eiffel Tower height"}')).toEqual({ kind: 'search', query: 'Eiffel Tower height' });
    expect(readReleasedStep('{"reasoning": "..."}')).toEqual({ kind: 'unparseable' });
    expect(readReleasedStep('True')).toEqual({ kind: 'unparseable' });
    expect(readReleasedFinal('{"final_answer": "True"}')).toBe(true);
    expect(readReleasedFinal('{"final_answer": "true"}')).toBeUndefined();
  });

  it("joins a search's snippets as given by one space, with the code's text when there is none", () => {
    expect(releasedSearchText(['a  b', '', 'c\nd'])).toBe('a  b  c\nd');
    expect(releasedSearchText([])).toBe('No good Google Search result was found');
  });

  it('refuses a releasedPromptsFrom that is no checkout, in one line naming the key', () => {
    const parsed = fireSettingsSchema.safeParse({ releasedPromptsFrom: '/nonexistent/fire' });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['releasedPromptsFrom']);
    expect(parsed.error!.issues[0]!.message).toMatch(/^released prompts: \/nonexistent\/fire is not a directory \(clone https:\/\/github\.com\/mbzuai-nlp\/fire and check out cd7cb4a\)$/);
  });
});
