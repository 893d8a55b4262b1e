import fs from 'node:fs';
import path from 'node:path';
import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { WORKFLOW_INTERCEPTORS_PATH, WORKFLOWS_PATH } from '../../src/worker/create-worker';
import { type Tracing } from '../../src/telemetry/tracing';
import { workerTracingOf } from '../../src/telemetry/worker-tracing';

const HISTORIES = path.join(__dirname, 'histories');

/**
 * With tracing on, the worker bundles Temporal's OpenTelemetry workflow interceptors: different
 * workflow code, the same commands. Every recorded history (all recorded without them) must replay
 * with them, and a replay must not export a workflow span a second time.
 */
describe('recorded histories replay with the OpenTelemetry workflow interceptors', () => {
  it('replays every history under test/replay/histories and exports no span while replaying', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = { spanProcessor: new SimpleSpanProcessor(exporter), resource: new Resource({ 'service.name': 'replay' }) } as Pick<Tracing, 'spanProcessor' | 'resource'> as Tracing;
    const { workflowInterceptorModules, sinks } = workerTracingOf(tracing);
    const files = fs.readdirSync(HISTORIES).filter((name) => name.endsWith('.json'));
    const histories = files.map((name) => {
      const recorded = JSON.parse(fs.readFileSync(path.join(HISTORIES, name), 'utf8')) as { workflowId: string; history: unknown };
      return { workflowId: recorded.workflowId, history: historyFromJSON(recorded.history) };
    });
    const failures: string[] = [];
    let replayed = 0;
    const options = { workflowsPath: WORKFLOWS_PATH, interceptors: { workflowModules: [WORKFLOW_INTERCEPTORS_PATH, ...workflowInterceptorModules] }, sinks };
    for await (const result of Worker.runReplayHistories(options, histories)) {
      replayed += 1;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(files.length);
    expect(files.length).toBeGreaterThan(30);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
