/**
 * Sandbox-safe settings of the `toe` method (workflow input), their defaults and resolution.
 * No imports with runtime effect: workflows import values from here.
 */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the method's issue
export interface ToeSettings {}

export const DEFAULT_TOE_SETTINGS: ToeSettings = {};

/** The settings a verification runs with: the defaults overridden by what the input names. */
export function resolveToeSettings(partial: Partial<ToeSettings> | undefined): ToeSettings {
  return { ...DEFAULT_TOE_SETTINGS, ...partial };
}
