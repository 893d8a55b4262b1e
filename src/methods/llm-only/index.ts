import { defineMethod } from '../define-method';
import { llmOnlySettingsSchema, type LlmOnlySettings } from './settings-schema';
import { llmOnlyVerdictResponder } from './simulator-responder';
import { llmOnlyReasonedVerdictTask, llmOnlyVerdictTask } from './verdict-task';
import type { MethodSettingsByName } from '../../shared/method-settings';

declare module '../../shared/method-settings' {
  interface MethodSettingsByName {
    'llm-only': LlmOnlySettings;
  }
}

/** The no-retrieval baseline (./README.md); its runner is ./llm-only.workflow.ts. */
export const llmOnly = defineMethod<MethodSettingsByName['llm-only']>({
  name: 'llm-only',
  settingsSchema: llmOnlySettingsSchema,
  tasks: [llmOnlyVerdictTask, llmOnlyReasonedVerdictTask],
  // 2: the answer puts the rationale before the label by default (issue 37).
  behaviourVersion: 2,
  responders: { [llmOnlyVerdictTask.schemaName]: llmOnlyVerdictResponder, [llmOnlyReasonedVerdictTask.schemaName]: llmOnlyVerdictResponder },
  indices: {},
  llmCallsPerClaim: 1,
  readme: 'src/methods/llm-only/README.md',
});
