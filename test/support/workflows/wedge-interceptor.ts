import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';

/** The marker in a claim that makes its verification's workflow task fail on every attempt. */
export const WEDGE_MARKER = '[wedge]';

/**
 * Test-only workflow interceptor: a verification of a claim containing WEDGE_MARKER throws a plain
 * Error from its workflow code, which fails the workflow task (not the workflow) on every attempt:
 * the workflow stays open and makes no progress, as after a non-determinism error.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        const [first] = input.args as [{ claim?: unknown } | undefined];
        if (typeof first?.claim === 'string' && first.claim.includes(WEDGE_MARKER)) throw new Error('injected workflow task failure (test)');
        return next(input);
      },
    },
  ],
});
