import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config';
import { costOf, DEFAULT_PRICES, findPrice } from '../../src/llm/prices';
import { maxUsdRefusal, planRow, summarisePlan } from '../../src/plan/plan-figures';
import { runConfigSchema } from '../../src/runs/run-manifest';

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
const stats = { llmCalls: { count: 3, mean: 2, sd: 0 }, promptTokens: { count: 3, mean: 1_000, sd: 0 }, completionTokens: { count: 3, mean: 100, sd: 0 } };

describe('model names that are not what they seem', () => {
  it('prices models named like Object.prototype members as unpriced, never $NaN', () => {
    for (const model of PROTOTYPE_NAMES) {
      expect(findPrice(model, DEFAULT_PRICES), model).toBeUndefined();
      expect(costOf(model, 1_000, 1_000, DEFAULT_PRICES), model).toEqual({ costUsd: 0, priced: false });
      expect(costOf(model, 1_000, 1_000, {}), model).toEqual({ costUsd: 0, priced: false });
    }
  });

  it('lets --max-usd refuse a plan for such a model instead of comparing $NaN', () => {
    const plan = summarisePlan('r', [planRow({ dataset: 'd', method: 'rag', model: 'constructor', claims: 1_000 }, stats, { kind: 'pilot', claims: 3, failed: 0 }, DEFAULT_PRICES)]);
    expect(maxUsdRefusal(plan, 0.01)).toMatch(/model constructor has no price/);
  });

  it('does not price "gpt-4o-mini " or "gpt-4o-mini\\n" as gpt-4o by prefix', () => {
    for (const model of ['gpt-4o-mini ', 'gpt-4o-mini\n']) expect(findPrice(model, DEFAULT_PRICES), JSON.stringify(model)).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
  });

  it('refuses blank model names and names with control characters or surrounding whitespace, in one line', () => {
    for (const model of [' ', 'gpt-4o-mini ', 'gpt-4o-mini\n', 'gpt\u0000x', '\tgpt-4o']) {
      // A blank variable is an unset one (the configuration's rule for every variable).
      if (model.trim() !== '') {
        expect(() => loadConfig({ VERITY_MODEL: model }), JSON.stringify(model)).toThrow(ConfigError);
        expect(() => loadConfig({ VERITY_MODEL_JUDGE: model }), JSON.stringify(model)).toThrow(/VERITY_MODEL_JUDGE.*model name/);
      }
      const parsed = runConfigSchema.safeParse({ run: 'r', datasets: [{ name: 'd', file: 'd.jsonl' }], methods: ['rag'], models: [model] });
      expect(parsed.success, JSON.stringify(model)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/model name/);
    }
    expect(loadConfig({ VERITY_MODEL: 'llama3.1:8b' }).llm.models.default).toBe('llama3.1:8b');
  });
});
