import fs from 'node:fs';
import { type Command, Option } from 'commander';
import { type Client, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { buildCheckInput, startCheck } from '../../client/start-check';
import { InvalidClaimError, DEFAULT_TOP_K } from '../../client/start-verification';
import { connectTemporal, workflowUiUrl } from '../../client/temporal';
import { DocumentInputError, documentText, documentTooLarge, MAX_DOCUMENT_BYTES } from '../../check/document-input';
import { DocumentStore } from '../../check/document-store';
import { loadConfig, type LlmChoice, type VerityConfig } from '../../config/config';
import { createEsClient } from '../../es/client';
import { indexName, ownIndexProblem } from '../../es/indices';
import { InvalidMethodSettingsError, optionPairsToObject, parseMethodSettings } from '../../methods/settings-schemas';
import { DEFAULT_CHECK_WINDOW, DEFAULT_CLAIMS_PER_RUN, DEFAULT_F1_K, type CheckProgress, type DocumentVerdict } from '../../shared/check/document';
import { METHOD_NAMES, type MethodName } from '../../methods/registry';
import { checkProgressQuery } from '../../shared/definitions/check';
import { createCliLogger } from '../cli-logger';
import { ensureWorker } from '../embedded-worker';
import { CliError } from '../errors';
import { applyLlmOption, llmOption } from '../llm-option';
import { requiredIndices } from '../method-indices';
import { printJson, printText } from '../output';
import { CommandProgress, type ProgressUpdate } from '../progress';
import { requireElasticsearch, requireEmbeddings, requireIndex, requireLlmEndpoint } from '../preflight';
import { INTERRUPTED, WORKER_STOP_AFTER_INTERRUPT_MS, waitInterruptibly } from '../interrupt';
import { describeWorkflowFailure } from '../workflow-failure';
import { explorerHint, formatDocumentVerdict } from './check-output';
import { parsePositiveInt, parseTopK } from '../common';

interface CheckOptions {
  method: MethodName;
  model?: string;
  topK: number;
  index?: string;
  option: string[];
  f1K: number;
  window: number;
  claimsPerRun: number;
  json?: boolean;
  embeddedWorker?: boolean;
  llm?: LlmChoice;
}

const PROGRESS_POLL_MS = 2_000;
/** How long the last progress read after a completed check may take (a query of the closed workflow). */
const FINAL_PROGRESS_MS = 5_000;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description('Check a whole text: extract its check-worthy claims, verify each durably and score the document.')
    .argument('<file>', `a UTF-8 text file, or - for standard input (at most ${MAX_DOCUMENT_BYTES / 1024} KB)`)
    .addOption(new Option('-m, --method <method>', 'verification method for each claim').choices(METHOD_NAMES).default('rag'))
    .option('--model <model>', 'model of the claim steps and the verifications (default: the judge model)')
    .option('-k, --top-k <n>', 'passages retrieved as evidence per claim', parseTopK, DEFAULT_TOP_K)
    .option('--index <name>', 'Elasticsearch index to retrieve from (default: <prefix>-wiki)')
    .option('-o, --option <key=value>', 'a setting of the chosen method (repeatable)', collect, [])
    .option('--f1-k <n>', "K of SAFE's F1@K (claims a complete answer should have)", parsePositiveInt, DEFAULT_F1_K)
    .option('--window <n>', 'sentences and verifications in flight at once', parsePositiveInt, DEFAULT_CHECK_WINDOW)
    .addOption(new Option('--claims-per-run <n>', 'claims a workflow run handles before it continues as new').argParser(parsePositiveInt).default(DEFAULT_CLAIMS_PER_RUN).hideHelp())
    .option('--json', 'print the whole document verdict as JSON')
    .addOption(llmOption())
    .option('--no-embedded-worker', 'rely on workers started with `verity worker` instead of running one in this process')
    .addHelpText(
      'after',
      '\nEach check-worthy claim is verified like `verity verify "<claim>"` with the same options: a claim\nverified before, by either command, is reused, never paid for again. Claims that are opinions,\nquestions, tautologies or repeats are listed with the reason they were not verified.',
    )
    .action(async (file: string, options: CheckOptions) => {
      await checkCommand(file, options);
    });
}

async function readDocument(file: string): Promise<{ text: string; source: string }> {
  const source = file === '-' ? 'stdin' : file;
  try {
    if (file !== '-') {
      const { size } = await fs.promises.stat(file);
      if (size > MAX_DOCUMENT_BYTES) throw documentTooLarge(source, size);
    }
    const bytes = await readLimited(file === '-' ? process.stdin : fs.createReadStream(file));
    if (bytes.length > MAX_DOCUMENT_BYTES) throw documentTooLarge(source, bytes.length, MAX_DOCUMENT_BYTES, true);
    return { text: documentText(bytes, source), source };
  } catch (err) {
    if (err instanceof DocumentInputError) throw new CliError(err.message, 2);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`${file}: no such file`, 2);
    if (code === 'EISDIR') throw new CliError(`${file} is a directory, not a text file`, 2);
    throw new CliError(`cannot read ${source}: ${(err as Error).message}`, 2);
  }
}

/** The stream's bytes, stopping one chunk past the limit (enough to refuse it). */
async function readLimited(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    chunks.push(buffer);
    size += buffer.length;
    if (size > MAX_DOCUMENT_BYTES) break;
  }
  return Buffer.concat(chunks);
}

async function checkCommand(file: string, options: CheckOptions): Promise<void> {
  applyLlmOption(options.llm);
  const config = loadConfig();
  const logger = createCliLogger(config);
  const indexProblem = options.index === undefined ? undefined : ownIndexProblem(options.index, config.elasticsearch.indexPrefix);
  if (indexProblem) throw new CliError(`--index: ${indexProblem}`, 2);
  const { text, source } = await readDocument(file);
  let input;
  try {
    const settings = parseMethodSettings(options.method, options.option.length > 0 ? optionPairsToObject(options.option) : undefined, '--option');
    input = buildCheckInput(config, {
      text,
      source,
      verification: { method: options.method, topK: options.topK, settings, ...(options.model ? { model: options.model } : {}), ...(options.index ? { index: options.index } : {}) },
      f1K: options.f1K,
      window: options.window,
      claimsPerRun: options.claimsPerRun,
    });
  } catch (err) {
    if (err instanceof InvalidClaimError) throw new CliError(`invalid settings: ${err.message}`, 2);
    if (err instanceof InvalidMethodSettingsError) throw new CliError(`invalid method setting: ${err.message}`, 2);
    throw err;
  }
  await requireElasticsearch(config);
  for (const { index, ingest } of requiredIndices(config, input.verification.method, input.verification.rag.index)) await requireIndex(config, index, ingest);
  await requireEmbeddings(config, input.verification.rag.index, input.verification.rag.mode);
  await requireLlmEndpoint(config);

  const client = await connectTemporal(config);
  const worker = await ensureWorker(config, client, logger, { embedded: options.embeddedWorker !== false });
  let waiting: Awaited<ReturnType<typeof waitInterruptibly>> | undefined;
  try {
    const { handle, attached } = await startCheck(client, config.temporal.taskQueue, input, { retryBudgetMs: config.retryBudgetMs });
    const uiUrl = workflowUiUrl(config, handle.workflowId);
    process.stderr.write(`${attached ? 'attached to' : 'started'} ${handle.workflowId}\n${uiUrl ? `  ${uiUrl}\n` : ''}`);
    const stopProgress = reportProgress(client, handle, new CommandProgress({ label: `check ${input.documentId}`, unit: 'claims', intervalMs: config.progressIntervalMs }));
    const result = handle.result();
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    const completed = result.then(
      () => true,
      () => false,
    );
    waiting = await waitInterruptibly(handle, settled, { cancelOnInterrupt: false });
    await stopProgress({ completed: waiting.value !== INTERRUPTED && (await completed) });
    if (waiting.value === INTERRUPTED) {
      process.exitCode = waiting.signal === 'SIGTERM' ? 143 : 130;
      return;
    }
    try {
      await result;
    } catch (err) {
      if (err instanceof WorkflowFailedError) throw new CliError(`check failed: ${describeWorkflowFailure(err)}`);
      throw err;
    }
    const verdict = await storedVerdict(config, input.documentId);
    if (options.json) printJson({ ...verdict, workflowId: handle.workflowId, uiUrl, attached });
    else printText(formatDocumentVerdict(verdict));
    process.stderr.write(`${explorerHint(verdict.documentId)}\n`);
  } finally {
    await worker.stop(waiting?.value === INTERRUPTED ? { withinMs: WORKER_STOP_AFTER_INTERRUPT_MS } : {});
    await waiting?.finish();
    await client.connection.close();
  }
}

async function storedVerdict(config: VerityConfig, documentId: string): Promise<DocumentVerdict> {
  const es = createEsClient(config.elasticsearch);
  try {
    const verdict = await new DocumentStore(es, indexName(config.elasticsearch.indexPrefix, 'documents')).get(documentId);
    if (!verdict) throw new CliError(`the check of document ${documentId} completed but its verdict is missing from the documents index`);
    return verdict;
  } finally {
    await es.close();
  }
}

/**
 * The check's progress on stderr (a bar on a terminal, else lines at a bounded interval), polled
 * every PROGRESS_POLL_MS. One query at a time; stopping aborts the one in flight and waits for it,
 * so no retry outlives the connection. Stopped after the check completed, it reads the final state
 * once more (bounded by FINAL_PROGRESS_MS), so the last line says where the check ended, not where a poll last saw it.
 */
function reportProgress(client: Client, handle: WorkflowHandle, progress: CommandProgress): (options?: { completed?: boolean }) => Promise<void> {
  const abort = new AbortController();
  let inFlight: Promise<void> | undefined;
  const show = (state: CheckProgress) => {
    const update = progressUpdate(state);
    if (update) progress.update(update);
  };
  const timer = setInterval(() => {
    inFlight ??= client
      .withAbortSignal(abort.signal, () => handle.query(checkProgressQuery))
      .then(show, () => undefined)
      .finally(() => {
        inFlight = undefined;
      });
  }, PROGRESS_POLL_MS);
  return async ({ completed = false } = {}) => {
    clearInterval(timer);
    abort.abort();
    await inFlight;
    if (completed) {
      await client.withAbortSignal(AbortSignal.timeout(FINAL_PROGRESS_MS), () => handle.query(checkProgressQuery)).then(show, () => undefined);
    }
    progress.finish();
  };
}

/** Extraction counts sentences, verification claims; splitting is over in a moment. */
function progressUpdate(state: CheckProgress): ProgressUpdate | undefined {
  if (state.phase === 'extract') return { phase: 'extracting claims', unit: 'sentences', done: state.sentencesDone, total: state.sentences, detail: `${state.claims} claims` };
  if (state.phase === 'verify') return { phase: 'verifying', unit: 'claims', done: state.verified, total: state.toVerify };
  // Storing and done end the verifying phase: its last figures, with where the check stands.
  if (state.phase === 'storing' || state.phase === 'done') return { phase: 'verifying', unit: 'claims', done: state.verified, total: state.toVerify, detail: state.phase };
  return undefined;
}
