import { type Command, InvalidArgumentError } from 'commander';
import { connectTemporal, workflowUiUrl } from '../../client/temporal';
import { runHasRunningWorkflows } from '../../client/run-active';
import { loadConfig, type VerityConfig } from '../../config/config';
import { createEsClient } from '../../es/client';
import { ExplorerData, startExplorerServer } from '../../explorer';
import { isDefaultLoopback } from '../../explorer/review-access';
import { ReviewStore } from '../../review/review-store';
import { CliError } from '../errors';
import { notice } from '../output';
import { requireElasticsearch } from '../preflight';
import { runIdArgument } from '../run-id-argument';

interface ViewOptions {
  port: number;
  host: string;
  token?: string;
}

/** The explorer's reads of one run under this configuration; with `runActive`, the page knows when the run has ended. */
export function explorerDataFor(config: VerityConfig, client: ReturnType<typeof createEsClient>, runId: string, runActive?: () => Promise<boolean>): ExplorerData {
  return new ExplorerData({
    ...(runActive ? { runActive } : {}),
    client,
    prefix: config.elasticsearch.indexPrefix,
    runId,
    workflowUrl: (workflowId) => workflowUiUrl(config, workflowId),
    ...(config.temporal.uiUrl ? { temporalUiUrl: config.temporal.uiUrl } : {}),
  });
}

async function view(runId: string, options: ViewOptions): Promise<void> {
  const token = options.token ?? process.env.VERITY_VIEW_TOKEN;
  const shared = !isDefaultLoopback(options.host);
  if (shared && !token) throw new CliError(`--host ${options.host} serves the explorer beyond loopback: give a token of at least 16 characters with --token or VERITY_VIEW_TOKEN (reads and review writes then need it)`, 2);
  const config = loadConfig();
  await requireElasticsearch(config);
  const client = createEsClient(config.elasticsearch);
  // Temporal tells the page when the run has ended (it then stops refreshing); without it the page refreshes as long as it is open.
  const temporal = await connectTemporal(config).catch((err: unknown) => {
    notice(`Temporal does not answer (${(err as Error).message.split('\n')[0]}): the page refreshes while open, not knowing when run ${runId} ends`);
    return undefined;
  });
  const data = explorerDataFor(config, client, runId, temporal && (() => runHasRunningWorkflows(temporal, runId)));
  const summary = await data.summary();
  if (summary.verdicts === 0 && summary.failures === 0) notice(`run ${runId} has no verdicts or failures yet; the page fills as they are stored`);
  if (isWildcardHost(options.host)) notice(`--host ${options.host} serves every prompt and raw response of run ${runId} to anyone who can reach this machine; bind 127.0.0.1 unless that is meant`);
  const reviews = { store: new ReviewStore(client, config.elasticsearch.indexPrefix), runId };
  const server = await startExplorerServer(data, { port: options.port, host: options.host, reviews, ...(token ? { token } : {}), onError: (err) => notice(`explorer: ${(err as Error).message}`) }).catch(
    (err: NodeJS.ErrnoException) => {
      throw new CliError(err.code === 'EADDRINUSE' ? `port ${options.port} is in use (choose another with --port)` : err.message, 1);
    },
  );
  // Beyond loopback the page is opened once with ?token= (it then keeps the token in a cookie).
  process.stdout.write(shared ? `${server.url}?token=<token>\n` : `${server.url}\n`);
  notice(`explorer for run ${runId}: ${summary.verdicts} verdicts, ${summary.failures} failures; Ctrl-C stops it`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await client.close();
  await temporal?.connection.close();
}

/** A bind address that listens on every interface. */
function isWildcardHost(host: string): boolean {
  return ['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0'].includes(host.trim());
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) throw new InvalidArgumentError('a port number (0 picks a free one)');
  return parsed;
}

export function registerViewCommand(program: Command): void {
  program
    .command('view')
    .description(
      'Serve the claim explorer of a run: a claims table with filters, every verification\'s full transcript (trace, LLM calls with rendered messages and raw responses, tool calls, memory hits, Temporal UI link), one claim across methods and models side by side, the failures, and checked documents with each sentence highlighted by the labels of its claims. Pages Elasticsearch, so it works for runs of any size, and refreshes while the run goes on.',
    )
    .argument('<run>', 'run id (a sweep run, or "adhoc" / "demo")', runIdArgument)
    .option('--port <port>', 'port to serve on', port, 8800)
    .option('--host <host>', 'address to bind (any address but 127.0.0.1, localhost and ::1 needs a token)', '127.0.0.1')
    .option('--token <token>', 'token for serving beyond loopback (or VERITY_VIEW_TOKEN): reads need it, and every review write sends it in a header; on loopback a random one guards writes')
    .action((runId: string, options: ViewOptions) => view(runId, options));
}
