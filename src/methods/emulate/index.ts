import type { EmulateSettings } from './sandbox/emulate-settings';
import { emulateResponders } from './simulator-responder';
import { defineMethod } from '../define-method';
import { emulateSettingsSchema } from './settings-schema';
import { emulateTasks } from './tasks';
import type { MethodSettingsByName } from '../../shared/method-settings';

declare module '../../shared/method-settings' {
  interface MethodSettingsByName {
    emulate: Partial<EmulateSettings>;
  }
}

/** EMULATE (src/methods/emulate/sandbox/emulate.workflow.ts; its steps are LLM tasks and the shared search tools). */
export const emulate = defineMethod<MethodSettingsByName['emulate']>({
  name: 'emulate',
  settingsSchema: emulateSettingsSchema,
  tasks: emulateTasks,
  behaviourVersion: 1,
  responders: emulateResponders,
  indices: { web: true },
  llmCallsPerClaim: 3,
  readme: 'src/methods/emulate/README.md',
});
