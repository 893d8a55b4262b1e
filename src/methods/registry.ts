/**
 * The method registry: one line per method. Everything outside a method's own folder (CLI choices,
 * settings validation, task registration, prompt hashes, behaviour versions, simulator responders,
 * the indices a verification needs, worker activities, benches) reads this list.
 *
 * Why a method has a second line, in ./registry.workflow.ts: workflow code runs in Temporal's
 * sandbox, which may import values only from sandbox-safe files (`npm run lint:boundaries`). The
 * definitions here carry zod schemas, prompt tasks and simulator code, so the workflow bundle must
 * never import this file; it dispatches to a method's runner through the sandbox-safe runner table
 * instead. The two lists cannot drift: MethodName is this object's keys, and the runner table must
 * have exactly those keys (`satisfies Record<MethodName, …>`), so a method missing on either side is
 * a type error. See README.md in this folder ("Adding a method").
 */
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
} satisfies Record<string, MethodDefinition<unknown>>;

/** A registered method's name (`--method`, `methods:` in sweep configs, a verification's `input.method`). */
export type MethodName = keyof typeof METHOD_REGISTRY;

/** Every method, in registry order. */
export const METHOD_NAMES = Object.keys(METHOD_REGISTRY) as MethodName[];

/** What `settings[m]` of a verification holds for method m (the type its definition declares). */
export type MethodSettingsOf<M extends MethodName> = (typeof METHOD_REGISTRY)[M] extends MethodDefinition<infer S> ? S : never;

export function methodDefinition(name: MethodName): MethodDefinition<unknown> {
  return METHOD_REGISTRY[name] as MethodDefinition<unknown>;
}

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHOD_REGISTRY, name);
}
