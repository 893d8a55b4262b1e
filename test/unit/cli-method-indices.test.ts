import { describe, expect, it } from 'vitest';
import { requiredIndices } from '../../src/cli/method-indices';
import { loadConfig } from '../../src/config/config';

describe('the indices a verification needs before it starts', () => {
  const config = loadConfig({ ES_INDEX_PREFIX: 'acme' });

  it('asks rag for the wiki index only, and emulate/fire for the recorded web only', () => {
    expect(requiredIndices(config, 'rag', 'acme-wiki').map((r) => r.index)).toEqual(['acme-wiki']);
    expect(requiredIndices(config, 'emulate', 'acme-wiki').map((r) => r.index)).toEqual(['acme-web']);
    expect(requiredIndices(config, 'fire', 'acme-wiki')[0]!.ingest).toMatch(/ingest web/);
  });

  it('asks the tool-using methods for both, and drops the web index when a live search provider is configured', () => {
    expect(requiredIndices(config, 'mermaid', 'acme-wiki').map((r) => r.index)).toEqual(['acme-wiki', 'acme-web']);
    const live = { ...config, web: { ...config.web, provider: 'serper' as const } };
    expect(requiredIndices(live, 'tool-mad', 'acme-wiki').map((r) => r.index)).toEqual(['acme-wiki']);
  });
});
