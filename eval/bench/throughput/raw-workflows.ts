/**
 * The raw engine ceiling of bench:throughput: workflows of the same shape as a verity method
 * (per claim: LLM-queue activities, other activities, local activities, child workflows, and a
 * sweep window of claims) that do nothing but wait out the simulated latency. Whatever verity
 * reaches below this on the same server and worker settings is verity's own overhead.
 */
import { executeChild, proxyActivities, proxyLocalActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { RawActivities } from './raw-activities';

export interface RawShape {
  /** LLM calls per claim (activities on the rate-limited queue, each waiting `latencyMs`). */
  llmCalls: number;
  /** Of those, how many run at once (1: one after another, as most methods do). */
  llmParallel: number;
  /** Other regular activities per claim. */
  activities: number;
  /** Local activities per claim. */
  localActivities: number;
  /** Child workflows per claim (the LLM calls and steps are spread over them). */
  children: number;
}

export interface RawClaimInput {
  shape: RawShape;
  latencyMs: number;
}

export interface RawSweepInput extends RawClaimInput {
  runId: string;
  claims: number;
  concurrency: number;
}

const { rawStep } = proxyActivities<RawActivities>({ startToCloseTimeout: '30 seconds' });
const { rawStep: rawLocalStep } = proxyLocalActivities<RawActivities>({ startToCloseTimeout: '30 seconds' });

function llmActivities() {
  return proxyActivities<RawActivities>({ startToCloseTimeout: '3 minutes', taskQueue: `${workflowInfo().taskQueue}-llm` });
}

/** Spreads `total` over `parts` as evenly as whole numbers allow. */
function share(total: number, parts: number, index: number): number {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}

async function steps(shape: RawShape, latencyMs: number): Promise<void> {
  const { rawLlm } = llmActivities();
  for (let i = 0; i < shape.localActivities; i += 1) await rawLocalStep();
  for (let i = 0; i < shape.activities; i += 1) await rawStep();
  const parallel = Math.max(1, shape.llmParallel);
  for (let done = 0; done < shape.llmCalls; done += parallel) {
    const batch = Math.min(parallel, shape.llmCalls - done);
    await Promise.all(Array.from({ length: batch }, () => rawLlm(latencyMs)));
  }
}

/** One part of a claim's work, as a child workflow. */
export async function rawPartWorkflow(input: RawClaimInput): Promise<number> {
  await steps(input.shape, input.latencyMs);
  return 1;
}

/** One claim: its steps itself, or spread over `children` child workflows run one after another. */
export async function rawClaimWorkflow(input: RawClaimInput): Promise<number> {
  const { shape } = input;
  if (shape.children === 0) {
    await steps(shape, input.latencyMs);
    return 1;
  }
  for (let i = 0; i < shape.children; i += 1) {
    const part: RawShape = {
      llmCalls: share(shape.llmCalls, shape.children, i),
      llmParallel: shape.llmParallel,
      activities: share(shape.activities, shape.children, i),
      localActivities: share(shape.localActivities, shape.children, i),
      children: 0,
    };
    await executeChild(rawPartWorkflow, { workflowId: `${workflowInfo().workflowId}/part/${i}`, args: [{ shape: part, latencyMs: input.latencyMs }] });
  }
  return 1;
}

/** A sliding window of `concurrency` claims, like verity's sweep (children report back as they finish). */
export async function rawSweepWorkflow(input: RawSweepInput): Promise<number> {
  let next = 0;
  let running = 0;
  let done = 0;
  const claim = { shape: input.shape, latencyMs: input.latencyMs };
  await new Promise<void>((resolve, reject) => {
    const fill = () => {
      if (done === input.claims) resolve();
      while (running < input.concurrency && next < input.claims) {
        const workflowId = `${input.runId}/claim/${next}`;
        next += 1;
        running += 1;
        startChild(rawClaimWorkflow, { workflowId, args: [claim] })
          .then((child) => child.result())
          .then(() => {
            running -= 1;
            done += 1;
            fill();
          }, reject);
      }
    };
    fill();
  });
  return done;
}
