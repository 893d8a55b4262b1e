import { Connection } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';
import { ES_VERSION, ensureInfra, infraStatus } from '../../infra';
import { loadConfig } from '../../src/config/config';
import { SEARCH_ATTRIBUTES } from '../../src/shared/constants';

describe('infra against the real services', () => {
  const config = loadConfig();

  it('hands the addresses in use to the test processes', () => {
    expect(inject('infra')).toEqual({ temporalAddress: config.temporal.address, esUrl: config.elasticsearch.url });
  });

  it('reports both services reachable', async () => {
    const status = await infraStatus(config);
    expect(status.ready).toBe(true);
    expect(status.temporal.serverVersion).toMatch(/^\d+\.\d+/);
    expect(status.elasticsearch.version?.split('.')[0]).toBe(ES_VERSION.split('.')[0]);
    expect(['green', 'yellow']).toContain(status.elasticsearch.health);
  });

  it('registers the verity search attributes on the namespace as Keyword', async () => {
    const connection = await Connection.connect({ address: config.temporal.address });
    try {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: config.temporal.namespace });
      for (const name of Object.values(SEARCH_ATTRIBUTES)) expect(customAttributes?.[name], name).toBe(2 /* KEYWORD */);
    } finally {
      await connection.close();
    }
  });

  it('is a fast no-op when everything already runs', async () => {
    const state = await ensureInfra(config);
    expect(state.temporal.state).toBe('running');
    expect(state.elasticsearch.state).toBe('running');
    expect(state.temporal.searchAttributesAdded).toEqual([]);
    expect(state.durationMs).toBeLessThan(5_000);
  });
});
