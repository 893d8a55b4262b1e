import { defineQuery } from '@temporalio/workflow';

export interface VerifyProgress {
  stage: 'validating' | 'retrieving' | 'judging' | 'storing' | 'done';
  llmCalls: number;
  toolCalls: number;
}

/** Where a verification stands; readable in the Temporal UI and by `verity` while it runs. */
export const progressQuery = defineQuery<VerifyProgress>('progress');
