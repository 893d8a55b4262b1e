import type { EmulateSettings } from '../../shared/methods/emulate';
import { emulateResponders } from '../../simulator/methods/emulate';
import { defineMethod } from '../define-method';
import { emulateSettingsSchema } from './settings-schema';
import { emulateTasks } from './tasks';

/** EMULATE (workflows/emulate.workflow.ts; activities/emulate.activities.ts). */
export const emulate = defineMethod<Partial<EmulateSettings>>({
  name: 'emulate',
  settingsSchema: emulateSettingsSchema,
  tasks: emulateTasks,
  behaviourVersion: 1,
  responders: emulateResponders,
  indices: { web: true },
  llmCallsPerClaim: 3,
  readme: 'docs/methods/emulate.md',
});
