import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { shapeOfHistory } from '../../eval/bench/throughput/history-shape';

const EventType = temporal.api.enums.v1.EventType;

/** A recorded ToE verification: three node children, each initiated, started and completed. */
function recordedToeVerification() {
  const recorded = JSON.parse(fs.readFileSync(path.join(__dirname, '../replay/histories/toe-verify.json'), 'utf8'));
  return historyFromJSON(recorded.history).events ?? [];
}

describe('bench:throughput claim shapes from histories', () => {
  it('counts a finished claim’s workflow tasks, activities and children, and reads every child', () => {
    const events = recordedToeVerification();
    const { shape, startedChildren } = shapeOfHistory(events);
    expect(shape.workflowTasks).toBe(8);
    expect(shape.llmActivities + shape.otherActivities).toBe(1);
    expect(shape.childWorkflows).toBe(3);
    expect(startedChildren).toHaveLength(3);
  });

  it('does not read a child of a claim in flight that the server has not started yet (it has no history)', () => {
    const events = recordedToeVerification();
    const lastInitiated = events.map((e) => e.eventType).lastIndexOf(EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED);
    const inFlight = events.slice(0, lastInitiated + 1);
    const { shape, startedChildren } = shapeOfHistory(inFlight);
    expect(shape.childWorkflows).toBe(3);
    expect(startedChildren).toHaveLength(2);
    const initiatedId = inFlight[lastInitiated]!.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId;
    expect(startedChildren).not.toContain(initiatedId);
  });
});
