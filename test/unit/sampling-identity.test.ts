import { describe, expect, it } from 'vitest';
import { buildVerifyInput, workflowIdOf } from '../../src/client/start-verification';
import { loadConfig } from '../../src/config/config';

describe('sampling settings are part of a verification\'s identity', () => {
  const config = loadConfig({ ES_INDEX_PREFIX: 'acme' });
  const idOf = (llm?: Record<string, unknown>) => {
    const input = buildVerifyInput(config, { claim: 'Paris is in France.', method: 'emulate', ...(llm ? { settings: { emulate: { llm } } } : {}) });
    return workflowIdOf(input);
  };

  it('changing the temperature, seed, top-p, max tokens or a role\'s value gives another workflow id', () => {
    const ids = [
      idOf(),
      idOf({ temperature: 1 }),
      idOf({ temperature: 0.5 }),
      idOf({ temperature: 1, seed: 3 }),
      idOf({ temperature: 1, topP: 0.9 }),
      idOf({ temperature: 1, maxTokens: 2048 }),
      idOf({ temperature: 1, roles: { judge: { temperature: 0 } } }),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(idOf({ temperature: 1 })).toBe(idOf({ temperature: 1 }));
  });
});
