import type { ToeSettingsInput } from '../../shared/methods/toe';
import { toeResponders } from '../../simulator/methods/toe';
import { defineMethod } from '../define-method';
import { toeSettingsSchema } from './settings-schema';
import { toeTasks } from './tasks';

/** ToE (workflows/toe.workflow.ts and toe-node.workflow.ts; activities/toe.activities.ts). */
export const toe = defineMethod<ToeSettingsInput>({
  name: 'toe',
  settingsSchema: toeSettingsSchema,
  tasks: toeTasks,
  behaviourVersion: 1,
  responders: toeResponders,
  indices: { wiki: 'wikipedia-tools', web: true },
  llmCallsPerClaim: 60,
  readme: 'docs/methods/toe.md',
});
