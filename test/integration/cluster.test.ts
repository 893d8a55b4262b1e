import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@elastic/elasticsearch';
import { Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureIndex } from '../../src/es/ensure-index';

// Opt-in: needs `npm run infra:cluster -- up` (root) first. The normal suite stays single-node.
const enabled = process.env.VERITY_CLUSTER_TESTS === '1';
const run = promisify(execFile);
const ES_PASSWORD = process.env.VERITY_CLUSTER_ES_PASSWORD ?? 'verity-cluster';
const es = new Client({ node: 'http://127.0.0.1:9401', auth: { username: 'elastic', password: ES_PASSWORD } });
const scratchIndex = `verity-cluster-test-${process.pid}`;

describe.skipIf(!enabled)('infra:cluster (VERITY_CLUSTER_TESTS=1)', () => {
  afterAll(async () => {
    await es.indices.delete({ index: scratchIndex }, { ignore: [404] });
    await es.close();
  });

  it('runs three secured Elasticsearch nodes, and an index made with VERITY_ES_REPLICAS=1 has its replica on another node', async () => {
    await expect(fetch('http://127.0.0.1:9401/_cluster/health')).resolves.toHaveProperty('status', 401);
    const health = await es.cluster.health();
    expect(health.number_of_data_nodes).toBe(3);
    process.env.VERITY_ES_REPLICAS = '1';
    try {
      await ensureIndex(es, scratchIndex, { mappings: { properties: { text: { type: 'text' } } } });
    } finally {
      delete process.env.VERITY_ES_REPLICAS;
    }
    await es.cluster.health({ index: scratchIndex, wait_for_status: 'green', timeout: '60s' });
    const shards = await es.cat.shards({ index: scratchIndex, format: 'json' });
    expect(shards.map((shard) => shard.prirep).sort()).toEqual(['p', 'r']);
    expect(new Set(shards.map((shard) => shard.node)).size).toBe(2);
  });

  it('runs the Temporal server on PostgreSQL', async () => {
    const connection = await Connection.connect({ address: '127.0.0.1:7333' });
    try {
      const described = await connection.workflowService.describeNamespace({ namespace: 'default' });
      expect(described.namespaceInfo?.name).toBe('default');
    } finally {
      await connection.close();
    }
    const { stdout } = await run('psql', ['-h', '127.0.0.1', '-p', '55432', '-U', 'temporal', '-d', 'temporal', '-tAc', "select count(*) from namespaces"], {
      env: { ...process.env, PGPASSWORD: 'temporal' },
    });
    expect(Number(stdout.trim())).toBeGreaterThan(0);
  });

  it('lets a worker machine reach the cluster only through its link, which can be cut', async () => {
    const curl = (url: string) =>
      run('ip', ['netns', 'exec', 'vcw1', 'curl', '-s', '-m', '3', '-o', '/dev/null', '-w', '%{http_code}', '-u', `elastic:${ES_PASSWORD}`, url]).then(
        (result) => result.stdout,
        () => 'unreachable',
      );
    expect(await curl('http://10.77.0.1:9401/_cluster/health')).toBe('200');
    expect(await curl('http://127.0.0.1:9200/')).toBe('unreachable'); // the host's loopback is not the machine's
    await run('ip', ['link', 'set', 'vcw1-h', 'down']);
    try {
      expect(await curl('http://10.77.0.1:9401/_cluster/health')).toBe('unreachable');
    } finally {
      await run('ip', ['link', 'set', 'vcw1-h', 'up']);
    }
    // The veth's carrier comes back a moment after `link set up`: wait for it, bounded.
    let restored = 'unreachable';
    for (let attempt = 0; attempt < 20 && restored !== '200'; attempt++) {
      restored = await curl('http://10.77.0.1:9401/_cluster/health');
      if (restored !== '200') await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(restored).toBe('200');
  }, 30_000);
});
