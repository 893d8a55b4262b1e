import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config';
import { costOf, DEFAULT_PRICES, loadPriceTable } from '../../src/llm/prices';

describe('prices', () => {
  it('computes USD from tokens and per-1M prices', () => {
    const { costUsd, priced } = costOf('gpt-4o-mini', 1_000_000, 500_000, DEFAULT_PRICES);
    expect(priced).toBe(true);
    expect(costUsd).toBeCloseTo(0.15 + 0.3, 10);
  });

  it('prices dated snapshots by their base model', () => {
    expect(costOf('gpt-4o-2024-08-06', 1000, 0, DEFAULT_PRICES).costUsd).toBeCloseTo(0.0025, 10);
  });

  it('reports unknown models as cost 0, flagged', () => {
    expect(costOf('llama3:8b', 1000, 1000, DEFAULT_PRICES)).toEqual({ costUsd: 0, priced: false });
  });

  it('reads a price file that starts with a UTF-8 byte-order mark', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prices-')), 'prices.json');
    fs.writeFileSync(file, `\uFEFF${JSON.stringify({ 'llama3:8b': { input: 1, output: 2 } })}`);
    expect(costOf('llama3:8b', 1_000_000, 0, loadPriceTable(file)).costUsd).toBe(1);
  });

  it('layers a JSON price file over the defaults', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prices-')), 'prices.json');
    fs.writeFileSync(file, JSON.stringify({ 'llama3:8b': { input: 1, output: 2 }, 'gpt-4o': { input: 5, output: 5 } }));
    const table = loadPriceTable(file);
    expect(costOf('llama3:8b', 1_000_000, 1_000_000, table).costUsd).toBe(3);
    expect(table['gpt-4o']).toEqual({ input: 5, output: 5 });
    expect(table['gpt-4o-mini']).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
  });

  it('rejects a malformed price file with a configuration error', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prices-')), 'prices.json');
    fs.writeFileSync(file, JSON.stringify({ m: { input: 'cheap' } }));
    expect(() => loadPriceTable(file)).toThrow(ConfigError);
    fs.writeFileSync(file, JSON.stringify({ 'my-model': { input: 1, output: -2 } }));
    expect(() => loadPriceTable(file)).toThrow(new RegExp(`^prices file ${file} must map model ids to \\{input, output\\} USD per 1M tokens \\(my-model\\.output: `));
    expect(() => loadPriceTable(path.join(os.tmpdir(), 'missing-prices.json'))).toThrow(ConfigError);
  });
});
