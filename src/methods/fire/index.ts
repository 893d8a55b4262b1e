import type { FireSettings } from '../../shared/methods/fire';
import { fireResponders } from '../../simulator/methods/fire';
import { defineMethod } from '../define-method';
import { fireSettingsSchema } from './settings-schema';
import { fireTasks } from './tasks';

/** FIRE, EMULATE's baseline (workflows/fire.workflow.ts; its activity is in activities/emulate.activities.ts). */
export const fire = defineMethod<Partial<FireSettings>>({
  name: 'fire',
  settingsSchema: fireSettingsSchema,
  tasks: fireTasks,
  behaviourVersion: 1,
  responders: fireResponders,
  indices: { web: true },
  llmCallsPerClaim: 3,
  readme: 'docs/methods/fire.md',
});
