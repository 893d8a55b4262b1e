/** How long verity's side waits for one answer: the one slot's queue can hold another client's long calls. */
export const PARITY_LLM_WAIT_MS = 900_000;

/**
 * verity's settings on the parity bench's side: the local model behind the recording proxy, sampled as
 * the released code is (temperature 0, one seed), one call at a time, nothing answered from a cache.
 */
export function parityModelEnv(proxyUrl: string, model: string, seed: number): Record<string, string> {
  return {
    // The proxy is the endpoint, even when the shell says VERITY_LLM=local (which would send verity's calls past it).
    VERITY_LLM: 'endpoint',
    OPENAI_BASE_URL: proxyUrl,
    OPENAI_API_KEY: 'local',
    VERITY_MODEL: model,
    VERITY_TEMPERATURE: '0',
    VERITY_SEED: String(seed),
    VERITY_LLM_CONCURRENCY: '1',
    VERITY_LLM_CACHE: 'off',
    VERITY_LLM_TIMEOUT_MS: String(PARITY_LLM_WAIT_MS),
  };
}
