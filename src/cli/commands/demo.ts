import path from 'node:path';
import { type Command, Option } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { WorkflowFailedError } from '@temporalio/client';
import { loadDataset, type DatasetClaim } from '../../datasets';
import { ensureInfra } from '../../../infra';
import { buildVerifyInput, startVerification, verdictOfResult } from '../../client/start-verification';
import { connectTemporal } from '../../client/temporal';
import { type LlmChoice, loadConfig, type VerityConfig } from '../../config/config';
import { ingestCorpus } from '../../corpus/ingest';
import { createEsClient } from '../../es/client';
import { indexName } from '../../es/indices';
import { projectRoot } from '../../project-root';
import { WEB_TARGET, webIndexName } from '../../search/web-index';
import { METHODS, type MethodName, SEARCH_ATTRIBUTES } from '../../shared/constants';
import type { Verdict } from '../../shared/verify';
import { createCliLogger } from '../cli-logger';
import { ensureWorker } from '../embedded-worker';
import { applyLlmOption, llmOption } from '../llm-option';
import { requiredIndices } from '../method-indices';
import { printJson, printText, terminalSafe } from '../output';
import { describeFailure } from '../workflow-failure';

export const DEMO_RUN = 'demo';

interface DemoOptions {
  method: MethodName;
  json?: boolean;
  embeddedWorker?: boolean;
  llm?: LlmChoice;
}

interface DemoRow {
  claim: DatasetClaim;
  workflowId: string;
  verdict?: Verdict;
  error?: string;
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Bring up Temporal and Elasticsearch, ingest the demo corpus and verify the demo claims end to end.')
    .addOption(
      new Option('-m, --method <method>', 'verification method (toe makes hundreds of LLM calls per claim: minutes, not seconds)').choices(METHODS).default('rag'),
    )
    .option('--json', 'print the verdicts as JSON')
    .addOption(llmOption())
    .option('--no-embedded-worker', 'rely on workers started with `verity worker` instead of running one in this process')
    .addHelpText(
      'after',
      '\nUses TEMPORAL_ADDRESS and ES_URL when they answer, otherwise starts local servers (see `verity infra up`).\nWithout OPENAI_API_KEY / OPENAI_BASE_URL the built-in simulator answers: its labels are not a\nmeasure of any method. --llm local runs it offline on a small open model that verity installs\n(into VERITY_DATA_DIR) and starts. Running the demo again attaches to the stored results.',
    )
    .action(async (options: DemoOptions) => {
      await runDemo(options);
    });
}

async function runDemo(options: DemoOptions): Promise<void> {
  applyLlmOption(options.llm);
  const config = loadConfig();
  const logger = createCliLogger(config);
  const say = (line: string) => process.stderr.write(`${terminalSafe(line)}\n`);

  say(`bringing up Temporal and Elasticsearch${config.llm.local ? ` and the local model ${config.llm.local.model}` : ''}…`);
  const infra = await ensureInfra(config, { log: (line) => say(`  ${line}`) });
  say(`  ready in ${(infra.durationMs / 1000).toFixed(1)} s`);

  const demoDir = path.join(projectRoot(), 'eval', 'demo');
  const index = indexName(config.elasticsearch.indexPrefix, 'wiki');
  const corpus = path.join(demoDir, 'corpus.jsonl');
  await ingestDemoCorpus(config, corpus, index, say);
  // Web-searching methods search the same team-written passages as a recorded web, offline.
  const webIndex = webIndexName(config.elasticsearch.indexPrefix);
  if (requiredIndices(config, options.method, index).some((required) => required.index === webIndex)) {
    await ingestDemoCorpus(config, corpus, webIndex, say, true);
  }

  const { claims } = await loadDataset(path.join(demoDir, 'claims.jsonl'), { format: 'verity', strict: true });
  const client = await connectTemporal(config);
  const worker = await ensureWorker(config, client, logger, { embedded: options.embeddedWorker !== false });
  try {
    say(`verifying ${claims.length} demo claims with method ${options.method}${config.llm.provider === 'simulator' ? ' (simulator)' : ''}…`);
    const rows = await verifyAll(config, client, claims, index, options.method);
    if (options.json) printJson(rows.map(({ claim, workflowId, verdict, error }) => ({ claimId: claim.id, gold: claim.labelNorm, workflowId, verdict, error })));
    else printText(formatTable(rows, config));
  } finally {
    await worker.stop();
    await client.connection.close();
  }
}

async function ingestDemoCorpus(config: VerityConfig, file: string, index: string, say: (line: string) => void, asWeb = false): Promise<void> {
  const es = createEsClient(config.elasticsearch);
  try {
    const result = await ingestCorpus({ client: es, index, file, strict: true, ...(asWeb ? { target: WEB_TARGET } : {}) });
    say(`ingested ${result.documents} demo documents (${result.passages} passages) into ${index}`);
  } finally {
    await es.close();
  }
}

async function verifyAll(
  config: VerityConfig,
  client: Awaited<ReturnType<typeof connectTemporal>>,
  claims: DatasetClaim[],
  index: string,
  method: MethodName,
): Promise<DemoRow[]> {
  const bar = new SingleBar({ format: '  {bar} {value}/{total} claims', stream: process.stderr, hideCursor: true }, Presets.shades_classic);
  bar.start(claims.length, 0);
  try {
    return await Promise.all(
      claims.map(async (claim): Promise<DemoRow> => {
        const input = buildVerifyInput(config, { claim: claim.claim, method, runId: DEMO_RUN, claimId: claim.id, dataset: 'demo', index });
        const { handle } = await startVerification(client, config.temporal.taskQueue, input, { retryBudgetMs: config.retryBudgetMs });
        try {
          return { claim, workflowId: handle.workflowId, verdict: await verdictOfResult(config, await handle.result()) };
        } catch (err) {
          if (err instanceof WorkflowFailedError) return { claim, workflowId: handle.workflowId, error: describeFailure(err) };
          throw err;
        } finally {
          bar.increment();
        }
      }),
    );
  } finally {
    bar.stop();
  }
}

function formatTable(rows: DemoRow[], config: VerityConfig): string {
  const lines = rows.map(({ claim, verdict, error }) => {
    const predicted = verdict?.label ?? 'FAILED';
    return `${claim.id.padEnd(8)} gold ${String(claim.labelNorm ?? '-').padEnd(9)} verity ${predicted.padEnd(9)} ${error ? `(${error}) ` : ''}${claim.claim}`;
  });
  const agreeing = rows.filter((row) => row.verdict && row.verdict.label === row.claim.labelNorm).length;
  const query = encodeURIComponent(`${SEARCH_ATTRIBUTES.run}="${DEMO_RUN}"`);
  const source = config.llm.provider === 'simulator' ? ' (simulator answers: not a measure of any method)' : '';
  return [
    ...lines,
    '',
    `${agreeing}/${rows.length} verdicts agree with the gold label${source}`,
    ...(config.temporal.uiUrl
      ? [`inspect every step in the Temporal UI: ${config.temporal.uiUrl}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows?query=${query}`]
      : []),
    '',
  ].join('\n');
}
