import fs from 'node:fs';
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import {
  type Client,
  WorkflowFailedError,
  type WorkflowHandle,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { buildSweepInput, checkSweepConfiguration, InvalidRunConfigError, RunConfigurationChangedError, startSweep } from '../../client/start-sweep';
import { connectTemporal, workflowUiUrl } from '../../client/temporal';
import { hasWorkflowPollers } from '../../client/worker-presence';
import { formatLlmRate, readLlmRateStatus } from '../../client/llm-rate-status';
import { ConfigError, type LlmChoice, loadConfig, type VerityConfig } from '../../config/config';
import { applyLlmOption, llmOption } from '../llm-option';
import { MIN_EARLIER_VERDICTS } from '../../plan/earlier-runs';
import { formatUsd, maxUsdRefusal, plannedPerVerification, type Plan } from '../../plan/plan-figures';
import { hasBudget } from '../../shared/sweep-budget';
import { DEFAULT_PILOT_CLAIMS, planSweep } from '../../plan/plan-sweep';
import { PlanInterruptedError } from '../../plan/pilot';
import { formatPlan } from '../plan-output';
import { createEsClient } from '../../es/client';
import { indexName } from '../../es/indices';
import { buildRunManifest } from '../../runs/build-manifest';
import { calibrateToolMadRun, toolMadVectorProblem, ToolMadProtocolError } from '../../client/tool-mad-protocol';
import { type RunCalibration, type RunConfig, runConfigSchema } from '../../runs/run-manifest';
import { IncompatibleRunChangeError, type RecordedRun, recordRun } from '../../runs/record-run';
import { RunFailureStore } from '../../runs/run-failure-store';
import { RunStore } from '../../runs/run-store';
import { VerdictStore } from '../../verdicts/verdict-store';
import { readRunConfig, RunConfigFileError } from '../../runs/read-run-config';
import { checkRunDatasets, type DatasetCheck, describeSkipped } from '../../runs/dataset-check';
import { RunInputError } from '../../runs/run-claims';
import { runPlacementOf } from '../../config/config-identity';
import { sweepWorkflowId } from '../../shared/identity';
import { legacySweepWorkflowId, type SweepBudget, type SweepInput, type SweepProgress } from '../../shared/sweep';
import type { sweepWorkflow } from '../../../workflows';
import { cancelSweepUpdate, pauseSweepUpdate, resumeSweepUpdate, setSweepBudgetUpdate, sweepProgressQuery } from '../../shared/definitions/sweep';
import { createLogger } from '../../logging/logger';
import { createCliLogger } from '../cli-logger';
import { ensureWorker } from '../embedded-worker';
import { CliError } from '../errors';
import { notice, printJson, printText } from '../output';
import { requireElasticsearch } from '../preflight';
import { describeOverBudget, formatProgress, SweepProgressBar } from '../sweep-progress';
import { formatStuck, formatWatch, ratePerMinute, retryingActivities } from '../sweep-watch';
import { findStuckVerifications } from '../../client/stuck-workflows';
import { SEARCH_ATTRIBUTES } from '../../shared/constants';
import { explorerDataFor } from './view';
import { describeFailure } from '../workflow-failure';
import { parsePositiveInt } from '../common';

const ANSWER_TIMEOUT_MS = 20_000;
const POLL_MS = 1_000;

type SweepHandle = WorkflowHandle<typeof sweepWorkflow>;

interface RunOptions {
  run?: string;
  embeddedWorker?: boolean;
  detach?: boolean;
  json?: boolean;
  maxUsd?: number;
  pilotClaims?: number;
  llm?: LlmChoice;
}

interface PlanCommandOptions {
  run?: string;
  pilotClaims: number;
  pilot?: boolean;
  json?: boolean;
  /** Assumed batch turnaround in hours (the batch wall time). */
  batchTurnaround?: number;
}

/** The sweep config, or a one-line CliError (exit code 2) naming the file and the YAML path at fault. */
function readSweepConfig(file: string): RunConfig {
  try {
    return readRunConfig(file);
  } catch (err) {
    if (err instanceof RunConfigFileError) throw new CliError(err.message, 2);
    throw err;
  }
}

function sweepInputFor(config: VerityConfig, file: string, runId?: string): { run: RunConfig; input: SweepInput; calibrations: RunCalibration[] } {
  const configured = readSweepConfig(file);
  if (runId !== undefined) {
    const checked = runConfigSchema.shape.run.safeParse(runId);
    if (!checked.success) throw new CliError(`--run: ${checked.error.issues[0]?.message ?? 'invalid run id'}`, 2);
    configured.run = runId;
  }
  let input: SweepInput;
  let calibrated: ReturnType<typeof calibrateToolMadRun>;
  try {
    calibrated = calibrateToolMadRun(config, configured);
    input = buildSweepInput(config, calibrated.run, path.dirname(path.resolve(file)));
  } catch (err) {
    if (err instanceof InvalidRunConfigError || err instanceof ToolMadProtocolError) throw new CliError(`${file}: ${err.message}`, 2);
    throw err;
  }
  const missing = input.datasets.find((dataset) => !fs.existsSync(dataset.file));
  if (missing) throw new CliError(`${file}: dataset file not found: ${missing.file}`, 2);
  return { run: calibrated.run, input, calibrations: calibrated.calibrations };
}

/** A Tool-MAD RAG debater would fall back to BM25 for want of vectors: the line that says so, or null. */
async function toolMadVectorNotice(config: VerityConfig, run: RunConfig, input: SweepInput): Promise<string | null> {
  const es = createEsClient(config.elasticsearch);
  try {
    return await toolMadVectorProblem(es, run, input);
  } finally {
    await es.close();
  }
}

function describeCalibration(c: RunCalibration): string {
  return `${c.method} ${c.setting} ${c.value} for embedding model ${c.embeddingModel} (${c.from === 'table' ? `calibrated: ${c.source}` : c.source}); recorded in the run manifest`;
}

/** Reads the datasets before anything starts: skipped records are listed with their line numbers; empty, unreadable or (strict) malformed datasets fail. */
async function reportDatasets(file: string, run: RunConfig, input: SweepInput): Promise<void> {
  let checks: DatasetCheck[];
  try {
    checks = await checkRunDatasets(input.datasets, { strict: run.strict === true });
  } catch (err) {
    if (err instanceof RunInputError) throw new CliError(`${file}: ${err.message}`, 2);
    throw err;
  }
  for (const check of checks) for (const line of describeSkipped(check)) notice(line);
  const skipped = checks.reduce((sum, check) => sum + check.skippedCount, 0);
  if (skipped > 0) notice(`${skipped} dataset record(s) skipped; set \`strict: true\` in ${path.basename(file)} to fail on them instead`);
}

/**
 * Writes the manifest of a new or grown run; a run id already used with an incompatible config is
 * refused. The dataset hashes it records go into `input` too: a worker refuses files changed since.
 */
async function recordManifest(config: VerityConfig, run: RunConfig, input: SweepInput, sweepRunning: boolean, calibrations: RunCalibration[] = []): Promise<RecordedRun> {
  const es = createEsClient(config.elasticsearch);
  try {
    const runs = new RunStore(es, indexName(config.elasticsearch.indexPrefix, 'runs'));
    const manifest = await buildRunManifest(config, run, input);
    manifest.config.datasets.forEach((dataset, i) => {
      if (dataset.sha256 !== undefined && input.datasets[i]) input.datasets[i].sha256 = dataset.sha256;
    });
    return await recordRun(runs, calibrations.length > 0 ? { ...manifest, calibrations } : manifest, { sweepRunning });
  } catch (err) {
    if (err instanceof IncompatibleRunChangeError) throw new CliError(err.message, 2);
    throw err;
  } finally {
    await es.close();
  }
}

function withTimeout<T>(promise: Promise<T>, what: string, pending = ''): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CliError(`${what}: no worker answered within ${ANSWER_TIMEOUT_MS / 1000} s${pending}; start one with \`verity worker\``)), ANSWER_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The Temporal status of the run's sweep (RUNNING, COMPLETED, …), undefined when it never ran. */
async function sweepStatusOf(client: Client, config: VerityConfig, runId: string): Promise<string | undefined> {
  try {
    return (await client.workflow.getHandle(sweepWorkflowId(runId, runPlacementOf(config))).describe()).status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/** The handle of the run's sweep (under this prefix; or one started by an earlier version), failing with one line when there is none. */
async function existingSweep(client: Client, config: VerityConfig, runId: string): Promise<{ handle: SweepHandle; status: string }> {
  const workflowId = sweepWorkflowId(runId, runPlacementOf(config));
  for (const id of [workflowId, legacySweepWorkflowId(runId)]) {
    const handle = client.workflow.getHandle<typeof sweepWorkflow>(id);
    try {
      return { handle, status: (await handle.describe()).status.name };
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
  throw new CliError(`unknown run "${runId}": no sweep ${workflowId}`, 2);
}

/** The sweep's progress: from its result once it finished, otherwise by query (a worker must answer). */
async function readProgress(handle: SweepHandle, status: string): Promise<SweepProgress> {
  if (status === 'COMPLETED') return handle.result();
  if (status === 'RUNNING') return withTimeout(handle.query(sweepProgressQuery), 'status');
  let reason = status.toLowerCase();
  try {
    await handle.result();
  } catch (err) {
    reason = `${reason}: ${describeFailure(err as Error)}`;
  }
  throw new CliError(`sweep ${handle.workflowId} ${reason}; run \`verity sweep run <config>\` again to resume it`);
}

/** Updates wait for a worker and stay queued when none comes: refuse them up front without one. */
async function requirePollers(client: Client, config: VerityConfig, what: string): Promise<void> {
  if (!(await hasWorkflowPollers(client, config.temporal.taskQueue))) {
    throw new CliError(`cannot ${what}: no worker polls "${config.temporal.taskQueue}"; start one with \`verity worker\` (or \`verity sweep run\`)`);
  }
}

async function withClient<T>(action: (client: Client, config: VerityConfig) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const client = await connectTemporal(config);
  try {
    return await action(client, config);
  } finally {
    await client.connection.close();
  }
}

/** The sweep's plan (earlier runs or a pilot on the simulator); a bad prices file is one line naming it. */
async function planOf(config: VerityConfig, file: string, run: RunConfig, input: SweepInput, options: { pilotClaims: number; forcePilot?: boolean; batchTurnaroundHours?: number }): Promise<Plan> {
  if (run.check) {
    // Per-claim figures do not price a document, whose cost grows with the claims it holds.
    throw new CliError(`${file}: sweep plan does not estimate sweeps with check (a document costs its steps plus one verification per claim it holds); run a sample of the documents first (datasets[].sample) and read its report's cost per document`, 2);
  }
  const es = createEsClient(config.elasticsearch);
  // The first Ctrl-C or SIGTERM stops a running pilot and deletes its indices; the command then ends with one line.
  const interrupt = new AbortController();
  const signals = { SIGINT: 130, SIGTERM: 143 } as const;
  let exitCode = 1;
  const onSignal = (signal: keyof typeof signals) => {
    exitCode = signals[signal];
    interrupt.abort();
  };
  for (const signal of Object.keys(signals) as (keyof typeof signals)[]) process.once(signal, onSignal);
  try {
    return await planSweep({
      config,
      env: process.env,
      es,
      run,
      input,
      configDir: path.dirname(path.resolve(file)),
      pilotClaims: options.pilotClaims,
      ...(options.forcePilot ? { forcePilot: true } : {}),
      ...(options.batchTurnaroundHours !== undefined ? { batchTurnaroundMs: options.batchTurnaroundHours * 3_600_000 } : {}),
      // The pilot's failures are summed up in the plan, not logged one by one.
      logger: createLogger('error'),
      onProgress: notice,
      signal: interrupt.signal,
    });
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 2);
    if (err instanceof PlanInterruptedError) throw new CliError(err.message, exitCode);
    throw err;
  } finally {
    for (const signal of Object.keys(signals) as (keyof typeof signals)[]) process.off(signal, onSignal);
    await es.close();
  }
}

async function planCommand(file: string, options: PlanCommandOptions): Promise<void> {
  const config = loadConfig();
  const { run, input, calibrations } = sweepInputFor(config, file, options.run);
  await reportDatasets(file, run, input);
  await requireElasticsearch(config);
  for (const calibration of calibrations) notice(describeCalibration(calibration));
  const vectors = await toolMadVectorNotice(config, run, input);
  if (vectors) notice(`${vectors} (\`sweep run\` refuses to start)`);
  const plan = await planOf(config, file, run, input, { pilotClaims: options.pilotClaims, forcePilot: options.pilot === true, ...(options.batchTurnaround !== undefined ? { batchTurnaroundHours: options.batchTurnaround } : {}) });
  if (options.json) printJson(plan);
  else process.stdout.write(`${formatPlan(plan)}\n`);
}

async function runSweepCommand(file: string, options: RunOptions): Promise<void> {
  applyLlmOption(options.llm);
  const config = loadConfig();
  const { run, input, calibrations } = sweepInputFor(config, file, options.run);
  await reportDatasets(file, run, input);
  await requireElasticsearch(config);
  const vectors = await toolMadVectorNotice(config, run, input);
  if (vectors) throw new CliError(`${file}: ${vectors}`, 2);
  for (const calibration of calibrations) notice(describeCalibration(calibration));
  const withBudget = hasBudget(input.budget) && !run.check;
  const plan = options.maxUsd !== undefined || withBudget ? await planOf(config, file, run, input, { pilotClaims: options.pilotClaims ?? DEFAULT_PILOT_CLAIMS }) : undefined;
  if (options.maxUsd !== undefined) {
    const refusal = maxUsdRefusal(plan!, options.maxUsd);
    if (refusal) throw new CliError(refusal, 2);
    notice(`plan: at most $${formatUsd(plan!.usd!.high)} (--max-usd ${options.maxUsd})`);
  }
  const planned = withBudget ? plannedPerVerification(plan!) : undefined;
  if (planned) {
    input.plannedPerVerification = planned;
    notice(`budget: each verification reserves the plan's ${describePlannedSpend(planned)} until one has finished`);
  }
  const client = await connectTemporal(config);
  try {
    await checkSweepConfiguration(client, input);
  } catch (err) {
    await client.connection.close();
    if (err instanceof RunConfigurationChangedError) throw new CliError(err.message, 2);
    throw err;
  }
  const recorded = await recordManifest(config, run, input, (await sweepStatusOf(client, config, run.run)) === 'RUNNING', calibrations).catch(async (err: unknown) => {
    await client.connection.close();
    throw err;
  });
  if (recorded.kind === 'grown') notice(`growing run ${run.run}: ${recorded.added.join(', ')} added; stored verdicts are reused`);
  const again = `verity sweep run ${file}${options.run ? ` --run ${options.run}` : ''}`;
  await driveSweep(config, client, input, options, { rerunFinished: recorded.kind === 'grown', again });
}

/** Starts (or attaches to) the sweep with a worker as asked, then follows it to its end or to a pause. */
async function driveSweep(
  config: VerityConfig,
  client: Client,
  input: SweepInput,
  options: RunOptions,
  how: { rerunFinished: boolean; again: string },
): Promise<void> {
  const embedded = options.embeddedWorker !== false && !options.detach;
  const worker = await ensureWorker(config, client, createCliLogger(config), { embedded });
  const bar = new SweepProgressBar({ runId: input.runId, intervalMs: config.progressIntervalMs });
  const interrupt = () => {
    bar.stop();
    notice(`interrupted; the sweep keeps its state: run \`${how.again}\` again to resume`);
    void worker.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  try {
    const { handle, attached } = await startSweep(client, config.temporal.taskQueue, input, { rerunFinished: how.rerunFinished, retryBudgetMs: config.retryBudgetMs });
    notice(`${attached ? 'attached to' : 'started'} ${handle.workflowId}  ${workflowUiUrl(config, handle.workflowId) ?? ''}`.trimEnd());
    if (config.llm.provider === 'simulator') notice('the simulator answers every LLM call: its labels are not a measure of any method');
    if (options.detach) return; // ensureWorker has said so when no worker polls the queue
    const final = await followSweep(handle, bar, embedded);
    bar.update(final);
    bar.stop();
    if (options.json) printJson(final);
    else printText(`${formatProgress(final)}\n`);
    if (final.status === 'budget-exhausted' && final.done + final.failed === 0 && input.plannedPerVerification) {
      notice(`nothing started: one verification is planned at ${describePlannedSpend(input.plannedPerVerification)}, more than the budget (${describeOverBudget(final.budget)}) holds`);
    }
    if (final.status === 'budget-exhausted') notice(`budget exhausted${final.overBudget ? ` (over by ${describeOverBudget(final.overBudget)})` : ''}: raise it with \`verity sweep budget ${input.runId} --usd N\` (or --tokens N), then run \`${how.again}\``);
    if (final.status === 'paused') notice(`paused: \`verity sweep resume ${input.runId}\`, then run \`${how.again}\``);
  } finally {
    process.removeListener('SIGINT', interrupt);
    bar.stop();
    await worker.stop();
    await client.connection.close();
  }
}

/** Re-runs only the failed verifications of a completed run; their earlier failures stay recorded. */
async function retryCommand(runId: string, options: RunOptions): Promise<void> {
  const config = loadConfig();
  await requireElasticsearch(config);
  const es = createEsClient(config.elasticsearch);
  let input: SweepInput;
  let failed: number;
  try {
    const manifest = await new RunStore(es, indexName(config.elasticsearch.indexPrefix, 'runs')).get(runId);
    if (!manifest) throw new CliError(`unknown run "${runId}" (no manifest)`, 2);
    if (manifest.status !== 'completed') {
      throw new CliError(`run "${runId}" is ${manifest.status}: retry re-runs the failures of a completed run; \`verity sweep run <config>\` resumes an unfinished one`, 2);
    }
    const failures = await new RunFailureStore(es, indexName(config.elasticsearch.indexPrefix, 'run-failures')).list(runId);
    const verified = await new VerdictStore(es, indexName(config.elasticsearch.indexPrefix, 'verdicts')).findUsage(failures.map((f) => f.workflowId));
    failed = failures.filter((failure) => !verified[failure.workflowId]).length;
    input = buildSweepInput(config, manifest.config, '/');
  } finally {
    await es.close();
  }
  if (failed === 0) {
    notice(`run "${runId}" has no failed verifications to retry`);
    return;
  }
  notice(`retrying ${failed} failed verification${failed === 1 ? '' : 's'} of run ${runId}; the others are reused`);
  const client = await connectTemporal(config);
  await driveSweep(config, client, input, options, { rerunFinished: true, again: `verity sweep retry ${runId}` });
}

/**
 * Shows progress until the sweep finishes, or until it waits for a person (paused or out of
 * budget with nothing running) — an embedded worker has nothing to do then.
 */
async function followSweep(handle: SweepHandle, bar: SweepProgressBar, embedded: boolean): Promise<SweepProgress> {
  let finished: SweepProgress | undefined;
  let failure: unknown;
  const result = handle.result().then(
    (progress) => (finished = progress),
    (err: unknown) => (failure = err ?? new Error('the sweep failed')),
  );
  for (;;) {
    if (failure) throw failure instanceof WorkflowFailedError ? new CliError(`sweep failed: ${describeFailure(failure)}`) : failure;
    if (finished) return finished;
    const progress = await handle.query(sweepProgressQuery).catch(() => undefined);
    if (progress) {
      bar.update(progress);
      const waitingForPerson = (progress.status === 'paused' || progress.status === 'budget-exhausted') && progress.running === 0;
      if (embedded && waitingForPerson) return progress;
    }
    await Promise.race([result, new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
  }
}

async function statusCommand(runId: string, options: { json?: boolean; watch?: number }): Promise<void> {
  if (options.watch !== undefined) return watchCommand(runId, options.watch);
  await withClient(async (client, config) => {
    const { handle, status } = await existingSweep(client, config, runId);
    const progress = await readProgress(handle, status);
    const llmRate = await withTimeout(readLlmRateStatus(client, config), 'status');
    const stuck = status === 'RUNNING' ? await withTimeout(findStuckVerifications(client, SEARCH_ATTRIBUTES.run, runId), 'status') : [];
    if (options.json) printJson({ ...progress, llmRate, stuck });
    else printText(`${formatProgress(progress)}\n${formatStuck(stuck)}${formatLlmRate(llmRate)}\n`);
  });
}

/**
 * `sweep status --watch`: progress, rate, cost, the latest failures and the activities Temporal is
 * retrying (429s among them), every `seconds`, until the sweep is no longer running or Ctrl-C.
 */
async function watchCommand(runId: string, seconds: number): Promise<void> {
  await withClient(async (client, config) => {
    const es = createEsClient(config.elasticsearch);
    const failuresOf = explorerDataFor(config, es, runId);
    let stopped = false;
    const stop = () => (stopped = true);
    process.once('SIGINT', stop);
    let first: { at: number; finished: number } | undefined;
    try {
      while (!stopped) {
        const { handle, status } = await existingSweep(client, config, runId);
        const progress = await readProgress(handle, status);
        const latest = { at: Date.now(), finished: progress.done + progress.failed };
        first ??= latest;
        const [{ failures }, retries, llmRate, stuck] = await Promise.all([
          failuresOf.failures(0, 3).catch(() => ({ failures: [] })),
          retryingActivities(client, runId),
          withTimeout(readLlmRateStatus(client, config), 'status'),
          findStuckVerifications(client, SEARCH_ATTRIBUTES.run, runId).catch(() => []),
        ]);
        // The adaptive LLM rate (halved on 429s) next to the activities Temporal is retrying.
        const text = `${formatWatch({ progress, perMinute: ratePerMinute(first, latest), failures, ...retries })}\n${formatStuck(stuck)}${formatLlmRate(llmRate)}`;
        process.stdout.write(process.stdout.isTTY ? `\x1b[2J\x1b[H${text}\n` : `${new Date().toISOString()}\n${text}\n`);
        if (status !== 'RUNNING') break;
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      }
    } finally {
      process.off('SIGINT', stop);
      await es.close();
    }
  });
}

async function controlCommand(runId: string, action: 'pause' | 'resume' | 'cancel', budget?: { usd?: number; tokens?: number }): Promise<void> {
  await withClient(async (client, config) => {
    const { handle, status } = await existingSweep(client, config, runId);
    const what = budget ? 'change the budget of' : action;
    if (status !== 'RUNNING') throw new CliError(`cannot ${what} run "${runId}": its sweep is ${status.toLowerCase()}`, 2);
    await requirePollers(client, config, `${what} run "${runId}"`);
    try {
      const update =
        budget !== undefined
          ? handle.executeUpdate(setSweepBudgetUpdate, { args: [budget] })
          : handle.executeUpdate({ pause: pauseSweepUpdate, resume: resumeSweepUpdate, cancel: cancelSweepUpdate }[action]);
      const progress = await withTimeout(update, action, ' (the request stays queued and applies when a worker picks the sweep up)');
      printText(`${formatProgress(progress)}\n`);
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new CliError(`cannot ${what} run "${runId}": ${describeFailure(err)}`, 2);
      throw err;
    }
  });
}

function positiveNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError('expected a number above 0');
  return parsed;
}

export function registerSweepCommand(program: Command): void {
  const sweep = program.command('sweep').description('Benchmark sweeps: every claim of a run × every (method, model), durable and resumable.');

  sweep
    .command('run')
    .description('Start the sweep of a run config (or re-attach to it) and follow its progress.')
    .argument('<config>', 'sweep config YAML (see eval/sweeps/)')
    .option('--run <id>', "run id instead of the config's `run`")
    .option('--no-embedded-worker', 'rely on workers started with `verity worker` instead of running one in this process')
    .option('--detach', 'start the sweep and return (a `verity worker` runs it)')
    .option('--json', 'print the final progress as JSON')
    .option('--max-usd <usd>', "refuse to start when the plan's upper estimate is above this (see `verity sweep plan`)", positiveNumber)
    .option('--pilot-claims <k>', 'claims per dataset in the pilot that --max-usd may run', parsePositiveInt)
    .addOption(llmOption())
    .addHelpText(
      'after',
      '\nThe sweep is the workflow sweep/<run>: running this again after any crash resumes it and never\nrepeats a verification that has a verdict. Progress: `verity sweep status <run>`.',
    )
    .action(async (file: string, options: RunOptions) => {
      await runSweepCommand(file, options);
    });

  sweep
    .command('plan')
    .description('Before any paid call: claims, LLM calls, tokens in and out and USD per (dataset × method × model), each as a range.')
    .argument('<config>', 'sweep config YAML (see eval/sweeps/)')
    .option('--run <id>', "run id instead of the config's `run`")
    .option('--pilot-claims <k>', 'claims per dataset in the pilot', parsePositiveInt, DEFAULT_PILOT_CLAIMS)
    .option('--pilot', 'run a pilot even where earlier runs have figures')
    .option('--batch-turnaround <hours>', 'assumed time a batch takes, for the wall time of a sweep with batch: true (default: the 24-hour window)', positiveNumber)
    .option('--json', 'print the plan as JSON')
    .addHelpText(
      'after',
      `
Figures per claim come from the verdicts of earlier runs with the same method and model (at least
${MIN_EARLIER_VERDICTS}; for a real endpoint, runs the embedded simulator answered are left out), else
from a pilot: k claims per dataset through the embedded simulator, as a sweep of its own (run
plan-<id>, index prefix <prefix>-plan-<id>; Ctrl-C or SIGTERM stops it, and it is deleted afterwards
either way; it reads the corpora through aliases and never mixes with real results). The range is the estimate ± 2 standard
deviations (at least ±10%). USD: the built-in price table or VERITY_PRICES_FILE
({"model": {"input": USD per 1M, "output": USD per 1M}}).`,
    )
    .action(async (file: string, options: PlanCommandOptions) => {
      await planCommand(file, options);
    });

  sweep
    .command('retry')
    .description('Re-run only the failed verifications of a completed run (their earlier failures stay in the record).')
    .argument('<run>', 'run id')
    .option('--no-embedded-worker', 'rely on workers started with `verity worker` instead of running one in this process')
    .option('--detach', 'start the retry and return (a `verity worker` runs it)')
    .option('--json', 'print the final progress as JSON')
    .action(async (runId: string, options: RunOptions) => {
      await retryCommand(runId, options);
    });

  sweep
    .command('status')
    .description('Print the progress of a run: verdicts, failures, running, tokens and cost so far, status.')
    .argument('<run>', 'run id')
    .option('--json', 'print as JSON')
    .option('--watch [seconds]', 'refresh every N seconds (default 2) with the rate, ETA, latest failures and the activities being retried (429s), until the sweep stops', (value) => positiveNumber(value))
    .action(async (runId: string, options: { json?: boolean; watch?: number | true }) => {
      await statusCommand(runId, { ...options, watch: options.watch === true ? 2 : options.watch });
    });

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    const descriptions = {
      pause: 'Stop starting verifications (running ones finish).',
      resume: 'Start verifications again after a pause.',
      cancel: 'Stop the sweep for good; running verifications are cancelled.',
    };
    sweep
      .command(action)
      .description(descriptions[action])
      .argument('<run>', 'run id')
      .action(async (runId: string) => {
        await controlCommand(runId, action);
      });
  }

  sweep
    .command('budget')
    .description('Set the budget of a run; a sweep paused by its budget continues when the new one allows.')
    .argument('<run>', 'run id')
    .option('--usd <n>', 'budget in US dollars', positiveNumber)
    .option('--tokens <n>', 'budget in tokens', parsePositiveInt)
    .action(async (runId: string, options: { usd?: number; tokens?: number }) => {
      if (options.usd === undefined && options.tokens === undefined) throw new CliError('give --usd N and/or --tokens N', 2);
      await controlCommand(runId, 'resume', { ...(options.usd !== undefined ? { usd: options.usd } : {}), ...(options.tokens !== undefined ? { tokens: options.tokens } : {}) });
    });
}

/** `about 2,200 tokens ($0.0061)` */
function describePlannedSpend(planned: SweepBudget): string {
  const parts = [planned.tokens !== undefined ? `about ${Math.round(planned.tokens).toLocaleString('en-US')} tokens` : undefined, planned.usd !== undefined ? `$${formatUsd(planned.usd)}` : undefined].filter(Boolean);
  return parts.length === 2 ? `${parts[0]} (${parts[1]})` : parts[0] ?? 'no figure';
}
