import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { ingestCorpus } from '../../src/corpus/ingest';
import { ExplorerData, explorerFilterSchema, explorerHtml, explorerSnapshot, startExplorerServer, type RunningExplorer } from '../../src/explorer';
import { groupLabel, loadRunReport, type GroupReport, type RunReport } from '../../src/report';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { humanDuration } from '../../src/shared/human-duration';
import { chromiumPath } from '../support/chromium';
import { chartNumbers, openExplorerPage } from '../support/explorer-browser-page';
import { DEMO_CLAIMS, DEMO_CORPUS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/** Claims per hop count: the demo claims, half given num_hops 2 and half 3. */
const PER_HOP = 3;
const CLAIMS = 2 * PER_HOP;

/** A table cell as the page prints a number of the chart's table. */
const shown = (value: number) => String(Math.round(value * 1000) / 1000);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return (sorted[Math.floor(middle)]! + sorted[Math.ceil(middle)]!) / 2;
}

/**
 * The explorer's charts in headless Chromium over a real run (rag and MERMAID on the demo claims,
 * stratified by a hop count, simulator): each chart shows the numbers of the run as its report
 * computes them, and follows the filters, served by `verity view` and offline in explorer.html.
 * With VERITY_CHART_SCREENSHOTS=<dir>, it also saves screenshots of the charts there.
 */
describe('explorer charts in headless Chromium', () => {
  let harness: WorkerHarness;
  let explorer: RunningExplorer;
  let data: ExplorerData;
  let browser: Browser;
  let report: RunReport;
  const runId = uniqueName('explorer-charts');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-explorer-charts-'));

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 60_000 });
    harness = await startWorkerHarness('explorer-charts', { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
    const { config, deps, client, es, prefix } = harness;
    await ingestCorpus({ client: es, index: webIndexName(prefix), file: DEMO_CORPUS, target: WEB_TARGET });
    const claimsFile = path.join(tmp, 'claims.jsonl');
    const demo = fs.readFileSync(DEMO_CLAIMS, 'utf8').trim().split('\n').slice(0, CLAIMS);
    fs.writeFileSync(claimsFile, demo.map((line, i) => JSON.stringify({ ...JSON.parse(line), meta: { num_hops: i % 2 === 0 ? 2 : 3 } })).join('\n'));
    const run = runConfigSchema.parse({
      run: runId,
      datasets: [{ name: 'demo', file: claimsFile, format: 'verity', stratify: { field: 'num_hops', perValue: PER_HOP } }],
      methods: ['rag', 'mermaid'],
      models: ['gpt-4o-mini'],
      parameters: { mermaid: { memory: 'off' } },
      concurrency: 4,
    });
    const input = buildSweepInput(config, run, tmp);
    await deps.runs.save(await buildRunManifest(config, run, input));
    const { handle } = await startSweep(client, config.temporal.taskQueue, input);
    expect(await handle.result()).toMatchObject({ done: 2 * CLAIMS, failed: 0 });
    await es.indices.refresh({ index: `${prefix}-*` });
    report = await loadRunReport(es, prefix, runId);
    data = new ExplorerData({ client: es, prefix, runId, workflowUrl: () => undefined });
    explorer = await startExplorerServer(data, { port: 0 });
  });

  afterAll(async () => {
    await browser?.close();
    await explorer?.close();
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const mainGroups = () => report.groups.filter((g) => g.key.stratum === undefined);

  async function settled(page: Page): Promise<void> {
    await page.waitForSelector('body[data-claims-pending="0"][data-charts-pending="0"]', { state: 'attached' });
  }

  async function select(page: Page, id: string, value: string): Promise<void> {
    await page.locator(`#filter-${id}`).selectOption(value);
    await settled(page);
  }

  const chartIds = (page: Page) => page.locator('figure.chart-figure').evaluateAll((figures) => figures.map((f) => f.getAttribute('data-chart')));

  it('draws the run as its report computes it: F1, strata, cost or tokens, calls, latency, confusion', async () => {
    const { page, errors } = await openExplorerPage(browser, explorer.url);
    await settled(page);
    const costly = mainGroups().some((g) => g.usage.mean.costUsd > 0);
    expect(await chartIds(page)).toEqual(['f1', 'strata', costly ? 'cost' : 'tokens', 'calls', 'latency', 'confusion-0', 'confusion-1']);
    expect(await page.textContent('#charts-info')).toBe(`· ${2 * CLAIMS} verifications`);
    // Drawn as SVG (not shown as text): SVG elements with a size on the page.
    const drawn = await page.locator('#charts figure > svg.chart').evaluateAll((svgs) => svgs.map((svg) => [svg.namespaceURI, svg.getBoundingClientRect().height > 50, svg.querySelectorAll('rect, circle, line').length > 3]));
    expect(drawn).toEqual(Array.from({ length: 7 }, () => ['http://www.w3.org/2000/svg', true, true]));

    // F1: each group's accuracy and macro-F1 as the report has them, over all its claims.
    const f1 = await chartNumbers(page, 'f1');
    expect(f1.map((row) => [row[0], row[1], row[2], row[5]])).toEqual(
      mainGroups().map((g: GroupReport) => [groupLabel(g.key), String(CLAIMS), shown(g.accuracy.estimate), shown(g.macroF1.estimate)]),
    );
    // One row per hop count and method, PER_HOP claims each.
    const strata = await chartNumbers(page, 'strata');
    expect(strata.map((row) => [row[1], row[2], row[4]])).toEqual([
      ['num_hops=2', 'mermaid', String(PER_HOP)],
      ['num_hops=3', 'mermaid', String(PER_HOP)],
      ['num_hops=2', 'rag', String(PER_HOP)],
      ['num_hops=3', 'rag', String(PER_HOP)],
    ]);
    expect(strata.map((row) => row[5])).toEqual(report.groups.filter((g) => g.key.stratum).map((g) => shown(g.accuracy.estimate)));

    // Calls and latency as distributions of the verdicts the claims table lists.
    const { rows } = await data.claims(explorerFilterSchema.parse({ size: 200 }));
    const rag = rows.filter((row) => row.method === 'rag');
    const calls = await chartNumbers(page, 'calls');
    expect(calls.find((row) => row[0] === 'demo · rag · gpt-4o-mini' && row[1] === 'LLM')!.slice(2, 3).concat(calls.find((row) => row[0] === 'demo · rag · gpt-4o-mini' && row[1] === 'LLM')![5]!)).toEqual([
      String(CLAIMS),
      String(median(rag.map((row) => row.llmCalls))),
    ]);
    const latency = await chartNumbers(page, 'latency');
    const ragLatency = latency.find((row) => row[0] === 'demo · rag · gpt-4o-mini')!;
    expect([ragLatency[2], ragLatency[6]]).toEqual([humanDuration(Math.min(...rag.map((r) => r.durationMs))), humanDuration(Math.max(...rag.map((r) => r.durationMs)))]);

    // The confusion matrix of each group: its counts add up to its claims.
    const confusion = await chartNumbers(page, 'confusion-0');
    expect(confusion.flatMap((row) => row.slice(1).map(Number)).reduce((a, b) => a + b, 0)).toBe(CLAIMS);
    expect(errors).toEqual([]);
  });

  it('follows the filters: one method, one outcome, one gold label', async () => {
    const { page, errors } = await openExplorerPage(browser, explorer.url);
    await settled(page);
    await select(page, 'method', 'mermaid');
    expect(await page.textContent('#charts-info')).toBe(`· ${CLAIMS} verifications`);
    expect((await chartNumbers(page, 'f1')).map((row) => row[0])).toEqual(['demo · mermaid · gpt-4o-mini']);
    expect(await chartIds(page)).toEqual(expect.arrayContaining(['confusion-0']));
    expect(await chartIds(page)).not.toContain('confusion-1');
    expect((await chartNumbers(page, 'calls')).map((row) => row[0])).toEqual(['demo · mermaid · gpt-4o-mini', 'demo · mermaid · gpt-4o-mini']);

    // Only the correct verdicts: accuracy 1, and as many scored as the claims table lists.
    await page.locator('#filter-outcome').selectOption('correct');
    await settled(page);
    const correct = await page.locator('#claims-body tr.claim-row').count();
    const f1 = await chartNumbers(page, 'f1');
    if (correct > 0) expect(f1.map((row) => [row[1], row[2]])).toEqual([[String(correct), '1']]);
    else expect(await chartIds(page)).toEqual([]);

    // The gold label REFUTED over both methods: each group's confusion matrix has one non-empty row.
    await select(page, 'outcome', '');
    await select(page, 'method', '');
    await select(page, 'gold', 'REFUTED');
    const refuted = rowsWithGold(report, 'REFUTED');
    for (const id of ['confusion-0', 'confusion-1']) {
      const matrix = await chartNumbers(page, id);
      expect(matrix.map((row) => [row[0], row.slice(1).map(Number).reduce((a, b) => a + b, 0)])).toEqual(matrix.map((row) => [row[0], row[0] === 'REFUTED' ? refuted : 0]));
    }
    expect(errors).toEqual([]);
  });

  it('explorer.html draws the charts offline and follows the method filter there', async () => {
    const file = path.join(tmp, 'explorer.html');
    fs.writeFileSync(file, explorerHtml(await explorerSnapshot(data, 4)));
    const { page, errors } = await openExplorerPage(browser, `file://${file}`);
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    await settled(page);
    expect((await chartNumbers(page, 'f1')).map((row) => row[0])).toEqual(mainGroups().map((g) => groupLabel(g.key)));
    await select(page, 'method', 'rag');
    expect((await chartNumbers(page, 'f1')).map((row) => [row[0], row[2]])).toEqual([['demo · rag · gpt-4o-mini', shown(mainGroups().find((g) => g.key.method === 'rag')!.accuracy.estimate)]]);
    await select(page, 'outcome', 'correct');
    expect(await page.textContent('#charts-info')).toContain('charts follow the method, model and dataset filters');
    expect(errors).toEqual([]);
  });

  it('saves screenshots of the charts when asked (VERITY_CHART_SCREENSHOTS)', async () => {
    const dir = process.env.VERITY_CHART_SCREENSHOTS;
    if (!dir) return;
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await page.goto(explorer.url);
    await page.waitForSelector('body[data-ready="true"]');
    await settled(page);
    fs.mkdirSync(dir, { recursive: true });
    for (const id of ['f1', 'strata', 'calls', 'latency']) await page.locator(`figure[data-chart="${id}"]`).screenshot({ path: path.join(dir, `explorer-chart-${id}.png`) });
    const efficiency = page.locator('figure[data-chart="cost"], figure[data-chart="tokens"]').first();
    await efficiency.locator('button.chart-numbers').click();
    await efficiency.screenshot({ path: path.join(dir, 'explorer-chart-efficiency.png') });
    await page.close();
  });
});

/** Verifications of the run whose gold label is `label` in one (dataset, method, model) group. */
function rowsWithGold(report: RunReport, label: string): number {
  return report.claims.filter((row) => row.gold === label && row.method === 'rag').length;
}
