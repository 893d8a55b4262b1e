/**
 * Sandbox-safe settings of the `mermaid` method (workflow input), their defaults and resolution.
 * No imports with runtime effect: workflows import values from here.
 */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the method's issue
export interface MermaidSettings {}

export const DEFAULT_MERMAID_SETTINGS: MermaidSettings = {};

/** The settings a verification runs with: the defaults overridden by what the input names. */
export function resolveMermaidSettings(partial: Partial<MermaidSettings> | undefined): MermaidSettings {
  return { ...DEFAULT_MERMAID_SETTINGS, ...partial };
}
