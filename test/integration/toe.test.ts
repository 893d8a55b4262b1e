import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullVerdict } from '../../src/shared/verify';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { ingestCorpus } from '../../src/corpus/ingest';
import { indexName } from '../../src/es/indices';
import { ToeEpisodeStore, toeEpisodesIndex } from '../../src/methods/toe/episode-store';
import { PolicyVersionStore, toePolicyVersionsIndex, writeVersionWeights } from '../../src/methods/toe/online/policy-version-store';
import { loadLearnedPolicy } from '../../src/methods/toe/policy/learned-policy';
import { STATE_LAYOUT_VERSION } from '../../src/methods/toe/sandbox/logic/state';
import { OFFLINE_SUBSTITUTES } from '../../src/methods/toe/sandbox/logic/sources';
import { readEpisodesJsonl } from '../../src/methods/toe/training/episode-source';
import { VERDICT_LABELS } from '../../src/shared/constants';
import { TOE_ACTIONS, TOE_STATE_DIM } from '../../src/methods/toe/sandbox/toe-policy';
import { WEB_TARGET } from '../../src/search/web-index';
import { traceQuery } from '../../src/shared/definitions/verify';
import { waitFor } from '../support/wait-for';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { activitySummaries } from '../support/history-summaries';

interface TraceNode {
  id: string;
  parentId: string | null;
  childIds: string[];
  depth: number;
  importance: number;
  status: 'pending' | 'evaluated' | 'pruned';
  iteration?: number;
  vSelf?: number;
  rSelf?: number;
  vAggr?: number;
  rAggr?: number;
  expand?: boolean;
  decisive?: boolean;
  childWorkflowId?: string;
  episode?: { id: string; policy: string };
  steps?: { action: string; provider?: string; substitute?: string; probability: number }[];
}
interface ToeTrace {
  method: 'toe';
  iterations: number;
  termination: string;
  rootHistory: number[];
  nodes: TraceNode[];
}

/** A small recorded web about the claim: one supporting page, one disputing page, one off-topic. */
const WEB_PAGES = [
  { id: 'web:eiffel-1', url: 'https://www.toureiffel.paris/en/history', title: 'History of the Eiffel Tower', text: "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris. It was designed by Gustave Eiffel's company." },
  { id: 'web:eiffel-2', url: 'https://news.example.com/eiffel-myths', title: 'Eiffel Tower myths', text: "Some say the Eiffel Tower was not completed in 1889 for the World's Fair in Paris, but reports confirm the opening in March 1889." },
  { id: 'web:other', url: 'https://blog.example.org/recipes', title: 'Bread recipes', text: 'Flour, water and salt make a simple bread.' },
];
const CLAIM = "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris.";

describe('ToE (--method toe) on real Temporal and Elasticsearch', () => {
  let harness: WorkerHarness;
  let tmp: string;

  beforeAll(async () => {
    // The workflow cache stays on: without it every eviction drops the nodes' in-flight local activities
    // (the SDK warns about this) and, under load, the tree stalls. Determinism is covered by toe.replay.test.ts.
    harness = await startWorkerHarness('toe');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toe-'));
    const web = path.join(tmp, 'web.jsonl');
    fs.writeFileSync(web, WEB_PAGES.map((p) => JSON.stringify({ ...p, sentences: null, source: 'toe_test_web' })).join('\n') + '\n');
    const webIndex = indexName(harness.prefix, 'web');
    await ingestCorpus({ client: harness.es, index: webIndex, file: web, target: WEB_TARGET });
    await harness.es.indices.refresh({ index: webIndex });
  });

  afterAll(async () => {
    await harness?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('grows an argument tree of node child workflows, follows §2.4, returns the 3-way label, the tree and logs one episode per node', async () => {
    const { config, client, es, prefix } = harness;
    // The paper's thresholds and limits, except T_max 6 to keep the test short.
    const input = buildVerifyInput(config, { claim: CLAIM, method: 'toe', settings: { toe: { maxIterations: 6 } } });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    // While it runs, the trace query shows the tree as it grows.
    let growing: ToeTrace | null = null;
    await waitFor('a growing ToE tree in the trace query', async () => {
      growing = (await handle.query(traceQuery).catch(() => null)) as ToeTrace | null;
      return growing !== null && growing.nodes.some((n) => n.status === 'evaluated');
    }, 120_000);
    expect(growing!.method).toBe('toe');
    const verdict = fullVerdict(await handle.result());
    const final = verdict.trace as unknown as ToeTrace;
    expect(final.nodes.length).toBeGreaterThanOrEqual(growing!.nodes.length);

    expect(VERDICT_LABELS).toContain(verdict.label);
    expect(['true', 'false', 'uncertain']).toContain(verdict.methodLabel);
    const trace = verdict.trace as unknown as ToeTrace;
    expect(trace.method).toBe('toe');
    const root = trace.nodes.find((n) => n.parentId === null)!;
    const evaluated = trace.nodes.filter((n) => n.status === 'evaluated');
    expect(evaluated.length).toBe(trace.iterations);
    expect(trace.rootHistory).toHaveLength(trace.iterations);

    // The 3-way label from the root's aggregate veracity, with the paper's 0.4 / 0.6 bands.
    const v0 = root.vAggr!;
    expect(verdict.methodLabel).toBe(v0 < 0.4 ? 'false' : v0 > 0.6 ? 'true' : 'uncertain');
    expect(verdict.label).toBe({ true: 'SUPPORTED', false: 'REFUTED', uncertain: 'NEI' }[verdict.methodLabel as 'true']);

    // The root is expanded on its first evaluation into 2–4 sub-claims whose weights sum to 1.
    expect(root.iteration).toBe(1);
    expect(root.expand).toBe(true);
    expect(root.childIds.length).toBeGreaterThanOrEqual(2);
    expect(root.childIds.length).toBeLessThanOrEqual(4);
    const weights = root.childIds.map((id) => trace.nodes.find((n) => n.id === id)!.importance);
    expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);

    for (const node of evaluated) {
      // φ and δ exactly as §2.4 (thresholds 0.7 / 0.3 / 0.7).
      expect(node.decisive).toBe(node.rAggr! > 0.7 && (node.vAggr! < 0.3 || node.vAggr! > 0.7));
      expect(node.expand).toBe(node.parentId === null || node.rSelf! < 0.7);
      if (node.childIds.every((id) => trace.nodes.find((n) => n.id === id)!.status !== 'evaluated')) {
        expect([node.vAggr, node.rAggr]).toEqual([node.vSelf, node.rSelf]);
      }
      expect(node.depth).toBeLessThanOrEqual(5);
      // Each evaluation ran as its own child workflow, keyed by the parent's id.
      expect(node.childWorkflowId).toBe(`${handle.workflowId}/node-${node.id}`);
      const child = await client.workflow.getHandle(node.childWorkflowId!).describe();
      expect(child.status.name).toBe('COMPLETED');
      expect(child.type).toBe('toeNodeWorkflow');
      // In the Temporal UI the node child names its sub-claim, and each step its node and stage.
      expect(await child.staticSummary()).toMatch(new RegExp(`^toe · node ${node.id} · depth ${node.depth} · "`));
      expect(await child.staticDetails()).toMatch(new RegExp(`^\\*\\*Sub-claim:\\*\\* .+\\*\\*Node\\*\\* ${node.id} · depth ${node.depth}`, 's'));
      const summaries = await activitySummaries(client, node.childWorkflowId!);
      expect(summaries).toContain(`toe · node ${node.id} · policy: next action`);
      expect(summaries.every((summary) => summary.startsWith(`toe · node ${node.id} · `))).toBe(true);
      // Every substituted source names its substitute in the trace.
      for (const step of node.steps!) {
        const expected = OFFLINE_SUBSTITUTES[step.action as keyof typeof OFFLINE_SUBSTITUTES];
        if (step.action !== 'stop') expect(step.substitute).toBe(expected);
      }
    }
    const last = trace.rootHistory.length;
    if (trace.termination === 'decisive-root') expect(root.decisive).toBe(true);
    if (trace.termination === 't-max') expect(last).toBe(6);
    if (trace.termination === 'converged') {
      const window = trace.rootHistory.slice(-3);
      expect(Math.max(...window) - Math.min(...window)).toBeLessThan(0.1 + 1e-3);
    }

    // The children's spend is absorbed into the verdict's usage.
    expect(verdict.usage.llmCalls).toBeGreaterThanOrEqual(3 * evaluated.length);
    expect(verdict.usage.toolCalls).toBeGreaterThan(0);
    expect(verdict.promptVersion).toContain('toe.claim-analysis@2');
    expect(verdict.evidence.length).toBeGreaterThan(0);

    // One logged episode per evaluated node, with deterministic ids, 29-dim states and a final STOP or budget end.
    const store = new ToeEpisodeStore(es, toeEpisodesIndex(prefix));
    const episodes = await store.all(input.runId);
    const ours = episodes.filter((e) => e.workflowId === handle.workflowId);
    expect(ours.map((e) => e.id).sort()).toEqual(evaluated.map((n) => `${handle.workflowId}/${n.id}`).sort());
    for (const episode of ours) {
      expect(episode.policy).toBe('heuristic');
      expect(episode.stateLayoutVersion).toBe(STATE_LAYOUT_VERSION);
      expect(episode.steps.length).toBeGreaterThan(0);
      expect(episode.steps.length).toBeLessThanOrEqual(6);
      expect(episode.steps.at(-1)!.action).toBe('stop');
      expect(episode.steps[0]!.action).not.toBe('stop');
      for (const step of episode.steps) {
        expect(step.state).toHaveLength(TOE_STATE_DIM);
        expect(TOE_ACTIONS).toContain(step.action);
        expect(step.probability).toBeGreaterThan(0);
      }
    }
    // The JSONL export is what `verity toe train` reads.
    const file = path.join(tmp, 'episodes.jsonl');
    expect(await store.exportJsonl(file, input.runId)).toBe(episodes.length);
    expect(readEpisodesJsonl(file).map((e) => e.id)).toEqual(episodes.map((e) => e.id));
  });

  it('stops at T_max = 1 with the sub-claims left pending, and acts with the learned policy by seeded sampling', async () => {
    const { config, client } = harness;
    const input = buildVerifyInput(config, {
      claim: CLAIM,
      method: 'toe',
      settings: { toe: { maxIterations: 1, minIterations: 1, policy: 'learned', sampling: 'sample', logEpisodes: false } },
    });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    const verdict = fullVerdict(await handle.result());
    const trace = verdict.trace as unknown as ToeTrace;
    expect(trace.iterations).toBe(1);
    expect(['t-max', 'decisive-root']).toContain(trace.termination);
    const root = trace.nodes[0]!;
    expect(root.episode!.policy).toMatch(/^learned@/);
    const children = trace.nodes.filter((n) => n.parentId === root.id);
    expect(children.length).toBeGreaterThanOrEqual(2);
    for (const child of children) expect(['pending', 'pruned']).toContain(child.status);
    // Without processed children the root's aggregate is its own score.
    expect([root.vAggr, root.rAggr]).toEqual([root.vSelf, root.rSelf]);
  });

  it('online policy: the heuristic acts for the warm-up, then a GRPO update writes a weights version in Elasticsearch and the next claim acts with it', async () => {
    const { config, client, es, prefix } = harness;
    // The paper's protocol (warm-up 8 claims, groups of 8 episodes) scaled down: warm-up 2 claims, groups of 2.
    const toe = { maxIterations: 1, maxSearchSteps: 1, policy: 'online', sampling: 'sample', online: { warmupClaims: 2, groupSize: 2, claimsPerVersion: 1, scope: 'online-test' } } as const;
    const claims = [CLAIM, 'Gustave Eiffel designed the tower in Paris.', 'The Eiffel Tower opened in March 1889.'];
    const verdicts = [];
    for (const claim of claims) {
      const input = buildVerifyInput(config, { claim, method: 'toe', settings: { toe } });
      const { handle } = await startVerification(client, config.temporal.taskQueue, input);
      verdicts.push({ workflowId: handle.workflowId, verdict: fullVerdict(await handle.result()) });
    }
    const online = verdicts.map(({ verdict }) => (verdict.trace as unknown as { online: { scope: string; actedWith: string | null; afterClaim: { claimsDone: number; updates: { kind: string; seq: number; version: string; parentVersion: string; episodes: number }[] } } }).online);
    // Claims 1 and 2 are the warm-up: the heuristic acts. Claim 2's end fits the starting weights to the
    // heuristic on the warm-up episodes (version 0, π_ref), then runs the first GRPO update from it.
    const [fit, update] = online[1]!.afterClaim.updates;
    expect(online.map((o) => o.actedWith)).toEqual([null, null, update!.version]);
    expect(online[0]!.afterClaim.updates).toEqual([]);
    expect(fit).toMatchObject({ kind: 'warmup-clone', seq: 0, parentVersion: loadLearnedPolicy().version, episodes: 2 });
    expect(update).toMatchObject({ kind: 'grpo', seq: 1, parentVersion: fit!.version, episodes: 2 });

    // The versions are documents in Elasticsearch holding their weights and the episodes they trained on.
    const versions = new PolicyVersionStore(es, toePolicyVersionsIndex(prefix));
    const warmupEpisodes = [`${verdicts[0]!.workflowId}/n0`, `${verdicts[1]!.workflowId}/n0`].sort();
    const storedFit = await versions.get('online-test', fit!.version);
    expect(storedFit).toMatchObject({ update: 'warmup-clone', episodeIds: [], referenceVersion: fit!.version });
    expect(storedFit!.clonedFrom!.sort()).toEqual(warmupEpisodes);
    expect(storedFit!.weights.training).toMatchObject({ method: 'warmup-clone', parentVersion: loadLearnedPolicy().version, episodes: 2 });
    const stored = await versions.get('online-test', update!.version);
    expect(stored!.episodeIds.sort()).toEqual(warmupEpisodes);
    expect(stored).toMatchObject({ update: 'grpo', referenceVersion: fit!.version });
    expect(stored!.weights.version).toBe(update!.version);
    expect(stored!.weights.training).toMatchObject({ method: 'grpo', parentVersion: fit!.version, episodes: 2, hyperparameters: { learningRate: 1e-3 } });
    // Exported (`verity toe versions <scope> --export`), it is a weights file policy=learned loads as the same version.
    const exported = path.join(tmp, 'online-v1.json');
    writeVersionWeights(stored!, exported);
    expect(loadLearnedPolicy(exported).version).toBe(update!.version);

    // Episodes reference the version they acted with; claim 3's acted with the update.
    const episodes = await new ToeEpisodeStore(es, toeEpisodesIndex(prefix)).ofLearner('online-test');
    const byClaim = verdicts.map(({ workflowId }) => episodes.find((e) => e.workflowId === workflowId)!);
    expect(byClaim.map((e) => e.policyVersion)).toEqual([undefined, undefined, update!.version]);
    expect(byClaim.map((e) => e.policy)).toEqual(['heuristic', 'heuristic', `online@${update!.version}`]);
  });
});
