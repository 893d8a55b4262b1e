// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the one place that wraps it
import { CancellationScope, condition, proxyLocalActivities, type LocalActivityOptions } from '@temporalio/workflow';

/*
 * Why local activities resume one at a time, in the order they finished.
 *
 * A first run delivers each local activity's result when it finishes, often one per activation; a
 * replay delivers every result it finds in the history at once, in one activation. When concurrent
 * branches (Tool-MAD's debaters, ToE's children, parallel LLM calls) resume in the same activation,
 * the order in which they schedule their next commands depends on how many promise hops each takes,
 * and a replay can give a command another sequence number than the first run did: "[TMPRL1100]
 * Nondeterminism error: Missing associated machine for LocalActivity(n)" (shared/repro, issue 42;
 * the same class as sdk-python #1578, which the TypeScript SDK 1.24 still has).
 *
 * Here a resumed branch waits for its turn: turns go in the order the results arrived, and the next
 * turn is given only once the previous branch has run until it waits again. The SDK unblocks one
 * waiting condition per pass when only one is true and drains the microtasks between passes, so the
 * command order is the same whether results came one per activation or all in one.
 */
let nextTicket = 0;
const turns: number[] = [];

async function inArrivalOrder<T>(pending: Promise<T>): Promise<T> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await pending };
  } catch (error) {
    outcome = { ok: false, error };
  }
  const ticket = nextTicket++;
  turns.push(ticket);
  // Never cancelled: a turn left in the queue would hold every later branch.
  await CancellationScope.nonCancellable(() => condition(() => turns[0] === ticket));
  turns.shift();
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

type Ordered<A> = {
  [K in keyof A]: A[K] extends (...args: infer P) => Promise<infer R>
    ? A[K] & { executeWithOptions(options: { summary?: string }, args: P): Promise<R> }
    : never;
};

/**
 * `proxyLocalActivities`, whose results resume their callers in the order the activities finished
 * (see above). Every local activity of verity's workflows goes through this.
 */
export function proxyOrderedLocalActivities<A extends object>(options: LocalActivityOptions): Ordered<A> {
  const raw = proxyLocalActivities<Record<string, (...args: unknown[]) => Promise<unknown>>>(options);
  const wrapped = new Map<string, unknown>();
  return new Proxy({} as Ordered<A>, {
    get(_, name) {
      if (typeof name !== 'string') return undefined;
      let fn = wrapped.get(name);
      if (!fn) {
        const activity = raw[name] as ((...args: unknown[]) => Promise<unknown>) & {
          executeWithOptions(options: { summary?: string }, args: unknown[]): Promise<unknown>;
        };
        fn = Object.assign((...args: unknown[]) => inArrivalOrder(activity(...args)), {
          executeWithOptions: (opts: { summary?: string }, args: unknown[]) => inArrivalOrder(activity.executeWithOptions(opts, args)),
        });
        wrapped.set(name, fn);
      }
      return fn;
    },
  });
}
