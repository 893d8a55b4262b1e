import { toolCatalog } from '../src/methods/mermaid/tool-catalog';
import type { MermaidToolEntry } from '../src/shared/methods/mermaid-protocol';
import type { ToolName } from '../src/shared/tools';
import type { ActivityDependencies } from './index';

/** Activities of the `mermaid` method beyond LLM tasks, tool calls and memory. */
export function createMermaidActivities(deps: Pick<ActivityDependencies, 'tools'>) {
  return {
    /** Descriptions and argument schemas of the requested tools this worker serves (presets: RETRIEVAL). */
    async mermaidToolCatalog(input: { tools: ToolName[] }): Promise<MermaidToolEntry[]> {
      return toolCatalog(deps.tools.specs(), input.tools);
    },
  };
}
