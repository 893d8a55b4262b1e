import { describe, expect, it } from 'vitest';
import { verificationHash } from '../../src/shared/identity';
import { repeatedWorkItem, settingsOfRepeat, workItem } from '../../src/shared/sweep';

describe('repeatedWorkItem', () => {
  it('is workItem for one repeat', () => {
    for (let index = 0; index < 12; index += 1) expect(repeatedWorkItem(index, 3, 4)).toEqual({ ...workItem(index, 3), repeat: 0 });
  });

  it('runs every claim × variant of a repeat before the next repeat, claim-major within it', () => {
    // 2 claims × 2 variants × 2 repeats.
    expect(Array.from({ length: 8 }, (_, index) => repeatedWorkItem(index, 2, 2))).toEqual([
      { ordinal: 0, variant: 0, repeat: 0 },
      { ordinal: 0, variant: 1, repeat: 0 },
      { ordinal: 1, variant: 0, repeat: 0 },
      { ordinal: 1, variant: 1, repeat: 0 },
      { ordinal: 0, variant: 0, repeat: 1 },
      { ordinal: 0, variant: 1, repeat: 1 },
      { ordinal: 1, variant: 0, repeat: 1 },
      { ordinal: 1, variant: 1, repeat: 1 },
    ]);
  });
});

describe('settingsOfRepeat', () => {
  const context = { configHash: 'c', promptsHash: 'p' };
  const parts = { claim: 'x', method: 'mermaid' as const, model: 'm', rag: { topK: 5, index: 'wiki' } };
  const settings = { mermaid: { maxSteps: 5, llm: { temperature: 1 } } };

  it('keeps repeat 0 exactly as without repeats (same identity)', () => {
    expect(settingsOfRepeat(settings, 'mermaid', 0)).toBe(settings);
    expect(settingsOfRepeat(undefined, 'rag', 0)).toBeUndefined();
  });

  it('adds llm.repeat for repeats 1…, keeping the method settings, so each repeat has its own identity', () => {
    expect(settingsOfRepeat(settings, 'mermaid', 2)).toEqual({ mermaid: { maxSteps: 5, llm: { temperature: 1, repeat: 2 } } });
    expect(settingsOfRepeat(undefined, 'rag', 1)).toEqual({ rag: { llm: { repeat: 1 } } });
    const hashes = [0, 1, 2].map((repeat) => verificationHash({ ...parts, settings: settingsOfRepeat(settings, 'mermaid', repeat) }, context));
    expect(new Set(hashes).size).toBe(3);
    expect(hashes[0]).toBe(verificationHash({ ...parts, settings }, context));
  });
});
