import type { WorkflowHandle } from '@temporalio/client';
import { notice } from './output';

export const INTERRUPTED = Symbol('interrupted');

/** How long after the first Ctrl-C a second one still cancels (the command is ending meanwhile). */
export const SECOND_INTERRUPT_GRACE_MS = 5_000;

/** How long an interrupted command waits for its in-process worker to stop before it ends anyway. */
export const WORKER_STOP_AFTER_INTERRUPT_MS = 10_000;

/**
 * Waits for `result` until Ctrl-C. The first Ctrl-C stops waiting at once and says the workflow
 * keeps running and how to cancel it; a second one (or the first, with `cancelOnInterrupt`)
 * cancels the workflow. Resolves to INTERRUPTED when interrupted.
 */
export async function waitInterruptibly<T>(
  handle: WorkflowHandle,
  result: Promise<T>,
  options: { cancelOnInterrupt?: boolean },
): Promise<{ value: T | typeof INTERRUPTED; signal?: 'SIGINT' | 'SIGTERM'; finish(): Promise<void> }> {
  // Until the workflow's answer arrives, Ctrl-C belongs to this wait (not Node's default exit).
  let interrupts = 0;
  let cancelling: Promise<void> | undefined;
  let stopWaiting: (() => void) | undefined;
  let firstInterruptAt: number | undefined;
  let signal: 'SIGINT' | 'SIGTERM' | undefined;
  let secondInterrupt: (() => void) | undefined;
  const secondChance = new Promise<void>((resolve) => {
    secondInterrupt = resolve;
  });
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
    signal ??= 'SIGINT';
    interrupts += 1;
    if (options.cancelOnInterrupt || interrupts > 1) {
      cancel();
      secondInterrupt?.();
    } else {
      firstInterruptAt = Date.now();
      notice(
        `interrupted: ${handle.workflowId} keeps running in Temporal (it continues whenever a worker runs: \`verity worker\`, or this command again); ` +
          `press Ctrl-C again within ${SECOND_INTERRUPT_GRACE_MS / 1000} s to cancel it, or later: \`temporal workflow cancel --workflow-id '${handle.workflowId}'\``,
      );
    }
    stopWaiting?.();
  };
  // SIGTERM (a supervisor, `kill`) ends the wait at once, leaving the workflow running.
  const onSigterm = () => {
    signal ??= 'SIGTERM';
    if (options.cancelOnInterrupt) cancel();
    else notice(`terminated: ${handle.workflowId} keeps running in Temporal (it continues whenever a worker runs: \`verity worker\`, or this command again); to cancel it: \`temporal workflow cancel --workflow-id '${handle.workflowId}'\``);
    stopWaiting?.();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  const value = await Promise.race([result, interrupted]);
  return {
    value,
    get signal() {
      return signal;
    },
    /** Call when the command ends: Ctrl-C until then still cancels; waits for a requested cancellation. */
    async finish() {
      // After a first Ctrl-C, a second one may still come to cancel: wait out the grace period.
      if (firstInterruptAt !== undefined && !cancelling) {
        const left = firstInterruptAt + SECOND_INTERRUPT_GRACE_MS - Date.now();
        let timer: NodeJS.Timeout | undefined;
        if (left > 0) await Promise.race([secondChance, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
        clearTimeout(timer);
      }
      process.removeListener('SIGINT', onSigint);
      process.removeListener('SIGTERM', onSigterm);
      await cancelling;
    },
  };
}
