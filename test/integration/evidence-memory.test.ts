import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { ApplicationFailure } from '@temporalio/common';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryActivities } from '../../activities/memory.activities';
import { registerMemoryCommand } from '../../src/cli/commands/memory';
import { AGENT_ROLES, type AgentRole } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { LlmGateway } from '../../src/llm/gateway';
import { DEFAULT_PRICES } from '../../src/llm/prices';
import { EvidenceMemory } from '../../src/memory/evidence-memory';
import { EvidenceMemoryStore } from '../../src/memory/memory-store';
import { exportMemory, importMemory } from '../../src/memory/transfer';
import { MEMORY_CODE_COMPAT, type MemoryObservation, type MemoryRecallOptions, type MemoryUpdateOptions } from '../../src/shared/memory';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server';
import { deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

const UPDATE: MemoryUpdateOptions = { mode: 'endOfClaim', dedup: 'toolArgs', storeInvalid: false, frozen: false };
const recallOptions = (mode: MemoryRecallOptions['mode'], similarityThreshold = 0.5): MemoryRecallOptions => ({ mode, topK: 3, similarityThreshold });

const REACTORS = ['The United States', '94 operating reactors'];
const HURLING = ['Hurling', 'Ireland'];
const search = (query: string, evidence = `Results about ${query}.`, tool = 'search_google'): MemoryObservation => ({ tool, args: { query }, evidence });

let es: Client;
let sim: RunningSimulator;
let prefix: string;
let store: EvidenceMemoryStore;
let memory: EvidenceMemory;
let tmp: string;

function memoryFor(indexPrefix: string, withEmbeddings = true): EvidenceMemory {
  const gateway = new LlmGateway({
    endpoint: { baseUrl: sim.url, apiKey: 'sim' },
    models: Object.fromEntries(AGENT_ROLES.map((role) => [role, 'gpt-4o-mini'])) as Record<AgentRole, string>,
    temperature: 0,
    seed: 7,
    timeoutMs: 10_000,
    prices: DEFAULT_PRICES,
  });
  return new EvidenceMemory({
    store: new EvidenceMemoryStore(es, indexName(indexPrefix, 'evidence-memory')),
    embedder: withEmbeddings ? gateway : undefined,
    embeddingModel: 'text-embedding-3-small',
  });
}

async function runMemoryCli(...args: string[]): Promise<string> {
  const program = new Command('verity').exitOverride();
  registerMemoryCommand(program);
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(args, { from: 'user' });
    return write.mock.calls.map((call) => String(call[0])).join('');
  } finally {
    write.mockRestore();
  }
}

beforeAll(async () => {
  const config = testConfig();
  es = createEsClient({ url: config.elasticsearch.url });
  sim = await startSimulator({ port: 0 });
  prefix = uniqueName('memory');
  process.env.ES_INDEX_PREFIX = prefix; // for the CLI commands, which read the configuration
  store = new EvidenceMemoryStore(es, indexName(prefix, 'evidence-memory'));
  memory = memoryFor(prefix);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-memory-'));

  await memory.update({ scope: 'run:a', claimId: 'c1', entities: REACTORS, observations: [search('US nuclear reactors'), search('reactor count 2024')] }, UPDATE);
  await memory.update({ scope: 'run:a', claimId: 'c2', entities: HURLING, observations: [search('hurling rules', 'Hurling is a Gaelic sport.', 'search_wikipedia')] }, UPDATE);
  await memory.update({ scope: 'run:b', claimId: 'c9', entities: REACTORS, observations: [search('reactors in run b')] }, UPDATE);
});

afterAll(async () => {
  delete process.env.ES_INDEX_PREFIX;
  await deleteIndicesWithPrefix(es, prefix);
  await deleteIndicesWithPrefix(es, `${prefix}-copy`);
  await sim.close();
  await es.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('evidence memory over Elasticsearch', () => {
  it('substring recall finds entries whose keys contain or are contained in the claim keys, oldest first', async () => {
    const recall = await memory.recall('run:a', ['United States', 'nuclear power'], recallOptions('substring'));
    expect(recall.hits.map((hit) => [hit.query, hit.score])).toEqual([
      ['US nuclear reactors', 1],
      ['reactor count 2024', 1],
    ]);
    expect(recall.lines[0]).toBe("[Memory] Previous evidence for 'US nuclear reactors': Results about US nuclear reactors.");
  });

  it('exact recall needs the whole key', async () => {
    expect((await memory.recall('run:a', ['United States'], recallOptions('exact'))).hits).toEqual([]);
    const recall = await memory.recall('run:a', ['the united states ', 'HURLING'], recallOptions('exact'));
    expect(recall.hits.map((hit) => hit.claimId)).toEqual(['c1', 'c1', 'c2']);
  });

  it('semantic recall finds a paraphrased entity that substring recall misses, and respects the threshold', async () => {
    const paraphrase = ['nuclear reactors operating in the US'];
    expect((await memory.recall('run:a', paraphrase, recallOptions('substring'))).hits).toEqual([]);
    const found = await memory.recall('run:a', paraphrase, recallOptions('semantic', 0.4));
    expect(found.hits.map((hit) => hit.claimId)).toEqual(['c1', 'c1']);
    expect(found.hits[0]!.score).toBeGreaterThanOrEqual(0.4);
    expect((await memory.recall('run:a', paraphrase, recallOptions('semantic', 0.6))).hits).toEqual([]);
  });

  it('keeps scopes apart', async () => {
    const inB = await memory.recall('run:b', REACTORS, recallOptions('substring'));
    expect(inB.hits.map((hit) => hit.query)).toEqual(['reactors in run b']);
    expect((await memory.recall('run:c', REACTORS, recallOptions('substring'))).hits).toEqual([]);
  });

  it('drops invalid observations and stores each (tool, normalised args) once; a retried update changes nothing', async () => {
    const observations = [search('  HURLING rules', 'another text', 'search_wikipedia'), { tool: 'get_article', args: { query: 'Hurling' }, evidence: 'Page does not exist' }];
    const before = (await store.stats('run:a')).entries;
    const result = await memory.update({ scope: 'run:a', claimId: 'c3', entities: HURLING, observations }, UPDATE);
    expect(result).toEqual({ written: 0, duplicates: 1, invalid: { notFound: 1 }, frozenSkipped: 0 });
    expect((await store.stats('run:a')).entries).toBe(before);
    const kept = await memory.recall('run:a', ['hurling'], recallOptions('exact'));
    expect(kept.lines).toEqual(["[Memory] Previous evidence for 'hurling rules': Hurling is a Gaelic sport."]);
  });

  it('code-compat dedup skips a query already stored by another tool', async () => {
    const result = await memory.update({ scope: 'run:b', claimId: 'c10', entities: REACTORS, observations: [search('Reactors IN run B', 'x', 'search_wikipedia')] }, MEMORY_CODE_COMPAT.update);
    expect(result.written).toBe(1); // stored under toolArgs before, so the query key is new here
    const again = await memory.update({ scope: 'run:b', claimId: 'c11', entities: REACTORS, observations: [search('reactors in RUN b', 'y', 'search_google')] }, MEMORY_CODE_COMPAT.update);
    expect(again).toMatchObject({ written: 0, duplicates: 1 });
  });

  it('writes nothing when frozen, and counts what it skipped', async () => {
    const frozen = memoryFor(prefix);
    const before = await store.stats('run:a');
    const result = await frozen.update({ scope: 'run:a', claimId: 'c4', entities: REACTORS, observations: [search('new query 1'), search('new query 2')] }, { ...UPDATE, frozen: true });
    expect(result).toEqual({ written: 0, duplicates: 0, invalid: {}, frozenSkipped: 2 });
    expect(frozen.counters.frozenUpdatesSkipped).toBe(2);
    expect((await store.stats('run:a')).entries).toBe(before.entries);
  });

  it('exports and imports a scope as JSONL without changing a byte', async () => {
    const first = path.join(tmp, 'a.jsonl');
    const second = path.join(tmp, 'a-again.jsonl');
    expect(await exportMemory(store, 'run:a', first)).toBe(3);
    const copy = new EvidenceMemoryStore(es, indexName(`${prefix}-copy`, 'evidence-memory'));
    expect(await importMemory(copy, first)).toEqual({ entries: 3, scopes: ['run:a'] });
    await exportMemory(copy, 'run:a', second);
    expect(fs.readFileSync(second, 'utf8')).toBe(fs.readFileSync(first, 'utf8'));
  });

  it('imports into another scope, where recall finds the entries', async () => {
    const file = path.join(tmp, 'b.jsonl');
    await exportMemory(store, 'run:b', file);
    await importMemory(store, file, 'dataset:proxy');
    const recall = await memory.recall('dataset:proxy', REACTORS, recallOptions('substring'));
    expect(recall.hits.map((hit) => hit.query).sort()).toEqual(['Reactors IN run B', 'reactors in run b']);
  });

  it('reports statistics of a scope', async () => {
    const stats = await store.stats('run:a');
    expect(stats).toMatchObject({ scope: 'run:a', entries: 3, claims: 2, embedded: 3, tools: { search_google: 2, search_wikipedia: 1 } });
    expect(stats.topKeywords[0]).toEqual({ keyword: '94 operating reactors', entries: 2 });
  });
});

describe('memory activities', () => {
  const activities = () =>
    createMemoryActivities({ memory, memoryDefaults: { recall: recallOptions('substring'), update: UPDATE } });

  it('recall with the configured defaults, overridable per call', async () => {
    expect((await activities().memoryRecall({ scope: 'run:a', entities: ['united states'] })).hits).toHaveLength(2);
    expect((await activities().memoryRecall({ scope: 'run:a', entities: ['united states'], options: { mode: 'exact' } })).hits).toHaveLength(0);
  });

  it('reject a bad scope, and semantic recall without embeddings, as non-retryable', async () => {
    await expect(activities().memoryRecall({ scope: 'bad scope!', entities: ['x'] })).rejects.toSatisfy(
      (err: unknown) => err instanceof ApplicationFailure && err.nonRetryable === true && err.type === 'InvalidInput',
    );
    const withoutEmbeddings = createMemoryActivities({ memory: memoryFor(prefix, false), memoryDefaults: { recall: recallOptions('semantic'), update: UPDATE } });
    await expect(withoutEmbeddings.memoryRecall({ scope: 'run:a', entities: ['x'] })).rejects.toSatisfy(
      (err: unknown) => err instanceof ApplicationFailure && err.nonRetryable === true && err.type === 'ConfigurationError',
    );
  });

  it('update reports what it wrote', async () => {
    const result = await activities().memoryUpdate({ scope: 'run:act', claimId: 'c1', entities: REACTORS, observations: [search('activity query')] });
    expect(result.written).toBe(1);
  });
});

describe('verity memory CLI', () => {
  it('exports, imports and reports stats, with --json', async () => {
    const file = path.join(tmp, 'cli.jsonl');
    expect(JSON.parse(await runMemoryCli('memory', 'export', 'run:a', file, '--json'))).toEqual({ scope: 'run:a', file, entries: 3 });
    expect(await runMemoryCli('memory', 'import', file, '--scope', 'run:cli')).toBe('imported 3 entries into run:cli\n');
    expect(JSON.parse(await runMemoryCli('memory', 'stats', 'run:cli', '--json'))).toMatchObject({ entries: 3, claims: 2 });
    expect(await runMemoryCli('memory', 'stats', 'run:cli')).toMatch(/^scope run:cli: 3 entries from 2 claims, 3 with embeddings/);
  });

  it('fails with a usage error on a malformed file', async () => {
    const file = path.join(tmp, 'bad.jsonl');
    fs.writeFileSync(file, '{"id": 1}\n');
    await expect(runMemoryCli('memory', 'import', file)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('line 1') });
  });
});
