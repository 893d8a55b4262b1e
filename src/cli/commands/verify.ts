import { type Command, Option } from 'commander';
import type { Client } from '@temporalio/client';
import { type LlmChoice, loadConfig } from '../../config/config';
import { endpointIdentity } from '../../config/config-identity';
import { InvalidClaimError, buildVerifyInput, DEFAULT_TOP_K, startVerification, verdictOfResult } from '../../client/start-verification';
import { connectTemporal, workflowUiUrl } from '../../client/temporal';
import { InvalidMethodSettingsError, optionPairsToObject, parseMethodSettings } from '../../methods/settings-schemas';
import { METHOD_NAMES, type MethodName } from '../../methods/registry';
import { RETRIEVAL_MODES, type RetrievalMode } from '../../shared/retrieval';
import type { Verdict, VerifyClaimInput } from '../../shared/verify';
import { ClaimIdReusedError, refuseClaimIdReuse } from '../../client/claim-id-reuse';
import type { VerityConfig } from '../../config/config';
import { createEsClient } from '../../es/client';
import { indexName, ownIndexProblem } from '../../es/indices';
import { VerdictStore } from '../../verdicts/verdict-store';
import { isSweepRun } from '../../runs/run-store';
import { createCliLogger } from '../cli-logger';
import { ensureWorker } from '../embedded-worker';
import { CliError } from '../errors';
import { printJson, printText } from '../output';
import { requiredIndices } from '../method-indices';
import { requireElasticsearch, requireEmbeddings, requireIndex, requireLlmEndpoint } from '../preflight';
import { asVerificationFailure } from '../workflow-failure';
import { MAX_SEARCH_K } from '../../retrieval';
import { INTERRUPTED, WORKER_STOP_AFTER_INTERRUPT_MS, waitInterruptibly } from '../interrupt';
import { reportRetries } from '../retry-progress';
import { watchForStuck } from '../stuck-watch';
import { describeStuck, type StuckWorkflow } from '../../client/stuck-workflows';
import { applyLlmOption, llmOption } from '../llm-option';
import { parseTopK } from '../common';
import { sentTemperature } from '../../llm/sent-temperature';

interface VerifyOptions {
  method: MethodName;
  topK: number;
  index?: string;
  retrievalMode?: RetrievalMode;
  run?: string;
  claimId?: string;
  json?: boolean;
  embeddedWorker?: boolean;
  cancelOnInterrupt?: boolean;
  option: string[];
  llm?: LlmChoice;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function registerVerifyCommand(program: Command): void {
  program
    .command('verify')
    .description('Verify one claim as a durable Temporal workflow and print the verdict.')
    .argument('<claim>', 'the claim to verify (at most 5,000 characters)')
    .addOption(new Option('-m, --method <method>', 'verification method').choices(METHOD_NAMES).default('rag'))
    .option('-k, --top-k <n>', `passages retrieved as evidence (1-${MAX_SEARCH_K})`, parseTopK, DEFAULT_TOP_K)
    .option('--index <name>', 'Elasticsearch index to retrieve from (default: <prefix>-wiki)')
    .addOption(new Option('--retrieval-mode <mode>', 'bm25, dense or hybrid (dense/hybrid need an index ingested with --embed); default bm25').choices(RETRIEVAL_MODES))
    .option('--run <id>', 'run the verification belongs to (default: adhoc; a run a sweep made is refused)')
    .option('--claim-id <id>', 'claim id (default: a hash of the claim and settings)')
    .option('-o, --option <key=value>', "a setting of the chosen method, e.g. -o memory=false (repeatable; see the method's settings in README)", collect, [])
    .option('--json', 'print the verdict as JSON (with the method\'s trace)')
    .addOption(llmOption())
    .option('--no-embedded-worker', 'rely on workers started with `verity worker` instead of running one in this process')
    .option('--cancel-on-interrupt', 'Ctrl-C cancels the verification (default: the first Ctrl-C stops waiting and leaves it running; a second one cancels it)')
    .addHelpText(
      'after',
      '\nThe same claim with the same settings maps to the same workflow id: asking again attaches to\nthe stored result instead of paying for it again. A worker runs in this process for the duration\nof the command unless --no-embedded-worker is given.\n\nMERMAID evidence memory: verifications without --run belong to run "adhoc" and share one memory\nper model and fidelity (run:adhoc/model:<model>/fidelity:<fidelity>), so a claim may recall evidence\nan earlier ad-hoc claim gathered. Use --run <id> or -o memoryScope=<scope> to keep them apart.',
    )
    .action(async (claim: string, options: VerifyOptions) => {
      await verifyCommand(claim, options);
    });
}

async function verifyCommand(claim: string, options: VerifyOptions): Promise<void> {
  applyLlmOption(options.llm);
  const config = loadConfig();
  const logger = createCliLogger(config);
  const indexProblem = options.index === undefined ? undefined : ownIndexProblem(options.index, config.elasticsearch.indexPrefix);
  if (indexProblem) throw new CliError(`--index: ${indexProblem}`, 2);
  let input;
  try {
    const settings = parseMethodSettings(options.method, options.option.length > 0 ? optionPairsToObject(options.option) : undefined, '--option');
    input = buildVerifyInput(config, {
      settings,
      claim,
      method: options.method,
      topK: options.topK,
      ...(options.index ? { index: options.index } : {}),
      ...(options.retrievalMode ? { retrievalMode: options.retrievalMode } : {}),
      ...(options.run ? { runId: options.run } : {}),
      ...(options.claimId ? { claimId: options.claimId } : {}),
    });
  } catch (err) {
    if (err instanceof InvalidClaimError) throw new CliError(`invalid claim: ${err.message}`, 2);
    if (err instanceof InvalidMethodSettingsError) throw new CliError(`invalid method setting: ${err.message}`, 2);
    throw err;
  }
  await requireElasticsearch(config);
  if (options.run !== undefined) await refuseSweepRun(config, input.runId);
  for (const { index, ingest } of requiredIndices(config, input.method, input.rag.index)) await requireIndex(config, index, ingest);
  await requireEmbeddings(config, input.rag.index, input.rag.mode);
  await requireLlmEndpoint(config);

  const client = await connectTemporal(config);
  if (options.claimId) {
    try {
      await refuseReusedClaimId(config, client, input);
    } catch (err) {
      await client.connection.close();
      throw err;
    }
  }
  const worker = await ensureWorker(config, client, logger, { embedded: options.embeddedWorker !== false });
  let waiting: Awaited<ReturnType<typeof waitInterruptibly>> | undefined;
  try {
    const { handle, attached } = await startVerification(client, config.temporal.taskQueue, input, { retryBudgetMs: config.retryBudgetMs });
    const uiUrl = workflowUiUrl(config, handle.workflowId);
    if (!options.json) process.stderr.write(`${attached ? 'attached to' : 'started'} ${handle.workflowId}\n${uiUrl ? `  ${uiUrl}\n` : ''}`);
    const stopReporting = reportRetries(handle);
    const stuckWatch = watchForStuck(client, handle.workflowId);
    // A failed workflow settles the wait too (never rejects it): its cause is printed below, in one line.
    const result = handle.result();
    const settled = Promise.race([
      result.then(
        () => undefined,
        () => undefined,
      ),
      stuckWatch.stuck,
    ]);
    waiting = await waitInterruptibly(handle, settled, { cancelOnInterrupt: options.cancelOnInterrupt === true });
    stopReporting();
    stuckWatch.stop();
    if (waiting.value === INTERRUPTED) {
      process.exitCode = waiting.signal === 'SIGTERM' ? 143 : 130;
      return;
    }
    if (Array.isArray(waiting.value)) throw new CliError(stuckMessage(waiting.value), 1);
    let verdict: Verdict;
    try {
      verdict = await verdictOfResult(config, await result);
    } catch (err) {
      throw asVerificationFailure(err);
    }
    if (options.json) printJson({ ...verdict, uiUrl, attached, endpoint: endpointIdentity(config.llm) });
    else printText(formatVerdict(verdict));
  } finally {
    await worker.stop(waiting?.value === INTERRUPTED ? { withinMs: WORKER_STOP_AFTER_INTERRUPT_MS } : {});
    await waiting?.finish();
    await client.connection.close();
  }
}

/** A run made by a sweep is that sweep's: a verification added from outside would change its finished numbers. */
async function refuseSweepRun(config: VerityConfig, runId: string): Promise<void> {
  const es = createEsClient(config.elasticsearch);
  try {
    if (await isSweepRun(es, config.elasticsearch.indexPrefix, runId)) {
      throw new CliError(`--run ${runId}: that run belongs to a sweep and takes no ad-hoc verifications; choose another --run id, or add claims, methods or models to the sweep's config and \`verity sweep run\` it again`, 2);
    }
  } finally {
    await es.close();
  }
}

async function refuseReusedClaimId(config: VerityConfig, client: Client, input: VerifyClaimInput): Promise<void> {
  const es = createEsClient(config.elasticsearch);
  try {
    await refuseClaimIdReuse(new VerdictStore(es, indexName(config.elasticsearch.indexPrefix, 'verdicts')), client, input);
  } catch (err) {
    if (err instanceof ClaimIdReusedError) throw new CliError(err.message, 2);
    throw err;
  } finally {
    await es.close();
  }
}

export function formatVerdict(verdict: Verdict): string {
  const lines = [
    `${verdict.label}  ${verdict.claim}`,
    `  rationale: ${verdict.rationale}`,
    '  evidence:',
    ...verdict.evidence.map(
      (p) => `    ${verdict.citedPassageIds.includes(p.id) ? '*' : ' '} [${p.id}] ${p.text.slice(0, 140)}${p.text.length > 140 ? '…' : ''}`,
    ),
    `  usage: ${verdict.usage.llmCalls} LLM call(s) (${verdict.usage.cachedLlmCalls} cached${verdict.usage.invalidAnswers ? `, ${verdict.usage.invalidAnswers} invalid` : ''}), ${verdict.usage.toolCalls} tool call(s), ${verdict.usage.totalTokens} tokens, $${verdict.usage.costUsd.toFixed(6)}`,
    ...(verdict.trace ? ['  trace: stored with the verdict (`--json` prints it)'] : []),
    `  model: ${verdict.model} (temperature ${sentTemperature(verdict.model, verdict.temperature)}, seed ${verdict.seed}, prompt ${verdict.promptVersion})`,
  ];
  return `${lines.join('\n')}\n`;
}

/** One line: which workflow cannot progress and why; it stays open, so a fixed worker resumes it. */
function stuckMessage(stuck: StuckWorkflow[]): string {
  const [first] = stuck;
  const more = stuck.length > 1 ? ` (and ${stuck.length - 1} more)` : '';
  return `stuck: ${describeStuck(first!)}${more}; the workflow stays open and resumes once a worker can run it (fix the worker's code or version), or end it: \`temporal workflow terminate --workflow-id '${first!.workflowId}'\``;
}
