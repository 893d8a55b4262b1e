import type { ToolMadSettings } from './sandbox/tool-mad-settings';
import { toolMadResponders } from './simulator-responder';
import { createToolMadActivities, type ToolMadActivities } from './tool-mad.activities';
import { defineMethod } from '../define-method';
import { toolMadSettingsSchema } from './settings-schema';
import { toolMadTasks } from './tasks';
import type { MethodSettingsByName } from '../../shared/method-settings';

declare module '../../shared/method-settings' {
  interface MethodSettingsByName {
    'tool-mad': Partial<ToolMadSettings>;
  }
}

/** Tool-MAD (src/methods/tool-mad/sandbox/tool-mad.workflow.ts and tool-mad-round.workflow.ts; src/methods/tool-mad/tool-mad.activities.ts). */
export const toolMad = defineMethod<MethodSettingsByName['tool-mad'], ToolMadActivities>({
  name: 'tool-mad',
  settingsSchema: toolMadSettingsSchema,
  tasks: toolMadTasks,
  // 2: the RAG debater retrieves dense top-3 by default where the index has vectors (was BM25).
  behaviourVersion: 2,
  responders: toolMadResponders,
  indices: { wiki: 'wikipedia-tools', web: true },
  llmCallsPerClaim: 15,
  activities: createToolMadActivities,
  readme: 'src/methods/tool-mad/README.md',
});
