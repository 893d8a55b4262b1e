import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCorpus } from '../../src/corpus/ingest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { batchCounts, batchPricesFile, FAST_BATCH, startDemoSweep, terminateCollectors, verdictsOf } from '../support/batch-sweep';
import { expectTaskQueueReplays } from '../support/workflow-history';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const CLAIMS = 2;
const METHODS = ['tool-mad', 'toe'];
/** The recorded web both methods' web searches read. */
const WEB_PAGES = [
  { id: 'web:eiffel', url: 'https://example.org/eiffel', title: 'Eiffel Tower', text: 'The Eiffel Tower in Paris was completed in 1889.', sentences: null, source: 'batch-test-web' },
  { id: 'web:bread', url: 'https://example.org/bread', title: 'Sourdough bread', text: 'Sourdough bread is leavened with wild yeast.', sentences: null, source: 'batch-test-web' },
];

/**
 * ToE evaluates each node in a child workflow and Tool-MAD runs each debate round in one: their
 * calls go through the batch lane as the parent's do, so a batch sweep of them sends no direct call.
 */
describe('batch: true with methods whose LLM calls run in child workflows (ToE nodes, Tool-MAD rounds)', () => {
  let batched: WorkerHarness;

  beforeAll(async () => {
    batched = await startWorkerHarness('batch-children', { env: { VERITY_PRICES_FILE: batchPricesFile() }, simulator: { batch: { turnaroundMs: 200 } } });
    const web = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'batch-children-')), 'web.jsonl');
    fs.writeFileSync(web, WEB_PAGES.map((page) => JSON.stringify(page)).join('\n') + '\n');
    await ingestCorpus({ client: batched.es, index: webIndexName(batched.prefix), file: web, target: WEB_TARGET });
    await batched.es.indices.refresh({ index: webIndexName(batched.prefix) });
    const sweep = await startDemoSweep(batched.client, batched.config, {
      label: 'batch-children',
      methods: METHODS,
      claims: CLAIMS,
      batch: FAST_BATCH,
      parameters: { toe: { maxDepth: 1, maxIterations: 2 }, 'tool-mad': { maxRounds: 2 } },
    });
    expect(await sweep.result()).toMatchObject({ status: 'completed', failed: 0 });
    expect(await verdictsOf(batched.es, batched.prefix, sweep.runId)).toHaveLength(CLAIMS * METHODS.length);
  });

  afterAll(async () => {
    if (batched) await terminateCollectors(batched.client, batched.config.temporal.taskQueue);
    await batched?.close();
  });

  it('sends every call of the node and round workflows through batches, each request submitted and answered once', () => {
    const counts = batchCounts(batched.simulator.requests());
    expect(counts.direct).toBe(0);
    expect(counts.answered.size).toBeGreaterThan(CLAIMS * METHODS.length * 2);
    expect([...counts.submitted.values()].every((n) => n === 1)).toBe(true);
    expect([...counts.answered.values()].every((n) => n === 1)).toBe(true);
  });

  it('replays every workflow it ran with the current code', async () => {
    await expectTaskQueueReplays(batched.client, batched.config.temporal.taskQueue);
  });
});
