import type { z } from 'zod';
import type { AgentRole } from '../config/config';
import { LlmInvalidInputError } from './errors';
import type { ChatMessage } from './types';

/** A structured LLM task: typed variables in, a rendered prompt, zod-validated output back. */
export interface LlmTaskDefinition<V = unknown, O = unknown> {
  /** Stable id used by workflows, e.g. 'rag.verdict'. */
  id: string;
  /** Bump when the prompt or schema changes; part of the cache key and of every result. */
  version: string;
  role: AgentRole;
  schemaName: string;
  /**
   * The answer's token budget, sent as `max_tokens` unless the method's sampling sets `maxTokens`: a real
   * model that loops is cut off (and its answer is then invalid) instead of generating until the call
   * times out. Sized to the answer with room for a verbose model: a label or yes/no ≈ 100–200, a query
   * ≈ 100–300, a rationale or one reasoning step ≈ 300–600, a decomposition or list of statements
   * ≈ 500–800, an extract of a web page ≈ 1,500.
   */
  maxTokens: number;
  variables: z.ZodType<V>;
  output: z.ZodType<O>;
  /**
   * The schema sent for constrained decoding when it is narrower than `output` for these variables
   * (e.g. an answer field as the prompt's label enum). `output` still validates the answer, so what
   * a server without strict schemas answers outside the enum is read (aliases) and counted.
   */
  constrainedOutput?(variables: V): z.ZodType;
  /**
   * 'text': the answer is not asked for as JSON (no response_format, no schema instruction): the output
   * schema then reads `{ text: <the answer as written> }`, and an answer cut off at max tokens is kept
   * as cut, as a released code that reads the raw completion does. Default: structured JSON.
   */
  answer?: 'json' | 'text';
  render(variables: V): ChatMessage[];
}

/** Identity helper that infers V and O from the zod schemas. */
export function defineTask<V, O>(definition: LlmTaskDefinition<V, O>): LlmTaskDefinition<V, O> {
  return definition;
}

const tasks = new Map<string, LlmTaskDefinition>();

/** Registers a task (from any module); registering the same id again replaces it, so re-imports are harmless. */
export function registerTask<V, O>(definition: LlmTaskDefinition<V, O>): LlmTaskDefinition<V, O> {
  tasks.set(definition.id, definition as unknown as LlmTaskDefinition);
  return definition;
}

export function getTask(id: string): LlmTaskDefinition {
  const task = tasks.get(id);
  if (!task) {
    const known = [...tasks.keys()].sort().join(', ') || 'none';
    throw new LlmInvalidInputError(`unknown LLM task '${id}' (registered: ${known})`);
  }
  return task;
}

export function registeredTaskIds(): string[] {
  return [...tasks.keys()].sort();
}
