import { proxyActivities } from '@temporalio/workflow';

/** `count` activities on `activityQueue`, all scheduled at once (bench:server-rate-limit). */
export async function dispatchBurstWorkflow(activityQueue: string, count: number): Promise<number> {
  const { dispatched } = proxyActivities<{ dispatched(index: number): Promise<void> }>({ startToCloseTimeout: '1 minute', taskQueue: activityQueue });
  await Promise.all(Array.from({ length: count }, (_, index) => dispatched(index)));
  return count;
}
