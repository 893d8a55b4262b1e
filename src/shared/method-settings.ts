/**
 * Per-method settings carried by a verification's input (sandbox-safe, types only). Each method
 * reads its own entry and resolves it against its defaults; absent entries mean "defaults".
 * The entries are the registry's: each method's definition declares its settings type
 * (src/methods/<m>/index.ts), checked against its zod schema.
 */
import type { MethodName, MethodSettingsOf } from '../methods/registry';

export type MethodSettings = { [M in MethodName]?: MethodSettingsOf<M> };

/** The entry of `method` alone (what one verification of that method needs), or undefined. */
export function settingsOfMethod(all: MethodSettings | undefined, method: string): MethodSettings | undefined {
  const entry = all?.[method as keyof MethodSettings];
  return entry === undefined ? undefined : ({ [method]: entry } as MethodSettings);
}
