import { defineQuery } from '@temporalio/workflow';
import type { MethodTrace } from '../verify';

export interface VerifyProgress {
  /** 'validating', 'retrieving', 'judging', 'storing', 'done', or a method's own stage name. */
  stage: string;
  llmCalls: number;
  toolCalls: number;
}

/** Where a verification stands; readable in the Temporal UI and by `verity` while it runs. */
export const progressQuery = defineQuery<VerifyProgress>('progress');

/** The method's trace so far (thoughts, actions, observations, rounds, tree …); null before it starts. */
export const traceQuery = defineQuery<MethodTrace | null>('trace');
