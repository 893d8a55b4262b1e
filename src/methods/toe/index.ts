import type { ToeSettingsInput } from './sandbox/toe-settings';
import { toeResponders } from './simulator-responder';
import { createToeActivities, type ToeActivities } from './toe.activities';
import { defineMethod } from '../define-method';
import { toeSettingsSchema } from './settings-schema';
import { toeTasks } from './tasks';
import type { MethodSettingsByName } from '../../shared/method-settings';

declare module '../../shared/method-settings' {
  interface MethodSettingsByName {
    toe: ToeSettingsInput;
  }
}

/** ToE (src/methods/toe/sandbox/toe.workflow.ts and toe-node.workflow.ts; src/methods/toe/toe.activities.ts). */
export const toe = defineMethod<MethodSettingsByName['toe'], ToeActivities>({
  name: 'toe',
  settingsSchema: toeSettingsSchema,
  tasks: toeTasks,
  behaviourVersion: 1,
  responders: toeResponders,
  indices: { wiki: 'wikipedia-tools', web: true },
  llmCallsPerClaim: 60,
  activities: createToeActivities,
  readme: 'src/methods/toe/README.md',
});
