import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ES_VERSION, TEMPORAL_CLI_VERSION } from '../../infra';
import { SEARCH_ATTRIBUTES } from '../../src/shared/constants';

interface Service {
  image: string;
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, unknown> | string[];
}

interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

// merge: the three Elasticsearch nodes share their settings through YAML merge keys, as Compose reads them.
const compose = YAML.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;

describe('docker-compose.yml stays in step with infra/', () => {
  it('pins the same versions', () => {
    expect(compose.services.temporal?.image).toBe(`temporalio/temporal:${TEMPORAL_CLI_VERSION}`);
    expect(compose.services.elasticsearch?.image).toBe(`docker.elastic.co/elasticsearch/elasticsearch:${ES_VERSION}`);
  });
  it('registers the same search attributes', () => {
    const registered = (compose.services.temporal?.command ?? [])
      .filter((arg) => arg.startsWith('--search-attribute='))
      .map((arg) => arg.slice('--search-attribute='.length));
    expect(registered).toEqual(Object.values(SEARCH_ATTRIBUTES).map((name) => `${name}=Keyword`));
  });
});

describe('the production profile of docker-compose.yml', () => {
  const production = Object.entries(compose.services).filter(([, service]) => service.profiles?.includes('production'));
  const byImage = (prefix: string) => production.filter(([, service]) => service.image.startsWith(prefix)).map(([, service]) => service);

  it('leaves the default stack as it is', () => {
    expect(compose.services.temporal?.profiles).toBeUndefined();
    expect(compose.services.elasticsearch?.profiles).toBeUndefined();
  });

  it('runs Temporal Server on PostgreSQL with SQL visibility (as infra:cluster does), and the Temporal UI', () => {
    const [server] = byImage('temporalio/auto-setup:');
    expect(server?.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
    expect(server?.environment?.ENABLE_ES).toBeUndefined();
    expect(compose.services.postgresql?.image).toMatch(/^postgres:\d+/);
    expect(byImage('temporalio/ui:')[0]?.environment?.TEMPORAL_ADDRESS).toBe('temporal-server:7233');
  });

  it("runs verity's Elasticsearch as three secured nodes of one cluster (as infra:cluster does), and keeps every secret out of the file", () => {
    const nodes = ['verity-es-1', 'verity-es-2', 'verity-es-3'].map((name) => compose.services[name]);
    for (const [i, node] of nodes.entries()) {
      const name = `verity-es-${i + 1}`;
      expect(node?.profiles).toEqual(['production']);
      expect(node?.image).toBe(`docker.elastic.co/elasticsearch/elasticsearch:${ES_VERSION}`);
      expect(node?.environment).toMatchObject({
        'node.name': name,
        'cluster.name': 'verity',
        'cluster.initial_master_nodes': 'verity-es-1,verity-es-2,verity-es-3',
        'xpack.security.enabled': 'true',
        'xpack.security.http.ssl.enabled': 'true',
        'xpack.security.transport.ssl.enabled': 'true',
        'xpack.security.transport.ssl.certificate': `certs/${name}/${name}.crt`,
      });
      expect(node?.environment?.['discovery.seed_hosts']?.split(',').sort()).toEqual(['verity-es-1', 'verity-es-2', 'verity-es-3'].filter((other) => other !== name));
      expect(node?.environment?.ELASTIC_PASSWORD).toMatch(/^\$\{ELASTIC_PASSWORD:\?/);
    }
    expect(compose.services['verity-es']).toBeUndefined();
    for (const [, service] of production) {
      for (const [name, value] of Object.entries(service.environment ?? {})) {
        if (/PASSWORD|PWD/.test(name)) expect(value).toMatch(/^\$\{[A-Z_]+:\?/);
      }
    }
  });

  it('publishes ports on loopback only, apart from the default stack\'s, with every volume declared', () => {
    const published = production.flatMap(([, service]) => service.ports ?? []);
    expect(published.every((port) => port.startsWith('127.0.0.1:'))).toBe(true);
    const defaults = ['7233', '8233', '9200'];
    expect(published.map((port) => port.split(':')[1])).not.toEqual(expect.arrayContaining(defaults));
    const used = production.flatMap(([, service]) => ((service as { volumes?: string[] }).volumes ?? []).map((volume) => volume.split(':')[0]));
    for (const volume of used) expect(compose.volumes).toHaveProperty(volume as string);
  });
});
