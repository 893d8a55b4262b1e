import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHasRunningWorkflows } from '../../src/client/run-active';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { ingestCorpus } from '../../src/corpus/ingest';
import { ExplorerData, startExplorerServer, type RunningExplorer } from '../../src/explorer';
import { ReviewStore } from '../../src/review/review-store';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { recordRun } from '../../src/runs/record-run';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { SEARCH_ATTRIBUTE_KEYS } from '../../src/shared/search-attributes';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { chromiumPath } from '../support/chromium';
import { openExplorerPage } from '../support/explorer-browser-page';
import { DEMO_CLAIMS, DEMO_CORPUS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/** Long enough for a few of the page's refreshes (every 5 s) on a loaded machine. */
const LIVE_TIMEOUT_MS = 90_000;

/**
 * `verity view` while a run goes on, in headless Chromium over real Temporal and Elasticsearch: the run
 * grows by a dataset after the page loaded (its sweep runs in Temporal), and the page shows the new
 * verdicts without a reload, keeping the filter, the open transcript and a review note being typed;
 * once Temporal has no workflow of the run running, the page stops refreshing. A workflow of the run
 * that no worker picks up (on a queue nobody polls) keeps the run going from before the page loads
 * until the test ends it.
 */
describe('explorer refreshes while its run goes on', () => {
  let harness: WorkerHarness;
  let explorer: RunningExplorer;
  let browser: Browser;
  const runId = uniqueName('explorer-live');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-explorer-live-'));
  const demo = fs.readFileSync(DEMO_CLAIMS, 'utf8').trim().split('\n');
  const firstFile = path.join(tmp, 'first.jsonl');
  const laterFile = path.join(tmp, 'later.jsonl');
  const runConfig = (datasets: { name: string; file: string }[]) => runConfigSchema.parse({
    run: runId,
    datasets: datasets.map((d) => ({ ...d, format: 'verity' })),
    methods: ['rag', 'mermaid'],
    models: ['gpt-4o-mini'],
    parameters: { mermaid: { memory: 'off' } },
    concurrency: 4,
  });
  const sweep = async (datasets: { name: string; file: string }[], options: { rerunFinished?: boolean } = {}) => {
    const { config, deps, client } = harness;
    const run = runConfig(datasets);
    const input = buildSweepInput(config, run, tmp);
    await recordRun(deps.runs, await buildRunManifest(config, run, input));
    return (await startSweep(client, config.temporal.taskQueue, input, options)).handle;
  };

  beforeAll(async () => {
    fs.writeFileSync(firstFile, demo.slice(0, 2).join('\n'));
    fs.writeFileSync(laterFile, demo.slice(2, 3).join('\n'));
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 60_000 });
    harness = await startWorkerHarness('explorer-live', { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
    const { es, prefix, client } = harness;
    await ingestCorpus({ client: es, index: webIndexName(prefix), file: DEMO_CORPUS, target: WEB_TARGET });
    expect(await (await sweep([{ name: 'first', file: firstFile }])).result()).toMatchObject({ done: 4, failed: 0 });
    await es.indices.refresh({ index: `${prefix}-*` });
    const data = new ExplorerData({ client: es, prefix, runId, workflowUrl: () => undefined, runActive: () => runHasRunningWorkflows(client, runId) });
    explorer = await startExplorerServer(data, { port: 0, reviews: { store: new ReviewStore(es, prefix), runId } });
  });

  afterAll(async () => {
    await browser?.close();
    await explorer?.close();
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const ragRows = (page: Page) => page.locator('#claims-body tr.claim-row').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? '')));

  it('shows verdicts stored after the page loaded without a reload, keeps filters, transcript and a typed note, and stops when the run ends', async () => {
    const { client } = harness;
    const pending = await client.workflow.start('verifyClaimWorkflow', {
      taskQueue: uniqueName('nobody-polls'),
      workflowId: uniqueName('pending-verification'),
      typedSearchAttributes: [{ key: SEARCH_ATTRIBUTE_KEYS.run, value: runId }],
    });
    await expect.poll(() => runHasRunningWorkflows(client, runId), { timeout: LIVE_TIMEOUT_MS, interval: 250 }).toBe(true);
    const { page, errors } = await openExplorerPage(browser, explorer.url);
    await page.selectOption('#filter-method', 'rag');
    await page.waitForSelector('body[data-claims-pending="0"][data-charts-pending="0"]');
    const before = await ragRows(page);
    expect(before.map((cells) => cells[2])).toEqual(['rag', 'rag']);
    await page.locator('#claims-body tr.claim-row').first().click();
    await page.locator('#transcript h2').waitFor();
    const transcriptTitle = await page.locator('#transcript h2').textContent();
    await page.fill('#reviewer-name', 'alice');
    await page.click('#review-start');
    await page.locator('#review-note').waitFor();
    await page.fill('#review-note', 'half-written note');
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));

    // The run grows by a dataset: its sweep runs in Temporal while the page is open.
    const grown = await sweep([{ name: 'first', file: firstFile }, { name: 'later', file: laterFile }], { rerunFinished: true });
    await page.waitForFunction('document.querySelectorAll("#claims-body tr.claim-row").length === 3', undefined, { timeout: LIVE_TIMEOUT_MS });
    await grown.result();

    const after = await ragRows(page);
    expect(after.map((cells) => cells[2])).toEqual(['rag', 'rag', 'rag']);
    expect(after.map((cells) => cells[0]).sort()).toEqual(['demo-1', 'demo-2', 'demo-3']);
    expect(await page.inputValue('#filter-method')).toBe('rag');
    expect(await page.locator('#transcript').isHidden()).toBe(false);
    expect(await page.locator('#transcript h2').textContent()).toBe(transcriptTitle);
    expect(await page.inputValue('#review-note')).toBe('half-written note');
    expect(navigations).toEqual([]);

    // The charts follow (the rag verifications of both datasets); once the run has ended the page stops refreshing.
    await page.waitForSelector('body[data-charts-pending="0"]');
    expect(await page.getAttribute('body', 'data-live')).toBe('true');
    await pending.terminate('the test ends the run');
    await page.waitForSelector('body[data-live="false"]', { timeout: LIVE_TIMEOUT_MS });
    expect(await page.locator('#charts-info').textContent()).toMatch(/· 3 verifications/);
    expect(await page.locator('#run-stats').textContent()).toMatch(/^6 verdicts · 0 failed/);
    expect(Number(await page.getAttribute('body', 'data-refreshes'))).toBeGreaterThanOrEqual(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
