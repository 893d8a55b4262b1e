import { ensureLocalLlm, localLlmOptionsOf } from '../../infra/local-llm';
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
  /** True when answers come from the local model verity provisions (VERITY_LLM=local). */
  local?: boolean;
  /** Stops the in-process simulator, if one was started. */
  close(): Promise<void>;
}


/**
 * The configured endpoint; with VERITY_LLM=local the local model server (installed and started on
 * first use, kept running for later processes); else an in-process simulator on an ephemeral port.
 */
export async function resolveLlmEndpoint(config: VerityConfig, logger?: Logger): Promise<ResolvedLlmEndpoint> {
  if (config.llm.provider === 'local') {
    // First use installs the engine and downloads the weights (minutes): say so on stderr.
    const server = await ensureLocalLlm(config.dataDir, localLlmOptionsOf(config), (line) => process.stderr.write(`verity: ${line}\n`));
    logger?.info({ baseUrl: server.baseUrl, model: server.model, slots: server.slots }, 'local LLM server');
    return { baseUrl: server.baseUrl, apiKey: 'local', simulated: false, local: true, close: async () => undefined };
  }
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
