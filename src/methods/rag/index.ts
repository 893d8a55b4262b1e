import { generateFromSchema } from '../../simulator/schema-generator';
import { defineMethod } from '../define-method';
import { ragSettingsSchema } from './settings-schema';
import { ragVerdictTask } from './verdict-task';
import type { MethodSettingsByName } from '../../shared/method-settings';

declare module '../../shared/method-settings' {
  interface MethodSettingsByName {
    rag: never;
  }
}

/** The `rag` baseline: top-k passages, one verdict (src/methods/rag/sandbox/rag.workflow.ts). */
export const rag = defineMethod<MethodSettingsByName['rag']>({
  name: 'rag',
  settingsSchema: ragSettingsSchema,
  tasks: [ragVerdictTask],
  behaviourVersion: 1,
  // The generic schema answer (label from the prompt's evidence) is rag's protocol.
  responders: { [ragVerdictTask.schemaName]: (reading, schema) => generateFromSchema(schema, reading) },
  indices: { wiki: 'always' },
  llmCallsPerClaim: 1,
  readme: 'src/methods/rag/README.md',
});
