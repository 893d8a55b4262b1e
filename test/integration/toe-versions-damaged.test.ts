import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { PolicyVersionStore, toePolicyVersionsIndex } from '../../src/methods/toe/online/policy-version-store';
import { runCli } from '../support/cli-process';
import { deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

const prefix = uniqueName('toe-versions');
const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
const env = { ES_URL: process.env.ES_URL ?? 'http://127.0.0.1:9200', ES_INDEX_PREFIX: prefix };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-toe-versions-'));
const scope = 'run:r/model:m';

/** `verity toe versions` over a damaged version record on real Elasticsearch: listed around, never exported as null. */
describe('toe versions with a damaged record', () => {
  beforeAll(async () => {
    const store = new PolicyVersionStore(es, toePolicyVersionsIndex(prefix));
    await store.versions(scope); // creates the index with its mappings
    // A version document missing its episodes, mean return and weights.
    await es.index({ index: store.index, id: 'version:damaged:1', document: { kind: 'version', scope, seq: 1, version: 'v-damaged', parentVersion: 'v0', referenceVersion: 'v0', createdAt: '2026-01-01T00:00:00.000Z' }, refresh: 'wait_for' });
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('lists the scope, leaving the damaged record out with a note', async () => {
    const result = await runCli(['toe', 'versions', scope], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/1 damaged version record\(s\) of run:r\/model:m left out/);
  });

  it('refuses to export a damaged record instead of writing null', async () => {
    const out = path.join(tmp, 'weights.json');
    const result = await runCli(['toe', 'versions', scope, '--export', 'v-damaged', '--out', out], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^verity: version v-damaged of scope run:r\/model:m is damaged/);
    expect(fs.existsSync(out)).toBe(false);
  });
});
