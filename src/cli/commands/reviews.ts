import fs from 'node:fs';
import { Option, type Command } from 'commander';
import { loadConfig } from '../../config/config';
import { createEsClient } from '../../es/client';
import { REVIEW_EXPORT_FORMATS, renderReviews, type ReviewExportFormat } from '../../review/review-export';
import { ReviewStore } from '../../review/review-store';
import { CliError } from '../errors';
import { notice } from '../output';
import { toCliError } from '../common';
import { runIdArgument } from '../run-id-argument';

interface ReviewsExportOptions {
  format: ReviewExportFormat;
  out?: string;
  force?: boolean;
}

async function exportReviews(runId: string, options: ReviewsExportOptions): Promise<void> {
  const config = loadConfig();
  const file = options.out ?? '-';
  if (file !== '-' && !options.force && fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new CliError(`${file} exists; pass --force to overwrite it`, 2);
  const client = createEsClient(config.elasticsearch);
  try {
    const reviews = await new ReviewStore(client, config.elasticsearch.indexPrefix).forRun(runId);
    const text = renderReviews(reviews, options.format);
    if (file === '-') process.stdout.write(text);
    else fs.writeFileSync(file, text);
    notice(`${reviews.length} review(s) of run ${runId}${file === '-' ? '' : ` written to ${file}`}`);
  } catch (err) {
    throw err instanceof CliError ? err : toCliError(err, config.elasticsearch.url);
  } finally {
    await client.close();
  }
}

export function registerReviewsCommand(program: Command): void {
  const reviews = program.command('reviews').description('Human reviews of a run written in `verity view` (verdicts marked right or wrong, disputed gold labels, notes)');
  reviews
    .command('export')
    .description('Write a run\'s reviews as JSON Lines or CSV (one review per reviewer × verification)')
    .argument('<run>', 'run id', runIdArgument)
    .addOption(new Option('--format <format>', 'output format').choices(REVIEW_EXPORT_FORMATS).default('jsonl'))
    .option('--out <file>', 'file to write ("-" for stdout, the default)')
    .option('--force', 'overwrite an existing file')
    .action((runId: string, options: ReviewsExportOptions) => exportReviews(runId, options));
}
