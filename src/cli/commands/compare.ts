import { InvalidArgumentError, type Command } from 'commander';
import { compareWithRun, pairedComparisons, renderComparisonsText, type RunComparisons, type RunReport } from '../../report';
import { CliError } from '../errors';
import { parsePositiveInt } from '../common';
import { notice, printJson, printText } from '../output';
import { loadReportForCli } from './report';
import { runIdArgument } from '../run-id-argument';

interface CompareOptions {
  baseline?: string;
  json?: boolean;
  resamples: number;
  seed: number;
}

/** What `--baseline` names: a method of the run, else one of its models, else another run. */
async function comparisonsOf(report: RunReport, options: CompareOptions): Promise<RunComparisons> {
  const bootstrap = { resamples: options.resamples, seed: options.seed };
  const { baseline } = options;
  if (baseline === undefined) return pairedComparisons(report, { bootstrap });
  const { methods, models } = report.manifest.config;
  if (methods.includes(baseline)) return pairedComparisons(report, { baseline: { kind: 'method', value: baseline }, bootstrap });
  if (models.includes(baseline)) return pairedComparisons(report, { baseline: { kind: 'model', value: baseline }, bootstrap });
  if (baseline === report.runId) throw new CliError(`--baseline ${baseline} is the run itself: name another run, or one of its methods (${methods.join(', ')}) or models (${models.join(', ')})`, 2);
  const other = await loadReportForCli(baseline).catch((err: unknown) => {
    const reason = err instanceof Error ? err.message : String(err);
    throw new CliError(`--baseline ${baseline} is neither a method (${methods.join(', ')}) nor a model (${models.join(', ')}) of run ${report.runId}, and not a run: ${reason}`, 2);
  });
  return compareWithRun(other, report, bootstrap);
}

async function compare(runId: string, options: CompareOptions): Promise<void> {
  const report = await loadReportForCli(runId);
  const comparisons = await comparisonsOf(report, options);
  if (report.banner) notice(report.banner);
  if (options.json) printJson(comparisons);
  else printText(renderComparisonsText(comparisons));
}

function nonNegativeInt(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed)) throw new InvalidArgumentError('expected a whole number ≥ 0');
  return parsed;
}

export function registerCompareCommand(program: Command): void {
  program
    .command('compare')
    .description(
      'Paired comparisons of a run: for every pair of methods (same model) and of models (same method) scored on the same claims, ' +
        "the accuracy difference with a paired bootstrap 95% interval (claims resampled, with their repeats), McNemar's exact test, " +
        'and the claims they answer differently; a note where the samples differ.',
    )
    .argument('<run>', 'run id', runIdArgument)
    .option('--baseline <method|model|run>', 'compare only against this method or model of the run, or against another run (same method × model, paired by claim)')
    .option('--json', 'print the comparisons as JSON on stdout (every disagreeing claim, with its transcripts\' workflow ids)')
    .option('--resamples <n>', 'bootstrap resamples', (value) => parsePositiveInt(value), 1000)
    .option('--seed <n>', 'bootstrap seed (the same seed gives the same intervals)', nonNegativeInt, 0)
    .action((runId: string, options: CompareOptions) => compare(runId, options));
}
