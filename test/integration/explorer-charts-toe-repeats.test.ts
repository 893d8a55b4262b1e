import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { ingestCorpus } from '../../src/corpus/ingest';
import { ExplorerData, startExplorerServer, type RunningExplorer } from '../../src/explorer';
import { groupLabel, loadRunReport, type RunReport } from '../../src/report';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { indexName } from '../../src/es/indices';
import { rollingAccuracy } from '../../src/explorer/charts/learning-curve';
import { chromiumPath } from '../support/chromium';
import { chartNumbers, openExplorerPage } from '../support/explorer-browser-page';
import { DEMO_CLAIMS, DEMO_CORPUS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const CLAIMS = 3;
const REPEATS = 2;

/** A table cell as the page prints a number of the chart's table. */
const shown = (value: number) => String(Math.round(value * 1000) / 1000);

/** A sweep of `fields` on the first `claims` demo claims, run on the simulator and served by `verity view`, with a browser to open it. */
interface ServedSweep {
  harness: WorkerHarness;
  explorer: RunningExplorer;
  browser: Browser;
  report: RunReport;
  close(): Promise<void>;
}

async function serveSweep(name: string, claims: number, fields: Record<string, unknown>, verifications: number): Promise<ServedSweep> {
  const runId = uniqueName(name);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `verity-${name}-`));
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 60_000 });
  const harness = await startWorkerHarness(name, { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
  const { config, deps, client, es, prefix } = harness;
  await ingestCorpus({ client: es, index: webIndexName(prefix), file: DEMO_CORPUS, target: WEB_TARGET });
  const claimsFile = path.join(tmp, 'claims.jsonl');
  fs.writeFileSync(claimsFile, fs.readFileSync(DEMO_CLAIMS, 'utf8').trim().split('\n').slice(0, claims).join('\n'));
  const run = runConfigSchema.parse({ run: runId, datasets: [{ name: 'demo', file: claimsFile, format: 'verity' }], models: ['gpt-4o-mini'], ...fields });
  const input = buildSweepInput(config, run, tmp);
  await deps.runs.save(await buildRunManifest(config, run, input));
  const { handle } = await startSweep(client, config.temporal.taskQueue, input);
  expect(await handle.result()).toMatchObject({ done: verifications, failed: 0 });
  await es.indices.refresh({ index: `${prefix}-*` });
  const report = await loadRunReport(es, prefix, runId);
  const explorer = await startExplorerServer(new ExplorerData({ client: es, prefix, runId, workflowUrl: () => undefined }), { port: 0 });
  const close = async () => {
    await browser.close();
    await explorer.close();
    await harness.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  return { harness, explorer, browser, report, close };
}

const settled = (page: Page) => page.waitForSelector('body[data-claims-pending="0"][data-charts-pending="0"]', { state: 'attached' });

/**
 * The explorer's repeats chart in headless Chromium over a real sweep with `repeats` (rag and MERMAID
 * on a few demo claims, simulator): it draws each group's accuracy and macro-F1 per repeat as the
 * report computes them, and follows the method filter.
 */
describe('explorer repeats chart in headless Chromium', () => {
  let served: ServedSweep;

  beforeAll(async () => {
    served = await serveSweep('explorer-repeats', CLAIMS, { methods: ['rag', 'mermaid'], parameters: { mermaid: { memory: 'off' } }, repeats: REPEATS, concurrency: 4 }, 2 * CLAIMS * REPEATS);
  });

  afterAll(() => served?.close());

  it('draws accuracy and macro-F1 of each repeat as the report has them, and follows the method filter', async () => {
    const { page, errors } = await openExplorerPage(served.browser, served.explorer.url);
    await settled(page);
    const figure = page.locator('figure[data-chart="repeats"]');
    const drawn = await figure.locator('svg.chart').evaluate((svg) => [svg.namespaceURI, svg.getBoundingClientRect().height > 50, svg.querySelectorAll('rect, line').length > 3]);
    expect(drawn).toEqual(['http://www.w3.org/2000/svg', true, true]);

    const groups = served.report.groups.filter((g) => g.key.stratum === undefined);
    const expected = groups.map((g) => [
      groupLabel(g.key),
      String(REPEATS),
      g.repeats!.accuracy.values.map(shown).join(' '),
      shown(g.repeats!.accuracy.mean),
      g.repeats!.macroF1.values.map(shown).join(' '),
      shown(g.repeats!.macroF1.mean),
    ]);
    const table = async () => (await chartNumbers(page, 'repeats')).map((row) => [row[0], row[1], row[2], row[3], row[5], row[6]]);
    expect(await table()).toEqual(expected);

    await page.locator('#filter-method').selectOption('rag');
    await settled(page);
    expect(await table()).toEqual(expected.filter((row) => row[0] === 'demo · rag · gpt-4o-mini'));
    expect(errors).toEqual([]);
  });
});

/**
 * ToE's learning curve in headless Chromium over a real sweep of ToE with an online policy on the
 * claim-order schedule (and rag, 4 demo claims, simulator): the curve is the rolling accuracy of the
 * run's verdicts in the order the policy saw them, and a method filter to rag hides it.
 */
describe('explorer learning curve in headless Chromium', () => {
  let served: ServedSweep;
  let expected: string[][];
  const LEARNING_CLAIMS = 4;

  beforeAll(async () => {
    const toe = { maxIterations: 1, maxSearchSteps: 1, policy: 'online', sampling: 'sample', online: { warmupClaims: 2, groupSize: 2, claimsPerVersion: 2 } };
    served = await serveSweep('explorer-learning', LEARNING_CLAIMS, { methods: ['toe', 'rag'], parameters: { toe }, seed: 7, ordered: false, concurrency: 2 }, 2 * LEARNING_CLAIMS);
    const { es, prefix } = served.harness;
    const runId = served.report.manifest.runId;
    type Online = { workflowId: string; trace: { online: { claimOrder: { position: number } } } };
    const verdicts = await es.search<Online>({ index: indexName(prefix, 'verdicts'), size: 100, query: { bool: { must: [{ term: { runId } }, { term: { method: 'toe' } }] } } });
    const position = new Map(verdicts.hits.hits.map((hit) => [hit._source!.workflowId, hit._source!.trace.online.claimOrder.position]));
    const steps = served.report.claims.filter((row) => row.method === 'toe' && row.correct !== null).map((row) => ({ order: position.get(row.workflowId!)!, correct: row.correct! }));
    expect(steps.length).toBe(LEARNING_CLAIMS);
    expect(steps.map((s) => s.order).sort()).toEqual([0, 1, 2, 3]);
    expected = rollingAccuracy(steps).map((p) => ['demo · toe · gpt-4o-mini', String(p.x), shown(p.y), '5']);
  });

  afterAll(() => served?.close());

  it('draws the rolling accuracy of ToE in the order the online policy saw the claims, and hides it for rag', async () => {
    const { page, errors } = await openExplorerPage(served.browser, served.explorer.url);
    await settled(page);
    const figure = page.locator('figure[data-chart="learning"]');
    const drawn = await figure.locator('svg.chart').evaluate((svg) => [svg.namespaceURI, svg.getBoundingClientRect().height > 50, svg.querySelectorAll('path, polyline, line, circle').length > 3]);
    expect(drawn).toEqual(['http://www.w3.org/2000/svg', true, true]);
    await figure.locator('button.chart-numbers').click();
    const rows = await figure.locator('table.chart-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(rows).toEqual(expected);

    await page.locator('#filter-method').selectOption('rag');
    await settled(page);
    expect(await page.locator('figure[data-chart="learning"]').count()).toBe(0);
    expect(await page.locator('figure[data-chart="f1"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
