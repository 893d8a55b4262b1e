import { describe, expect, it } from 'vitest';
import { configStamp } from '../../src/config/config-identity';
import { sentTemperature } from '../../src/llm/sent-temperature';
import { testConfig } from '../support/test-env';

describe('the temperature as recorded', () => {
  it('is "not sent" for models that refuse it, the number for the others', () => {
    expect(sentTemperature('gpt-5-mini', 0)).toBe('not sent (the model refuses it; its default applies)');
    expect(sentTemperature('o3-mini', 0.7)).toMatch(/^not sent/);
    expect(sentTemperature('gpt-4o-mini', 0)).toBe('0');
    expect(sentTemperature('openai/gpt-oss-20b', 1)).toBe('1');
  });

  it("reaches the run records' configuration line", () => {
    expect(configStamp(testConfig({ VERITY_MODEL: 'gpt-5-mini', VERITY_TEMPERATURE: '0' })).label).toContain('model gpt-5-mini, temperature not sent (the model refuses it; its default applies), seed');
    expect(configStamp(testConfig({ VERITY_MODEL: 'gpt-4o-mini', VERITY_TEMPERATURE: '0' })).label).toContain('model gpt-4o-mini, temperature 0, seed');
  });
});
