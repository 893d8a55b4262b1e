import { executeChild, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../../../activities';
import type { OnlineUpdateReport } from '../online/online-learner';
import { oneLine } from '../../../shared/activity-summaries';
import type { ToeTree } from './logic/tree';
import {
  addSubclaims,
  aggregateTree,
  createTree,
  evidenceWeight,
  finalVerdict,
  hasConverged,
  markDecisive,
  nextInQueue,
  onlineScopeOf,
  prunePending,
  resolveToeSettings,
  rootOf,
  type ToeSettings,
} from './toe-settings';
import { POLICY_UPDATE, POLICY_WAIT } from '../../../../workflows/activity-options';
import { shortReads } from '../../../../workflows/es-activities';
import type { MethodOutcome, MethodRun } from '../../../../workflows/method-run';
import { PATCHES } from '../../../shared/patches';
import { toeNodeWorkflow, type ToeEvidenceRecord, type ToeNodeResult, type ToeStepRecord } from './toe-node.workflow';
import { hasPatch } from '../../../../workflows/has-patch';

export type ToeTermination = 'decisive-root' | 'converged' | 'queue-empty' | 't-max';

/** Policy `online`: the learner scope, the version this claim acts with (null: warm-up heuristic) and the updates it triggered. */
export interface ToeOnlineTrace {
  scope: string;
  actedWith: string | null;
  afterClaim?: OnlineUpdateReport;
  /** Claim-order schedule: the claim's position in the run's claim order and the seq of the version it acted with. */
  claimOrder?: { position: number; versionSeq: number | null; builtAfter?: number[] };
}

const { toeOnlineClaimFinished, toeOnlineClaimOrderFinished } = proxyActivities<Activities>(POLICY_UPDATE);
const { toeOnlineClaimOrderVersion } = proxyActivities<Activities>(POLICY_WAIT);

const LABELS = { true: 'SUPPORTED', false: 'REFUTED', uncertain: 'NEI' } as const;
const MAX_OUTCOME_EVIDENCE = 20;

/**
 * ToE (Tree of Evidence), Algorithm 1: grow an argument tree from the claim. Each iteration takes
 * the queued node of highest priority and evaluates it in its own child workflow (retrieval
 * agent → evidence → v, r, and sub-claims when it asks for expansion), adds its sub-claims to the
 * queue, aggregates bottom-up, prunes the pending descendants of decisive nodes, and stops when
 * the root is decisive or has converged, the queue is empty, or T_max iterations have run. The
 * root's veracity gives the 3-way label; the whole tree is the explanation.
 */
export async function runToe(run: MethodRun): Promise<MethodOutcome> {
  const { input, progress } = run;
  const settings = resolveToeSettings(input.settings?.toe);
  const verificationId = workflowInfo().workflowId;
  const tree = createTree(input.claim);
  let queue = [tree.rootId];
  const rootHistory: number[] = [];
  const results: Record<string, ToeNodeResult> = {};
  let termination: ToeTermination = 't-max';
  let iterations = 0;
  const online = settings.policy === 'online' && hasPatch(PATCHES.toeOnlinePolicy) ? await actingPolicy(settings, input) : undefined;

  for (let t = 1; t <= settings.maxIterations; t++) {
    const id = nextInQueue(tree, queue);
    if (id === undefined) {
      termination = 'queue-empty';
      break;
    }
    iterations = t;
    queue = queue.filter((queued) => queued !== id);
    const node = tree.nodes[id]!;
    progress.stage = `toe: iteration ${t}, node ${id}`;

    const result = await executeChild(toeNodeWorkflow, {
      workflowId: `${verificationId}/node-${id}`,
      staticSummary: oneLine(`toe · node ${id} · depth ${node.depth} · ${JSON.stringify(node.claim)}`),
      staticDetails: `**Sub-claim:** ${node.claim}\n\n**Node** ${id} · depth ${node.depth} · iteration ${t} · **root claim:** ${input.claim}`,
      args: [
        {
          verificationId,
          runId: input.runId,
          model: input.model,
          node: { id, claim: node.claim, depth: node.depth, isRoot: node.parentId === null },
          canExpand: node.depth < settings.maxDepth,
          settings,
          ...(online ? { online: { scope: online.scope, version: online.actedWith } } : {}),
          // A node's calls go through the sweep's batch lane too (older inputs have none).
          ...(input.batch ? { batch: input.batch } : {}),
        },
      ],
    });
    run.absorbChild(result.meter);
    results[id] = result;
    Object.assign(node, { status: 'evaluated', iteration: t, vSelf: result.vSelf, rSelf: result.rSelf, expand: result.expand });
    queue.push(...addSubclaims(tree, id, result.subclaims));

    const root = aggregateTree(tree, { mode: settings.aggregation, softAnd: settings.softAnd, decisiveReliability: settings.thresholds.decisiveReliability });
    markDecisive(tree, settings.thresholds);
    rootHistory.push(root.v);
    queue = prunePending(tree, queue).queue;
    run.publishTrace(traceOf(tree, results, settings, { iterations, rootHistory, queue, termination: null, online }));

    if (t >= settings.minIterations) {
      if (rootOf(tree).decisive) {
        termination = 'decisive-root';
        break;
      }
      if (hasConverged(rootHistory, root.r, settings.thresholds)) {
        termination = 'converged';
        break;
      }
    }
  }

  const root = rootOf(tree);
  const v = root.vAggr ?? 0.5;
  const r = root.rAggr ?? 0;
  const verdict = finalVerdict(v, settings.finalMapping);
  if (online?.claimOrder) {
    progress.stage = 'toe: online policy update';
    const { built } = await toeOnlineClaimOrderFinished.executeWithOptions({ summary: `toe · online policy update · claim ${online.claimOrder.position} acted with ${online.actedWith ?? 'warm-up heuristic'}` }, [
      { ...claimOrderInput(settings, input, online.scope), verificationId, position: online.claimOrder.position, actedWith: online.actedWith },
    ]);
    online.claimOrder.builtAfter = built;
  } else if (online) {
    progress.stage = 'toe: online policy update';
    online.afterClaim = await toeOnlineClaimFinished.executeWithOptions({ summary: `toe · online policy update · acted with ${online.actedWith ?? 'warm-up heuristic'}` }, [
      {
        scope: online.scope,
        verificationId,
        actedWith: online.actedWith,
        warmupClaims: settings.online.warmupClaims,
        groupSize: settings.online.groupSize,
        ...(settings.policyWeights ? { startWeights: settings.policyWeights } : {}),
      },
    ]);
  }
  const trace = traceOf(tree, results, settings, { iterations, rootHistory, queue, termination, online });
  run.publishTrace(trace);
  const evidence = outcomeEvidence(tree, results);
  const cited = (results[tree.rootId]?.evidence ?? [])
    .filter((item) => item.stance !== 'neutral')
    .sort((a, b) => evidenceWeight(b) - evidenceWeight(a))
    .slice(0, 3)
    .map((item) => item.id);
  const evaluated = Object.values(tree.nodes).filter((n) => n.status === 'evaluated').length;
  return {
    label: LABELS[verdict],
    methodLabel: verdict,
    rationale:
      `Root veracity ${v.toFixed(2)}, reliability ${r.toFixed(2)} after ${iterations} iteration(s) over ${evaluated} evaluated node(s) ` +
      `(${termination}); ${verdict} by the 0.4/0.6 mapping. ${subclaimSummary(tree)}`.trim(),
    citedPassageIds: cited,
    evidence,
    trace,
  };
}

/**
 * The version this claim acts with. In a run's own scope (no `online.scope` setting) it follows the
 * claim's position in the run's claim order, whatever the concurrency, and the claim waits until it
 * exists; before the patch, and in a shared scope, it is the newest version when the claim starts.
 */
async function actingPolicy(settings: ToeSettings, input: MethodRun['input']): Promise<ToeOnlineTrace> {
  const scope = onlineScopeOf(settings, input.runId, input.model);
  if (settings.online.scope === undefined && hasPatch(PATCHES.toePolicyByClaimOrder)) {
    const acting = await toeOnlineClaimOrderVersion.executeWithOptions({ summary: 'toe · online policy · the version of this claim\'s position' }, [claimOrderInput(settings, input, scope)]);
    if (acting.position !== null) return { scope, actedWith: acting.version, claimOrder: { position: acting.position, versionSeq: acting.seq } };
    return { scope, actedWith: acting.version };
  }
  const { version } = await shortReads().toeOnlinePolicyVersion({ scope });
  return { scope, actedWith: version };
}

function claimOrderInput(settings: ToeSettings, input: MethodRun['input'], scope: string) {
  return {
    scope,
    runId: input.runId,
    claimId: input.claimId,
    ...(input.dataset ? { dataset: input.dataset } : {}),
    model: input.model,
    warmupClaims: settings.online.warmupClaims,
    claimsPerVersion: settings.online.claimsPerVersion,
    groupSize: settings.online.groupSize,
    ...(settings.policyWeights ? { startWeights: settings.policyWeights } : {}),
  };
}

function subclaimSummary(tree: ToeTree): string {
  const children = rootOf(tree).childIds.map((id) => tree.nodes[id]!).filter((n) => n.status === 'evaluated');
  if (children.length === 0) return '';
  return `Sub-claims: ${children.map((n) => `[${n.dimension}, w=${n.importance.toFixed(2)}] v=${(n.vAggr ?? 0.5).toFixed(2)} r=${(n.rAggr ?? 0).toFixed(2)}`).join('; ')}.`;
}

/** Distinct analysed documents of the whole tree, heaviest first, as the verdict's evidence. */
function outcomeEvidence(tree: ToeTree, results: Record<string, ToeNodeResult>): MethodOutcome['evidence'] {
  const byId = new Map<string, ToeEvidenceRecord>();
  for (const node of Object.values(tree.nodes).sort((a, b) => a.order - b.order)) {
    for (const item of results[node.id]?.evidence ?? []) {
      const known = byId.get(item.id);
      if (!known || evidenceWeight(item) > evidenceWeight(known)) byId.set(item.id, item);
    }
  }
  return [...byId.values()]
    .sort((a, b) => evidenceWeight(b) - evidenceWeight(a) || (a.id < b.id ? -1 : 1))
    .slice(0, MAX_OUTCOME_EVIDENCE)
    .map((item) => ({ id: item.id, docId: item.url || item.id, title: item.title, text: item.snippet, score: round(evidenceWeight(item)) }));
}

interface TraceState {
  iterations: number;
  rootHistory: number[];
  queue: string[];
  termination: ToeTermination | null;
  online?: ToeOnlineTrace;
}

/** The tree as it stands: every node with its scores, flags, retrieval steps and evidence. */
function traceOf(tree: ToeTree, results: Record<string, ToeNodeResult>, settings: ToeSettings, state: TraceState) {
  return {
    method: 'toe' as const,
    policy: settings.policy,
    ...(state.online ? { online: state.online } : {}),
    sources: settings.sources,
    aggregation: settings.aggregation,
    iterations: state.iterations,
    termination: state.termination,
    rootHistory: state.rootHistory.map(round),
    queue: [...state.queue],
    nodes: Object.values(tree.nodes)
      .sort((a, b) => a.order - b.order)
      .map((node) => {
        const result = results[node.id];
        return {
          id: node.id,
          parentId: node.parentId,
          childIds: node.childIds,
          claim: node.claim,
          depth: node.depth,
          dimension: node.dimension,
          importance: round(node.importance),
          status: node.status,
          ...(node.iteration !== undefined ? { iteration: node.iteration } : {}),
          ...scores(node),
          ...(node.expand !== undefined ? { expand: node.expand } : {}),
          ...(node.decisive !== undefined ? { decisive: node.decisive } : {}),
          ...(result
            ? {
                childWorkflowId: `${workflowInfo().workflowId}/node-${node.id}`,
                features: result.features,
                episode: { ...result.episode, totalReward: round(result.episode.totalReward) },
                steps: result.steps.map(stepTrace),
                evidence: result.evidence.map((e) => ({ id: e.id, action: e.action, stance: e.stance, relevance: round(e.relevance), credibility: round(e.credibility), authoritative: e.authoritative, primary: e.primary, title: e.title })),
                ...(result.invalidAnswers ? { invalidAnswers: result.invalidAnswers } : {}),
              }
            : {}),
        };
      }),
  };
}

function scores(node: ToeTree['nodes'][string]) {
  const out: Record<string, number> = {};
  if (node.vSelf !== undefined) out.vSelf = round(node.vSelf);
  if (node.rSelf !== undefined) out.rSelf = round(node.rSelf);
  if (node.vAggr !== undefined) out.vAggr = round(node.vAggr);
  if (node.rAggr !== undefined) out.rAggr = round(node.rAggr);
  return out;
}

function stepTrace(step: ToeStepRecord) {
  return { ...step, probability: round(step.probability), v: round(step.v), r: round(step.r), reward: round(step.reward) };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
