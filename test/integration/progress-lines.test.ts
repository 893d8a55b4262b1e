import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { createEsClient } from '../../src/es/client';
import { projectRoot } from '../../src/project-root';
import { DEMO_CLAIMS, DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/** Runs `verity <args>` (or another script of the project) from source with stdout and stderr redirected to one file, as `verity … > log 2>&1` does. */
async function runToFile(args: string[], env: Record<string, string>, file: string, timeoutMs: number, script = path.join('test', 'support', 'run-cli.ts')): Promise<{ code: number | null; log: string; elapsedMs: number }> {
  const base = { ...process.env };
  delete base.OPENAI_BASE_URL;
  delete base.OPENAI_API_KEY;
  const fd = fs.openSync(file, 'w');
  const started = Date.now();
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot(), script), ...args], {
      cwd: projectRoot(),
      env: { ...base, VERITY_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', fd, fd],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    return { code, log: fs.readFileSync(file, 'utf8'), elapsedMs: Date.now() - started };
  } finally {
    fs.closeSync(fd);
  }
}

/** Progress lines of a command labelled `label`, in order. */
function progressLines(log: string, label: string): string[] {
  return log.split('\n').filter((line) => line.startsWith(`${label}: `));
}

describe('progress when the output is not a terminal', () => {
  const prefix = uniqueName('progress');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-progress-'));
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, VERITY_PROGRESS_INTERVAL_S: '1' };
  let es: EsClient;

  beforeAll(() => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a sweep redirected to a file writes progress lines at a bounded interval while it runs', async () => {
    const runId = uniqueName('progress-run');
    const config = path.join(dir, 'sweep.yaml');
    fs.writeFileSync(config, YAML.stringify({ run: runId, datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity' }], methods: ['llm-only'], models: ['gpt-4o-mini'], concurrency: 2 }));
    // Every LLM answer takes 1.5 s: five rounds of two claims, several seconds of sweep.
    const { code, log, elapsedMs } = await runToFile(['sweep', 'run', config], { ...env, VERITY_SIM_LATENCY_MS: '1500' }, path.join(dir, 'sweep.log'), 600_000);
    expect(code, log).toBe(0);
    const lines = progressLines(log, `sweep ${runId}`);
    const shape = /^sweep \S+: (\d+)\/10 verifications \(\d+%\) · (rate –|[\d.]+\/(s|min)) · ETA (–|[\d.]+ (ms|s|min|h)( \d+ (s|min))?) · (\d+) failed · \$\d+\.\d{4} so far · \d+ running(, completed)?$/;
    for (const line of lines) expect(line).toMatch(shape);
    const done = lines.map((line) => Number(shape.exec(line)![1]));
    // Lines while it ran, not only at the end, and the last one says it finished.
    expect(done.filter((n) => n < 10).length, log).toBeGreaterThanOrEqual(2);
    expect(lines.at(-1)).toMatch(/: 10\/10 verifications \(100%\) · .* · ETA 0 s · 0 failed · .* · 0 running, completed$/);
    expect([...done].sort((a, b) => a - b)).toEqual(done);
    // Bounded: about one a second (the interval), plus the first and the last; never one per verification poll.
    expect(lines.length).toBeLessThanOrEqual(Math.ceil(elapsedMs / 1000) + 2);
    // The bar's escape sequences never reach a file.
    expect(log).not.toContain('\u001b[');
  }, 600_000);

  it('ingest redirected to a file writes its first and last progress lines', async () => {
    const { code, log } = await runToFile(['ingest', 'wiki', DEMO_CORPUS], env, path.join(dir, 'ingest.log'), 300_000);
    expect(code, log).toBe(0);
    const lines = progressLines(log, `ingest ${path.basename(DEMO_CORPUS)}`);
    expect(lines.length, log).toBeGreaterThanOrEqual(2);
    const size = (fs.statSync(DEMO_CORPUS).size / 1e6).toFixed(1);
    expect(lines.at(-1)).toMatch(new RegExp(`^ingest corpus\\.jsonl: ${size.replace('.', '\\.')}/${size.replace('.', '\\.')} MB \\(100%\\) · .* · ETA 0 s · 0 failed · \\d+ documents, \\d+ passages$`));
    expect(log).not.toContain('\u001b[');
  }, 300_000);

  it('check redirected to a file writes progress lines for extraction and verification', async () => {
    const document = path.join(dir, 'document.txt');
    fs.writeFileSync(document, ['The Eiffel Tower was completed in 1889.', 'The Amazon River carries more water than any other river.', 'Mount Everest is the highest mountain above sea level.', 'The Great Wall of China is visible from the Moon.'].join(' '));
    const { code, log } = await runToFile(['check', document, '--method', 'llm-only', '--window', '1'], { ...env, VERITY_SIM_LATENCY_MS: '800' }, path.join(dir, 'check.log'), 600_000);
    expect(code, log).toBe(0);
    const lines = log.split('\n').filter((line) => /^check \S+: /.test(line));
    const extracting = lines.filter((line) => /: extracting claims: \d+\/4 sentences \(\d+%\) · /.test(line));
    const verifying = lines.filter((line) => /: verifying: \d+\/\d+ claims \(\d+%\) · /.test(line));
    expect(extracting.length, log).toBeGreaterThanOrEqual(1);
    expect(verifying.length, log).toBeGreaterThanOrEqual(1);
    expect(lines.indexOf(extracting[0]!)).toBeLessThan(lines.indexOf(verifying[0]!));
    expect(verifying.at(-1)).toMatch(/: verifying: (\d+)\/\1 claims \(100%\) · .* · ETA 0 s · done$/);
    expect(log).not.toContain('\u001b[');
  }, 600_000);

  it('a bench redirected to a file writes progress lines for each of its phases (bench:export)', async () => {
    const { code, log } = await runToFile(['--verdicts', '200'], env, path.join(dir, 'bench-export.log'), 300_000, path.join('eval', 'bench', 'export-memory.ts'));
    expect(code, log).toBe(0);
    const generating = log.split('\n').filter((line) => /^bench export-memory \(generating \S+\): /.test(line));
    expect(generating.length, log).toBeGreaterThanOrEqual(1);
    expect(generating.at(-1)).toMatch(/: 200\/200 verifications \(100%\) · .* · ETA 0 s$/);
    const measured = progressLines(log, 'bench export-memory');
    expect(measured[0]).toMatch(/^bench export-memory: 0\/4 measurements \(0%\) · rate – · ETA – · load all$/);
    expect(measured.at(-1)).toMatch(/^bench export-memory: 4\/4 measurements \(100%\) · .* · ETA 0 s$/);
    expect(log).not.toContain('\u001b[');
  }, 300_000);
});
