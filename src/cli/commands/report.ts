import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { REPORT_FORMATS, writeReport, type ReportFormat, type RunReport } from '../../report';
import { loadConfig } from '../../config/config';
import { createEsClient } from '../../es/client';
import { indexName } from '../../es/indices';
import { DEFAULT_EMBEDDED_CLAIMS, explorerHtml, explorerSnapshot } from '../../explorer';
import { ReviewStore } from '../../review/review-store';
import { RunNotFoundError, RunWithoutVerdictsError } from '../../runs/read-run';
import { CliError } from '../errors';
import { notice, printJson, printText } from '../output';
import { parsePositiveInt, toCliError } from '../common';
import { explorerDataFor } from './view';
import { runIdArgument } from '../run-id-argument';
import { loadReviewedReport } from '../../review/load-reviewed-report';

interface ReportOptions {
  out?: string;
  json?: boolean;
  format: ReportFormat;
  explorer: boolean;
  explorerLimit: number;
}

/** Loads the report of a run, turning unknown runs, runs without verdicts and an unreachable ES into one-line errors. */
export async function loadReportForCli(runId: string): Promise<RunReport> {
  const config = loadConfig();
  const client = createEsClient(config.elasticsearch);
  try {
    return await loadReviewedReport(client, config.elasticsearch.indexPrefix, runId);
  } catch (err) {
    if (err instanceof RunNotFoundError && (await hasVerdicts(client, indexName(config.elasticsearch.indexPrefix, 'verdicts'), runId))) {
      throw new CliError(
        `run "${runId}" holds verdicts of \`verity verify --run ${runId}\` but no sweep manifest, and reports are made of sweeps: browse it with \`verity view ${runId}\`, or run its claims with \`verity sweep run\` for a report`,
        1,
      );
    }
    if (err instanceof RunNotFoundError || err instanceof RunWithoutVerdictsError) throw new CliError(err.message, 1);
    throw toCliError(err, config.elasticsearch.url);
  } finally {
    await client.close();
  }
}

/** Whether the verdicts index holds any verdict of the run (ad-hoc runs of `verify --run` have no manifest). */
async function hasVerdicts(client: ReturnType<typeof createEsClient>, index: string, runId: string): Promise<boolean> {
  const response = await client.count({ index, query: { term: { runId } } }, { ignore: [404] }).catch(() => undefined);
  return (response?.count ?? 0) > 0;
}

async function report(runId: string, options: ReportOptions): Promise<void> {
  const runReport = await loadReportForCli(runId);
  if (options.json && options.out === undefined) {
    printJson(runReport);
    return;
  }
  const dir = options.out ?? path.join('reports', runId);
  const files = await writeReport(runReport, dir, options.format);
  if (options.explorer) files.push(await writeExplorer(runId, dir, options.explorerLimit));
  if (runReport.banner) notice(runReport.banner);
  for (const warning of runReport.warnings) notice(`warning: ${warning}`);
  if (options.json) printJson(runReport);
  else printText(`${files.join('\n')}\n`);
}

/** explorer.html: the claim explorer with the run's first verifications embedded, for reading offline. */
async function writeExplorer(runId: string, dir: string, limit: number): Promise<string> {
  const config = loadConfig();
  const client = createEsClient(config.elasticsearch);
  try {
    const reviews = await new ReviewStore(client, config.elasticsearch.indexPrefix).forRun(runId);
    const snapshot = await explorerSnapshot(explorerDataFor(config, client, runId), limit, undefined, reviews);
    const file = path.join(dir, 'explorer.html');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, explorerHtml(snapshot));
    if (snapshot.summary.verdicts > snapshot.rows.length) notice(`explorer.html holds the first ${snapshot.rows.length} of ${snapshot.summary.verdicts} verifications; \`verity view ${runId}\` serves them all`);
    return file;
  } catch (err) {
    throw toCliError(err, config.elasticsearch.url);
  } finally {
    await client.close();
  }
}

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      "Report a run: accuracy, per-class P/R/F1, macro/weighted F1 with bootstrap CIs, confusion matrices, cost, calls and latency per dataset × method × model. " +
        'Writes report.md, report.html (self-contained), claims.csv, groups.csv, report.json and explorer.html (the claim explorer, offline) to reports/<run>/.',
    )
    .argument('<run>', 'run id', runIdArgument)
    .option('--out <dir>', 'directory to write the report to (default: reports/<run>)')
    .addOption(new Option('--format <format>', 'which files to write').choices(REPORT_FORMATS).default('all'))
    .option('--json', 'print the report model as JSON on stdout (without --out, write no files)')
    .option('--no-explorer', 'do not write explorer.html (the offline claim explorer)')
    .option('--explorer-limit <n>', 'verifications embedded in explorer.html, with their transcripts', (value) => parsePositiveInt(value), DEFAULT_EMBEDDED_CLAIMS)
    .action((runId: string, options: ReportOptions) => report(runId, options));
}
