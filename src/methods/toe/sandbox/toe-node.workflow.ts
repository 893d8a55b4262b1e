import { isCancellation, proxyActivities, setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../../../../activities';
import type { ToolCallResult } from '../../../../activities/tools.activities';
import type { ClaimFeatures } from './logic/claim-features';
import type { RetrievedDocument } from './logic/documents';
import type { EvidenceItem } from './logic/evidence-item';
import type { SearchAction } from './logic/sources';
import type {
  ToeAnalysisOutput,
  ToeClaimAnalysisOutput,
  ToeCleanOutput,
  ToeDecomposeOutput,
  ToeNodeEvidenceSummary,
  ToeQueryOutput,
  ToeQueryPlanOutput,
} from '../tasks';
import type { Subclaim } from './logic/tree';
import type { LlmTaskInput } from '../../../llm/types';
import { llmCallSummary, oneLine, stepOfTask } from '../../../shared/activity-summaries';
import {
  buildPolicyState,
  chunkText,
  clamp01,
  documentsFromToolResult,
  EMPTY_BELIEF,
  evaluateEvidence,
  normaliseSubclaims,
  QUERY_FAMILY,
  SOURCE_DESCRIPTIONS,
  sourceCall,
  STATE_LAYOUT_VERSION,
  stepReward,
  wantsExpansion,
  type ToeSettings,
} from './toe-settings';
import type { PolicyStep, ToeAction } from './toe-policy';
import { REASK_SUFFIX, type InvalidAnswerFallback } from '../../../shared/invalid-answer';
import { TOE_EMPTY_QUERY_PLAN, TOE_UNKNOWN_CLAIM_ANALYSIS, TOE_UNVERIFIED_ANALYSIS } from '../../../shared/methods/invalid-answer-fallbacks';
import { localActivities, shortStepsAreLocal, shortWrites, type ShortSteps } from '../../../../workflows/es-activities';
import { outputOrFallback } from '../../../../workflows/invalid-answers';
import { createLlmCaller } from '../../../../workflows/llm-calls';
import { LlmMeter, type MeterSummary } from '../../../../workflows/llm-meter';
import { PATCHES } from '../../../shared/patches';
import { callTool, toolCallRecord } from '../../../../workflows/tool-calls';
import { hasPatch } from '../../../../workflows/has-patch';
import type { BatchLaneSettings } from '../../../shared/batch';

/** Evaluation of one argument-tree node: what the parent workflow passes its child. */
export interface ToeNodeInput {
  /** The verification (parent) workflow's id: keys of episodes and seeded draws start with it. */
  verificationId: string;
  runId: string;
  model: string;
  node: { id: string; claim: string; depth: number; isRoot: boolean };
  /** False at the maximum depth: the node is never decomposed. */
  canExpand: boolean;
  settings: ToeSettings;
  /** Policy `online`: the learner scope and the weights version the claim acts with (null: the warm-up heuristic). */
  online?: { scope: string; version: string | null };
  /** The sweep's batch lane, if it has one: the node's calls of a batch model go through batches. */
  batch?: BatchLaneSettings;
}

/** One retrieval step as the trace shows it (the 29-dim state stays in the logged episode). */
export interface ToeStepRecord {
  step: number;
  action: ToeAction;
  probability: number;
  query?: string;
  provider?: string;
  /** The source standing in for the paper's, when it is not available (named in the trace). */
  substitute?: string;
  error?: string;
  documentIds: string[];
  newItems: number;
  v: number;
  r: number;
  reward: number;
}

/** An analysed document, with a short snippet only (keeps histories and the trace small). */
export interface ToeEvidenceRecord extends EvidenceItem {
  title: string;
  url: string;
  snippet: string;
  statements: number;
}

export interface ToeNodeResult {
  nodeId: string;
  features: ClaimFeatures;
  queries: ToeQueryPlanOutput;
  steps: ToeStepRecord[];
  evidence: ToeEvidenceRecord[];
  vSelf: number;
  rSelf: number;
  /** δ_n: the node asked to be expanded. */
  expand: boolean;
  /** Normalised sub-claims when the node was expanded (δ_n and depth allows), else empty. */
  subclaims: Subclaim[];
  episode: { id: string; policy: string; totalReward: number; logged: boolean };
  meter: MeterSummary;
  /** Steps that got no valid answer even when re-asked, and what stood in for them. */
  invalidAnswers?: InvalidAnswerFallback[];
}

/** What stands in for a step's answer when none is valid even when re-asked. */
type Fallback<T> = { value: T; description: string };
type NodeLlm = <T>(call: Omit<LlmTaskInput, 'model'>, fallback: Fallback<T>, stage?: string) => Promise<T>;

const SNIPPET_CHARS = 200;
const MAX_CHUNKS_PER_DOCUMENT = 3;

const SELECT_ACTION = { startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 5 } } as const;
const regularSelect: ShortSteps = proxyActivities<Activities>(SELECT_ACTION);
const localSelect = localActivities(SELECT_ACTION);

/**
 * GetEvidence + Evaluate of Algorithm 1 for one node, as its own child workflow: the claim
 * analyzer and query planner, then the retrieval agent's episode (choose a source, write its
 * query, search, clean and analyse each new document, re-evaluate, reward) until STOP, then the
 * decomposition into weighted sub-claims when the node asks for expansion.
 */
export async function toeNodeWorkflow(input: ToeNodeInput): Promise<ToeNodeResult> {
  const { node, settings } = input;
  const meter = new LlmMeter();
  const llmCall = createLlmCaller(meter, input.batch ? { lane: input.batch, defaultModel: input.model } : undefined);
  const nodeLabel = `node ${node.id}`;
  const sampling = input.settings.llm ? { sampling: input.settings.llm } : {};
  const invalidAnswers: InvalidAnswerFallback[] = [];
  // An invalid answer is re-asked once with a correction; then the step's fallback stands in (recorded in the node's result).
  const llm: NodeLlm = async <T>(call: Omit<LlmTaskInput, 'model'>, fallback: Fallback<T>, stage = stepOfTask(call.task)): Promise<T> => {
    setCurrentDetails(`**${nodeLabel}** · ${stage} · ${meter.usage.llmCalls} LLM calls · ${meter.usage.toolCalls} searches`);
    const ask = (c: LlmTaskInput, reask: boolean) => llmCall<T>(c, llmCallSummary('toe', `${nodeLabel} · ${stage}${reask ? REASK_SUFFIX : ''}`, input.model));
    return outputOrFallback(ask, { ...call, model: input.model, ...sampling }, { ...fallback, step: stage }, invalidAnswers);
  };

  const analysis = await llm<ToeClaimAnalysisOutput>({ task: 'toe.claim-analysis', variables: { claim: node.claim } }, { value: { ...TOE_UNKNOWN_CLAIM_ANALYSIS }, description: 'unknown claim features' });
  const features: ClaimFeatures = {
    category: analysis.category,
    locale: analysis.locale,
    flags: { recent: analysis.recent, historical: analysis.historical, factual: analysis.factual, opinion: analysis.opinion, prediction: analysis.prediction },
  };
  const queries = await llm<ToeQueryPlanOutput>(
    { task: 'toe.query-plan', variables: { claim: node.claim, category: features.category, locale: features.locale } },
    { value: TOE_EMPTY_QUERY_PLAN, description: 'no planned queries' },
  );

  const evidence: ToeEvidenceRecord[] = [];
  const seen = new Set<string>();
  const actionsTaken: SearchAction[] = [];
  const issued: string[] = [];
  const steps: ToeStepRecord[] = [];
  const policySteps: PolicyStep[] = [];
  let belief = EMPTY_BELIEF;
  let documents = 0;
  let paidHighReliability = false;
  let paidAuthority = false;
  let policyName: string = settings.policy;

  for (let step = 0; step <= settings.maxSearchSteps; step++) {
    const state = buildPolicyState({
      features,
      actionsTaken,
      documents,
      evidence,
      reliability: belief.reliability,
      maxSearchSteps: settings.maxSearchSteps,
      maxDocuments: settings.maxDocumentsPerNode,
    });
    const choice = await (shortStepsAreLocal() ? localSelect : regularSelect).toeSelectAction.executeWithOptions({ summary: `toe · ${nodeLabel} · policy: next action` }, [
      {
        state,
        policy: settings.policy,
        ...(settings.policyWeights ? { policyWeights: settings.policyWeights } : {}),
        ...(input.online ? { online: input.online } : {}),
        sampling: settings.sampling,
        key: `${input.verificationId}/${node.id}/${step}`,
      },
    ]);
    policyName = choice.policy;
    if (choice.action === 'stop') {
      policySteps.push({ state, action: 'stop', probability: choice.probability, reward: 0 });
      steps.push({ step, action: 'stop', probability: choice.probability, documentIds: [], newItems: 0, v: belief.veracity, r: belief.reliability, reward: 0 });
      break;
    }
    const action = choice.action;
    const family = QUERY_FAMILY[action];
    const { query } = await llm<ToeQueryOutput>(
      {
        task: 'toe.query',
        variables: { claim: node.claim, source: SOURCE_DESCRIPTIONS[action], family, planned: queries[family], issued },
      },
      { value: { query: node.claim }, description: 'the claim as the query' },
      `query for ${action}`,
    );
    issued.push(query);
    const call = sourceCall(action, query, settings.maxResultsPerSearch, settings.sources);
    const summary = oneLine(`toe · ${nodeLabel} · retrieval: ${action} · ${JSON.stringify(query)}`);
    const { documents: found, error } = await search(call.tool, call.args, meter, summary);
    const fresh = found.filter((doc) => doc.text.trim() !== '' && !seen.has(doc.id)).slice(0, Math.max(0, settings.maxDocumentsPerNode - documents));
    for (const doc of fresh) seen.add(doc.id);
    documents += fresh.length;
    const items = await Promise.all(fresh.map((doc) => analyseDocument(node.claim, action, doc, llm)));
    evidence.push(...items);
    actionsTaken.push(action);

    const after = evaluateEvidence(evidence);
    const reward = stepReward({
      before: belief,
      after,
      newItems: items.length,
      newItemsRelevant: items.some((item) => item.relevance >= 0.5),
      highReliabilityPaid: paidHighReliability,
      authorityPaid: paidAuthority,
      authorityFound: evidence.some((item) => item.authoritative),
    });
    paidHighReliability ||= reward.paidHighReliability;
    paidAuthority ||= reward.paidAuthority;
    belief = after;
    policySteps.push({ state, action, probability: choice.probability, reward: reward.reward });
    steps.push({
      step,
      action,
      probability: choice.probability,
      query,
      provider: call.provider,
      ...(call.substitute ? { substitute: call.substitute } : {}),
      ...(error ? { error } : {}),
      documentIds: fresh.map((doc) => doc.id),
      newItems: items.length,
      v: after.veracity,
      r: after.reliability,
      reward: reward.reward,
    });
  }

  const expand = wantsExpansion(belief.reliability, node.isRoot, settings.thresholds);
  let subclaims: Subclaim[] = [];
  if (expand && input.canExpand) {
    // The decomposer sees the evidence that left the node unreliable (paper §III-D), in new runs.
    const evidenceSummary = hasPatch(PATCHES.toeDecomposeWithEvidence) ? { evidence: nodeEvidenceSummary(evidence, belief) } : {};
    // No valid decomposition: the node stays a leaf with the evidence it has (unverified beyond it).
    const decomposition = await llm<ToeDecomposeOutput>({ task: 'toe.decompose', variables: { claim: node.claim, ...evidenceSummary } }, { value: { subclaims: [] }, description: 'not decomposed' });
    subclaims = normaliseSubclaims(decomposition.subclaims);
  }

  const episodeId = `${input.verificationId}/${node.id}`;
  const totalReward = policySteps.reduce((sum, s) => sum + s.reward, 0);
  if (settings.logEpisodes) {
    await shortWrites().toeRecordEpisode.executeWithOptions({ summary: `toe · ${nodeLabel} · record episode · ${policySteps.length} steps` }, [
      {
        schemaVersion: 1,
        id: episodeId,
        claim: node.claim,
        policy: policyName,
        stateLayoutVersion: STATE_LAYOUT_VERSION,
        steps: policySteps,
        runId: input.runId,
        workflowId: input.verificationId,
        nodeId: node.id,
        totalReward,
        recordedAt: new Date().toISOString(),
        ...(input.online ? { learner: input.online.scope, ...(input.online.version ? { policyVersion: input.online.version } : {}) } : {}),
      },
    ]);
  }

  return {
    nodeId: node.id,
    features,
    queries,
    steps,
    evidence,
    vSelf: belief.veracity,
    rSelf: belief.reliability,
    expand,
    subclaims,
    episode: { id: episodeId, policy: policyName, totalReward, logged: settings.logEpisodes },
    meter: meter.summary(),
    ...(invalidAnswers.length > 0 ? { invalidAnswers } : {}),
  };
}

/** One search as its own tool activity; a failed or erroring search yields no documents (and says why). */
async function search(
  tool: Parameters<typeof callTool>[0],
  args: Record<string, unknown>,
  meter: LlmMeter,
  summary: string,
): Promise<{ documents: RetrievedDocument[]; error?: string }> {
  let result: ToolCallResult;
  try {
    result = await callTool(tool, args, summary);
  } catch (err) {
    if (isCancellation(err)) throw err;
    meter.recordToolCall({ ...toolCallRecord(tool, args, { error: (err as Error).message }), summary });
    return { documents: [], error: (err as Error).message.slice(0, 200) };
  }
  meter.recordToolCall({ ...toolCallRecord(tool, args, result), summary });
  if (result.isError) return { documents: [], error: result.observation.slice(0, 200) };
  return { documents: documentsFromToolResult(tool, result.data) };
}

/** Cleaning LLM per chunk, then the analysis LLM on the statements (skipped when nothing relevant was found). */
async function analyseDocument(
  claim: string,
  action: SearchAction,
  doc: RetrievedDocument,
  llm: NodeLlm,
): Promise<ToeEvidenceRecord> {
  const chunks = chunkText(doc.text).slice(0, MAX_CHUNKS_PER_DOCUMENT);
  const cleaned = await Promise.all(
    chunks.map((chunk, i) => llm<ToeCleanOutput>({ task: 'toe.clean', variables: { claim, chunkId: `${doc.id}#c${i + 1}`, chunk } }, { value: { statements: [] }, description: 'no statements' })),
  );
  const statements = cleaned.flatMap((c) => c.statements).filter((s) => s.trim() !== '');
  const base = { id: doc.id, action, title: doc.title, url: doc.url, snippet: doc.text.slice(0, SNIPPET_CHARS), statements: statements.length };
  if (statements.length === 0) {
    return { ...base, stance: 'neutral', relevance: 0, credibility: 0, authoritative: false, primary: false };
  }
  const analysis = await llm<ToeAnalysisOutput>({
    task: 'toe.analysis',
    variables: { claim, documentId: doc.id, source: SOURCE_DESCRIPTIONS[action], title: doc.title, url: doc.url, statements },
  }, { value: { ...TOE_UNVERIFIED_ANALYSIS, sourceType: 'unknown', rationale: 'no valid answer' }, description: 'unverified (neutral, no weight)' });
  return {
    ...base,
    stance: analysis.stance,
    relevance: clamp01(analysis.relevance),
    credibility: clamp01(analysis.credibility),
    authoritative: analysis.authoritative,
    primary: analysis.primary,
  };
}

/** The node's most relevant evidence items (at most 8), for the decomposer. */
function nodeEvidenceSummary(evidence: ToeEvidenceRecord[], belief: { veracity: number; reliability: number }): ToeNodeEvidenceSummary {
  const items = [...evidence]
    .sort((a, b) => b.relevance - a.relevance)
    .slice(0, 8)
    .map((item) => ({ stance: item.stance, relevance: item.relevance, credibility: item.credibility, title: item.title, snippet: item.snippet }));
  return { veracity: belief.veracity, reliability: belief.reliability, items };
}
