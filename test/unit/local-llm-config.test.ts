import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config';
import { configHash, configStamp, endpointIdentity } from '../../src/config/config-identity';
import { LOCAL_MODELS, LOCAL_TIMEOUT_SAFETY, localTimeoutMs } from '../../src/config/local-llm';
import { priceTableFor } from '../../src/llm/create-gateway';
import { costOf } from '../../src/llm/prices';

describe('VERITY_LLM', () => {
  it('chooses the endpoint when a base URL or key is set and nothing says otherwise, else the simulator', () => {
    expect(loadConfig({}).llm.provider).toBe('simulator');
    expect(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' }).llm.provider).toBe('openai-compatible');
    expect(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', VERITY_LLM: 'simulator' }).llm.provider).toBe('simulator');
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', VERITY_LLM: 'endpoint' }).llm.provider).toBe('openai-compatible');
  });

  it('refuses VERITY_LLM=endpoint without an endpoint', () => {
    expect(() => loadConfig({ VERITY_LLM: 'endpoint' })).toThrow(ConfigError);
  });

  it('local: the local model by default, its server as embeddings, no OpenAI base URL or key', () => {
    const config = loadConfig({ VERITY_LLM: 'local', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_API_KEY: 'sk-x' });
    expect(config.llm.provider).toBe('local');
    expect(config.llm.local).toEqual({ model: 'qwen2.5-coder-0.5b', slots: LOCAL_MODELS['qwen2.5-coder-0.5b'].measured.slots });
    expect(config.llm.models.default).toBe('qwen2.5-coder-0.5b');
    expect(config.llm.models.judge).toBe('qwen2.5-coder-0.5b');
    expect(config.embedding.model).toBe('qwen2.5-coder-0.5b');
    expect(config.llm.baseUrl).toBeUndefined();
    expect(config.llm.apiKey).toBeUndefined();
    expect(loadConfig({ VERITY_LLM: 'local', VERITY_LOCAL_MODEL: 'qwen2.5-coder-1.5b' }).llm.models.default).toBe('qwen2.5-coder-1.5b');
    expect(() => loadConfig({ VERITY_LLM: 'local', VERITY_LOCAL_MODEL: 'llama-70b' })).toThrow(ConfigError);
  });

  it('local: concurrency defaults to the slots and the timeout to the measured speed; settings still win', () => {
    const spec = LOCAL_MODELS['qwen2.5-coder-0.5b'];
    const config = loadConfig({ VERITY_LLM: 'local', VERITY_LOCAL_LLM_SLOTS: '3' });
    expect(config.llm.concurrency).toBe(3);
    expect(config.llm.timeoutMs).toBe(localTimeoutMs(spec, 3));
    const explicit = loadConfig({ VERITY_LLM: 'local', VERITY_LLM_CONCURRENCY: '5', VERITY_LLM_TIMEOUT_MS: '1000' });
    expect([explicit.llm.concurrency, explicit.llm.timeoutMs]).toEqual([5, 1000]);
    expect([loadConfig({}).llm.concurrency, loadConfig({}).llm.timeoutMs]).toEqual([16, 120_000]);
  });
});

describe('localTimeoutMs', () => {
  it('is (context / prompt tok/s + max answer / generated tok/s) × slots × safety, in whole seconds', () => {
    const spec = { measured: { slots: 2, promptTokensPerS: 4096, generatedTokensPerS: 1024 } };
    expect(localTimeoutMs(spec, 1)).toBe(2 * LOCAL_TIMEOUT_SAFETY * 1000);
    expect(localTimeoutMs(spec, 2)).toBe(4 * LOCAL_TIMEOUT_SAFETY * 1000);
    expect(localTimeoutMs({ measured: { slots: 1, promptTokensPerS: 3000, generatedTokensPerS: 1000 } }, 1) % 1000).toBe(0);
  });

  it('gives the default local model well above the 120 s meant for hosted APIs', () => {
    expect(localTimeoutMs(LOCAL_MODELS['qwen2.5-coder-0.5b'], 2)).toBeGreaterThan(120_000);
  });
});

describe('local endpoint identity', () => {
  it('is engine, model file hash and quantisation: no port, no URL', () => {
    const config = loadConfig({ VERITY_LLM: 'local' });
    const identity = endpointIdentity(config.llm);
    expect(identity).toEqual({
      provider: 'local',
      engine: 'llama.cpp',
      enginePackage: 'xllamacpp==2026.10.11549',
      modelSha256: LOCAL_MODELS['qwen2.5-coder-0.5b'].sha256,
      quantisation: 'Q4_K_M',
    });
    expect(JSON.stringify(identity)).not.toMatch(/127\.0\.0\.1|http/);
  });

  it('differs from the simulator, from an endpoint serving the same name, and between models', () => {
    const local = configHash(loadConfig({ VERITY_LLM: 'local' }));
    const sameNameElsewhere = configHash(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1', VERITY_MODEL: 'qwen2.5-coder-0.5b', VERITY_EMBEDDING_MODEL: 'qwen2.5-coder-0.5b' }));
    const simulator = configHash(loadConfig({ VERITY_MODEL: 'qwen2.5-coder-0.5b', VERITY_EMBEDDING_MODEL: 'qwen2.5-coder-0.5b' }));
    const bigger = configHash(loadConfig({ VERITY_LLM: 'local', VERITY_LOCAL_MODEL: 'qwen2.5-coder-1.5b', VERITY_MODEL: 'qwen2.5-coder-0.5b', VERITY_EMBEDDING_MODEL: 'qwen2.5-coder-0.5b' }));
    expect(new Set([local, sameNameElsewhere, simulator, bigger]).size).toBe(4);
  });

  it('does not change with the slot count (where it listens and how busy it is decide no answer)', () => {
    expect(configHash(loadConfig({ VERITY_LLM: 'local', VERITY_LOCAL_LLM_SLOTS: '1' }))).toBe(configHash(loadConfig({ VERITY_LLM: 'local', VERITY_LOCAL_LLM_SLOTS: '4' })));
  });

  it('labels the configuration as the local model', () => {
    expect(configStamp(loadConfig({ VERITY_LLM: 'local' })).label).toMatch(/LLM local Qwen2\.5-Coder-0\.5B-Instruct Q4_K_M \(llama\.cpp/);
  });
});

describe('pricing local servers', () => {
  const tokens = [1_000_000, 1_000_000] as const;

  it('the local model costs 0, priced, even when it answers under an OpenAI model name', () => {
    const table = priceTableFor(loadConfig({ VERITY_LLM: 'local' }), { baseUrl: 'http://127.0.0.1:40000/v1', simulated: false, local: true });
    expect(costOf('gpt-4o-mini', ...tokens, table)).toEqual({ costUsd: 0, priced: true });
    expect(costOf('qwen2.5-coder-0.5b', ...tokens, table)).toEqual({ costUsd: 0, priced: true });
  });

  it('a server on this machine is not priced as OpenAI unless a prices file says so', () => {
    const config = loadConfig({ OPENAI_BASE_URL: 'http://localhost:11434/v1' });
    for (const baseUrl of ['http://localhost:11434/v1', 'http://127.0.0.1:8000/v1', 'http://[::1]:8000/v1']) {
      expect(costOf('gpt-4o-mini', ...tokens, priceTableFor(config, { baseUrl, simulated: false }))).toEqual({ costUsd: 0, priced: false });
    }
    expect(costOf('gpt-4o-mini', ...tokens, priceTableFor(config, { baseUrl: 'https://api.openai.com/v1', simulated: false })).costUsd).toBeCloseTo(0.75, 10);
  });
});
