import { z } from 'zod';
import type { ToolName } from '../shared/tools';
import { InvalidToolArgumentsError, ToolError } from './errors';
import { toObservation, type Observation } from './observation';
import { toToolError } from './to-tool-error';
import type { Tool, ToolContext } from './tool';

export type JsonSchema = Record<string, unknown>;

/** What an LLM or an MCP client is told about a tool. */
export interface ToolSpec {
  name: ToolName;
  description: string;
  inputSchema: JsonSchema;
}

/** The OpenAI chat-completions `tools` entry of a tool. */
export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

export interface ToolInvocation<D = unknown> extends Observation {
  tool: ToolName;
  data: D;
}

/** The input schema as JSON schema, describing what callers may send (defaults make fields optional). */
export function inputJsonSchema(tool: Tool): JsonSchema {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.input, { io: 'input' }) as JsonSchema;
  return schema;
}

/** The tools an agent may call, each validated, run and turned into a bounded observation the same way. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: readonly Tool[]) {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`tool "${tool.name}" is registered twice`);
      this.tools.set(tool.name, tool);
    }
  }

  names(): ToolName[] {
    return [...this.tools.values()].map((tool) => tool.name);
  }

  specs(): ToolSpec[] {
    return [...this.tools.values()].map((tool) => ({ name: tool.name, description: tool.description, inputSchema: inputJsonSchema(tool) }));
  }

  openAiTools(): OpenAiTool[] {
    return this.specs().map((spec) => ({
      type: 'function',
      function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
    }));
  }

  /** Validates the arguments, runs the tool and returns its data plus the truncated observation; failures are ToolErrors. */
  async invoke(name: string, args: unknown, context: ToolContext = {}): Promise<ToolInvocation> {
    const tool = this.tools.get(name);
    if (!tool) throw new ToolError('unknownTool', `unknown tool "${name}"; available tools: ${this.names().join(', ')}`);
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) throw new InvalidToolArgumentsError(name, parsed.error.issues.map(describeIssue));
    try {
      const data = await tool.run(parsed.data, context);
      return { tool: tool.name, data, ...toObservation(data) };
    } catch (err) {
      throw toToolError(err);
    }
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  return issue.path.length === 0 ? issue.message : `'${issue.path.join('.')}': ${issue.message}`;
}
