import net from 'node:net';
import { Connection } from '@temporalio/client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ES_VERSION, ensureInfra, infraStatus } from '../../infra';
import { ensureElasticsearch } from '../../infra/elasticsearch';
import { ensureTemporal } from '../../infra/temporal';
import { testConfig } from '../support/test-env';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
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

  describe('a node that answers while a primary shard is unassigned (health red)', () => {
    const es = createEsClient(config.elasticsearch);
    const index = `infra-red-${process.pid}-${Date.now()}`;
    const unassignable = { 'index.routing.allocation.include._name': 'no-such-node' };

    const createRedIndex = async () => {
      await es.indices.create({ index, settings: { number_of_shards: 1, number_of_replicas: 0, ...unassignable }, wait_for_active_shards: 0 });
      expect((await es.cluster.health()).status).toBe('red');
    };
    const dropIndex = () => es.indices.delete({ index, ignore_unavailable: true });
    afterAll(() => es.close());

    it('is waited for until its primaries are assigned, so the first search does not fail', async () => {
      await createRedIndex();
      try {
        const lines: string[] = [];
        const ensured = ensureElasticsearch(config, (line) => lines.push(line), { timeoutMs: 60_000, stallMs: 20_000 });
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        expect(lines.some((line) => line.includes('still assigning its shards'))).toBe(true);
        let settled = false;
        void ensured.finally(() => (settled = true));
        expect(settled).toBe(false);
        await es.indices.putSettings({ index, settings: { 'index.routing.allocation.include._name': null } });
        expect((await ensured).state).toBe('running');
        expect(['green', 'yellow']).toContain((await es.cluster.health()).status);
        expect(lines.some((line) => line.includes('still red ('))).toBe(false);
      } finally {
        await dropIndex();
      }
    });

    it('is reported and used anyway when no shard is assigned for a while (a broken index)', async () => {
      await createRedIndex();
      try {
        const lines: string[] = [];
        const startedAt = Date.now();
        const wait = { timeoutMs: 60_000, stallMs: 1_500 };
        expect((await ensureElasticsearch(config, (line) => lines.push(line), wait)).state).toBe('running');
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_400);
        expect(Date.now() - startedAt).toBeLessThan(10_000);
        expect(lines.at(-1)).toMatch(/still red \(no shard was assigned for 2s; see GET .*allocation\/explain\); going on/);
      } finally {
        await dropIndex();
      }
    });
  });

  it('takes a live server that answers slowly (a loaded machine) for what it is, not for a stranger on its port', async () => {
    // Every connection through this proxy reaches the real server 3 s late: past the first probe's 2 s.
    const [host, port] = config.temporal.address.split(':') as [string, string];
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      sockets.add(client);
      client.pause();
      const timer = setTimeout(() => {
        const upstream = net.connect(Number(port), host, () => {
          client.pipe(upstream).pipe(client);
          client.resume();
        });
        sockets.add(upstream);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      }, 3_000);
      client.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const slow = testConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`, TEMPORAL_UI_URL: 'http://127.0.0.1:1' });
      const state = await ensureTemporal(slow);
      expect(state.state).toBe('running');
      expect(state.pid).toBeUndefined();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
