import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport, renderClaimsCsv, renderGroupsCsv, renderHtml, renderMarkdown, SIMULATOR_BANNER, writeReport } from '../../src/report';
import { goldLabels, runA, runB } from '../support/report-fixtures';

/** RFC 4180 parsing, enough to read back what the renderer wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = (): void => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ',') {
      endField();
    } else if (!quoted && ch === '\n') {
      endField();
      rows.push(row);
      row = [];
    } else {
      field += ch;
    }
  }
  return rows;
}

const options = { generatedAt: '2026-01-02T00:00:00.000Z', bootstrap: { resamples: 100 } };

describe('report renderers', () => {
  const report = buildReport(runA(), goldLabels(), options);

  it('Markdown has the banner, the summary, per-class and confusion tables', () => {
    const md = renderMarkdown(report);
    expect(md).toContain(`> **${SIMULATOR_BANNER}**`);
    expect(md).toContain('| dataset | method | model | claims (n) | repeats (k) | scored | invalid | failed | accuracy [95% CI] | macro-F1 [95% CI] | weighted-F1 [95% CI] |');
    // The failed c6 is scored (wrong): 6 scored, accuracy 3/6.
    expect(md).toMatch(/\| hover \| rag \| m1 \| 6 \| 1 \| 6 \| 1 \| 1 \| 0\.500 \[/);
    expect(md).toContain('| gold \\ predicted | SUPPORTED | REFUTED | invalid/failed |');
    expect(md).toContain('| REFUTED | 0 | 2 | 1 |');
    expect(md).toContain('| class | precision | recall | F1 | support |');
    expect(md).toContain('| c6 | failed | LLM output invalid after 3 attempts |');
    expect(md).toContain('| git commit | deadbeef |');
  });

  it('HTML is one self-contained page with inline SVG charts and the simulator banner', () => {
    const html = renderHtml(report);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(SIMULATOR_BANNER.replace("'", '&#39;'));
    expect(html.match(/<svg /g)?.length).toBeGreaterThanOrEqual(4);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    expect(html).not.toMatch(/url\(/);
  });

  it('shows latencies in human units in report.md and report.html ("3 min 30 s", never "210477 ms")', () => {
    const run = runA();
    run.verdicts = run.verdicts.map((v) => ({ ...v, durationMs: 210_477 }));
    const slow = buildReport(run, goldLabels(), options);
    for (const text of [renderMarkdown(slow), renderHtml(slow)]) {
      expect(text).toContain('3 min 30 s');
      expect(text).not.toMatch(/\b210477\b|\d{4,} ms\b/);
    }
  });

  it('HTML of a run against a real endpoint has no banner', () => {
    expect(renderHtml(buildReport(runB(), goldLabels(), options))).not.toContain('class="banner"');
  });

  it('HTML escapes stored text', () => {
    const records = runA();
    records.verdicts.push({ ...records.verdicts[0]!, claimId: 'x', model: '<script>alert(1)</script>' });
    expect(renderHtml(buildReport(records, goldLabels(), options))).not.toContain('<script>');
  });

  it('per-claim CSV parses back into the claim rows', () => {
    const records = runA();
    records.failures[0]!.reason = 'timeout, then "bad gateway"\nretried';
    const withQuotes = buildReport(records, goldLabels(), options);
    const [header, ...rows] = parseCsv(renderClaimsCsv(withQuotes));
    expect(rows).toHaveLength(withQuotes.claims.length);
    const failed = rows.find((row) => row[header!.indexOf('claimId')] === 'c6');
    expect(failed?.[header!.indexOf('failureReason')]).toBe('timeout, then "bad gateway"\nretried');
    const c5 = rows.find((row) => row[header!.indexOf('claimId')] === 'c5');
    expect(c5?.[header!.indexOf('predictedRaw')]).toBe('MAYBE?');
    expect(c5?.[header!.indexOf('predicted')]).toBe('');
    expect(c5?.[header!.indexOf('correct')]).toBe('false');
  });

  it('group CSV parses back with the metrics', () => {
    const [header, ...rows] = parseCsv(renderGroupsCsv(report));
    const hover = rows.find((row) => row[0] === 'hover');
    expect(rows).toHaveLength(2);
    expect(Number(hover?.[header!.indexOf('accuracy')])).toBeCloseTo(0.5, 12);
    expect(Number(hover?.[header!.indexOf('macroF1')])).toBeCloseTo(7 / 12, 12);
    expect(hover?.[header!.indexOf('invalid')]).toBe('1');
  });
});

describe('report.md with hostile names', () => {
  it('writes dataset names, models and reasons as inert text (no HTML, no link, no heading of their own)', () => {
    const hostile = '<img src=x onerror=alert(1)>\n# injected [click](javascript:alert(1))';
    const records = runA();
    records.verdicts = records.verdicts.map((v) => ({ ...v, dataset: hostile }));
    records.failures = records.failures.map((f) => ({ ...f, dataset: hostile, reason: 'see [here](javascript:alert(2)) <b>now</b>' }));
    const md = renderMarkdown(buildReport(records, goldLabels(), options));
    expect(md).not.toContain('<img');
    expect(md).not.toContain('<b>');
    expect(md).not.toMatch(/\]\(javascript:/);
    expect(md.split('\n').filter((line) => line.startsWith('# '))).toEqual(['# Report: run-a']);
  });
});

describe('writing the report', () => {
  it('fails at once, in one line, where a directory cannot be made (Node loops under /proc)', async () => {
    const report = buildReport(runA(), goldLabels(), options);
    await expect(writeReport(report, '/proc/verity-report/x')).rejects.toThrow(/^cannot write the report into \/proc\/verity-report\/x: /);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-report-dir-')), 'file');
    fs.writeFileSync(file, '');
    await expect(writeReport(report, path.join(file, 'sub'))).rejects.toThrow(/is not a directory/);
    const dir = path.join(path.dirname(file), 'a', 'b');
    expect(await writeReport(report, dir, 'md')).toEqual([path.join(dir, 'report.md')]);
  }, 10_000);
});
