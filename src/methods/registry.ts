/**
 * The method registry: one line per method. Everything outside a method's own folder (CLI choices,
 * settings validation, task registration, prompt hashes, behaviour versions, simulator responders,
 * the indices a verification needs, worker activities, benches) reads this list.
 *
 * Why a method has a second line, in ./registry.workflow.ts: workflow code runs in Temporal's
 * sandbox, which may import values only from sandbox-safe files (`npm run lint:boundaries`). The
 * definitions here carry zod schemas, prompt tasks and simulator code, so the workflow bundle must
 * never import this file; it dispatches to a method's runner through the sandbox-safe runner table
 * instead. The lists cannot drift: MethodName is the set of entries the methods add to
 * MethodSettingsByName (src/shared/method-settings.ts), this object and the runner table must have
 * exactly those keys (`satisfies`), so a method missing anywhere is a type error. See README.md in
 * this folder ("Adding a method").
 */
import type { MethodName, MethodSettingsByName } from '../shared/method-settings';
import type { MethodDefinition } from './define-method';
import { emulate } from './emulate';
import { fire } from './fire';
import { llmOnly } from './llm-only';
import { mermaid } from './mermaid';
import { rag } from './rag';
import { toe } from './toe';
import { toolMad } from './tool-mad';

export const METHOD_REGISTRY = {
  rag,
  mermaid,
  emulate,
  fire,
  'tool-mad': toolMad,
  toe,
  'llm-only': llmOnly,
} satisfies { [M in MethodName]: MethodDefinition<MethodSettingsByName[M]> };

export type { MethodName };

/** Every method, in registry order. */
export const METHOD_NAMES = Object.keys(METHOD_REGISTRY) as MethodName[];

/** What `settings[m]` of a verification holds for method m (the type its definition declares). */
export type MethodSettingsOf<M extends MethodName> = MethodSettingsByName[M];

export function methodDefinition(name: MethodName): MethodDefinition<unknown> {
  return METHOD_REGISTRY[name] as MethodDefinition<unknown>;
}

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHOD_REGISTRY, name);
}
