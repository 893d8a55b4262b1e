/**
 * A verity worker process that SIGKILLs itself at one local-activity point (test-only; issue 42).
 *
 * VERITY_TEST_KILL_AT=`<activity type>#<n>:<phase>[,…]`: at the n-th execution in this process of
 * that activity as a local activity (the first point reached of the list), with phase
 *   - before: on entry, before it runs;
 *   - during: after it did its work, before it returns (the result is lost);
 *   - after:  500 ms after it returned (its marker has gone to the server with the workflow task);
 *   - retry:  it fails once (retryable), and the process dies on entry of the retry.
 * It prints `kill-at <spec>` on stderr just before. VERITY_TEST_FAIL_AT=`<activity type>#<n>[,…]`: that
 * execution fails for good (non-retryable), and the process goes on. Local activities also finish after a short,
 * varying delay, so concurrent ones resolve one by one in the first run, and all together on replay.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { createActivities } from '../../activities';
import { loadConfig } from '../../src/config/config';
import { configStamp } from '../../src/config/config-identity';
import { createLogger } from '../../src/logging/logger';
import { createVerityWorker } from '../../src/worker/create-worker';
import { createWorkerDependencies } from '../../src/worker/dependencies';
import { installTemporalRuntime } from '../../src/worker/run-worker';

export const KILL_AT_ENV = 'VERITY_TEST_KILL_AT';
export const FAIL_AT_ENV = 'VERITY_TEST_FAIL_AT';
export type KillPhase = 'before' | 'during' | 'after' | 'retry';

export function parseKillSpec(spec: string): { activity: string; nth: number; phase: KillPhase } {
  const match = /^([\w.]+)#(\d+):(before|during|after|retry)$/.exec(spec);
  if (!match) throw new Error(`${KILL_AT_ENV}: expected <activity>#<n>:<before|during|after|retry>, got "${spec}"`);
  return { activity: match[1]!, nth: Number(match[2]), phase: match[3] as KillPhase };
}

function die(spec: string): never {
  process.stderr.write(`kill-at ${spec}\n`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

type ActivityFn = (...args: unknown[]) => Promise<unknown>;

function withKillPoints(activities: Record<string, ActivityFn>, specs: string[], failAt: string[]): Record<string, ActivityFn> {
  const kills = specs.map((spec) => ({ spec, ...parseKillSpec(spec) }));
  const counts = new Map<string, number>();
  let localRuns = 0;
  return Object.fromEntries(
    Object.entries(activities).map(([name, fn]) => [
      name,
      async (...args: unknown[]) => {
        const info = Context.current().info;
        if (!info.isLocal) return fn(...args);
        const count = info.attempt === 1 ? (counts.get(name) ?? 0) + 1 : (counts.get(name) ?? 0);
        if (info.attempt === 1) counts.set(name, count);
        if (info.attempt === 1 && failAt.includes(`${name}#${count}`)) throw ApplicationFailure.nonRetryable(`injected failure at ${name}#${count}`, 'InjectedFault');
        const kill = kills.find((k) => k.activity === name && k.nth === count);
        if (kill?.phase === 'before') die(kill.spec);
        if (kill?.phase === 'retry') {
          if (info.attempt === 1) throw ApplicationFailure.retryable(`injected failure before a kill at ${kill.spec}`, 'InjectedFault');
          die(kill.spec);
        }
        localRuns += 1;
        await new Promise((resolve) => setTimeout(resolve, (localRuns % 4) * 15));
        const result = await fn(...args);
        if (kill?.phase === 'during') die(kill.spec);
        if (kill?.phase === 'after') setTimeout(() => die(kill.spec), 500);
        return result;
      },
    ]),
  );
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  installTemporalRuntime(logger);
  const deps = await createWorkerDependencies(config, logger, { llmRequestsPerSecond: config.llm.requestsPerSecond });
  const specs = (process.env[KILL_AT_ENV] ?? '').split(',').filter((spec) => spec !== '');
  const failAt = (process.env[FAIL_AT_ENV] ?? '').split(',').filter((spec) => spec !== '');
  const activities = withKillPoints(createActivities(deps) as unknown as Record<string, ActivityFn>, specs, failAt);
  const { worker, connection } = await createVerityWorker({
    temporal: config.temporal,
    taskQueue: config.temporal.taskQueue,
    activities,
    configStamp: configStamp(config),
  });
  process.stderr.write('killable worker polling\n');
  await worker.run().finally(() => connection.close());
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`killable worker: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
