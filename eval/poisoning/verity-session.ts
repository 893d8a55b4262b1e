/**
 * An in-process verity for one harness condition: its own index prefix and task queue, an
 * embedded worker against the real Temporal and Elasticsearch, and the LLM endpoint the harness
 * chose (the simulator by default). `verify` runs one claim through verifyClaimWorkflow.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { loadConfig, type VerityConfig } from '../../src/config/config';
import { createLogger } from '../../src/logging/logger';
import type { MethodName } from '../../src/shared/constants';
import type { MethodSettings } from '../../src/shared/method-settings';
import { fullVerdict, type Verdict } from '../../src/shared/verify';
import { installTemporalRuntime } from '../../src/worker/run-worker';
import { startInProcessWorker } from '../bench/support/bench-stack';

export interface SessionOptions {
  prefix: string;
  /** Environment overrides on top of process.env (e.g. VERITY_WEB_EXCLUDE_DOMAINS). */
  env: Record<string, string | undefined>;
}

export interface VerifyRequest {
  runId: string;
  claimId: string;
  claim: string;
  method: MethodName;
  dataset?: string;
  settings?: MethodSettings;
  timeoutMs: number;
}

export type VerifyResult = { verdict: Verdict } | { error: string };

export interface VeritySession {
  config: VerityConfig;
  verify(request: VerifyRequest): Promise<VerifyResult>;
  close(): Promise<void>;
}

/** The innermost message of a workflow failure (the method's own error, not "Workflow execution failed"). */
export function failureMessage(err: unknown): string {
  let current: unknown = err;
  let message = err instanceof Error ? err.message : String(err);
  while (current instanceof Error) {
    if (current.message) message = current.message;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return message;
}

export async function startSession(options: SessionOptions): Promise<VeritySession> {
  const env = { ...process.env, VERITY_LOG_LEVEL: process.env.VERITY_LOG_LEVEL ?? 'warn', ...options.env, ES_INDEX_PREFIX: options.prefix, TEMPORAL_TASK_QUEUE: options.prefix };
  const config = loadConfig(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv);
  const logger = createLogger(config.logLevel);
  installTemporalRuntime(logger);
  const worker = await startInProcessWorker(config, logger);
  const { client } = worker;

  return {
    config,
    async verify(request) {
      try {
        const input = buildVerifyInput(config, {
          claim: request.claim,
          method: request.method,
          runId: request.runId,
          claimId: request.claimId,
          ...(request.dataset ? { dataset: request.dataset } : {}),
          ...(request.settings ? { settings: request.settings } : {}),
        });
        const { handle } = await startVerification(client, config.temporal.taskQueue, input);
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${request.timeoutMs} ms`)), request.timeoutMs);
        });
        try {
          return { verdict: fullVerdict(await Promise.race([handle.result(), timeout])) };
        } catch (err) {
          if (!(err instanceof WorkflowFailedError)) await handle.terminate('poisoning harness: timed out').catch(() => undefined);
          throw err;
        } finally {
          clearTimeout(timer);
        }
      } catch (err) {
        return { error: failureMessage(err) };
      }
    },
    async close() {
      await worker.close({ ignoreWorkerFailure: true });
    },
  };
}
