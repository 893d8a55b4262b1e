import { describe, expect, it } from 'vitest';
import { EXPLORER_SCRIPT } from '../../src/explorer/explorer-script';
import { buildReport, renderHtml, renderMarkdown } from '../../src/report';
import { humanDuration } from '../../src/shared/human-duration';
import { goldLabels, runA } from '../support/report-fixtures';

const CASES: [number, string][] = [
  [0, '0 ms'],
  [850.4, '850 ms'],
  [999, '999 ms'],
  [1000, '1 s'],
  [4230, '4.2 s'],
  [9949, '9.9 s'],
  [9950, '10 s'],
  [42_400, '42 s'],
  [59_600, '1 min'],
  [210_477, '3 min 30 s'],
  [3_599_600, '1 h'],
  [7_500_000, '2 h 5 min'],
  [86_399_000, '1 d'],
  [273_600_000, '3 d 4 h'],
  [-1500, '-1.5 s'],
];

describe('durations in human units', () => {
  it('says a duration in at most two units', () => {
    for (const [ms, text] of CASES) expect([ms, humanDuration(ms)]).toEqual([ms, text]);
    for (const unknown of [Number.NaN, Number.POSITIVE_INFINITY, null, undefined]) expect(humanDuration(unknown)).toBe('–');
  });

  it('is the function the explorer page embeds', () => {
    // The browser script carries this function's source; evaluated on its own it answers the same.
    const embedded = new Function(`return (${humanDuration.toString()});`)() as typeof humanDuration;
    for (const [ms, text] of CASES) expect(embedded(ms)).toBe(text);
    expect(EXPLORER_SCRIPT).toContain(`const humanDuration = ${humanDuration.toString()};`);
    expect(EXPLORER_SCRIPT).not.toMatch(/durationMs \+ ' ms'|latencyMs \+ ' ms'/);
  });

  it('shows report latencies in human units, not milliseconds', () => {
    const records = runA();
    records.verdicts = records.verdicts.map((v, i) => ({ ...v, durationMs: 200_000 + i * 5_000 }));
    const report = buildReport(records, goldLabels(), { generatedAt: '2026-01-01T00:00:00.000Z', bootstrap: { resamples: 20 } });
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('| 3 min 30 s | 3 min 40 s | 3 min 40 s |');
    expect(markdown).not.toMatch(/\d ms\b/);
    expect(renderHtml(report)).toContain('<td class="num">3 min 30 s</td>');
  });
});
