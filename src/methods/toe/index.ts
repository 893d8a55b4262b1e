import type { ToeSettingsInput } from './sandbox/toe-settings';
import { toeResponders } from './simulator-responder';
import { defineMethod } from '../define-method';
import { toeSettingsSchema } from './settings-schema';
import { toeTasks } from './tasks';

/** ToE (src/methods/toe/sandbox/toe.workflow.ts and toe-node.workflow.ts; src/methods/toe/toe.activities.ts). */
export const toe = defineMethod<ToeSettingsInput>({
  name: 'toe',
  settingsSchema: toeSettingsSchema,
  tasks: toeTasks,
  behaviourVersion: 1,
  responders: toeResponders,
  indices: { wiki: 'wikipedia-tools', web: true },
  llmCallsPerClaim: 60,
  readme: 'src/methods/toe/README.md',
});
