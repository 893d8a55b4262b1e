import { generateFromSchema } from '../../simulator/schema-generator';
import { defineMethod } from '../define-method';
import { ragSettingsSchema, type RagSettings } from './settings-schema';
import { ragReasonedVerdictTask, ragVerdictTask } from './verdict-task';
import type { MethodSettingsByName } from '../../shared/method-settings';

declare module '../../shared/method-settings' {
  interface MethodSettingsByName {
    rag: RagSettings;
  }
}

/** The `rag` baseline: top-k passages, one verdict (rationale first by default, `order: label-first` for the earlier prompt) (src/methods/rag/sandbox/rag.workflow.ts). */
export const rag = defineMethod<MethodSettingsByName['rag']>({
  name: 'rag',
  settingsSchema: ragSettingsSchema,
  tasks: [ragVerdictTask, ragReasonedVerdictTask],
  // 2: the answer puts the rationale before the label by default (issue 37).
  behaviourVersion: 2,
  // The generic schema answer (label from the prompt's evidence) is rag's protocol.
  responders: {
    [ragVerdictTask.schemaName]: (reading, schema) => generateFromSchema(schema, reading),
    [ragReasonedVerdictTask.schemaName]: (reading, schema) => generateFromSchema(schema, reading),
  },
  indices: { wiki: 'always' },
  llmCallsPerClaim: 1,
  readme: 'src/methods/rag/README.md',
});
