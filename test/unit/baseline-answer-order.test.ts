import { describe, expect, it } from 'vitest';
import '../../src/methods/tasks';
import { jsonSchemaOf } from '../../src/llm/structured-output';
import { getTask } from '../../src/llm/task-registry';
import { methodDefinition } from '../../src/methods/registry';
import { DEFAULT_BASELINE_ANSWER_ORDER } from '../../src/shared/methods/answer-order';

/** The order in which constrained decoding writes an answer's fields: the schema's property order. */
function fieldOrder(taskId: string): string[] {
  return Object.keys((jsonSchemaOf(getTask(taskId).output) as { properties: Record<string, unknown> }).properties);
}

// Issue 37 (12): with `label` first, constrained decoding fixed the baselines' label before any reasoning.
describe('the baselines reason before they decide (issue 37, defect 12)', () => {
  it('answers rationale first by default', () => {
    expect(DEFAULT_BASELINE_ANSWER_ORDER).toBe('rationale-first');
  });

  it.each([
    ['rag', 'rag.verdict-rationale-first', ['rationale', 'label', 'citedPassageIds']],
    ['llm-only', 'llm-only.verdict-rationale-first', ['rationale', 'label']],
  ] as const)('%s declares a rationale-first task whose schema and prompt put the rationale before the label', (method, taskId, fields) => {
    expect(methodDefinition(method).tasks.map((task) => task.id)).toContain(taskId);
    expect(fieldOrder(taskId)).toEqual(fields);
    const prompt = getTask(taskId).render(method === 'rag' ? { claim: 'C.', passages: [{ id: 'p1', title: 'T', text: 'x' }] } : { claim: 'C.' }).map((m) => m.content).join('\n');
    expect(prompt.indexOf('"rationale"')).toBeLessThan(prompt.indexOf('"label"'));
  });

  it('keeps the label-first prompts under their old identities (runs before the change keep theirs)', () => {
    expect(`rag.verdict@${getTask('rag.verdict').version}`).toBe('rag.verdict@2');
    expect(`llm-only.verdict@${getTask('llm-only.verdict').version}`).toBe('llm-only.verdict@1');
    expect(fieldOrder('rag.verdict')[0]).toBe('label');
    expect(fieldOrder('llm-only.verdict')[0]).toBe('label');
  });
});
