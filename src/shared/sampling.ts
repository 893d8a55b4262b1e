/**
 * Sandbox-safe sampling settings of a method's LLM calls (temperature, top-p, seed, max tokens):
 * method settings, so they are part of a verification's identity and recorded with its verdict.
 * Unset values fall back to the worker's VERITY_TEMPERATURE (default 0) / VERITY_SEED and the
 * provider's defaults. No imports with runtime effect.
 */

export interface SamplingSettings {
  temperature?: number;
  topP?: number;
  seed?: number;
  maxTokens?: number;
  /**
   * Set by a sweep with `repeats: k` on its repeats 1…k-1 (never by a config): the LLM requests are
   * sent with seed + repeat and carry the index, so each repeat is sampled (and cached) on its own.
   */
  repeat?: number;
}

/** A method's sampling: values for all its LLM calls, overridden per agent role (judge, executor, …). */
export interface MethodSampling extends SamplingSettings {
  roles?: Record<string, SamplingSettings>;
}

/** The sampling of one call of `role`: the role's values over the method's. */
export function samplingForRole(sampling: MethodSampling | undefined, role: string): SamplingSettings {
  const { roles, ...base } = sampling ?? {};
  return { ...base, ...roles?.[role] };
}

/** The `llm` (sampling) entry of a verification's method settings, if any. */
export function methodSamplingOf(settings: unknown, method: string): MethodSampling | undefined {
  const entry = (settings as Record<string, { llm?: MethodSampling } | undefined> | undefined)?.[method];
  return entry?.llm;
}
