import type { z } from 'zod';
import type { ToolName } from '../shared/tools';

export interface ToolContext {
  signal?: AbortSignal;
}

/** A tool an agent can call: a name, a description for the LLM, a zod input schema and its implementation. */
export interface Tool<I extends z.ZodObject = z.ZodObject, D = unknown> {
  name: ToolName;
  description: string;
  input: I;
  run(args: z.output<I>, context: ToolContext): Promise<D>;
}

/** Identity helper that infers a tool's argument and data types. */
export function defineTool<I extends z.ZodObject, D>(tool: Tool<I, D>): Tool<I, D> {
  return tool;
}
