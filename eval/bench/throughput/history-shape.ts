import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

/** What one claim costs the engine, summed over its workflow and all its descendants. */
export interface ClaimShape {
  workflowTasks: number;
  /** Activities on the LLM queue. */
  llmActivities: number;
  /** Other regular activities (tools, Elasticsearch on older code paths). */
  otherActivities: number;
  localActivities: number;
  childWorkflows: number;
  /** Sequential LLM rounds: workflow tasks that scheduled at least one LLM activity. */
  llmRounds: number;
}

export const EMPTY_SHAPE: ClaimShape = { workflowTasks: 0, llmActivities: 0, otherActivities: 0, localActivities: 0, childWorkflows: 0, llmRounds: 0 };

function add(a: ClaimShape, b: ClaimShape): ClaimShape {
  return {
    workflowTasks: a.workflowTasks + b.workflowTasks,
    llmActivities: a.llmActivities + b.llmActivities,
    otherActivities: a.otherActivities + b.otherActivities,
    localActivities: a.localActivities + b.localActivities,
    childWorkflows: a.childWorkflows + b.childWorkflows,
    llmRounds: a.llmRounds + b.llmRounds,
  };
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * One workflow's own shape from its history events, and the children whose histories add to it.
 * A claim in flight may have initiated a child the server has not started yet: it counts as a child
 * but has no history to read.
 */
export function shapeOfHistory(events: readonly HistoryEvent[]): { shape: ClaimShape; startedChildren: string[] } {
  const shape: ClaimShape = { ...EMPTY_SHAPE };
  const rounds = new Set<string>();
  const startedChildren: string[] = [];
  for (const event of events) {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
        shape.workflowTasks += 1;
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
        const attributes = event.activityTaskScheduledEventAttributes;
        if (attributes?.taskQueue?.name?.endsWith('-llm')) {
          shape.llmActivities += 1;
          rounds.add(String(attributes.workflowTaskCompletedEventId));
        } else {
          shape.otherActivities += 1;
        }
        break;
      }
      case EventType.EVENT_TYPE_MARKER_RECORDED:
        if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity') shape.localActivities += 1;
        break;
      case EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
        shape.childWorkflows += 1;
        break;
      case EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED: {
        const id = event.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId;
        if (id) startedChildren.push(id);
        break;
      }
      default:
        break;
    }
  }
  shape.llmRounds = rounds.size;
  return { shape, startedChildren };
}

/** The shape of a workflow (finished or in flight) and its started children, read from their histories. */
export async function shapeOfWorkflow(client: Client, workflowId: string, depth = 0): Promise<ClaimShape> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const own = shapeOfHistory(history.events ?? []);
  let shape = own.shape;
  if (depth < 4) for (const child of own.startedChildren) shape = add(shape, await shapeOfWorkflow(client, child, depth + 1));
  return shape;
}

/** The shape of some claims together. */
export function sumShape(shapes: ClaimShape[]): ClaimShape {
  return shapes.reduce(add, { ...EMPTY_SHAPE });
}

/** The mean shape of some claims. */
export function meanShape(shapes: ClaimShape[]): ClaimShape {
  if (shapes.length === 0) return { ...EMPTY_SHAPE };
  const total = sumShape(shapes);
  const mean = (n: number) => n / shapes.length;
  return {
    workflowTasks: mean(total.workflowTasks),
    llmActivities: mean(total.llmActivities),
    otherActivities: mean(total.otherActivities),
    localActivities: mean(total.localActivities),
    childWorkflows: mean(total.childWorkflows),
    llmRounds: mean(total.llmRounds),
  };
}

/** Workflow tasks a sweep spent per child it started (its current run). */
export async function sweepTasksPerChild(client: Client, workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  let tasks = 0;
  let children = 0;
  for (const event of history.events ?? []) {
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) tasks += 1;
    if (event.eventType === EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) children += 1;
  }
  return children === 0 ? 0 : tasks / children;
}
