import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openExplorerPage } from '../support/explorer-browser-page';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocumentStore } from '../../src/check/document-store';
import { splitSentences } from '../../src/check/sentences';
import { indexName } from '../../src/es/indices';
import { ExplorerData, explorerHtml, explorerSnapshot, startExplorerServer, type ExplorerDocumentRow, type RunningExplorer } from '../../src/explorer';
import type { DocumentClaimVerdict, DocumentVerdict } from '../../src/shared/check/document';
import { documentScores } from '../../src/shared/check/document-scores';
import { chromiumPath } from '../support/chromium';
import { runCliInProcess } from '../support/cli-in-process';
import { uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/** Bounded waits for a loaded machine; nothing waits for a fixed time. */
const SWEEP_RUN = 'docs-sweep';

/** Hostile markup inside sentences and between them, white space and a blank line to keep. */
const HOSTILE_TEXT = [
  'The Eiffel Tower is in Paris.  The Moon is made of cheese.',
  '<script>window.__pwned = 1</script> Bob is tall.\tI love it.',
  '',
  '<img src=x onerror="window.__pwned = 2"> Zeta was founded in 1900.   The Eiffel Tower is in Paris.',
  'A closing line without claims.',
].join('\n');

type ClaimSketch = Pick<DocumentClaimVerdict, 'label' | 'skipped' | 'duplicateOf' | 'failure' | 'workflowId'> & { sentence: number };

/** A document verdict as the check stores it: spans from the same sentence splitter, scores from the same function. */
function documentVerdict(documentId: string, text: string | undefined, sketches: ClaimSketch[], extra: Partial<DocumentVerdict> = {}): DocumentVerdict {
  const sentences = splitSentences(text ?? HOSTILE_TEXT);
  const claims: DocumentClaimVerdict[] = sketches.map((sketch, position) => {
    const sentence = sentences[sketch.sentence]!;
    return { position, span: { start: sentence.start, end: sentence.end }, sentenceText: sentence.text, extracted: `extracted ${position}`, claim: `claim ${position} of ${sentence.text}`, ...sketch };
  });
  return {
    schemaVersion: 1,
    documentId,
    source: `${documentId}.txt`,
    ...(text !== undefined ? { text } : {}),
    method: 'rag',
    model: 'gpt-4o-mini',
    checkPrompts: { 'check.extract': '1' },
    sentenceCount: sentences.length,
    unreadableSentences: [],
    claims,
    scores: documentScores(claims, 4),
    stepUsage: { llmCalls: 12, cachedLlmCalls: 2, invalidAnswers: 1, promptTokens: 100, completionTokens: 20, totalTokens: 120, costUsd: 0.0012 },
    runs: 1,
    finishedAt: '2026-11-20T10:00:00.000Z',
    ...extra,
  };
}

/** Sentences 0–6 of HOSTILE_TEXT: supported, refuted, NEI (after a script tag), skipped, failed (after an img tag), a repeat of claim #1; the last has no claim. */
const HOSTILE_CLAIMS: ClaimSketch[] = [
  { sentence: 0, label: 'SUPPORTED', workflowId: 'verify/adhoc/w0' },
  { sentence: 1, label: 'REFUTED', workflowId: 'verify/adhoc/w1' },
  { sentence: 2, label: 'NEI', workflowId: 'verify/adhoc/w2' },
  { sentence: 2, label: 'SUPPORTED', workflowId: 'verify/adhoc/w3' },
  { sentence: 3, skipped: 'opinion' },
  { sentence: 4, workflowId: 'verify/adhoc/w5', failure: 'LlmOutputInvalid: no answer' },
  { sentence: 5, skipped: 'duplicate', duplicateOf: 0, label: 'SUPPORTED', workflowId: 'verify/adhoc/w0' },
];

describe('checked documents in the explorer (real Elasticsearch, Temporal and Chromium)', () => {
  let harness: WorkerHarness;
  let browser: Browser;
  let adhoc: RunningExplorer;
  let adhocData: ExplorerData;
  let sweep: RunningExplorer;
  let store: DocumentStore;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-explorer-docs-'));
  const explorerOf = (prefix: string, runId: string) => new ExplorerData({ client: harness.es, prefix, runId, workflowUrl: () => undefined });

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 60_000 });
  });

  beforeAll(async () => {
    harness = await startWorkerHarness('explorer-docs');
    store = new DocumentStore(harness.es, indexName(harness.prefix, 'documents'));
    // Run adhoc: the hostile document (no run id, as `verity check` stores it), one stored before the text was kept (run id "adhoc").
    await store.store(documentVerdict('hostile', HOSTILE_TEXT, HOSTILE_CLAIMS, { finishedAt: '2026-11-20T12:00:00.000Z' }));
    await store.store(documentVerdict('legacy', undefined, [{ sentence: 0, label: 'SUPPORTED' }, { sentence: 1, label: 'REFUTED' }], { runId: 'adhoc', finishedAt: '2026-11-20T11:00:00.000Z' }));
    // A sweep's three documents, a minute apart.
    for (const minute of [1, 2, 3]) {
      await store.store(documentVerdict(`sweep-${minute}`, HOSTILE_TEXT, [{ sentence: 0, label: 'SUPPORTED' }], { runId: SWEEP_RUN, finishedAt: `2026-11-20T10:0${minute}:00.000Z` }));
    }
    adhocData = explorerOf(harness.prefix, 'adhoc');
    adhoc = await startExplorerServer(adhocData, { port: 0 });
    sweep = await startExplorerServer(explorerOf(harness.prefix, SWEEP_RUN), { port: 0 });
  });

  afterAll(async () => {
    await browser?.close();
    await adhoc?.close();
    await sweep?.close();
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const getJson = async <T>(explorer: RunningExplorer, query: string): Promise<T> => {
    const response = await fetch(`${explorer.url}${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as T;
  };

  it("lists a run's documents newest first, pages them, and answers one whole", async () => {
    const page = await getJson<{ total: number; documents: ExplorerDocumentRow[] }>(sweep, 'api/documents');
    expect(page.total).toBe(3);
    expect(page.documents.map((d) => d.documentId)).toEqual(['sweep-3', 'sweep-2', 'sweep-1']);
    expect(page.documents[0]).toMatchObject({ source: 'sweep-3.txt', method: 'rag', model: 'gpt-4o-mini', claims: 1, finishedAt: '2026-11-20T10:03:00.000Z', scores: { supported: 1, precision: 1, k: 4 } });
    expect(page.documents[0]).not.toHaveProperty('text');
    expect(page.documents[0]).not.toHaveProperty('checkPrompts');
    const second = await getJson<{ total: number; documents: ExplorerDocumentRow[] }>(sweep, 'api/documents?from=1&size=1');
    expect(second).toMatchObject({ total: 3, documents: [{ documentId: 'sweep-2' }] });

    // Run adhoc: documents without a run id and with run id "adhoc", not the sweep's.
    const adhocPage = await getJson<{ total: number; documents: ExplorerDocumentRow[] }>(adhoc, 'api/documents');
    expect(adhocPage.documents.map((d) => d.documentId)).toEqual(['hostile', 'legacy']);
    expect(adhocPage.documents[0]).toMatchObject({ claims: 7, scores: { supported: 2, notSupported: 2, nei: 1, skipped: 2, failed: 1, precision: 0.5 } });

    const whole = await getJson<DocumentVerdict>(adhoc, 'api/document?documentId=hostile');
    expect(whole.text).toBe(HOSTILE_TEXT);
    expect(whole.claims).toHaveLength(HOSTILE_CLAIMS.length);
    // Another run's document is not this run's.
    expect(await getJson<null>(adhoc, 'api/document?documentId=sweep-1')).toBeNull();
    expect(await getJson<null>(adhoc, 'api/document?documentId=nothing')).toBeNull();
  });

  it('answers bad parameters with 400 and one line', async () => {
    for (const [query, message] of [
      ['api/documents?size=100000', /^bad parameters: size: /],
      ['api/documents?from=-1', /^bad parameters: from: /],
      ['api/documents?size=x', /^bad parameters: size: /],
      ['api/document', /^bad parameters: documentId: /],
      ['api/document?documentId=', /^bad parameters: documentId: /],
    ] as const) {
      const response = await fetch(`${adhoc.url}${query}`);
      expect(response.status, query).toBe(400);
      const body = await response.text();
      expect(body, query).toMatch(message);
      expect(body.split('\n'), query).toHaveLength(1);
    }
  });

  it('answers an empty list while no document has been checked (no documents index yet)', async () => {
    const empty = await startExplorerServer(explorerOf(uniqueName('explorer-docs-none'), 'adhoc'), { port: 0 });
    try {
      expect(await getJson(empty, 'api/documents')).toEqual({ total: 0, documents: [] });
      expect(await getJson(empty, 'api/document?documentId=hostile')).toBeNull();
    } finally {
      await empty.close();
    }
  });

  const open = (url: string) => openExplorerPage(browser, url);

  const sentence = (page: Page, index: number) => page.locator(`#document .sentence[data-sentence="${index}"]`);

  it('renders a document with each sentence highlighted by its claims, lists a sentence\'s claims, and keeps hostile text as text', async () => {
    const { page, errors } = await open(adhoc.url);
    expect(await page.textContent('#documents-title')).toBe('Documents (2)');
    await page.click('#documents-body tr[data-document-id="hostile"]');
    await page.locator('#document #document-text').waitFor();

    // The text whole, white space and markup as they are; nothing of it became an element.
    expect(await page.locator('#document-text').evaluate((node) => node.textContent)).toBe(HOSTILE_TEXT);
    expect(await page.locator('#document script, #document img').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await sentence(page, 2).textContent()).toBe('<script>window.__pwned = 1</script> Bob is tall.');

    const expected: [number, string, string][] = [
      [0, 'SUPPORTED', 'sentence s-supported'],
      [1, 'REFUTED', 'sentence s-refuted'],
      [2, 'SUPPORTED NEI', 'sentence s-nei'],
      [3, 'SKIPPED', 'sentence s-skipped'],
      [4, 'FAILED', 'sentence s-failed has-failed'],
      [5, 'SUPPORTED', 'sentence s-supported'],
    ];
    for (const [index, labels, classes] of expected) {
      expect(await sentence(page, index).getAttribute('data-labels'), `sentence ${index}`).toBe(labels);
      expect(await sentence(page, index).getAttribute('class'), `sentence ${index}`).toBe(classes);
    }
    // The closing line has no claim: plain text, not a sentence element.
    expect(await page.locator('#document .sentence[data-sentence]').count()).toBe(6);

    const scores = await page.locator('#document-scores').textContent();
    expect(scores).toContain('precision0.500');
    expect(scores).toContain('F1@4');
    expect(scores).toContain('not supported2 (1 NEI)');
    expect(scores).toContain('12 LLM calls (2 from cache, 1 invalid)');

    await sentence(page, 2).click();
    const claims = page.locator('#document-claims li.document-claim');
    expect(await claims.count()).toBe(2);
    expect(await claims.nth(0).locator('.label').textContent()).toBe('NEI');
    expect(await claims.nth(0).locator('.claim-pair').textContent()).toBe('extracted 2 → claim 2 of <script>window.__pwned = 1</script> Bob is tall.');
    expect(await claims.nth(0).locator('button.claim-transcript').count()).toBe(1);
    expect(await sentence(page, 2).getAttribute('class')).toContain('selected');

    await sentence(page, 3).click();
    expect(await claims.locator('.label').allTextContents()).toEqual(['skipped: opinion']);
    expect(await claims.locator('button').count()).toBe(0);
    await sentence(page, 4).click();
    expect(await claims.locator('.failure').textContent()).toBe('failure: LlmOutputInvalid: no answer');
    await sentence(page, 5).click();
    expect(await claims.locator('.label').allTextContents()).toEqual(['same as claim #1 · SUPPORTED']);

    expect(page.url()).toMatch(/#document=hostile$/);
    expect(errors).toEqual([]);
  });

  it('opens a document from #document=<id>, and lists the sentences of a verdict stored without its text', async () => {
    const { page, errors } = await open(`${adhoc.url}#document=legacy`);
    await page.locator('#document[data-document-id="legacy"] .document-sentences').waitFor();
    expect(await page.textContent('#document .no-text')).toMatch(/stored before the document text was kept/);
    expect(await page.locator('#document .sentence').evaluateAll((nodes) => nodes.map((n) => [n.textContent, n.getAttribute('data-labels')]))).toEqual([
      ['The Eiffel Tower is in Paris.', 'SUPPORTED'],
      ['The Moon is made of cheese.', 'REFUTED'],
    ]);
    // Changing the hash opens the other document.
    await page.evaluate("location.hash = '#document=hostile'");
    await page.locator('#document[data-document-id="hostile"] #document-text').waitFor();
    expect(errors).toEqual([]);
  });

  it('explorer.html holds the newest documents offline and says that verity view has the rest', async () => {
    const file = path.join(tmp, 'explorer.html');
    fs.writeFileSync(file, explorerHtml(await explorerSnapshot(adhocData, 5, 1)));
    const { page, errors } = await open(`file://${file}#document=hostile`);
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    await page.locator('#document[data-document-id="hostile"] #document-text').waitFor();
    expect(await sentence(page, 1).getAttribute('data-labels')).toBe('REFUTED');
    expect(await page.textContent('#documents-title')).toBe('Documents (2)');
    expect(await page.textContent('#documents-info')).toBe('1–1 of 1 (offline page: the newest 1 of 2; verity view serves them all)');
    await page.evaluate("location.hash = '#document=legacy'");
    await page.locator('#document[data-document-id="legacy"] p.error').waitFor();
    expect(await page.textContent('#document p.error')).toBe('no checked document legacy in this run on this offline page');
    expect(errors).toEqual([]);
  });

  it('`verity check` keeps the text, prints where to see it, and the explorer of run adhoc shows it with its claims\' transcripts', async () => {
    const text = 'The Eiffel Tower is a wrought-iron lattice tower in Paris.\n\nI think the Eiffel Tower is the most beautiful building in Paris.';
    const file = path.join(tmp, 'short.txt');
    fs.writeFileSync(file, text);
    let stdout = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
    let result: { code: number; stderr: string };
    try {
      result = await runCliInProcess(['check', file, '--json', '--no-embedded-worker'], harness.env);
    } finally {
      spy.mockRestore();
    }
    expect(result.stderr).not.toMatch(/^verity:/m);
    expect(result.code).toBe(0);
    const verdict = JSON.parse(stdout) as DocumentVerdict;
    expect(verdict.text).toBe(text);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(`view it with its sentences highlighted: verity view adhoc, then open http://127.0.0.1:8800/#document=${verdict.documentId}`);
    const verified = verdict.claims.find((c) => c.sentence === 0 && c.workflowId);
    expect(verified?.label).toMatch(/^(SUPPORTED|REFUTED|NEI)$/);
    expect(verdict.claims.find((c) => c.sentence === 1)).toMatchObject({ skipped: 'opinion' });

    const { page, errors } = await open(`${adhoc.url}#document=${verdict.documentId}`);
    await page.locator(`#document[data-document-id="${verdict.documentId}"] #document-text`).waitFor();
    expect(await page.locator('#document-text').evaluate((node) => node.textContent)).toBe(text);
    expect(await sentence(page, 0).getAttribute('data-labels')).toBe(verified!.label);
    expect(await sentence(page, 1).getAttribute('data-labels')).toBe('SKIPPED');
    expect(await page.textContent('#documents-title')).toBe('Documents (3)');

    await sentence(page, 0).click();
    await page.locator('#document-claims button.claim-transcript').first().click();
    await page.locator('#transcript h2').waitFor();
    expect(await page.textContent('#transcript p.claim')).toBe(verified!.claim);
    expect(await page.textContent('#transcript .label.big')).toBe(verified!.label);
    expect(errors).toEqual([]);
  });
});
