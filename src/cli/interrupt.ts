import type { WorkflowHandle } from '@temporalio/client';
import { notice } from './output';

export const INTERRUPTED = Symbol('interrupted');

/**
 * Waits for `result` until Ctrl-C. The first Ctrl-C stops waiting at once and says the workflow
 * keeps running and how to cancel it; a second one (or the first, with `cancelOnInterrupt`)
 * cancels the workflow. Resolves to INTERRUPTED when interrupted.
 */
export async function waitInterruptibly<T>(
  handle: WorkflowHandle,
  result: Promise<T>,
  options: { cancelOnInterrupt?: boolean },
): Promise<{ value: T | typeof INTERRUPTED; finish(): Promise<void> }> {
  // Until the workflow's answer arrives, Ctrl-C belongs to this wait (not Node's default exit).
  let interrupts = 0;
  let cancelling: Promise<void> | undefined;
  let stopWaiting: (() => void) | undefined;
  const interrupted = new Promise<typeof INTERRUPTED>((resolve) => {
    stopWaiting = () => resolve(INTERRUPTED);
  });
  const cancel = () => {
    cancelling ??= handle.cancel().then(
      () => notice(`cancelled ${handle.workflowId}`),
      (err: unknown) => notice(`could not cancel ${handle.workflowId}: ${(err as Error).message}`),
    );
  };
  const onSigint = () => {
    interrupts += 1;
    if (options.cancelOnInterrupt || interrupts > 1) cancel();
    else {
      notice(
        `interrupted: ${handle.workflowId} keeps running in Temporal (it continues whenever a worker runs: \`verity worker\`, or this command again); ` +
          `press Ctrl-C again to cancel it, or later: \`temporal workflow cancel --workflow-id '${handle.workflowId}'\``,
      );
    }
    stopWaiting?.();
  };
  process.on('SIGINT', onSigint);
  const value = await Promise.race([result, interrupted]);
  return {
    value,
    /** Call when the command ends: Ctrl-C until then still cancels; waits for a requested cancellation. */
    async finish() {
      process.removeListener('SIGINT', onSigint);
      await cancelling;
    },
  };
}
