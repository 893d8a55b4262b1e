import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { ingestCorpus } from '../../src/corpus/ingest';
import { ExplorerData, startExplorerServer, type RunningExplorer } from '../../src/explorer';
import { renderHtml, renderMarkdown } from '../../src/report';
import { loadReviewedReport } from '../../src/review/load-reviewed-report';
import { ReviewStore } from '../../src/review/review-store';
import type { ReviewDocument } from '../../src/review/review-schema';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { chromiumPath } from '../support/chromium';
import { spawnCli } from '../support/cli-process';
import { openExplorerPage } from '../support/explorer-browser-page';
import { DEMO_CLAIMS, DEMO_CORPUS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const CLAIMS = 2;
const TOKEN = 'shared-explorer-token-0123456789';
/** A reviewer name and a note that would be markup if the page inserted them as HTML. */
const ALICE = 'alice <b id="injected-name">x</b>';
const NOTE = 'gold is wrong <img id="injected-note" src=x onerror="document.title=1">';

/**
 * Human review in the served explorer, in headless Chromium over a small simulator run (rag on two
 * demo claims) on real Temporal and Elasticsearch. "Beyond loopback" is modelled by binding
 * 127.0.0.2: every address but 127.0.0.1/localhost/::1 counts as shared and needs the token.
 */
describe('review in the claim explorer', () => {
  let harness: WorkerHarness;
  let browser: Browser;
  let local: RunningExplorer;
  let shared: RunningExplorer;
  let runId: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-review-'));

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 60_000 });
    harness = await startWorkerHarness('review', { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
    const { config, client, es, prefix, deps } = harness;
    await ingestCorpus({ client: es, index: webIndexName(prefix), file: DEMO_CORPUS, target: WEB_TARGET });
    const claimsFile = path.join(tmp, 'claims.jsonl');
    fs.writeFileSync(claimsFile, fs.readFileSync(DEMO_CLAIMS, 'utf8').trim().split('\n').slice(0, CLAIMS).join('\n'));
    runId = uniqueName('review-run');
    const run = runConfigSchema.parse({ run: runId, datasets: [{ name: 'demo', file: claimsFile, format: 'verity' }], methods: ['rag'], models: ['gpt-4o-mini'], concurrency: 2 });
    const input = buildSweepInput(config, run, tmp);
    await deps.runs.save(await buildRunManifest(config, run, input));
    const { handle } = await startSweep(client, config.temporal.taskQueue, input);
    expect(await handle.result()).toMatchObject({ done: CLAIMS, failed: 0 });
    await es.indices.refresh({ index: `${prefix}-*` });
    const data = new ExplorerData({ client: es, prefix, runId, workflowUrl: () => undefined });
    const reviews = { store: new ReviewStore(es, prefix), runId };
    local = await startExplorerServer(data, { port: 0, reviews });
    shared = await startExplorerServer(data, { port: 0, host: '127.0.0.2', token: TOKEN, reviews });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await local?.close();
    await shared?.close();
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Opens the review queue as `reviewer` and returns the workflow id of its first item. */
  async function startQueue(page: Page, reviewer: string): Promise<string> {
    await page.fill('#reviewer-name', reviewer);
    await page.dispatchEvent('#reviewer-name', 'change');
    await page.click('#review-start');
    await page.waitForSelector('#review-item[data-workflow-id]');
    await page.waitForSelector('#review-status[data-state="loaded"]');
    return (await page.getAttribute('#review-item', 'data-workflow-id'))!;
  }

  async function saveWithKey(page: Page): Promise<void> {
    await page.keyboard.press('s');
    await page.waitForSelector('#review-status[data-state="saved"]');
  }

  const reviewsOf = async (workflowId: string): Promise<ReviewDocument[]> => (await (await fetch(`${local.url}api/reviews?workflowId=${encodeURIComponent(workflowId)}`)).json()) as ReviewDocument[];

  it('a review made with the keyboard survives a reload, is shown as text, and the report sets its disputed gold label aside', async () => {
    // Before any review the reviews index does not exist: the report is the plain one.
    expect((await loadReviewedReport(harness.es, harness.prefix, runId)).reviewed).toBeUndefined();
    const { page, errors } = await openExplorerPage(browser, local.url);
    const workflowId = await startQueue(page, ALICE);
    await page.keyboard.press('w');
    await page.keyboard.press('d');
    await page.keyboard.type('the dataset mislabels this claim');
    await page.keyboard.press('Escape');
    await page.keyboard.press('n');
    await page.keyboard.type(NOTE);
    await page.keyboard.press('Escape');
    await saveWithKey(page);

    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.inputValue('#reviewer-name')).toBe(ALICE);
    expect(await startQueue(page, ALICE)).toBe(workflowId);
    expect(await page.isChecked('#mark-wrong')).toBe(true);
    expect(await page.isChecked('#review-disputed')).toBe(true);
    expect(await page.inputValue('#review-reason')).toBe('the dataset mislabels this claim');
    expect(await page.inputValue('#review-note')).toBe(NOTE);
    expect(await page.textContent('#review-list')).toContain(ALICE);
    expect(await page.textContent('#review-list')).toContain(NOTE);
    expect(await page.locator('#injected-name, #injected-note').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();

    const report = await loadReviewedReport(harness.es, harness.prefix, runId);
    const disputedClaim = report.claims.find((row) => row.workflowId === workflowId)!;
    expect(report.reviewed?.disputedClaims).toEqual([{ dataset: 'demo', claimId: disputedClaim.claimId, reasons: [{ reviewer: ALICE, reason: 'the dataset mislabels this claim' }] }]);
    expect(report.groups[0]!.counts.scored).toBe(CLAIMS);
    expect(report.reviewed?.groups[0]!.counts.scored).toBe(CLAIMS - 1);
    expect(renderMarkdown(report)).toContain('### With disputed gold labels set aside');
    expect(renderHtml(report)).toContain('id="reviewed"');
    expect(renderHtml(report)).not.toContain('<b id="injected-name">');
  });

  it("a second reviewer's review of the same verification leaves the first one's in place", async () => {
    const { page } = await openExplorerPage(browser, local.url);
    const workflowId = await startQueue(page, 'bob');
    expect(await page.isChecked('#mark-none')).toBe(true);
    await page.keyboard.press('r');
    await saveWithKey(page);
    expect(await page.locator('#review-list li').count()).toBe(2);
    await page.close();

    const reviews = await reviewsOf(workflowId);
    expect(reviews.map((r) => [r.reviewer, r.verdictMark, r.goldDisputed]).sort()).toEqual([
      [ALICE, 'wrong', true],
      ['bob', 'right', false],
    ]);

    const exported = await spawnCli(['reviews', 'export', runId, '--format', 'csv'], { ES_URL: harness.config.elasticsearch.url, ES_INDEX_PREFIX: harness.prefix }).exited;
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout.trim().split('\n');
    expect(lines[0]).toBe('runId,workflowId,dataset,claimId,method,model,predicted,gold,reviewer,reviewedAt,verdictMark,goldDisputed,disputeReason,note');
    expect(lines.filter((line) => line.includes(workflowId)).map((line) => line.split(',')[8]).sort()).toEqual([`"${ALICE.replace(/"/g, '""')}"`, 'bob']);
  });

  it('refuses writes without the token header (and, beyond loopback, reads without the token) with 403', async () => {
    const body = JSON.stringify({ workflowId: 'any', reviewer: 'mallory', verdictMark: 'right', goldDisputed: false });
    const post = (url: string, headers: Record<string, string>) => fetch(`${url}api/review`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post(local.url, {})).status).toBe(403);
    expect((await post(shared.url, {})).status).toBe(403);
    expect((await post(shared.url, { cookie: `verity_token=${TOKEN}` })).status).toBe(403);
    expect((await post(shared.url, { 'x-verity-token': TOKEN, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(shared.url, { 'x-verity-token': TOKEN })).status).toBe(404);
    expect((await fetch(`${shared.url}api/summary`)).status).toBe(403);
    expect((await fetch(shared.url)).status).toBe(403);
    expect((await fetch(`${shared.url}api/summary`, { headers: { 'x-verity-token': TOKEN } })).status).toBe(200);
    expect((await fetch(`${local.url}api/summary`)).status).toBe(200);

    const opened = await fetch(`${shared.url}?token=${TOKEN}`, { redirect: 'manual' });
    expect([opened.status, opened.headers.get('location')]).toEqual([303, '/']);
    expect(opened.headers.get('set-cookie')).toMatch(/^verity_token=.*; HttpOnly; SameSite=Strict; Path=\/$/);
    const { page, errors } = await openExplorerPage(browser, `${shared.url}?token=${TOKEN}`);
    expect(page.url()).toBe(shared.url);
    const workflowId = await startQueue(page, 'carol');
    await page.keyboard.press('u');
    await saveWithKey(page);
    expect(errors).toEqual([]);
    await page.close();
    expect((await reviewsOf(workflowId)).map((r) => r.reviewer)).toContain('carol');
  });

  it("verity report's offline explorer.html shows each verification's reviews read-only, as text", async () => {
    const reviews = await new ReviewStore(harness.es, harness.prefix).forRun(runId);
    const reviewed = reviews.find((r) => r.reviewer === ALICE)!;
    const dir = path.join(tmp, 'report');
    const written = await spawnCli(['report', runId, '--out', dir], { ES_URL: harness.config.elasticsearch.url, ES_INDEX_PREFIX: harness.prefix }).exited;
    expect(written.code, written.stderr).toBe(0);
    const { page, errors } = await openExplorerPage(browser, `file://${path.join(dir, 'explorer.html')}#claim=${encodeURIComponent(reviewed.workflowId)}`);
    await page.locator('#offline-reviews').waitFor();
    const expected = reviews.filter((r) => r.workflowId === reviewed.workflowId).map((r) => r.reviewer);
    expect(await page.locator('#offline-reviews .review').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-reviewer')))).toEqual(expected);
    expect(expected).toEqual(expect.arrayContaining([ALICE, 'bob']));
    const alice = page.locator('#offline-reviews .review').nth(expected.indexOf(ALICE));
    expect(await alice.textContent()).toContain('verdict: wrong · gold label disputed: the dataset mislabels this claim');
    expect(await alice.locator('pre').textContent()).toBe(NOTE);
    expect(await page.locator('#injected-name, #injected-note').count()).toBe(0);
    // Read-only: the offline page has no review queue to write with.
    expect(await page.locator('#review-start').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
