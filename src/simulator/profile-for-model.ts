import { capabilitiesOf } from '../llm/capabilities';
import type { ServerProfile } from './profiles';

/**
 * The simulator profile that plays how `model` is served today, from its row of the capability
 * table: OpenAI's reasoning models, gpt-oss behind vLLM (the papers' setting), Anthropic's and
 * Gemini's compatibility layers; every other model (OpenAI chat, instruct models behind
 * OpenAI-compatible servers such as Together or vLLM) answers as OpenAI's chat API does.
 */
export function simulatorProfileForModel(model: string): ServerProfile {
  const family = capabilitiesOf(model).family;
  switch (family) {
    case 'openai-reasoning':
      return 'openai-reasoning';
    case 'gpt-oss':
      return 'gpt-oss-vllm';
    case 'anthropic-compat':
      return 'anthropic-compat';
    case 'gemini-compat':
      return 'gemini-compat';
    default:
      return 'openai';
  }
}
