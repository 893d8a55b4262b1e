import type { VerityConfig } from '../config/config';
import { OPENAI_DEFAULT_BASE_URL } from '../config/config-identity';
import type { Logger } from '../logging/logger';
import { startSimulator } from '../simulator/server';
import type { LlmEndpoint } from './gateway';

export const SIMULATOR_NOTICE =
  'verity: no OPENAI_API_KEY or OPENAI_BASE_URL configured; using the built-in simulator (its answers are not real model outputs)';

export interface ResolvedLlmEndpoint extends LlmEndpoint {
  /** True when answers come from the in-process simulator. */
  simulated: boolean;
  /** Stops the in-process simulator, if one was started. */
  close(): Promise<void>;
}


/** The configured endpoint, or an in-process simulator on an ephemeral port when none is configured. */
export async function resolveLlmEndpoint(config: VerityConfig, logger?: Logger): Promise<ResolvedLlmEndpoint> {
  if (config.llm.provider === 'openai-compatible') {
    return {
      baseUrl: config.llm.baseUrl ?? OPENAI_DEFAULT_BASE_URL,
      // Local servers (vLLM, Ollama) accept any key; the SDK insists on one.
      apiKey: config.llm.apiKey ?? 'none',
      simulated: false,
      close: async () => undefined,
    };
  }
  const simulator = await startSimulator({ port: 0, latencyMs: config.simulator.latencyMs });
  process.stderr.write(`${SIMULATOR_NOTICE}\n`);
  logger?.info({ baseUrl: simulator.url }, 'built-in LLM simulator started');
  return { baseUrl: simulator.url, apiKey: 'sim', simulated: true, close: () => simulator.close() };
}
