import { toolCatalog } from './tool-catalog';
import type { MermaidToolEntry } from './sandbox/mermaid-protocol';
import type { ToolName } from '../../shared/tools';
import type { ActivityDependencies } from '../../../activities/index';

/** Activities of the `mermaid` method beyond LLM tasks, tool calls and memory. */
export function createMermaidActivities(deps: Pick<ActivityDependencies, 'tools'>) {
  return {
    /** Descriptions and argument schemas of the requested tools this worker serves (presets: RETRIEVAL). */
    async mermaidToolCatalog(input: { tools: ToolName[] }): Promise<MermaidToolEntry[]> {
      return toolCatalog(deps.tools.specs(), input.tools);
    },
  };
}

export type MermaidActivities = ReturnType<typeof createMermaidActivities>;
