import fs from 'node:fs/promises';
import path from 'node:path';
import type { RunReport } from '../report-types';
import { renderClaimsCsv, renderGroupsCsv } from './csv';
import { renderHtml } from './html';
import { renderMarkdown } from './markdown';

export const REPORT_FORMATS = ['md', 'html', 'csv', 'json', 'all'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

function filesOf(report: RunReport, format: ReportFormat): Record<string, () => string> {
  const byFormat: Record<Exclude<ReportFormat, 'all'>, Record<string, () => string>> = {
    md: { 'report.md': () => renderMarkdown(report) },
    html: { 'report.html': () => renderHtml(report) },
    csv: { 'claims.csv': () => renderClaimsCsv(report), 'groups.csv': () => renderGroupsCsv(report) },
    json: { 'report.json': () => `${JSON.stringify(report, null, 2)}\n` },
  };
  return format === 'all' ? Object.assign({}, ...Object.values(byFormat)) : byFormat[format];
}

/**
 * Creates `dir` and its missing parents one level at a time: Node's recursive mkdir loops forever
 * under /proc (and similar file systems) instead of failing.
 */
async function makeDirectory(dir: string): Promise<void> {
  const absolute = path.resolve(dir);
  const missing: string[] = [];
  for (let current = absolute; ; current = path.dirname(current)) {
    const stat = await fs.stat(current).catch(() => undefined);
    if (stat) {
      if (!stat.isDirectory()) throw new Error(`cannot write the report into ${dir}: ${current} is not a directory`);
      break;
    }
    missing.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const level of missing) {
    await fs.mkdir(level).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw new Error(`cannot write the report into ${dir}: ${err.message.split('\n')[0]}`);
    });
  }
}

/** Writes the report's files into `dir` (created if needed); returns their paths. */
export async function writeReport(report: RunReport, dir: string, format: ReportFormat = 'all'): Promise<string[]> {
  await makeDirectory(dir);
  const written: string[] = [];
  for (const [name, render] of Object.entries(filesOf(report, format))) {
    const file = path.join(dir, name);
    await fs.writeFile(file, render());
    written.push(file);
  }
  return written;
}
