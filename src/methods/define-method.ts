import type { z } from 'zod';
import type { ActivityDependencies } from '../../activities';
import type { LlmTaskDefinition } from '../llm/task-registry';
import type { SchemaResponder } from '../simulator/method-responders';

/** The Elasticsearch indices a method reads, checked before a verification starts (src/cli/method-indices.ts). */
export interface MethodIndices {
  /** The wiki passage index: `always` (it retrieves passages), or `wikipedia-tools` (only when the Wikipedia tools read the index). */
  wiki?: 'always' | 'wikipedia-tools';
  /** The recorded web, when web search is offline (`web.provider: recorded`). */
  web?: boolean;
}

/** Activities a method adds to the worker (their names must be unique across verity's activities). */
export type MethodActivities = Record<string, (...args: never[]) => Promise<unknown>>;

/** Builds a method's activities over the worker's dependencies. */
export type MethodActivitiesFactory<Activities extends MethodActivities = MethodActivities> = (deps: ActivityDependencies) => Activities;

/**
 * Everything verity needs to know about one method outside its workflow code (the workflow side is
 * src/methods/registry.workflow.ts). `Settings` is what a verification's `settings[<name>]` holds:
 * the settings schema must produce it, which ties the TS type used by the workflow to the zod schema.
 */
export interface MethodDefinition<Settings = unknown, Activities extends MethodActivities = MethodActivities> {
  /** Its registry key: the `--method` name and the workflow's `input.method`. */
  name: string;
  /** Validates `--option key=value` and sweep `parameters.<name>` (partial: what is left out keeps its default). */
  settingsSchema: z.ZodType<Settings>;
  /** The method's structured LLM tasks (registered with the task registry by src/methods/tasks.ts). */
  tasks: readonly LlmTaskDefinition[];
  /** Bump when an answer-deciding behaviour its settings do not spell out changes (e.g. a default): verifications become new. */
  behaviourVersion: number;
  /** The simulator's answers to the method's tasks, by schema name (src/simulator/method-responders.ts). */
  responders: Readonly<Record<string, SchemaResponder>>;
  indices: MethodIndices;
  /** Rough LLM calls per claim with default settings (benches size their claim sets with it). */
  llmCallsPerClaim: number;
  /**
   * Activities of its own, if its workflow needs more than the shared ones (LLM, retrieval, tools …).
   * The worker registers them, and workflows see them in the `Activities` type, from the registry.
   */
  activities?: MethodActivitiesFactory<Activities>;
  /** Its documentation, from the repository root. */
  readme: string;
}

/**
 * Declares a method. `Settings` is given explicitly so the schema is checked against the type the
 * workflow reads; so is `Activities` (the factory's result) when the method has activities, so that
 * workflows can call them by name.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a method without activities adds none
export function defineMethod<Settings, Activities extends MethodActivities = {}>(definition: MethodDefinition<Settings, Activities>): MethodDefinition<Settings, Activities> {
  return definition;
}
