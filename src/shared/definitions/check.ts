import { defineQuery } from '@temporalio/workflow';
import type { CheckProgress } from '../check/document';

/** Where a document check stands (phase, sentences, claims, verifications); read by `verity check`. */
export const checkProgressQuery = defineQuery<CheckProgress>('checkProgress');
