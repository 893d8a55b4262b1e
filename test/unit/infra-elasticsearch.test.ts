import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  ES_VERSION,
  assertEnoughMemory,
  esJavaOpts,
  esLayout,
  javaHomeCandidates,
  parseJavaMajor,
  renderElasticsearchYml,
} from '../../infra/elasticsearch';
import { loadConfig } from '../../src/config/config';

describe('parseJavaMajor', () => {
  it('reads modern and legacy version strings', () => {
    expect(parseJavaMajor('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime')).toBe(17);
    expect(parseJavaMajor('openjdk version "25" 2025-09-16')).toBe(25);
    expect(parseJavaMajor('java version "1.8.0_292"')).toBe(8);
    expect(parseJavaMajor('openjdk version "21-ea" 2023-09-19')).toBe(21);
    expect(parseJavaMajor('no java here')).toBeUndefined();
  });
});

describe('renderElasticsearchYml', () => {
  it('renders a single loopback node with the given paths and extra settings', () => {
    const yml = renderElasticsearchYml({
      port: 9201,
      dataDir: '/d',
      logsDir: '/l',
      extra: { 'xpack.security.enabled': false },
    });
    expect(YAML.parse(yml)).toEqual({
      'cluster.name': 'verity',
      'node.name': 'verity-1',
      'discovery.type': 'single-node',
      'network.host': '127.0.0.1',
      'http.port': 9201,
      'path.data': '/d',
      'path.logs': '/l',
      'xpack.security.enabled': false,
    });
  });
});

describe('esLayout', () => {
  it('keeps everything under the data dir when not root', () => {
    const layout = esLayout('/p/.verity', 9200, false);
    expect(layout.home).toBe(`/p/.verity/elasticsearch/elasticsearch-${ES_VERSION}`);
    expect(layout.pidFile).toBe('/p/.verity/elasticsearch/node-9200/elasticsearch.pid');
    expect(layout.runAs).toBeUndefined();
  });
  it('moves the node to /var/lib/verity and runs it as verity-es when root', () => {
    const layout = esLayout('/p/.verity', 9201, true);
    expect(layout.home).toBe(`/var/lib/verity/elasticsearch-${ES_VERSION}/elasticsearch-${ES_VERSION}`);
    expect(layout.dataDir).toBe(`/var/lib/verity/elasticsearch-${ES_VERSION}/node-9201/data`);
    expect(layout.downloadsDir).toBe('/p/.verity/downloads');
    expect(layout.runAs).toBe('verity-es');
  });
});

describe('memory and heap', () => {
  it('requires heap + 512 MB free', () => {
    expect(() => assertEnoughMemory(1024, 2048 * 1024 * 1024)).not.toThrow();
    expect(() => assertEnoughMemory(1024, 1200 * 1024 * 1024)).toThrow(/1200 MB free, need 1024 MB heap/);
  });
  it('sets min and max heap alike', () => {
    expect(esJavaOpts(512)).toBe('-Xms512m -Xmx512m');
  });
});

describe('javaHomeCandidates', () => {
  it('prefers ES_JAVA_HOME, then JAVA_HOME', () => {
    const config = loadConfig({ ES_JAVA_HOME: '/jdk-es' });
    const candidates = javaHomeCandidates(config, { JAVA_HOME: '/jdk', PATH: '/nonexistent' });
    expect(candidates).toEqual([
      { source: 'ES_JAVA_HOME', home: '/jdk-es' },
      { source: 'JAVA_HOME', home: '/jdk' },
    ]);
  });
});
