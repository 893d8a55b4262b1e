import { describe, expect, it } from 'vitest';
import '../../src/methods/tasks';
import { getTask, registeredTaskIds } from '../../src/llm/task-registry';

// Every registered LLM task, so a task added later meets the same contracts (real servers, small models).
const taskIds = registeredTaskIds().filter((id) => !id.startsWith('test.'));

describe('every registered LLM task', () => {
  it('is registered (the methods register their tasks)', () => {
    expect(taskIds.length).toBeGreaterThanOrEqual(26);
  });

  it.each(taskIds)('%s has an answer budget (maxTokens) within [16, 4096]', (id) => {
    const { maxTokens } = getTask(id);
    expect(Number.isInteger(maxTokens)).toBe(true);
    expect(maxTokens).toBeGreaterThanOrEqual(16);
    expect(maxTokens).toBeLessThanOrEqual(4096);
  });
});
