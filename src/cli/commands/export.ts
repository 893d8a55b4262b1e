import { type Command, Option } from 'commander';
import { loadConfig } from '../../config/config';
import { createEsClient } from '../../es/client';
import { ExportInterruptedError, exportRun } from '../../runs/export/export-run';
import fs from 'node:fs';
import { EXPORT_FORMATS, type ExportFormat, OutputFileError } from '../../runs/export/row-writers';
import { RunNotFoundError } from '../../runs/read-run';
import { CliError } from '../errors';
import { notice } from '../output';
import { toCliError } from '../common';
import { runIdArgument } from '../run-id-argument';

const PROGRESS_EVERY = 10_000;

interface ExportOptions {
  format: ExportFormat;
  out?: string;
  force?: boolean;
}

/** An existing regular file is only replaced with --force (devices such as /dev/null are written as asked). */
function refuseOverwrite(file: string, force: boolean): void {
  if (file === '-' || force) return;
  const existing = fs.statSync(file, { throwIfNoEntry: false });
  if (existing?.isFile()) throw new CliError(`${file} exists; pass --force to overwrite it`, 2);
}

async function exportCommand(runId: string, options: ExportOptions): Promise<void> {
  const config = loadConfig();
  const file = options.out ?? `${runId}.${options.format}`;
  if (options.format === 'parquet' && file === '-') throw new CliError('Parquet is binary: give a file with --out', 2);
  refuseOverwrite(file, options.force ?? false);
  const client = createEsClient(config.elasticsearch);
  let reported = 0;
  // Ctrl-C or SIGTERM stops the export between pages; exportRun removes its temporary file.
  const interrupt = new AbortController();
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled ??= signal;
    interrupt.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const stats = await exportRun(
      client,
      config.elasticsearch.indexPrefix,
      runId,
      options.format,
      file,
      (rows) => {
        if (rows - reported >= PROGRESS_EVERY) {
          reported = rows;
          notice(`${rows} rows…`);
        }
      },
      interrupt.signal,
    );
    for (const problem of stats.problems) notice(`skipped ${problem}`);
    const skipped = stats.skipped > 0 ? `; ${stats.skipped} malformed document(s) skipped` : '';
    notice(`exported ${stats.verdicts} verdicts and ${stats.failures} failed verifications of run ${runId}${file === '-' ? '' : ` to ${file}`}${skipped}`);
  } catch (err) {
    if (err instanceof ExportInterruptedError) throw new CliError(`interrupted: ${err.message}`, signalled === 'SIGTERM' ? 143 : 130);
    if (err instanceof RunNotFoundError || err instanceof OutputFileError) throw new CliError(err.message, 1);
    throw toCliError(err, config.elasticsearch.url);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await client.close();
  }
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description("Stream every verification of a run (claim, gold, predicted, method, model, usage, cost, timings, failure reason, trace reference) to a dataframe file.")
    .argument('<run>', 'run id', runIdArgument)
    .addOption(new Option('--format <format>', 'output format').choices([...EXPORT_FORMATS]).default('parquet'))
    .option('--out <file>', 'output file (default <run>.<format>; - for standard output with jsonl or csv)')
    .option('--force', 'overwrite the output file if it exists (without it, an existing file is refused)')
    .addHelpText('after', '\nReads Elasticsearch page by page (point in time + search_after): memory stays bounded whatever the run size.\nCSV cells that a spreadsheet would run as a formula (starting with = + - @, tab or CR) get a leading \'.\nExample: verity export dev-600 --format csv --out dev-600.csv')
    .action(async (runId: string, options: ExportOptions) => {
      await exportCommand(runId, options);
    });
}
