import type { BatchLaneSettings } from '../shared/batch';
import path from 'node:path';
import { type Client, type WorkflowHandle, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { VerityConfig } from '../config/config';
import type { ConfigStamp } from '../shared/identity';
import { z } from 'zod';
import { indexName, ownIndexProblem } from '../es/indices';
import { unknownKeyMessage } from '../runs/config-keys';
import { MAX_SEARCH_K } from '../retrieval';
import type { RunConfig } from '../runs/run-manifest';
import { InvalidMethodSettingsError, parseMethodSettings } from '../methods/settings-schemas';
import { sweepDetails, sweepSummary } from '../shared/activity-summaries';
import { METHOD_NAMES, type MethodName } from '../methods/registry';
import type { MethodSettings } from '../shared/method-settings';
import { BASELINE_ANSWER_ORDERS } from '../shared/methods/answer-order';
import { runPlacementOf } from '../config/config-identity';
import { sweepWorkflowId } from '../shared/identity';
import { legacySweepWorkflowId, type SweepInput } from '../shared/sweep';
import { CONFIG_STAMP_MEMO } from '../shared/config-stamp';
import { workflowMemo } from './workflow-memo';
import { identityContextOf } from './verification-identity';
import type { sweepWorkflow } from '../../workflows';
import { SEARCH_ATTRIBUTE_KEYS } from '../shared/search-attributes';
import { DEFAULT_TOP_K } from './start-verification';
import { checkPromptVersions } from '../check/tasks';

export class InvalidRunConfigError extends Error {
  override name = 'InvalidRunConfigError';
}

/** The run id names a sweep made under another configuration: attaching would report its results as this configuration's. */
export class RunConfigurationChangedError extends Error {
  override name = 'RunConfigurationChangedError';
}

/**
 * The sweep input of a validated run config. Dataset files are resolved against `baseDir` (the
 * config file's folder); rag parameters default like single verifications do.
 */
export function buildSweepInput(config: VerityConfig, run: RunConfig, baseDir: string): SweepInput {
  const unknown = run.methods.filter((method) => !(METHOD_NAMES as readonly string[]).includes(method));
  if (unknown.length > 0) throw new InvalidRunConfigError(`methods: unknown method "${unknown[0]}"; known methods: ${METHOD_NAMES.join(', ')}`);
  for (const key of ['methods', 'models'] as const) {
    const repeated = firstRepeated(run[key]);
    if (repeated !== undefined) throw new InvalidRunConfigError(`${key}: "${repeated}" is listed twice; list each ${key === 'methods' ? 'method' : 'model'} once`);
  }
  const rag = sweepRagParameters(run.parameters.rag);
  const prefix = config.elasticsearch.indexPrefix;
  // One index-name rule for every index a sweep reads (as for `--index`): one index of this deployment.
  const ragIndexProblem = rag.index === undefined ? undefined : ownIndexProblem(rag.index, prefix);
  if (ragIndexProblem) throw new InvalidRunConfigError(`parameters.rag.index: ${ragIndexProblem}`);
  for (const [i, dataset] of run.datasets.entries()) {
    const problem = dataset.index === undefined ? undefined : ownIndexProblem(dataset.index, prefix);
    if (problem) throw new InvalidRunConfigError(`datasets.${i}.index: ${problem}`);
  }
  const settings: MethodSettings = { ...methodSettingsOf(run), ...(rag.order !== undefined && run.methods.includes('rag') ? { rag: { order: rag.order } } : {}) };
  if ((run.repeats ?? 1) > 1 && run.methods.includes('toe') && settings.toe?.policy === 'online') {
    // Repeats share a claim's position in the run's claim order, on which the online policy's versions are scheduled.
    throw new InvalidRunConfigError('repeats: ToE with policy online learns along the run\'s claim order, which repeats would share; run each repeat as its own run (another run id and seed), or use policy heuristic or learned');
  }
  if (run.check && (run.repeats ?? 1) > 1) throw new InvalidRunConfigError('repeats: not with check (a document is checked once per method and model); run each repeat as its own run');
  if (run.check && run.methods.includes('mermaid') && (settings.mermaid?.memory ?? 'on') !== 'off') {
    throw new InvalidRunConfigError('check: mermaid\'s evidence memory depends on claim order, which a document\'s claims do not keep (they are verified in a window); set parameters.mermaid.memory to off');
  }
  if (!run.ordered && run.methods.includes('mermaid') && (settings.mermaid?.memory ?? 'on') !== 'off') {
    throw new InvalidRunConfigError('ordered: mermaid with evidence memory needs `ordered: true` (what it recalls depends on claim order); or set parameters.mermaid.memory to off');
  }
  return {
    schemaVersion: 1,
    runId: run.run,
    datasets: run.datasets.map((dataset) => ({
      name: dataset.name,
      file: path.resolve(baseDir, dataset.file),
      format: dataset.format,
      ...(dataset.sample !== undefined ? { sample: dataset.sample } : {}),
      ...(dataset.index !== undefined ? { index: dataset.index } : {}),
      ...(dataset.dropLabels !== undefined ? { dropLabels: dataset.dropLabels } : {}),
      ...(dataset.stratify !== undefined ? { stratify: { ...dataset.stratify } } : {}),
      ...(dataset.sha256 !== undefined ? { sha256: dataset.sha256 } : {}),
    })),
    seed: run.seed,
    variants: run.methods.flatMap((method) => run.models.map((model) => ({ method: method as MethodName, model }))),
    rag: { topK: rag.topK ?? DEFAULT_TOP_K, index: rag.index ?? indexName(config.elasticsearch.indexPrefix, 'wiki') },
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    concurrency: run.concurrency,
    ordered: run.ordered,
    ...(run.repeats !== undefined && run.repeats > 1 ? { repeats: run.repeats } : {}),
    ...(run.check ? { check: { checkPrompts: checkPromptVersions(), ...run.check } } : {}),
    budget: { ...run.budget },
    ...(run.limits && Object.keys(run.limits).length > 0 ? { limits: { ...run.limits } } : {}),
    ...(run.policies?.maxFailureRate !== undefined ? { failurePolicy: { maxFailureRate: run.policies.maxFailureRate, minVerifications: run.policies.minVerifications } } : {}),
    ...(run.policies?.failStuckAfterSeconds !== undefined ? { stuckAfterMs: run.policies.failStuckAfterSeconds * 1000 } : {}),
    ...(run.batch ? { batch: batchLaneOf(run.batch, run.models) } : {}),
    identity: { ...identityContextOf(config), placement: runPlacementOf(config) },
  };
}

/**
 * The config's `batch` as the sweep carries it: its models, or every model of the run (`batch: true`).
 * A batch model the run does not use is a mistake, not a no-op.
 */
function batchLaneOf(batch: NonNullable<RunConfig['batch']>, models: readonly string[]): BatchLaneSettings {
  const unknown = batch.models?.find((model) => !models.includes(model));
  if (unknown) throw new InvalidRunConfigError(`batch.models: ${unknown} is not one of the run's models (${models.join(', ')})`);
  return {
    models: [...(batch.models ?? models)],
    ...(batch.maxRequests !== undefined ? { maxRequests: batch.maxRequests } : {}),
    ...(batch.maxWaitSeconds !== undefined ? { maxWaitMs: batch.maxWaitSeconds * 1000 } : {}),
    ...(batch.pollSeconds !== undefined ? { pollMs: batch.pollSeconds * 1000 } : {}),
    ...(batch.maxSubmissions !== undefined ? { maxSubmissions: batch.maxSubmissions } : {}),
  };
}

/** The first value that appears twice (each would be verified, counted and paid for twice). */
function firstRepeated(values: readonly string[]): string | undefined {
  return values.find((value, index) => values.indexOf(value) !== index);
}

/** `parameters.<method>` of every method the run uses, validated by that method's schema. */
/**
 * `parameters.rag` of a sweep config: the retrieval of every method's verifications (topK, index) and the
 * rag method's own setting (order); unknown keys refused, as for every method.
 */
const sweepRagParametersSchema = z.strictObject({
  topK: z.number().int('expected a whole number').min(1, 'expected a whole number above 0').max(MAX_SEARCH_K, `at most ${MAX_SEARCH_K} passages`).optional(),
  index: z.string({ error: 'expected an index name' }).optional(),
  order: z.enum(BASELINE_ANSWER_ORDERS, { error: `expected one of ${BASELINE_ANSWER_ORDERS.join(', ')}` }).optional(),
});

function sweepRagParameters(raw: unknown): z.infer<typeof sweepRagParametersSchema> {
  const parsed = sweepRagParametersSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = ['parameters', 'rag', ...issue.path.map(String)].join('.');
  const message = issue.code === 'unrecognized_keys' ? unknownKeyMessage(issue.keys[0] ?? '', Object.keys(sweepRagParametersSchema.shape)) : issue.message;
  throw new InvalidRunConfigError(`${where}: ${message}`);
}

function methodSettingsOf(run: RunConfig): MethodSettings {
  let settings: MethodSettings = {};
  for (const method of run.methods as MethodName[]) {
    if (method === 'rag') continue;
    try {
      settings = { ...settings, ...parseMethodSettings(method, run.parameters[method], `parameters.${method}`) };
    } catch (err) {
      if (err instanceof InvalidMethodSettingsError) throw new InvalidRunConfigError(err.message);
      throw err;
    }
  }
  return settings;
}

const RESTARTABLE = new Set(['FAILED', 'TERMINATED', 'CANCELLED', 'TIMED_OUT']);

/**
 * The run's sweep id and its current execution, if any; refuses (RunConfigurationChangedError) when
 * that execution was made under another configuration and would be attached to.
 */
export async function checkSweepConfiguration(client: Client, input: SweepInput): Promise<{ workflowId: string; existing?: { status: string } }> {
  const workflowId = input.identity ? sweepWorkflowId(input.runId, input.identity.placement) : legacySweepWorkflowId(input.runId);
  const description = await client.workflow
    .getHandle(workflowId)
    .describe()
    .catch((err: unknown) => {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    });
  if (!description) return { workflowId };
  const status = description.status.name;
  const stamp = description.memo?.[CONFIG_STAMP_MEMO] as ConfigStamp | undefined;
  if (input.identity && !RESTARTABLE.has(status) && stamp?.fingerprint !== input.identity.stamp.fingerprint) {
    throw new RunConfigurationChangedError(
      `run "${input.runId}" was made under another configuration (${stamp?.label ?? 'unknown'}), not this one (${input.identity.stamp.label}); choose another run id`,
    );
  }
  return { workflowId, existing: { status } };
}

/**
 * Starts `sweep/<run>`, or attaches to it when it already runs or completed: running the same
 * sweep again resumes it and never duplicates it. Only a failed sweep is started afresh (and then
 * reuses every verdict stored so far) — or a finished one with `rerunFinished` (a grown run, or a
 * retry of its failed verifications), which likewise reuses every stored verdict.
 */
export async function startSweep(
  client: Client,
  taskQueue: string,
  input: SweepInput,
  options: { rerunFinished?: boolean; retryBudgetMs?: number } = {},
): Promise<{ handle: WorkflowHandle<typeof sweepWorkflow>; attached: boolean }> {
  const { workflowId, existing } = await checkSweepConfiguration(client, input);
  try {
    const handle = await client.workflow.start<typeof sweepWorkflow>('sweepWorkflow', {
      workflowId,
      taskQueue,
      args: [input],
      memo: workflowMemo(input.identity?.stamp, options.retryBudgetMs),
      workflowIdReusePolicy: options.rerunFinished ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: [{ key: SEARCH_ATTRIBUTE_KEYS.run, value: input.runId }],
      staticSummary: sweepSummary(input),
      staticDetails: sweepDetails(input),
    });
    // USE_EXISTING answers with the running execution instead of an error.
    return { handle, attached: existing?.status === 'RUNNING' || existing?.status === 'CONTINUED_AS_NEW' };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { handle: client.workflow.getHandle<typeof sweepWorkflow>(workflowId), attached: true };
    throw err;
  }
}
