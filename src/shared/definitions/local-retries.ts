import { defineQuery } from '@temporalio/workflow';

/** A local activity (a short Elasticsearch step) waiting to be tried again. */
export interface LocalRetry {
  /** The activity's name, e.g. `storeVerdict`. */
  step: string;
  /** The attempt it waits to make (2 after its first failure). */
  attempt: number;
}

/**
 * The local activities of a workflow that are retrying now. Their attempts run in the worker and
 * appear nowhere in the workflow's description, unlike a regular activity's.
 */
export const localRetriesQuery = defineQuery<LocalRetry[]>('localRetries');
