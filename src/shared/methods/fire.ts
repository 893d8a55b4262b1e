/**
 * Sandbox-safe settings of the `fire` method (workflow input), their defaults and resolution.
 * No imports with runtime effect: workflows import values from here.
 */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the method's issue
export interface FireSettings {}

export const DEFAULT_FIRE_SETTINGS: FireSettings = {};

/** The settings a verification runs with: the defaults overridden by what the input names. */
export function resolveFireSettings(partial: Partial<FireSettings> | undefined): FireSettings {
  return { ...DEFAULT_FIRE_SETTINGS, ...partial };
}
