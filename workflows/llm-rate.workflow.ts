import { condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  afterQuietInterval,
  afterRateLimited,
  initialLlmRate,
  isRecovered,
  type LlmRateSettings,
  type LlmRateState,
  type RateLimitedReport,
} from '../src/shared/llm-rate';
import { WRITE } from './activity-options';
import { llmRateLimitedSignal, llmRateQuery } from '../src/shared/definitions/llm-rate';

const { setLlmQueueRate } = proxyActivities<Activities>(WRITE);

export interface LlmRateInput {
  llmTaskQueue: string;
  settings: LlmRateSettings;
  /** Carried over by continue-as-new. */
  state?: LlmRateState;
}

const MAX_HISTORY_EVENTS = 2_000;

/**
 * The AIMD controller of one LLM task queue, started by the first 429 a worker reports
 * (signal-with-start): a cut halves the queue's server-side rate limit, every quiet interval adds
 * a step, and once back at the ceiling the limit is removed (the workers' own applies again) and
 * the controller ends.
 */
export async function llmRateWorkflow(input: LlmRateInput): Promise<LlmRateState> {
  const { settings } = input;
  let state = input.state ?? initialLlmRate(settings, Date.now());
  const reports: RateLimitedReport[] = [];
  setHandler(llmRateLimitedSignal, (report) => void reports.push(report));
  setHandler(llmRateQuery, () => state);
  let applied = input.state?.rate ?? settings.ceiling;

  for (;;) {
    const rateLimited = await condition(() => reports.length > 0, settings.intervalMs);
    if (rateLimited) {
      const batch = reports.splice(0);
      const retryAfters = batch.flatMap((report) => (report.retryAfterMs !== undefined ? [report.retryAfterMs] : []));
      const merged: RateLimitedReport = {
        count: batch.reduce((sum, report) => sum + report.count, 0),
        ...(retryAfters.length > 0 ? { retryAfterMs: Math.max(...retryAfters) } : {}),
      };
      state = afterRateLimited(state, settings, merged, Date.now());
    } else {
      state = afterQuietInterval(state, settings);
    }
    const recovered = isRecovered(state, settings);
    if (state.rate !== applied || recovered) {
      await setLlmQueueRate({ taskQueue: input.llmTaskQueue, requestsPerSecond: recovered ? null : state.rate });
      applied = state.rate;
    }
    if (recovered && reports.length === 0) return state;
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > MAX_HISTORY_EVENTS) {
      // 429s that arrived since this turn are counted; the next run cuts on the next report.
      const pending = reports.reduce((sum, report) => sum + report.count, 0);
      await continueAsNew<typeof llmRateWorkflow>({ ...input, state: { ...state, rateLimitedCount: state.rateLimitedCount + pending } });
    }
  }
}
