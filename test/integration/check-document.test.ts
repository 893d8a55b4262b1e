import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildVerifyInput, workflowIdOf } from '../../src/client/start-verification';
import type { DocumentVerdict } from '../../src/shared/check/document';
import { runCliInProcess } from '../support/cli-in-process';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { expectTaskQueueReplays } from '../support/workflow-history';

/** Eight sentences: facts (one with two claims, one with a pronoun), an opinion, a question and a repeat. */
const ARTICLE = [
  'The Eiffel Tower is a wrought-iron lattice tower in Paris.',
  'It was completed in 1889; it is about 330 metres tall.',
  'I think the Eiffel Tower is the most beautiful building in Paris.',
  'Marie Curie was born in Warsaw in 1867.',
  'Who designed the tower?',
  'Mount Everest is the highest mountain on Earth.',
  'The Amazon River carries more water than any other river.',
  'The Eiffel Tower is a wrought-iron lattice tower in Paris.',
].join(' ');

/** The CLI in this process with the harness's configuration; stdout captured too. */
async function check(harness: WorkerHarness, args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    const result = await runCliInProcess(['check', ...args, '--no-embedded-worker'], harness.env);
    return { ...result, stdout };
  } finally {
    spy.mockRestore();
  }
}

describe('verity check on real Temporal and Elasticsearch', () => {
  let harness: WorkerHarness;
  let dir: string;
  const file = (name: string, content: string | Uint8Array) => {
    const at = path.join(dir, name);
    fs.writeFileSync(at, content);
    return at;
  };
  const verdictCount = async () => {
    await harness.es.indices.refresh({ index: `${harness.prefix}-verdicts` });
    return (await harness.es.count({ index: `${harness.prefix}-verdicts` })).count;
  };
  let first: DocumentVerdict;

  beforeAll(async () => {
    harness = await startWorkerHarness('check');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-check-'));
  });

  afterAll(async () => {
    await harness?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('extracts self-contained claims with their sentence spans, verifies the check-worthy ones and scores the document', async () => {
    const result = await check(harness, [file('article.txt', ARTICLE), '--json']);
    expect(result.stderr).not.toMatch(/^verity:/m);
    expect(result.code).toBe(0);
    first = JSON.parse(result.stdout) as DocumentVerdict;
    expect(first.sentenceCount).toBe(8);
    expect(first.claims.length).toBe(9);
    for (const claim of first.claims) expect(ARTICLE.slice(claim.span.start, claim.span.end)).toBe(claim.sentenceText);

    const completed = first.claims.find((c) => c.extracted === 'It was completed in 1889.');
    expect(completed).toMatchObject({ claim: 'The Eiffel Tower was completed in 1889.', sentence: 1 });
    expect(completed!.label).toMatch(/^(SUPPORTED|REFUTED|NEI)$/);
    expect(completed!.workflowId).toMatch(/^verify\/adhoc\//);

    expect(first.claims.find((c) => c.sentence === 2)).toMatchObject({ skipped: 'opinion' });
    expect(first.claims.find((c) => c.sentence === 4)).toMatchObject({ skipped: 'question' });
    expect(first.claims.find((c) => c.sentence === 7)).toMatchObject({ skipped: 'duplicate', duplicateOf: 0, label: first.claims[0]!.label });
    const verified = first.claims.filter((c) => !c.skipped);
    expect(verified).toHaveLength(6);
    for (const claim of verified) expect(claim.evidenceIds!.length).toBeGreaterThan(0);

    const { scores } = first;
    expect(scores.supported + scores.notSupported + scores.failed).toBe(6);
    expect(scores.skipped).toBe(3);
    expect(scores.k).toBe(64);
    expect(scores.precision).toBe(scores.supported / (scores.supported + scores.notSupported));

    const stored = await harness.es.get<DocumentVerdict>({ index: `${harness.prefix}-documents`, id: first.documentId });
    expect(stored._source?.claims).toHaveLength(9);
    expect(await verdictCount()).toBe(6);
    // 8 extractions, then a decontextualisation and a check-worthiness answer per extracted claim; the
    // repeated last sentence asks its 3 steps exactly as the first did, so they come from the cache.
    expect(first.stepUsage).toMatchObject({ llmCalls: 8 + 2 * 9, cachedLlmCalls: 3, invalidAnswers: 0 });
    expect(first.stepUsage!.totalTokens).toBeGreaterThan(0);
  });

  it('gives a claim the same verification as `verity verify` would, so either reuses the other', () => {
    const claim = first.claims.find((c) => c.extracted === 'It was completed in 1889.')!;
    expect(workflowIdOf(buildVerifyInput(harness.config, { claim: claim.claim, method: 'rag' }))).toBe(claim.workflowId);
  });

  it('checks the same text again without a single new LLM call, and a longer text reusing every verification', async () => {
    // The CLI's reachability probe (GET /models) aside: chat completions and embeddings are the paid calls.
    const paidCalls = () => harness.simulator.requests().filter((r) => r.method === 'POST').length;
    const before = paidCalls();
    const again = await check(harness, [file('again.txt', ARTICLE), '--json']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/attached to check\//);
    expect((JSON.parse(again.stdout) as DocumentVerdict).claims).toEqual(first.claims);
    expect(paidCalls()).toBe(before);

    const longer = await check(harness, [file('longer.txt', `${ARTICLE} Jupiter is the largest planet in the Solar System.`), '--json']);
    expect(longer.code).toBe(0);
    const verdict = JSON.parse(longer.stdout) as DocumentVerdict;
    expect(verdict.documentId).not.toBe(first.documentId);
    for (const claim of first.claims) expect(verdict.claims[claim.position]?.workflowId).toBe(claim.workflowId);
    // Only the new sentence's claim was verified. Its document steps are asked again: each sentence's
    // context (the text around it) changed.
    expect(await verdictCount()).toBe(7);
    expect(verdict.stepUsage).toMatchObject({ llmCalls: first.stepUsage!.llmCalls + 3 });
  });

  it('reads the text from stdin with -, as the same document', async () => {
    const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')!;
    Object.defineProperty(process, 'stdin', { value: Readable.from([Buffer.from(ARTICLE.slice(0, 60)), Buffer.from(ARTICLE.slice(60))]), configurable: true });
    try {
      const piped = await check(harness, ['-', '--json']);
      expect(piped.code).toBe(0);
      expect((JSON.parse(piped.stdout) as DocumentVerdict).documentId).toBe(first.documentId);
    } finally {
      Object.defineProperty(process, 'stdin', stdin);
    }
  });

  it('prints one claim per line with its sentence, then the scores', async () => {
    const result = await check(harness, [file('text.txt', ARTICLE), '--f1-k', '2']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^#4 SKIPPED \(opinion\) {2}I think the Eiffel Tower is the most beautiful building in Paris\.$/m);
    expect(result.stdout).toMatch(/^ {5}sentence 2 \[\d+-\d+\]: It was completed in 1889; it is about 330 metres tall\.$/m);
    expect(result.stdout).toMatch(/^precision (\d\.\d{3}|n\/a) {2}recall@2 \d\.\d{3} {2}F1@2 \d\.\d{3}$/m);
  });

  it('refuses bad input in one line each, before starting anything', async () => {
    const cases: [string, string | Uint8Array, RegExp][] = [
      ['empty.txt', ' \n', /empty\.txt is empty: there is no text to check/],
      ['binary.bin', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), /binary\.bin looks binary \(a NUL byte at offset 4\)/],
      ['latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b]), /latin1\.txt is not valid UTF-8 \(first bad byte at offset 3\)/],
      ['huge.txt', 'a'.repeat(200 * 1024 + 1), /huge\.txt has 204,801 bytes; at most 204,800 \(200 KB\)/],
    ];
    for (const [name, content, message] of cases) {
      const result = await check(harness, [file(name, content)]);
      expect(result.code, name).toBe(2);
      expect(result.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(result.stderr, name).toMatch(message);
    }
    const missing = await check(harness, [path.join(dir, 'missing.txt')]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toMatch(/missing\.txt: no such file/);
  });

  it('completes a document whose claims cross the continue-as-new threshold', async () => {
    const text = ['Apollo 11 landed on the Moon in 1969.', 'Penicillin was discovered in 1928; Alexander Fleming discovered it.', 'Isaac Newton published the Principia in 1687.', 'Jupiter is a gas giant.', 'Python was created by Guido van Rossum.', 'Albert Einstein was born in 1879.'].join(' ');
    const result = await check(harness, [file('long.txt', text), '--json', '--claims-per-run', '2', '--window', '2']);
    expect(result.stderr).not.toMatch(/^verity:/m);
    expect(result.code).toBe(0);
    const verdict = JSON.parse(result.stdout) as DocumentVerdict;
    expect(verdict.claims).toHaveLength(7);
    expect(verdict.runs).toBeGreaterThanOrEqual(4);
    expect(verdict.claims.every((c) => c.label !== undefined || c.failure !== undefined)).toBe(true);
    expect(verdict.scores.supported + verdict.scores.notSupported + verdict.scores.failed).toBe(7);
  });

  it('sets an over-long sentence aside as unreadable and checks the sentences around it', async () => {
    // About 80 KB with no full stop: more than the simulator's 16,384-token window in any prompt that quotes it.
    const runOn = `The committee met again ${'and the committee talked about the bridge '.repeat(1_900)}until nightfall.`;
    const text = ['Marie Curie was born in Warsaw in 1867.', runOn, 'Mount Everest is the highest mountain on Earth.'].join(' ');
    const result = await check(harness, [file('run-on.txt', text), '--json']);
    expect(result.stderr).not.toMatch(/^verity:/m);
    expect(result.code).toBe(0);
    const verdict = JSON.parse(result.stdout) as DocumentVerdict;
    expect(verdict.sentenceCount).toBe(3);
    expect(verdict.unreadableSentences).toEqual([1]);
    expect(verdict.claims.map((c) => c.sentence)).toEqual([0, 2]);
    for (const claim of verdict.claims) expect(claim.label ?? claim.failure).toBeDefined();
  });

  it('every workflow this file ran replays with the current workflow code', async () => {
    expect(await expectTaskQueueReplays(harness.client, harness.config.temporal.taskQueue)).toBeGreaterThan(0);
  });
});
