import { memoryRecalledSummary, memoryRecallSummary, memoryUpdateSummary } from '../../../shared/activity-summaries';
import { MEMORY_CODE_COMPAT, type MemoryObservation } from '../../../shared/memory';
import { shortReads, shortWrites } from '../../../../workflows/es-activities';
import type { MethodOutcome, MethodRun } from '../../../../workflows/method-run';
import type { MermaidTrace, MermaidStep } from './mermaid.workflow';
import { FAILED_DECOMPOSITION, type MermaidDecomposition } from './mermaid-protocol';
import { MERMAID_LABEL_SETS, mermaidMemoryScope, type MermaidSettings } from './mermaid-settings';
import { callToolAsObservation } from './mermaid-tool-call';
import { pythonJsonDumps, pythonStr } from './python-text';
import { releasedDecompositionOf } from './released-json';
import { releasedArgumentError, releasedObservation, releasedToolText } from './released-observation';
import {
  interpretReleasedReply,
  MERMAID_RELEASED_MAX_CYCLES,
  MERMAID_RELEASED_MEMORY_TOP_K,
  MERMAID_RELEASED_TIMEOUT_ANSWER,
  RELEASED_TOOL_TARGETS,
  releasedAnswerIsTrue,
  releasedKeywords,
  releasedToolLines,
  type MermaidReleasedPrompts,
} from './released-prompts';

/** Characters of each observation kept as verdict evidence (the trace keeps the history's 2,000). */
const EVIDENCE_CHARS = 500;

/**
 * MERMAID as its released main.py runs a claim (CheckAgent.process_claim): decompose with the released
 * system prompt, recall by the triplets' keywords, then at most 5 ReAct steps over the released template,
 * each answer read as plain text with extract_json_from_text, every tool call sent `{"query": input}`
 * and written to the memory at once; no answer after the last step is "True", without an LLM call.
 */
export async function runMermaidReleased(run: MethodRun, settings: MermaidSettings, released: MermaidReleasedPrompts): Promise<MethodOutcome> {
  const { input, progress } = run;
  const models = { decomposer: settings.decomposerModel ?? input.model, executor: settings.executorModel ?? input.model };
  const scope = settings.memoryScope ?? `${mermaidMemoryScope(settings, input)}/prompts:released`;
  const trace: MermaidTrace & { released: { commit: string } } = {
    method: 'mermaid',
    fidelity: settings.fidelity,
    released: { commit: released.commit },
    decomposition: null,
    decompositionFailed: false,
    entities: [],
    memory: { mode: settings.memory, scope, ...(settings.memory === 'off' ? {} : { updateMode: 'perCall' as const }), recalled: [], lines: [] },
    tools: [...released.toolNames],
    steps: [],
    forced: false,
    fallback: false,
    toolCalls: 0,
    labels: MERMAID_LABEL_SETS['true-false'],
    models,
  };
  const publish = () => run.publishTrace(trace);

  progress.stage = 'decomposing';
  const decomposeReply = await run.llm<{ text: string }>({ task: 'mermaid.released.decompose', model: models.decomposer, role: 'decomposer', variables: { template: released.decompose, claim: input.claim } }, 'decomposer');
  const { decomposition, failed } = releasedDecompositionOf(decomposeReply.output.text);
  const keywords = releasedKeywords(decomposition);
  // The trace keeps what the model wrote; a reply that is no triplets object shows as the failed decomposition.
  Object.assign(trace, { decomposition: isTripletsObject(decomposition) ? decomposition : FAILED_DECOMPOSITION, decompositionFailed: failed, entities: keywords });
  publish();

  const history: string[] = [];
  if (settings.memory !== 'off' && keywords.length > 0) {
    progress.stage = 'recalling';
    const recalled = await shortReads().memoryRecall.executeWithOptions({ summary: memoryRecallSummary(keywords.length) }, [
      { scope, entities: keywords, options: { ...MEMORY_CODE_COMPAT.recall, topK: MERMAID_RELEASED_MEMORY_TOP_K } },
    ]);
    progress.stage = memoryRecalledSummary(keywords.length, recalled.hits.length);
    run.showProgress();
    history.push(...recalled.lines);
    Object.assign(trace.memory, { recalled: recalled.hits, lines: recalled.lines });
    publish();
  }
  const remember = async (observation: MemoryObservation) => {
    if (settings.memory === 'off') return;
    const options = { ...MEMORY_CODE_COMPAT.update, frozen: settings.memory === 'frozen' };
    const result = await shortWrites().memoryUpdate.executeWithOptions({ summary: memoryUpdateSummary(1, keywords.length) }, [{ scope, claimId: input.claimId, entities: keywords, observations: [observation], options }]);
    trace.memory.written = (trace.memory.written ?? 0) + result.written;
    trace.memory.frozenSkipped = (trace.memory.frozenSkipped ?? 0) + result.frozenSkipped;
  };

  const background = pythonJsonDumps(decomposition);
  let answer: unknown;
  let answered = false;
  for (let t = 1; t <= MERMAID_RELEASED_MAX_CYCLES && !answered; t++) {
    progress.stage = `reasoning: step ${t}/${MERMAID_RELEASED_MAX_CYCLES}`;
    const reply = await run.llm<{ text: string }>(
      { task: 'mermaid.released.react', model: models.executor, role: 'executor', variables: { template: released.react, claim: input.claim, background, history: [...history], toolNames: released.toolNames } },
      `executor step ${t}/${MERMAID_RELEASED_MAX_CYCLES}`,
    );
    const decision = interpretReleasedReply(reply.output.text, input.claim, released.toolNames);
    history.push(...decision.lines);
    const step: MermaidStep = { step: t, kind: decision.kind === 'empty' ? 'thought' : decision.kind, thought: decision.thought };
    if (decision.kind === 'answer') {
      answer = decision.answer;
      answered = true;
      step.answer = pythonStr(answer);
    } else if (decision.kind === 'tool') {
      const target = RELEASED_TOOL_TARGETS[decision.tool] ?? 'web_search';
      const args = { query: decision.input };
      // A toolset that leaves the target out (the parity bench: no offline scholar provider) keeps the call from being made.
      const refusal = releasedArgumentError(decision.tool) ?? (settings.toolset !== 'auto' && !settings.toolset.includes(target) ? `Error: ${target} is not in this verification's toolset` : undefined);
      // A call refused (by the release's server, or not offered here) is not made, and still counts, as in main.py.
      if (refusal !== undefined) run.countToolCall();
      const result = refusal !== undefined ? { observation: refusal, isError: true, data: undefined } : await callToolAsObservation(run, target, args);
      const observation = releasedObservation(releasedToolText(decision.tool, result.data) ?? result.observation);
      trace.toolCalls += 1;
      await remember({ tool: decision.tool, args, query: decision.input, evidence: observation, isError: result.isError });
      const lines = releasedToolLines(decision.tool, decision.input, observation);
      history.push(...lines);
      Object.assign(step, { action: { tool: decision.tool, input: decision.input, args }, observation: lines[1]!.slice('Observation: '.length), isError: result.isError });
    } else if (decision.kind === 'unknownTool') {
      step.action = { tool: decision.tool, input: '' };
    }
    trace.steps.push(step);
    publish();
  }
  if (!answered) {
    trace.fallback = true;
    answer = MERMAID_RELEASED_TIMEOUT_ANSWER;
  }

  const positive = releasedAnswerIsTrue(answer);
  Object.assign(trace, { answer: pythonStr(answer), answerClass: positive ? 'positive' : 'negative' });
  publish();
  return {
    label: positive ? 'SUPPORTED' : 'REFUTED',
    methodLabel: pythonStr(answer),
    rationale: [...trace.steps].reverse().find((step) => step.thought !== '')?.thought ?? '',
    citedPassageIds: [],
    evidence: trace.steps
      .filter((step) => step.action && step.observation !== undefined)
      .map((step) => ({ id: `step-${step.step}`, docId: step.action!.tool, title: `${step.action!.tool}: ${step.action!.input}`, text: step.observation!.slice(0, EVIDENCE_CHARS), score: 0 })),
    trace,
  };
}

function isTripletsObject(value: unknown): value is MermaidDecomposition {
  return typeof value === 'object' && value !== null && Array.isArray((value as { triplets?: unknown }).triplets);
}
