import type { MermaidSettings } from './sandbox/mermaid-settings';
import { mermaidResponders } from './simulator-responder';
import { createMermaidActivities, type MermaidActivities } from './mermaid.activities';
import { defineMethod } from '../define-method';
import { mermaidSettingsSchema } from './settings-schema';
import { mermaidTasks } from './tasks';
import type { MethodSettingsByName } from '../../shared/method-settings';

declare module '../../shared/method-settings' {
  interface MethodSettingsByName {
    mermaid: Partial<MermaidSettings>;
  }
}

/** MERMAID (src/methods/mermaid/sandbox/mermaid.workflow.ts; src/methods/mermaid/mermaid.activities.ts). */
export const mermaid = defineMethod<MethodSettingsByName['mermaid'], MermaidActivities>({
  name: 'mermaid',
  settingsSchema: mermaidSettingsSchema,
  tasks: mermaidTasks,
  behaviourVersion: 1,
  responders: mermaidResponders,
  indices: { wiki: 'wikipedia-tools', web: true },
  llmCallsPerClaim: 3,
  activities: createMermaidActivities,
  readme: 'src/methods/mermaid/README.md',
});
