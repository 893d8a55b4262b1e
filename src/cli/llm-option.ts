import { Option } from 'commander';
import { LLM_CHOICES, type LlmChoice } from '../config/config';

/** `--llm simulator|local|endpoint`: VERITY_LLM for this command (the flag wins over the environment). */
export function llmOption(): Option {
  return new Option('--llm <llm>', 'who answers LLM calls: the simulator, the local model verity provisions, or OPENAI_BASE_URL (default: VERITY_LLM)').choices(LLM_CHOICES);
}

/** Applies the flag before the configuration is read (embedded workers read the same environment). */
export function applyLlmOption(llm: LlmChoice | undefined): void {
  if (llm) process.env.VERITY_LLM = llm;
}
