/**
 * Per-method settings carried by a verification's input (sandbox-safe, types only). Each method
 * reads its own entry and resolves it against its defaults; absent entries mean "defaults".
 */
import type { EmulateSettings } from './methods/emulate';
import type { FireSettings } from './methods/fire';
import type { MermaidSettings } from './methods/mermaid';
import type { ToeSettings } from './methods/toe';
import type { ToolMadSettings } from './methods/tool-mad';

export interface MethodSettings {
  mermaid?: Partial<MermaidSettings>;
  emulate?: Partial<EmulateSettings>;
  fire?: Partial<FireSettings>;
  'tool-mad'?: Partial<ToolMadSettings>;
  toe?: Partial<ToeSettings>;
}

/** The entry of `method` alone (what one verification of that method needs), or undefined. */
export function settingsOfMethod(all: MethodSettings | undefined, method: string): MethodSettings | undefined {
  const entry = all?.[method as keyof MethodSettings];
  return entry === undefined ? undefined : ({ [method]: entry } as MethodSettings);
}
