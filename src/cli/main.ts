import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { loadConfig } from '../config/config';
import { errors } from '@elastic/elasticsearch';
import { esAccessErrorLine, esErrorLine, isEsAccessError } from '../es/access-errors';
import { projectRoot } from '../project-root';
import { registerCheckCommand } from './commands/check';
import { registerDemoCommand } from './commands/demo';
import { registerCompareCommand } from './commands/compare';
import { registerDiffCommand } from './commands/diff';
import { registerDoctorCommand } from './commands/doctor';
import { registerExportCommand } from './commands/export';
import { registerInfraCommand } from './commands/infra';
import { registerIngestCommand } from './commands/ingest';
import { registerReportCommand } from './commands/report';
import { registerReviewsCommand } from './commands/reviews';
import { registerMcpCommand } from './commands/mcp';
import { registerMemoryCommand } from './commands/memory';
import { registerSearchCommand } from './commands/search';
import { registerSimCommand } from './commands/sim';
import { registerSweepCommand } from './commands/sweep';
import { registerToeCommand } from './commands/toe';
import { registerVerifyCommand } from './commands/verify';
import { registerViewCommand } from './commands/view';
import { registerWorkerCommand } from './commands/worker';
import { CliError } from './errors';
import { notElasticsearchLine } from '../es/client';
import { terminalSafe } from './output';
import { serviceUnreachableLine } from './service-lines';
import { createLogger } from '../logging/logger';
import { flushTracing } from '../telemetry/flush';

export function buildProgram(): Command {
  const program = new Command('verity')
    .description('Verify claims with LLM agents as durable Temporal workflows over Elasticsearch.')
    .version(require(path.join(projectRoot(), 'package.json')).version as string)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerDemoCommand(program);
  registerInfraCommand(program);
  registerSimCommand(program);
  registerIngestCommand(program);
  registerSearchCommand(program);
  registerMemoryCommand(program);
  registerWorkerCommand(program);
  registerVerifyCommand(program);
  registerCheckCommand(program);
  registerSweepCommand(program);
  registerMcpCommand(program);
  registerReportCommand(program);
  registerReviewsCommand(program);
  registerViewCommand(program);
  registerDiffCommand(program);
  registerDoctorCommand(program);
  registerCompareCommand(program);
  registerExportCommand(program);
  registerToeCommand(program);
  return program;
}

/** The configured Elasticsearch URL, for naming it in an error (the configuration itself may be what failed). */
function esUrlForMessages(): string {
  try {
    return loadConfig().elasticsearch.url;
  } catch {
    return 'ES_URL';
  }
}

/** VERITY_LOG_LEVEL when set (debug shows the raw cause of a one-line error), else errors only. */
function logLevelForMessages(): string {
  try {
    return process.env.VERITY_LOG_LEVEL ? loadConfig().logLevel : 'error';
  } catch {
    return 'error';
  }
}

function temporalAddressForMessages(): string {
  try {
    return loadConfig().temporal.address;
  } catch {
    return 'TEMPORAL_ADDRESS';
  }
}

/** Runs the CLI; resolves to the process exit code. Errors become one line on stderr. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; every usage error (unknown command, bad option value) exits 2.
      return err.exitCode === 0 ? 0 : 2;
    }
    const unreachable = serviceUnreachableLine(err, { esUrl: esUrlForMessages(), temporalAddress: temporalAddressForMessages() });
    // The raw cause (Node's or gRPC's text) is for the log only.
    if (unreachable) createLogger(logLevelForMessages()).debug({ err }, 'service unreachable');
    const message =
      unreachable ??
      (isEsAccessError(err)
        ? esAccessErrorLine(err, loadConfig().elasticsearch)
        : (notElasticsearchLine(err, esUrlForMessages()) ?? (err instanceof errors.ResponseError ? esErrorLine(err) : err instanceof Error ? err.message : String(err))));
    process.stderr.write(`verity: ${terminalSafe(message.split('\n')[0]!)}\n`);
    return err instanceof CliError ? err.exitCode : 1;
  } finally {
    // The trace's root span (the workflow start) is the CLI's: send it before the process exits.
    await flushTracing();
  }
}
