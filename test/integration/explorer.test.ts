import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openExplorerPage } from '../support/explorer-browser-page';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { workflowUiUrl } from '../../src/client/temporal';
import { ingestCorpus } from '../../src/corpus/ingest';
import { indexName } from '../../src/es/indices';
import type { Verdict } from '../../src/shared/verify';
import { VerdictStore } from '../../src/verdicts/verdict-store';
import { ExplorerData, explorerHtml, explorerSnapshot, startExplorerServer, type RunningExplorer } from '../../src/explorer';
import { explorerFilterSchema } from '../../src/explorer/explorer-filter';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { chromiumPath } from '../support/chromium';
import { DEMO_CLAIMS, DEMO_CORPUS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const CLAIMS = 3;
/**
 * Generous but bounded waits: a loaded CI machine (2 cores shared with other suites) can take
 * seconds to render a page or answer a query. Nothing waits for a fixed time: each action waits
 * for the page to say its table has settled (body[data-claims-pending="0"]).
 */
/** rag and MERMAID on the demo claims, and MERMAID on the broken claim. */
const VERDICTS = CLAIMS * 2 + 1;

/**
 * The claim explorer in a real browser (headless Chromium driven by playwright-core) over a real
 * run: a small sweep of rag and MERMAID on the demo claims, plus a dataset whose index is missing
 * so that some verifications fail.
 */
describe('claim explorer in headless Chromium', () => {
  let harness: WorkerHarness;
  let explorer: RunningExplorer;
  let data: ExplorerData;
  let browser: Browser;
  let runId: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-explorer-'));

  beforeAll(async () => {
    // Debian's Chromium first (installed by .ci/run; apt-get here only on a machine without it).
    const executablePath = chromiumPath();
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 60_000 });
  });

  beforeAll(async () => {
    harness = await startWorkerHarness('explorer', { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
    const { config, client, es, prefix } = harness;
    await ingestCorpus({ client: es, index: webIndexName(prefix), file: DEMO_CORPUS, target: WEB_TARGET });
    const claimsFile = path.join(tmp, 'claims.jsonl');
    const demo = fs.readFileSync(DEMO_CLAIMS, 'utf8').trim().split('\n').slice(0, CLAIMS);
    fs.writeFileSync(claimsFile, demo.join('\n'));
    const brokenFile = path.join(tmp, 'broken.jsonl');
    fs.writeFileSync(brokenFile, JSON.stringify({ id: 'broken-1', dataset: 'broken', claim: 'The Eiffel Tower is in Rome.', label: 'REFUTED', label_norm: 'REFUTED' }));
    runId = uniqueName('explorer-run');
    const run = runConfigSchema.parse({
      run: runId,
      datasets: [
        { name: 'demo', file: claimsFile, format: 'verity' },
        { name: 'broken', file: brokenFile, format: 'verity', index: `${prefix}-missing` },
      ],
      methods: ['rag', 'mermaid'],
      models: ['gpt-4o-mini'],
      parameters: { mermaid: { memory: 'off' } },
      concurrency: 4,
    });
    const { handle } = await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, tmp));
    const result = await handle.result();
    // rag fails on the missing index; MERMAID reads the failed searches as observations and answers.
    expect(result).toMatchObject({ done: VERDICTS, failed: 1 });
    await es.indices.refresh({ index: `${prefix}-*` });

    data = new ExplorerData({ client: es, prefix, runId, workflowUrl: (id) => workflowUiUrl(config, id), temporalUiUrl: config.temporal.uiUrl! });
    explorer = await startExplorerServer(data, { port: 0 });
  });

  afterAll(async () => {
    await browser?.close();
    await explorer?.close();
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const open = (url: string) => openExplorerPage(browser, url);

  const rowsOf = (page: Page) => page.locator('#claims-body tr.claim-row');

  /** The claims table once every request the last action started has been answered and rendered. */
  async function settledRows(page: Page): Promise<number> {
    await page.waitForSelector('body[data-claims-pending="0"]', { state: 'attached' });
    return rowsOf(page).count();
  }

  /** Sets a filter the way a user does (select, or type and leave the field) and reads the settled table. */
  async function filter(page: Page, id: string, value: string): Promise<number> {
    const field = page.locator(`#filter-${id}`);
    if ((await field.evaluate((node) => node.tagName)) === 'SELECT') await field.selectOption(value);
    else {
      await field.fill(value);
      await field.dispatchEvent('change');
    }
    return settledRows(page);
  }

  it('filters narrow the table, a MERMAID transcript shows its LLM calls, and the side-by-side view shows two methods', async () => {
    const { page, errors } = await open(explorer.url);
    expect(await settledRows(page)).toBe(VERDICTS);

    expect(await filter(page, 'method', 'mermaid')).toBe(CLAIMS + 1);
    expect(await filter(page, 'dataset', 'demo')).toBe(CLAIMS);
    expect(new Set(await page.locator('#claims-body tr td:nth-child(3)').allTextContents())).toEqual(new Set(['mermaid']));
    expect(await filter(page, 'minCalls', '999')).toBe(0);
    expect(await page.textContent('#page-info')).toBe('no verifications match');
    expect(await filter(page, 'minCalls', '')).toBe(CLAIMS);

    const totalOf = async (outcome: string) => ((await (await fetch(`${explorer.url}api/claims?method=mermaid&dataset=demo&outcome=${outcome}`)).json()) as { total: number }).total;
    const [correct, incorrect] = [await totalOf('correct'), await totalOf('incorrect')];
    expect(correct + incorrect).toBe(CLAIMS);
    expect(await filter(page, 'outcome', 'correct')).toBe(correct);
    expect(new Set(await page.locator('#claims-body tr td:nth-child(8)').allTextContents())).toEqual(correct > 0 ? new Set(['✓']) : new Set());
    expect(await filter(page, 'outcome', 'incorrect')).toBe(incorrect);
    expect(await filter(page, 'outcome', '')).toBe(CLAIMS);

    await rowsOf(page).first().click();
    const transcript = page.locator('#transcript');
    await transcript.locator('.llm-call').first().waitFor();
    const calls = await transcript.locator('.llm-call > summary').allTextContents();
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls[0]).toMatch(/^1\. mermaid · decomposer · gpt-4o-mini$/);
    expect(calls.some((call) => /mermaid · executor step 1\/5/.test(call))).toBe(true);
    await transcript.locator('.llm-call > summary').first().click();
    const firstCall = transcript.locator('.llm-call').first();
    const claimText = (await transcript.locator('p.claim').textContent())!;
    expect(await firstCall.locator('.message pre').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining(claimText)]));
    expect(await firstCall.locator('pre.raw').textContent()).toContain('triplets');
    expect(await firstCall.locator('dt').allTextContents()).toEqual(expect.arrayContaining(['task', 'prompt version', 'tokens in / out', 'cost', 'latency', 'attempt']));
    expect(await transcript.locator('a.temporal-link').getAttribute('href')).toContain('/workflows/verify%2F');
    expect(await transcript.textContent()).toContain('step 1 · ');

    await page.click('#compare-button');
    await page.locator('#compare .column').first().waitFor();
    expect((await page.locator('#compare .column').evaluateAll((columns) => columns.map((c) => c.getAttribute('data-method')))).sort()).toEqual(['mermaid', 'rag']);

    expect(await page.locator('#failures-body tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#failures-body').textContent()).toContain('IndexNotFound');
    expect(errors).toEqual([]);
  });

  it('lists failed verifications with their reason and error type, and verdicts reached after an invalid LLM answer', async () => {
    // A verdict whose transcript records an LLM answer that never parsed (as MERMAID's fallback leaves it).
    const { es, prefix } = harness;
    const verdicts = indexName(prefix, 'verdicts');
    const stored = await es.search<Record<string, unknown>>({ index: verdicts, size: 1, query: { bool: { must: [{ term: { runId } }, { term: { method: 'rag' } }] } } });
    const source = stored.hits.hits[0]!._source!;
    const invalidId = `${String(source.workflowId)}-invalid`;
    const transcript = source.transcript as { llmCalls: unknown[] };
    const invalid = { ...source, workflowId: invalidId, transcript: { ...transcript, llmCalls: [...transcript.llmCalls, { summary: 'rag · verdict · gpt-4o-mini', task: 'rag.verdict', error: 'LlmOutputInvalid: not JSON', invalid: true, rawExcerpt: '{"label": "SUPP <<truncated' }] } };
    await new VerdictStore(es, verdicts).store(invalid as unknown as Verdict);
    await es.indices.refresh({ index: verdicts });
    try {
      const { page, errors } = await open(explorer.url);
      expect(await settledRows(page)).toBe(VERDICTS + 1);
      expect(await page.locator('#run-stats').textContent()).toMatch(/ · 1 failed · 1 with invalid answers · /);
      expect(await filter(page, 'status', 'invalid')).toBe(1);
      expect(await page.locator('#claims-body tr td:nth-child(6)').textContent()).toMatch(/\(1 invalid\)$/);
      // Its transcript names the invalid answer and shows its start (invalid answers are never cached).
      await rowsOf(page).first().click();
      const invalidCall = page.locator('#transcript .llm-call').last();
      await invalidCall.waitFor();
      expect(await invalidCall.locator('summary').textContent()).toMatch(/rag · verdict · gpt-4o-mini — invalid answer$/);
      expect(await invalidCall.textContent()).toContain('{"label": "SUPP <<truncated');
      expect(await filter(page, 'status', 'failed')).toBe(1);
      expect(await page.locator('#claims-body tr td:nth-child(6)').textContent()).toBe('FAILED · IndexNotFound');
      expect(await page.locator('#claims-body tr td:nth-child(3)').textContent()).toBe('rag');
      await rowsOf(page).first().click();
      await page.locator('#transcript h2').waitFor();
      expect(await page.locator('#transcript dl').textContent()).toMatch(/^error typeIndexNotFoundreason.+workflow/s);
      expect(await filter(page, 'status', '')).toBe(VERDICTS + 1);
      expect(errors).toEqual([]);
    } finally {
      await es.delete({ index: verdicts, id: invalidId, refresh: true });
    }
  });

  it('explorer.html works offline from the embedded page and says how much it holds', async () => {
    const file = path.join(tmp, 'explorer.html');
    fs.writeFileSync(file, explorerHtml(await explorerSnapshot(data, 5)));
    const { page, errors } = await open(`file://${file}`);
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    expect(await page.textContent('#run-stats')).toContain('offline page: the first 5 verifications');
    expect(await settledRows(page)).toBe(5);
    expect(await filter(page, 'method', 'rag')).toBe(2);
    await rowsOf(page).first().click();
    await page.locator('#transcript .llm-call').first().waitFor();
    expect(await page.locator('#transcript .llm-call > summary').first().textContent()).toMatch(/rag · verdict rationale first · gpt-4o-mini/);
    expect(errors).toEqual([]);
  });

  it('opens the transcript a report links to (#claim=<workflow id>), served and offline', async () => {
    const [row] = (await data.claims(explorerFilterSchema.parse({ method: 'mermaid', size: 1 }))).rows;
    // A verification that took minutes (a real model's), to be said in human units.
    await harness.es.update({ index: indexName(harness.prefix, 'verdicts'), id: row!.workflowId, doc: { durationMs: 210_477 }, refresh: 'wait_for' });
    const link = `#claim=${encodeURIComponent(row!.workflowId)}`;
    const { page, errors } = await open(`${explorer.url}${link}`);
    await page.locator('#transcript h2').waitFor();
    expect(await page.textContent('#transcript h2')).toBe(`mermaid · gpt-4o-mini · ${row!.claimId}`);
    const file = path.join(tmp, 'explorer-linked.html');
    fs.writeFileSync(file, explorerHtml(await explorerSnapshot(data, VERDICTS)));
    const offline = await open(`file://${file}${link}`);
    await offline.page.locator('#transcript h2').waitFor();
    expect(await offline.page.textContent('#transcript h2')).toBe(`mermaid · gpt-4o-mini · ${row!.claimId}`);
    expect(await offline.page.locator('#transcript dd').allTextContents()).toContain('3 min 30 s');
    expect(await offline.page.locator(`#claims-body tr[data-workflow-id="${row!.workflowId}"] td`).allTextContents()).toContain('3 min 30 s');
    expect([...errors, ...offline.errors]).toEqual([]);
  });

  it('answers bad API parameters with 400 and one line', async () => {
    const response = await fetch(`${explorer.url}api/claims?size=100000`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/^bad parameters: size: /);
  });
});
