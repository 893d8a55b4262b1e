import type { FireSettings } from './sandbox/fire-settings';
import { fireResponders } from './simulator-responder';
import { createFireActivities, type FireActivities } from './fire.activities';
import { defineMethod } from '../define-method';
import { fireSettingsSchema } from './settings-schema';
import { fireTasks } from './tasks';
import type { MethodSettingsByName } from '../../shared/method-settings';

declare module '../../shared/method-settings' {
  interface MethodSettingsByName {
    fire: Partial<FireSettings>;
  }
}

/** FIRE, EMULATE's baseline (src/methods/fire/sandbox/fire.workflow.ts; src/methods/fire/fire.activities.ts). */
export const fire = defineMethod<MethodSettingsByName['fire'], FireActivities>({
  name: 'fire',
  settingsSchema: fireSettingsSchema,
  tasks: fireTasks,
  behaviourVersion: 1,
  responders: fireResponders,
  indices: { web: true },
  llmCallsPerClaim: 3,
  activities: createFireActivities,
  readme: 'src/methods/fire/README.md',
});
