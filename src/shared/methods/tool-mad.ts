/**
 * Sandbox-safe settings of the `tool-mad` method (workflow input), their defaults and resolution.
 * No imports with runtime effect: workflows import values from here.
 */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the method's issue
export interface ToolMadSettings {}

export const DEFAULT_TOOL_MAD_SETTINGS: ToolMadSettings = {};

/** The settings a verification runs with: the defaults overridden by what the input names. */
export function resolveToolMadSettings(partial: Partial<ToolMadSettings> | undefined): ToolMadSettings {
  return { ...DEFAULT_TOOL_MAD_SETTINGS, ...partial };
}
