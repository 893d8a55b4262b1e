import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/llm/prices';

describe('VERITY_PRICES_FILE', () => {
  it('reads a file saved with a UTF-8 byte-order mark', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-prices-'));
    try {
      const file = path.join(dir, 'prices.json');
      fs.writeFileSync(file, `\uFEFF${JSON.stringify({ 'my-model': { input: 1, output: 2 } })}`);
      expect(loadPriceTable(file)['my-model']).toEqual({ input: 1, output: 2 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
