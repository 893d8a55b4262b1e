import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config';
import { costOf, DEFAULT_PRICES, loadPriceTable } from '../../src/llm/prices';

function pricesFile(content: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prices-')), 'prices.json');
  fs.writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('batch prices', () => {
  it('prices a built-in OpenAI model at half its list price through the batch API', () => {
    expect(costOf('gpt-4o-mini', 1_000_000, 1_000_000, DEFAULT_PRICES, { batch: true }).costUsd).toBeCloseTo((0.15 + 0.6) / 2, 10);
    expect(costOf('gpt-4o-2024-08-06', 1_000_000, 0, DEFAULT_PRICES, { batch: true }).costUsd).toBeCloseTo(1.25, 10);
    expect(costOf('gpt-4o-mini', 1_000_000, 1_000_000, DEFAULT_PRICES).costUsd).toBeCloseTo(0.75, 10);
  });

  it("takes the prices file's batchInput/batchOutput, and the list price for a model without them", () => {
    const table = loadPriceTable(pricesFile({ 'my-model': { input: 1, output: 2, batchInput: 0.25, batchOutput: 0.5 }, 'other-model': { input: 1, output: 2 } }));
    expect(costOf('my-model', 1_000_000, 1_000_000, table, { batch: true }).costUsd).toBe(0.75);
    expect(costOf('my-model', 1_000_000, 1_000_000, table).costUsd).toBe(3);
    expect(costOf('other-model', 1_000_000, 1_000_000, table, { batch: true }).costUsd).toBe(3);
    expect(costOf('unknown', 1_000_000, 0, table, { batch: true })).toEqual({ costUsd: 0, priced: false });
  });

  it('rejects a negative batch price', () => {
    expect(() => loadPriceTable(pricesFile({ m: { input: 1, output: 2, batchInput: -1 } }))).toThrow(ConfigError);
  });
});
