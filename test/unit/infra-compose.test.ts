import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ES_VERSION, TEMPORAL_CLI_VERSION } from '../../infra';
import { SEARCH_ATTRIBUTES } from '../../src/shared/constants';

interface Compose {
  services: Record<string, { image: string; command?: string[] }>;
}

const compose = YAML.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8')) as Compose;

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
