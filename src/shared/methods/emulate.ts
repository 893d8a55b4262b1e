/**
 * Sandbox-safe settings of the `emulate` method (workflow input), their defaults and resolution.
 * No imports with runtime effect: workflows import values from here.
 */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the method's issue
export interface EmulateSettings {}

export const DEFAULT_EMULATE_SETTINGS: EmulateSettings = {};

/** The settings a verification runs with: the defaults overridden by what the input names. */
export function resolveEmulateSettings(partial: Partial<EmulateSettings> | undefined): EmulateSettings {
  return { ...DEFAULT_EMULATE_SETTINGS, ...partial };
}
