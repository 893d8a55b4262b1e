import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { configHash, configStamp, runPlacementOf } from '../../src/config/config-identity';
import { loadConfig } from '../../src/config/config';
import { buildVerifyInput, workflowIdOf } from '../../src/client/start-verification';
import { sha256HexOf } from '../../src/shared/sha256';
import { escapeIdPart, MAX_ID_PART_CHARS, sweepWorkflowId, verificationHash, verifyWorkflowId } from '../../src/shared/identity';

const env = { TEMPORAL_TASK_QUEUE: 'verity', ES_INDEX_PREFIX: 'verity', ES_URL: 'http://127.0.0.1:9200' };
const config = (overrides: Record<string, string> = {}) => loadConfig({ ...env, ...overrides });
const idOf = (overrides: Record<string, string>, request: Partial<Parameters<typeof buildVerifyInput>[1]> = {}) =>
  workflowIdOf(buildVerifyInput(config(overrides), { claim: 'The Eiffel Tower is in Paris.', method: 'rag', runId: 'r', claimId: 'c', ...request }));

describe('verification identity', () => {
  it('hashes like node:crypto, also inside the workflow sandbox', () => {
    for (const text of ['', 'abc', 'a'.repeat(56), 'é 🌍 ü'.repeat(40)]) {
      expect(sha256HexOf(text)).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });

  it('changes with everything that decides the answer', () => {
    const base = idOf({});
    const variants = [
      idOf({ OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1' }),
      idOf({ OPENAI_BASE_URL: 'http://127.0.0.1:9998/v1' }),
      idOf({ VERITY_TEMPERATURE: '0.5' }),
      idOf({ VERITY_SEED: '8' }),
      idOf({ VERITY_MODEL_JUDGE: 'other' }),
      idOf({ ES_INDEX_PREFIX: 'other' }),
      idOf({ ES_URL: 'http://127.0.0.1:9201' }),
      idOf({}, { claim: 'The Eiffel Tower is in Rome.' }),
      idOf({}, { retrievalMode: 'hybrid' }),
      idOf({}, { topK: 7 }),
      idOf({}, { model: 'gpt-4o' }),
      idOf({}, { method: 'mermaid' }),
      idOf({}, { method: 'mermaid', settings: { mermaid: { memory: 'off' } } as never }),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
    // The key is never part of an identity; the simulator is one identity wherever it listens.
    expect(idOf({ OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1', OPENAI_API_KEY: 'a' })).toBe(idOf({ OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1', OPENAI_API_KEY: 'b' }));
    expect(idOf({ VERITY_SIM_PORT: '1234' })).toBe(base);
    expect(idOf({}, { retrievalMode: 'bm25' })).toBe(base);
  });

  it('spells out the readable parts, escaped, and a short hash', () => {
    expect(idOf({})).toMatch(/^verify\/r\/c\/rag\/gpt-4o-mini\/[0-9a-f]{12}$/);
    const hash = 'a'.repeat(64);
    const ids = [
      verifyWorkflowId({ runId: 'a/b', claimId: 'c', method: 'rag', model: 'm', hash }),
      verifyWorkflowId({ runId: 'a', claimId: 'b/c', method: 'rag', model: 'm', hash }),
      verifyWorkflowId({ runId: 'a%2Fb', claimId: 'c', method: 'rag', model: 'm', hash }),
    ];
    expect(new Set(ids).size).toBe(3);
  });

  it('shortens long parts to a bounded, exact id: a readable head, ":" and a hash of the whole part', () => {
    const hash = 'a'.repeat(64);
    const long = ['L'.repeat(1200), '长'.repeat(120), '长'.repeat(70), `${'长'.repeat(70)}-other`, `${'L'.repeat(1199)}M`];
    const ids = long.map((claimId) => verifyWorkflowId({ runId: 'r'.repeat(300), claimId, method: 'mermaid', model: 'm'.repeat(3000), hash }));
    expect(new Set(ids).size).toBe(long.length);
    for (const id of ids) expect(Buffer.byteLength(id)).toBeLessThanOrEqual(512);
    expect(escapeIdPart('长'.repeat(70))).toMatch(/^(%E9%95%BF)+:[0-9a-f]{16}$/);
    expect(escapeIdPart('长'.repeat(70)).length).toBeLessThanOrEqual(MAX_ID_PART_CHARS);
    // Parts that fit keep their old spelling, so existing ids do not change.
    expect(escapeIdPart('a/b c%')).toBe(encodeURIComponent('a/b c%'));
    expect(escapeIdPart('x'.repeat(MAX_ID_PART_CHARS))).toBe('x'.repeat(MAX_ID_PART_CHARS));
    // A lone surrogate (no UTF-8 form) no longer throws; it is spelled %uXXXX, which no escaped part contains.
    expect(escapeIdPart('a\ud800')).toBe('a%uD800');
    expect(verifyWorkflowId({ runId: 'r', claimId: 'x'.repeat(200), method: 'rag', model: 'm', hash }, { spellOutLongParts: true })).toContain('x'.repeat(200));
  });

  it('scopes sweep ids by index prefix and Elasticsearch, and names the task queue after the configuration', () => {
    expect(sweepWorkflowId('dev', runPlacementOf(config()))).toMatch(/^sweep\/dev\/verity\/[0-9a-f]{6}$/);
    expect(sweepWorkflowId('dev', runPlacementOf(config({ ES_INDEX_PREFIX: 'other' })))).not.toBe(sweepWorkflowId('dev', runPlacementOf(config())));
    expect(config().temporal.taskQueue).toBe(`verity-${configHash(config()).slice(0, 8)}`);
    expect(config({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).temporal.taskQueue).not.toBe(config().temporal.taskQueue);
    expect(config({ ES_INDEX_PREFIX: 'other' }).temporal.taskQueue).not.toBe(config().temporal.taskQueue);
  });

  it('never carries credentials in stamps', () => {
    const stamp = configStamp(config({ ES_URL: 'https://elastic:s3cret@es.example:9200', OPENAI_API_KEY: 'sk-secret' }));
    expect(JSON.stringify(stamp)).not.toMatch(/s3cret|sk-secret/);
    expect(verificationHash({ claim: 'x', method: 'rag', model: 'm', rag: { topK: 5, index: 'i' } }, { configHash: 'a', promptsHash: 'b' })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('method behaviour versions', () => {
  it('make verifications new when a method changes an answer-deciding default (Tool-MAD dense RAG)', async () => {
    const { promptsHash } = await import('../../src/llm/prompts-hash');
    const { METHOD_BEHAVIOUR_VERSIONS } = await import('../../src/methods/behaviour-versions');
    const versions = METHOD_BEHAVIOUR_VERSIONS as Record<string, number>;
    const current = promptsHash();
    const toolMad = versions['tool-mad']!;
    versions['tool-mad'] = toolMad - 1;
    try {
      expect(promptsHash()).not.toBe(current);
    } finally {
      versions['tool-mad'] = toolMad;
    }
    expect(promptsHash()).toBe(current);
    expect(toolMad).toBeGreaterThanOrEqual(2);
  });
});

describe('small input guards', () => {
  it('never lets -o reach Object.prototype', async () => {
    const { optionPairsToObject, InvalidMethodSettingsError } = await import('../../src/methods/settings-schemas');
    expect(() => optionPairsToObject(['__proto__.polluted=1'])).toThrow(InvalidMethodSettingsError);
    expect(() => optionPairsToObject(['a.constructor.prototype.polluted=1'])).toThrow(InvalidMethodSettingsError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
