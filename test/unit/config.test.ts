import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config';

describe('loadConfig', () => {
  it('falls back to local services and the simulator when nothing is configured', () => {
    const config = loadConfig({});
    expect(config.temporal.address).toBe('127.0.0.1:7233');
    expect(config.elasticsearch.url).toBe('http://127.0.0.1:9200');
    expect(config.llm.provider).toBe('simulator');
    expect(config.llm.cacheMode).toBe('readwrite');
    expect(config.llm.models.judge).toBe('gpt-4o-mini');
  });

  it('uses an OpenAI-compatible endpoint when a key or a base URL is set, with per-role models', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x' }).llm.provider).toBe('openai-compatible');
    const config = loadConfig({ OPENAI_BASE_URL: 'http://localhost:11434/v1', VERITY_MODEL: 'llama3.1:8b', VERITY_MODEL_JUDGE: 'qwen2.5:14b' });
    expect(config.llm.provider).toBe('openai-compatible');
    expect(config.llm.models.judge).toBe('qwen2.5:14b');
    expect(config.llm.models.decomposer).toBe('llama3.1:8b');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ OPENAI_API_KEY: '', OPENAI_BASE_URL: '  ' }).llm.provider).toBe('simulator');
  });

  it('layers the environment over a YAML config file', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-config-')), 'verity.yaml');
    fs.writeFileSync(file, 'ES_INDEX_PREFIX: fromfile\nVERITY_SEED: 11\n');
    const config = loadConfig({ VERITY_CONFIG_FILE: file, VERITY_SEED: '3' });
    expect(config.elasticsearch.indexPrefix).toBe('fromfile');
    expect(config.llm.seed).toBe(3);
  });

  it.each([
    ['verity.yaml', 'ES_INDEX_PREFIX: [unclosed\n'],
    ['verity.json', '{"ES_INDEX_PREFIX": '],
  ])('a config file that does not parse is named in the error (%s)', (name, text) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-config-')), name);
    fs.writeFileSync(file, text);
    expect(() => loadConfig({ VERITY_CONFIG_FILE: file })).toThrow(new RegExp(`^config file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} does not parse: `));
  });

  it('VERITY_RETRY_BUDGET_S is optional and read in milliseconds', () => {
    expect(loadConfig({}).retryBudgetMs).toBeUndefined();
    expect(loadConfig({ VERITY_RETRY_BUDGET_S: '600' }).retryBudgetMs).toBe(600_000);
    expect(() => loadConfig({ VERITY_RETRY_BUDGET_S: '0' })).toThrow(/VERITY_RETRY_BUDGET_S/);
  });

  it('names every invalid variable in one error', () => {
    expect(() => loadConfig({ VERITY_LLM_CACHE: 'sometimes', ES_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => loadConfig({ VERITY_LLM_CACHE: 'sometimes', ES_URL: 'not a url' })).toThrow(/VERITY_LLM_CACHE.*ES_URL|ES_URL.*VERITY_LLM_CACHE/);
  });
});
