import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { DEFAULT_PRICES, findPrice, PRICE_SOURCES, UNPRICED_ON_PURPOSE } from '../../src/llm/prices';
import { projectRoot } from '../../src/project-root';

const SWEEPS = path.join(projectRoot(), 'eval', 'sweeps');
const files = fs.readdirSync(SWEEPS).filter((name) => /\.ya?ml$/.test(name));
const modelsOf = (file: string) => ((YAML.parse(fs.readFileSync(path.join(SWEEPS, file), 'utf8')) as { models?: string[] }).models ?? []);
const sweepModels = [...new Set(files.flatMap(modelsOf))].sort();

/** A model a sweep names is priced by the built-in table (with a dated source) or unpriced on purpose; never silently. */
describe('prices of the models the committed sweeps name', () => {
  it('finds models in the sweeps', () => {
    expect(sweepModels).toEqual(expect.arrayContaining(['gpt-4o', 'gpt-5-mini', 'openai/gpt-oss-20b']));
  });

  it.each(sweepModels)('%s is priced with a source, or unpriced on purpose', (model) => {
    const price = findPrice(model, DEFAULT_PRICES);
    if (Object.hasOwn(UNPRICED_ON_PURPOSE, model)) {
      expect(price, `${model} is listed as unpriced on purpose but has a price`).toBeUndefined();
      return;
    }
    expect(price, `${model} (in eval/sweeps) has no price: add it to DEFAULT_PRICES with its source, or to UNPRICED_ON_PURPOSE with the reason`).toBeDefined();
    expect(price!.cachedInput, `${model}: cached input price`).toBeDefined();
    expect(price!.batchInput, `${model}: batch price`).toBeDefined();
    expect(price!.batchOutput).toBeDefined();
  });

  it('names a dated source for every built-in price', () => {
    for (const model of Object.keys(DEFAULT_PRICES)) {
      expect(PRICE_SOURCES[model], model).toBeDefined();
      expect(PRICE_SOURCES[model]!.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(PRICE_SOURCES[model]!.source).toMatch(/^https:\/\//);
    }
  });
});

describe('costOf with cached input and reasoning', () => {
  it('prices cached prompt tokens at the cached-input price and reasoning (in completion tokens) as output', async () => {
    const { costOf } = await import('../../src/llm/prices');
    // gpt-5-mini: $0.25 input, $0.025 cached input, $2 output per 1M tokens.
    expect(costOf('gpt-5-mini', 1_000_000, 1_000_000, DEFAULT_PRICES).costUsd).toBeCloseTo(2.25, 10);
    expect(costOf('gpt-5-mini', 1_000_000, 1_000_000, DEFAULT_PRICES, { cachedPromptTokens: 400_000 }).costUsd).toBeCloseTo(0.6 * 0.25 + 0.4 * 0.025 + 2, 10);
    // A batch is priced at its batch price, whatever the cache says.
    expect(costOf('gpt-5-mini', 1_000_000, 0, DEFAULT_PRICES, { batch: true, cachedPromptTokens: 400_000 }).costUsd).toBeCloseTo(0.125, 10);
  });
});
