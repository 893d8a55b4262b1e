import type { MermaidSettings } from '../../shared/methods/mermaid';
import { mermaidResponders } from '../../simulator/methods/mermaid';
import { defineMethod } from '../define-method';
import { mermaidSettingsSchema } from './settings-schema';
import { mermaidTasks } from './tasks';

/** MERMAID (workflows/mermaid.workflow.ts; activities/mermaid.activities.ts). */
export const mermaid = defineMethod<Partial<MermaidSettings>>({
  name: 'mermaid',
  settingsSchema: mermaidSettingsSchema,
  tasks: mermaidTasks,
  behaviourVersion: 1,
  responders: mermaidResponders,
  indices: { wiki: 'wikipedia-tools', web: true },
  llmCallsPerClaim: 3,
  readme: 'docs/methods/mermaid.md',
});
