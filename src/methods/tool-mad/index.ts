import type { ToolMadSettings } from '../../shared/methods/tool-mad';
import { toolMadResponders } from '../../simulator/methods/tool-mad';
import { defineMethod } from '../define-method';
import { toolMadSettingsSchema } from './settings-schema';
import { toolMadTasks } from './tasks';

/** Tool-MAD (workflows/tool-mad.workflow.ts and tool-mad-round.workflow.ts; activities/tool-mad.activities.ts). */
export const toolMad = defineMethod<Partial<ToolMadSettings>>({
  name: 'tool-mad',
  settingsSchema: toolMadSettingsSchema,
  tasks: toolMadTasks,
  // 2: the RAG debater retrieves dense top-3 by default where the index has vectors (was BM25).
  behaviourVersion: 2,
  responders: toolMadResponders,
  indices: { wiki: 'wikipedia-tools', web: true },
  llmCallsPerClaim: 15,
  readme: 'docs/methods/tool-mad.md',
});
