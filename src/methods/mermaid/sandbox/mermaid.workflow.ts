import { memoryRecalledSummary, memoryRecallSummary, memoryUpdateSummary, methodStepSummary } from '../../../shared/activity-summaries';
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { callToolAsObservation } from './mermaid-tool-call';
import { runMermaidReleased } from './mermaid-released.workflow';
import type { InvalidOutputDetails } from '../../../llm/errors';
import type { MemoryRecall } from '../../../memory/evidence-memory';
import type { ExecutorStepOutput, ForcedAnswerOutput, MermaidDecompositionOutput } from '../tasks';
import { FAILURE_TYPES } from '../../../shared/constants';
import { memoryWriteDue, type MemoryObservation, type MemoryRecallOptions, type MemoryUpdateOptions } from '../../../shared/memory';
import {
  MERMAID_LABEL_SETS,
  mermaidLabelSetName,
  mermaidMemoryScope,
  mermaidToolset,
  resolveMermaidSettings,
  type MermaidSettings,
} from './mermaid-settings';
import {
  classifyAnswer,
  entitiesOf,
  FAILED_DECOMPOSITION,
  historyLines,
  interpretStep,
  UNPARSABLE_THOUGHT_CHARS,
  unparsableLine,
  verdictLabelOf,
  type MermaidDecomposition,
  type MermaidToolEntry,
  type StepDecision,
} from './mermaid-protocol';
import { executorStepOf } from './mermaid-step';
import type { MethodTrace } from '../../../shared/verify';
import { shortReads, shortWrites } from '../../../../workflows/es-activities';
import type { MethodOutcome, MethodRun } from '../../../../workflows/method-run';
import { PATCHES } from '../../../shared/patches';
import { hasPatch } from '../../../../workflows/has-patch';

/** Characters of each recalled line kept in the trace (the prompt gets the full 2,000). */
const TRACE_MEMORY_CHARS = 300;
/** Characters of each observation kept as verdict evidence (the trace keeps the full observation). */
const EVIDENCE_CHARS = 500;

export interface MermaidStep {
  step: number;
  kind: StepDecision['kind'] | 'unparsable';
  thought: string;
  action?: { tool: string; input: string; args?: Record<string, unknown> };
  observation?: string;
  isError?: boolean;
  answer?: string;
}

export interface MermaidTrace extends MethodTrace {
  method: 'mermaid';
  fidelity: MermaidSettings['fidelity'];
  decomposition: MermaidDecomposition | null;
  decompositionFailed: boolean;
  entities: string[];
  memory: {
    mode: MermaidSettings['memory'];
    scope: string;
    /** When observations were written (endOfClaim: the paper; perCall: the released code). */
    updateMode?: MemoryUpdateOptions['mode'];
    recalled: MemoryRecall['hits'];
    lines: string[];
    written?: number;
    frozenSkipped?: number;
  };
  tools: string[];
  steps: MermaidStep[];
  forced: boolean;
  /** The forced answer also failed (or was not asked for): the fallback label was used. */
  fallback: boolean;
  toolCalls: number;
  answer?: string;
  answerClass?: ReturnType<typeof classifyAnswer>;
  labels: { positive: string; negative: string };
  models: { decomposer: string; executor: string };
}

/**
 * MERMAID (Algorithm 1): decompose the claim, recall evidence by its entities, run the ReAct
 * executor for at most T_max steps with at most one tool call each, force an answer at T_max,
 * and write the new evidence back to the memory shared by the run's later claims.
 */
export async function runMermaid(run: MethodRun): Promise<MethodOutcome> {
  const { input, progress } = run;
  const settings = resolveMermaidSettings(input.settings?.mermaid);
  // Only inputs with the released prompts take this branch; the patch marks histories that may.
  if (settings.releasedPrompts && hasPatch(PATCHES.mermaidReleasedPrompts)) return runMermaidReleased(run, settings, settings.releasedPrompts);
  const labelSetName = mermaidLabelSetName(settings, input.dataset);
  const labels = MERMAID_LABEL_SETS[labelSetName];
  const models = { decomposer: settings.decomposerModel ?? input.model, executor: settings.executorModel ?? input.model };
  const scope = mermaidMemoryScope(settings, input, { perModel: hasPatch(PATCHES.mermaidMemoryPerModel) });
  const recallOptions: Partial<MemoryRecallOptions> = settings.recall ?? {};
  // The workflow decides when to write; the activity is told the same mode, whatever the worker's default.
  const updateMode = settings.update?.mode ?? 'endOfClaim';
  const updateOptions: Partial<MemoryUpdateOptions> = { ...settings.update, mode: updateMode, frozen: settings.memory === 'frozen' };

  const trace: MermaidTrace = {
    method: 'mermaid',
    fidelity: settings.fidelity,
    decomposition: null,
    decompositionFailed: false,
    entities: [],
    memory: { mode: settings.memory, scope, ...(settings.memory === 'off' ? {} : { updateMode }), recalled: [], lines: [] },
    tools: [],
    steps: [],
    forced: false,
    fallback: false,
    toolCalls: 0,
    labels,
    models,
  };
  const publish = () => run.publishTrace(trace);

  // 1–2. D_c ← ϕ(c); E_c ← Entities(G_c)
  progress.stage = 'decomposing';
  let decomposition: MermaidDecomposition | null = null;
  if (settings.decompose) {
    decomposition = await decompose(run, models.decomposer);
    trace.decompositionFailed = decomposition === null;
    decomposition ??= FAILED_DECOMPOSITION;
  }
  const entities = decomposition ? entitiesOf(decomposition) : [];
  Object.assign(trace, { decomposition, entities });
  const tools: MermaidToolEntry[] = settings.tools ? await shortReads().mermaidToolCatalog.executeWithOptions({ summary: methodStepSummary('mermaid', 'tool catalog') }, [{ tools: mermaidToolset(settings, labelSetName) }]) : [];
  trace.tools = tools.map((tool) => tool.name);
  publish();

  // 3. M_c ← Recall(M, E_c)
  let memoryLines: string[] = [];
  if (settings.memory !== 'off' && entities.length > 0) {
    progress.stage = 'recalling';
    run.showProgress();
    const recalled = await shortReads().memoryRecall.executeWithOptions({ summary: memoryRecallSummary(entities.length) }, [{ scope, entities, options: recallOptions }]);
    // The hits are known only now (a summary is fixed when the step is scheduled): the current details show them.
    progress.stage = memoryRecalledSummary(entities.length, recalled.hits.length);
    run.showProgress();
    memoryLines = recalled.lines;
    trace.memory.recalled = recalled.hits;
    trace.memory.lines = recalled.lines.map((line) => clip(line, TRACE_MEMORY_CHARS));
    publish();
  }

  // 4–27. the ReAct loop over H_t
  progress.stage = 'reasoning';
  const history: string[] = [];
  const observations: MemoryObservation[] = [];
  const remember = async (batch: MemoryObservation[]) => {
    if (settings.memory === 'off' || batch.length === 0) return;
    const result = await shortWrites().memoryUpdate.executeWithOptions({ summary: memoryUpdateSummary(batch.length, entities.length) }, [
      { scope, claimId: input.claimId, entities, observations: batch, options: updateOptions },
    ]);
    trace.memory.written = (trace.memory.written ?? 0) + result.written;
    trace.memory.frozenSkipped = (trace.memory.frozenSkipped ?? 0) + result.frozenSkipped;
  };
  // Histories recorded before the patch sent no `toolHints` (the executor prompt then had the tool-use hints).
  const hintsSetting = hasPatch(PATCHES.mermaidExecutorHintsOption) ? { toolHints: settings.toolHints } : {};
  const promptOf = () => ({ claim: input.claim, decomposition, memory: memoryLines, history: [...history], tools, labels, fidelity: settings.fidelity, ...hintsSetting });

  let answer: string | undefined;
  for (let t = 1; t <= settings.maxSteps && answer === undefined; t++) {
    progress.stage = `reasoning: step ${t}/${settings.maxSteps}`;
    const reply = await llmOrInvalid<ExecutorStepOutput>(
      run,
      { task: 'mermaid.executor-step', model: models.executor, role: 'executor', variables: promptOf() },
      `executor step ${t}/${settings.maxSteps}`,
    );
    if (!reply.ok) {
      // The released code keeps the reply's raw text as the Thought (spec §5.1, line 12).
      const thought = reply.raw !== undefined && hasPatch(PATCHES.mermaidRawThought) ? reply.raw : reply.reason;
      history.push(unparsableLine(thought));
      trace.steps.push({ step: t, kind: 'unparsable', thought: thought.slice(0, UNPARSABLE_THOUGHT_CHARS) });
      publish();
      continue;
    }
    // Recorded histories hold the older flat step; executorStepOf returns it unchanged.
    const decision = interpretStep(executorStepOf(reply.output), tools, input.claim, settings.fidelity);
    const step: MermaidStep = { step: t, kind: decision.kind, thought: decision.thought };
    if (decision.kind === 'answer') {
      answer = decision.answer;
      step.answer = answer;
      history.push(...historyLines(decision, tools));
    } else if (decision.kind === 'tool') {
      const result = await callToolAsObservation(run, decision.tool, decision.args);
      trace.toolCalls += 1;
      step.action = { tool: decision.tool, input: decision.input, args: decision.args };
      Object.assign(step, { observation: result.observation, isError: result.isError });
      history.push(...historyLines(decision, tools, result.observation));
      const observation: MemoryObservation = { tool: decision.tool, args: decision.args, query: decision.input, evidence: result.observation, isError: result.isError };
      if (memoryWriteDue(updateMode, 'afterToolCall')) await remember([observation]);
      else observations.push(observation);
    } else {
      if (decision.kind === 'unknownTool') step.action = { tool: decision.name, input: '' };
      history.push(...historyLines(decision, tools));
    }
    trace.steps.push(step);
    publish();
  }

  // 28–29. ForceAnswer at T_max (paper), or the fallback label (the code returns "True")
  if (answer === undefined) {
    trace.forced = true;
    if (settings.forceAnswer) {
      progress.stage = 'forcing-answer';
      const forced = await llmOrInvalid<ForcedAnswerOutput>(
        run,
        { task: 'mermaid.force-answer', model: models.executor, role: 'executor', variables: promptOf() },
        `forced answer at T_max ${settings.maxSteps}`,
      );
      if (forced.ok && forced.output.answer.trim() !== '') {
        answer = forced.output.answer.trim();
        history.push(`Thought: ${forced.output.thought ?? ''}`, `Answer: ${answer}`);
        trace.steps.push({ step: settings.maxSteps + 1, kind: 'answer', thought: forced.output.thought ?? '', answer });
      }
    }
    if (answer === undefined) {
      trace.fallback = true;
      answer = settings.fallbackLabel === 'positive' ? labels.positive : labels.negative;
    }
  }

  // 30. ΔM ← Evidence(H_1:t); M ← Update(M, E_c, ΔM)
  if (memoryWriteDue(updateMode, 'claimEnd')) {
    progress.stage = 'remembering';
    await remember(observations);
  }

  const answerClass = classifyAnswer(answer, labels, { aliases: hasPatch(PATCHES.mermaidAnswerAliases) });
  Object.assign(trace, { answer, answerClass });
  publish();
  const toolSteps = trace.steps.filter((step) => step.action && step.observation !== undefined);
  return {
    label: verdictLabelOf(answerClass),
    methodLabel: answer,
    rationale: [...trace.steps].reverse().find((step) => step.thought !== '')?.thought ?? '',
    citedPassageIds: [],
    evidence: toolSteps.map((step) => ({
      id: `step-${step.step}`,
      docId: step.action!.tool,
      title: `${step.action!.tool}: ${step.action!.input}`,
      text: clip(step.observation!, EVIDENCE_CHARS),
      score: 0,
    })),
    trace,
  };
}

async function decompose(run: MethodRun, model: string): Promise<MermaidDecomposition | null> {
  const reply = await llmOrInvalid<MermaidDecompositionOutput>(run, { task: 'mermaid.decompose', model, role: 'decomposer', variables: { claim: run.input.claim } }, 'decomposer');
  return reply.ok ? reply.output : null;
}

/** `raw`: the start of the unparsable answer, when the activity reported it. */
type Reply<T> = { ok: true; output: T } | { ok: false; reason: string; raw?: string };

/** An LLM step whose answer did not parse is part of the protocol (§5.1), not a failure of the verification. */
async function llmOrInvalid<T>(run: MethodRun, call: Parameters<MethodRun['llm']>[0], step: string): Promise<Reply<T>> {
  try {
    return { ok: true, output: (await run.llm<T>(call, step)).output };
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type === FAILURE_TYPES.llmOutputInvalid) {
      const raw = (cause.details?.[0] as Partial<InvalidOutputDetails> | undefined)?.rawExcerpt;
      return { ok: false, reason: `(unparsable reply) ${cause.message}`, ...(typeof raw === 'string' && raw.trim() !== '' ? { raw } : {}) };
    }
    throw err;
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
