import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;
const WorkflowTaskFailedCause = temporal.api.enums.v1.WorkflowTaskFailedCause;

/** A workflow whose workflow task keeps failing (or timing out): it makes no progress until its code or worker is fixed. */
export interface StuckWorkflow {
  workflowId: string;
  /** The attempt of the workflow task now pending (2 or more). */
  attempt: number;
  /** When the first of these attempts was scheduled. */
  since: Date;
  /** One line: the cause Temporal recorded and its message, e.g. `non-deterministic: [TMPRL1100] …`. */
  cause: string;
  /** A failure (bad code, non-determinism) rather than a timeout (a worker that died or hung). */
  failed: boolean;
}

/** Describe data of one pending workflow task, as Temporal reports it. */
export interface PendingTaskInfo {
  attempt: number;
  originalScheduledTime?: Date;
}

/** Of the last workflow task failure or timeout event in a history. */
export interface LastTaskProblem {
  kind: 'failed' | 'timed-out';
  cause?: string;
  message?: string;
}

/**
 * Whether a pending workflow task counts as stuck: a recorded failure from the second attempt on
 * (a deterministic error repeats), a timeout from the third (a killed worker's task times out
 * once, then the next worker takes it).
 */
export function stuckOf(workflowId: string, task: PendingTaskInfo, problem: LastTaskProblem | undefined, now: Date): StuckWorkflow | undefined {
  if (task.attempt < 2) return undefined;
  const failed = problem?.kind === 'failed';
  if (!failed && task.attempt < 3) return undefined;
  const cause = problem
    ? [problem.kind === 'failed' ? `workflow task failed${problem.cause ? ` (${problem.cause})` : ''}` : 'workflow task timed out', problem.message?.split('\n')[0]]
        .filter(Boolean)
        .join(': ')
    : 'workflow task failing';
  return { workflowId, attempt: task.attempt, since: task.originalScheduledTime ?? now, cause, failed };
}

/** `<id>: workflow task failed (non deterministic error): … (attempt 5, for 12 min)`. */
export function describeStuck(stuck: StuckWorkflow, now: Date = new Date()): string {
  return `${stuck.workflowId}: ${stuckCause(stuck, now)}`;
}

/**
 * Why a sweep ended the verification `rootId`, for its failure record: the cause, and which child
 * was stuck when it was not the verification itself (`stuck in round-3: …`).
 */
export function stuckReason(rootId: string, stuck: StuckWorkflow, now: Date = new Date()): string {
  const where = stuck.workflowId === rootId ? '' : ` in ${stuck.workflowId.startsWith(`${rootId}/`) ? stuck.workflowId.slice(rootId.length + 1) : stuck.workflowId}`;
  return `stuck${where}: ${stuckCause(stuck, now)}`;
}

function stuckCause(stuck: StuckWorkflow, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - stuck.since.getTime()) / 60_000));
  return `${stuck.cause} (attempt ${stuck.attempt}, for ${minutes < 1 ? 'under a minute' : `${minutes} min`})`;
}

const MAX_WORKFLOWS = 200;

/**
 * The stuck workflows among `rootIds` and their running descendants (Tool-MAD rounds, ToE nodes,
 * a document's verifications), walked through each one's pending children. At most 200 are
 * described per call; workflows that are gone or closed are skipped.
 */
export async function findStuckWorkflows(client: Client, rootIds: string[], now: Date = new Date()): Promise<StuckWorkflow[]> {
  const stuck: StuckWorkflow[] = [];
  const queue = [...rootIds];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_WORKFLOWS) {
    const workflowId = queue.shift()!;
    if (seen.has(workflowId)) continue;
    seen.add(workflowId);
    const description = await client.workflow
      .getHandle(workflowId)
      .describe()
      .catch(() => undefined);
    if (!description || description.status.name !== 'RUNNING') continue;
    for (const child of description.raw.pendingChildren ?? []) if (child.workflowId) queue.push(child.workflowId);
    const pending = description.raw.pendingWorkflowTask;
    const attempt = pending?.attempt ?? 0;
    if (attempt < 2) continue;
    const problem = await lastTaskProblem(client, workflowId, description.runId);
    const found = stuckOf(workflowId, { attempt, originalScheduledTime: timestampOf(pending?.originalScheduledTime) }, problem, now);
    if (found) stuck.push(found);
  }
  return stuck;
}

async function lastTaskProblem(client: Client, workflowId: string, runId: string): Promise<LastTaskProblem | undefined> {
  const response = await client.workflowService
    .getWorkflowExecutionHistoryReverse({ namespace: client.options.namespace, execution: { workflowId, runId }, maximumPageSize: 50 })
    .catch(() => undefined);
  for (const event of response?.history?.events ?? []) {
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED) {
      const attributes = event.workflowTaskFailedEventAttributes;
      const cause = attributes?.cause ? causeName(attributes.cause) : undefined;
      return { kind: 'failed', ...(cause ? { cause } : {}), ...(attributes?.failure?.message ? { message: attributes.failure.message } : {}) };
    }
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT) return { kind: 'timed-out' };
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) return undefined;
  }
  return undefined;
}

/** `WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR` → `non-deterministic error`. */
function causeName(cause: number): string | undefined {
  const name = WorkflowTaskFailedCause[cause];
  if (!name || cause === WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNSPECIFIED) return undefined;
  return name.replace(/^WORKFLOW_TASK_FAILED_CAUSE_/, '').toLowerCase().replace(/_/g, ' ');
}

function timestampOf(value: { seconds?: unknown; nanos?: number | null } | null | undefined): Date | undefined {
  if (!value || value.seconds === undefined || value.seconds === null) return undefined;
  return new Date(Number(value.seconds) * 1000 + Math.floor((value.nanos ?? 0) / 1e6));
}

/** The run's running verifications (by its search attribute; at most `limit` looked at) that are stuck, themselves or in a child. */
export async function findStuckVerifications(client: Client, runSearchAttribute: string, runId: string, limit = MAX_WORKFLOWS): Promise<StuckWorkflow[]> {
  const query = `${runSearchAttribute} = ${JSON.stringify(runId)} AND ExecutionStatus = "Running" AND WorkflowType = "verifyClaimWorkflow"`;
  const ids: string[] = [];
  for await (const execution of client.workflow.list({ query })) {
    ids.push(execution.workflowId);
    if (ids.length >= limit) break;
  }
  return findStuckWorkflows(client, ids);
}
