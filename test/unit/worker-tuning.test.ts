import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { configHash } from '../../src/config/config-identity';
import { llmWorkerOptions, mainWorkerOptions, parseWorkerTuning } from '../../src/worker/worker-tuning';

describe('VERITY_WORKER_TUNING', () => {
  it('parses key=value pairs into the Temporal worker options of each worker', () => {
    const tuning = parseWorkerTuning(' workflowPollers=4, workflowThreads=1,activityPollers=3,cachedWorkflows=500,workflowTasks=20 ');
    expect(mainWorkerOptions(tuning)).toEqual({
      maxConcurrentWorkflowTaskPolls: 4,
      workflowThreadPoolSize: 1,
      maxConcurrentActivityTaskPolls: 3,
      maxCachedWorkflows: 500,
      maxConcurrentWorkflowTaskExecutions: 20,
    });
    expect(llmWorkerOptions(tuning)).toEqual({ maxConcurrentActivityTaskPolls: 3 });
    expect(mainWorkerOptions(parseWorkerTuning(''))).toEqual({});
  });

  it.each([
    ['pollers=4', /unknown key "pollers" \(keys: workflowThreads, workflowPollers/],
    ['workflowPollers', /"workflowPollers": expected key=value/],
    ['workflowPollers=four', /workflowPollers: expected a whole number, got "four"/],
    ['workflowThreads=0', /workflowThreads: .*>=1/],
  ])('refuses %s in one line', (text, message) => {
    expect(() => parseWorkerTuning(text)).toThrow(message);
  });

  it('is read by loadConfig, named in its error, and is no part of the configuration identity', () => {
    const tuned = loadConfig({ VERITY_WORKER_TUNING: 'workflowPollers=8' });
    expect(tuned.workerTuning).toEqual({ workflowPollers: 8 });
    expect(configHash(tuned)).toBe(configHash(loadConfig({})));
    expect(tuned.temporal.taskQueue).toBe(loadConfig({}).temporal.taskQueue);
    expect(() => loadConfig({ VERITY_WORKER_TUNING: 'bogus=1' })).toThrow(/VERITY_WORKER_TUNING.*unknown key "bogus"/);
  });
});
