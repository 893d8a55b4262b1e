import { Context } from '@temporalio/activity';
import { LlmInvalidInputError, toTemporalFailure, TRANSIENT_FAILURE_TYPES } from '../src/llm/errors';
import type { CompletionRequest, LlmGateway } from '../src/llm/gateway';
import type { RateLimitReporter } from '../src/client/rate-limit-reporter';
import { getTask, type LlmTaskDefinition } from '../src/llm/task-registry';
import type { ChatMessage, LlmTaskInput, LlmTaskResult } from '../src/llm/types';
import { jsonSchemaOf } from '../src/llm/structured-output';
import { correctionMessages } from '../src/shared/invalid-answer';
import { samplingForRole } from '../src/shared/sampling';
import type { PaidSpend } from '../src/llm/cache';
import { toEsFailure } from './support/es-failure';

export const LLM_HEARTBEAT_INTERVAL_MS = 5_000;

export interface LlmActivityDeps {
  gateway: LlmGateway;
  /** Tells the LLM queue's adaptive rate controller about 429s (none: the rate stays fixed). */
  rateLimits?: RateLimitReporter;
}

export function createLlmActivities({ gateway, rateLimits }: LlmActivityDeps) {
  return {
    /** Runs a registered structured task; errors become ApplicationFailures (retryable or not). */
    async llmTask(input: LlmTaskInput): Promise<LlmTaskResult> {
      const context = activityContext();
      const stopHeartbeat = heartbeatWhileWaiting(context);
      try {
        const result = await gateway.complete(completionRequestOf(input, context?.cancellationSignal, context?.info.workflowExecution?.workflowId));
        return { ...result, attempt: context?.info.attempt ?? 1 };
      } catch (err) {
        // A cancelled activity must surface its abort as is, so Temporal reports a cancellation.
        if (context?.cancellationSignal.aborted) throw err;
        const failure = toTemporalFailure(err);
        if (failure.type === TRANSIENT_FAILURE_TYPES.rateLimited) {
          rateLimits?.report(typeof failure.nextRetryDelay === 'number' ? failure.nextRetryDelay : undefined);
        }
        // The attempt number makes retries visible in progress lines and the Temporal UI.
        if (context) failure.message = `${failure.message} (attempt ${context.info.attempt})`;
        throw failure;
      } finally {
        stopHeartbeat();
      }
    },

    /** What the LLM calls paid by these workflows cost (a cancelled sweep's verifications), from the request cache. */
    async paidSpendOf(input: { workflowIds: string[] }): Promise<Record<string, PaidSpend>> {
      try {
        return await gateway.paidSpendOf(input.workflowIds);
      } catch (err) {
        throw toEsFailure(err);
      }
    },

    /**
     * The task's answer from the request cache, or null. A local activity the workflow asks before it
     * queues `llmTask`, so answers already paid for never wait for the LLM queue's rate. Anything
     * that keeps it from answering (invalid variables, Elasticsearch down) is a miss: `llmTask`
     * then reports it as before.
     */
    async llmCachedAnswer(input: LlmTaskInput): Promise<LlmTaskResult | null> {
      try {
        const result = await gateway.cachedAnswer(completionRequestOf(input));
        return result ? { ...result, attempt: 1 } : null;
      } catch {
        return null;
      }
    },
  };
}

export function completionRequestOf(input: LlmTaskInput, signal?: AbortSignal, paidBy?: string): CompletionRequest<unknown> {
  const task = getTask(input.task);
  const role = input.role ?? task.role;
  // The task's answer budget is the default; a method's sampling that sets maxTokens overrides it.
  const sampling = samplingForRole(input.sampling, role);
  const variables = parseVariables(task, input.variables);
  return {
    role,
    sampling: { ...sampling, maxTokens: sampling.maxTokens ?? task.maxTokens },
    messages: withCorrection(task, task.render(variables), input),
    schema: task.output,
    ...(task.constrainedOutput ? { sentSchema: task.constrainedOutput(variables) } : {}),
    schemaName: task.schemaName,
    promptVersion: `${task.id}@${task.version}`,
    ...(task.answer === 'text' ? { plainText: true } : {}),
    ...(input.model ? { model: input.model } : {}),
    ...(signal ? { signal } : {}),
    ...(paidBy ? { paidBy } : {}),
  };
}

/** A re-ask appends the invalid answer and a correction naming the task's fields. */
function withCorrection(task: LlmTaskDefinition, messages: ChatMessage[], input: LlmTaskInput): ChatMessage[] {
  if (!input.correction) return messages;
  const properties = jsonSchemaOf(task.output).properties;
  const fields = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  return [...messages, ...correctionMessages(input.correction, fields)];
}

function parseVariables(task: LlmTaskDefinition, variables: unknown): unknown {
  const result = task.variables.safeParse(variables);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
  throw new LlmInvalidInputError(`invalid variables for LLM task '${task.id}': ${issues}`);
}

/** The activity context, or undefined when called outside an activity (tests, scripts). */
function activityContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

function heartbeatWhileWaiting(context: Context | undefined): () => void {
  if (!context) return () => undefined;
  // No heartbeat at the start: each one is a server write, and a call that ends within the interval
  // needs none (the heartbeat timeout counts from the start, so a killed worker is still noticed).
  const timer = setInterval(() => context.heartbeat(), LLM_HEARTBEAT_INTERVAL_MS);
  return () => clearInterval(timer);
}
