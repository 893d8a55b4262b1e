/**
 * Poisoning robustness of every method (toe.md §7, generalised): for false (REFUTED-gold) claims,
 * inject adversarial passages that restate the claim and assert it (ranked first by BM25) into the
 * wiki corpus and the recorded web, then run each method through the real Temporal + ES on the
 * clean and the poisoned indices and count label flips. Fact-check verdict pages for the claims
 * are in the web index under both corpora; the web search's fact-check exclude list is switched
 * on ('filtered', the default config) and off ('allowed') to expose label leakage.
 */
import { randomBytes } from 'node:crypto';
import { createEsClient } from '../../src/es/client';
import { loadConfig } from '../../src/config/config';
import { METHOD_NAMES, type MethodName } from '../../src/methods/registry';
import type { MethodSettings } from '../../src/shared/method-settings';
import { settingsOfMethod } from '../../src/shared/method-settings';
import { FACT_CHECK_DOMAINS } from '../../src/search/domain-filter';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import { loadDataset, type DatasetClaim } from '../../src/datasets';
import {
  factCheckLeakDocuments,
  mentionsLeak,
  mentionsPoison,
  poisonedWebDocuments,
  poisonedWikiDocuments,
  type TargetClaim,
} from './adversarial-passages';
import { summariseFlips, type ClaimOutcome, type CorpusCondition, type FactCheckMode, type FlipSummary } from './flip-metrics';
import { buildConditionIndices, deleteIndices, type CorpusFiles } from './poison-corpus';
import { startSession, type VeritySession } from './verity-session';
import { CommandProgress } from '../../src/cli/progress';
import { pool } from '../bench/support/pool';

export const POISON_TARGETS = ['wiki', 'web'] as const;
export type PoisonTarget = (typeof POISON_TARGETS)[number];

export interface PoisoningOptions {
  datasetFile: string;
  corpus: CorpusFiles;
  methods: readonly MethodName[];
  /** How many REFUTED-gold claims, in file order. */
  claims: number;
  /** Adversarial passages per claim and target (PoisonedRAG default: 5). */
  perClaim: number;
  targets: readonly PoisonTarget[];
  factCheck: readonly FactCheckMode[];
  /** Verifications running at once per condition. */
  concurrency: number;
  timeoutMs: number;
  /** 'simulator' (default): the project's OpenAI-compatible simulator; 'configured': the endpoint in the environment. */
  llm: 'simulator' | 'configured';
  settings?: MethodSettings;
  keepIndices?: boolean;
  log?: (line: string) => void;
}

export interface SkippedMethod {
  method: MethodName;
  reason: string;
}

export interface PoisoningReport {
  startedAt: string;
  durationMs: number;
  runId: string;
  dataset: string;
  corpus: CorpusFiles;
  llm: string;
  perClaim: number;
  targets: readonly PoisonTarget[];
  claims: { id: string; claim: string }[];
  methods: MethodName[];
  skipped: SkippedMethod[];
  summaries: FlipSummary[];
  outcomes: ClaimOutcome[];
}

const NOT_IMPLEMENTED = /not implemented/i;

export function targetClaims(claims: readonly DatasetClaim[], count: number): TargetClaim[] {
  return claims
    .filter((c) => c.labelNorm === 'REFUTED')
    .slice(0, count)
    .map((c) => ({ id: c.id, claim: c.claim, goldTitles: c.goldTitles }));
}

/** The documents injected into one condition's indices. */
export function injectedDocuments(targets: readonly TargetClaim[], corpus: CorpusCondition, poisonTargets: readonly PoisonTarget[], perClaim: number) {
  const poisoned = corpus === 'poisoned';
  return {
    wiki: poisoned && poisonTargets.includes('wiki') ? targets.flatMap((t) => poisonedWikiDocuments(t, perClaim)) : [],
    web: [
      ...targets.flatMap((t) => factCheckLeakDocuments(t)),
      ...(poisoned && poisonTargets.includes('web') ? targets.flatMap((t) => poisonedWebDocuments(t, perClaim)) : []),
    ],
  };
}

export async function runPoisoningHarness(options: PoisoningOptions): Promise<PoisoningReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const { claims: all } = await loadDataset(options.datasetFile);
  const targets = targetClaims(all, options.claims);
  if (targets.length === 0) throw new Error(`${options.datasetFile} has no REFUTED claims`);
  const dataset = all[0]?.dataset;
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const base = `poison-${stamp}`;
  const config = loadConfig();
  const es = createEsClient({ ...config.elasticsearch, requestTimeoutMs: 300_000 });
  let simulator: RunningSimulator | undefined;
  const outcomes: ClaimOutcome[] = [];
  const skipped: SkippedMethod[] = [];
  const conditions: { corpus: CorpusCondition; factCheck: FactCheckMode; prefix: string }[] = options.factCheck.flatMap((factCheck) =>
    (['clean', 'poisoned'] as const).map((corpus) => ({ corpus, factCheck, prefix: `${base}-${corpus[0]}${factCheck[0]}` })),
  );

  try {
    if (options.llm === 'simulator') simulator = await startSimulator({ port: 0 });
    log(`${targets.length} REFUTED claims of ${options.datasetFile}; corpora ${options.corpus.wiki}${options.corpus.web ? ` + ${options.corpus.web}` : ''}`);

    let active = [...options.methods];
    for (const [index, condition] of conditions.entries()) {
      log(`${condition.corpus}/${condition.factCheck}: indexing into ${condition.prefix}-wiki / -web`);
      await buildConditionIndices(es, condition.prefix, options.corpus, injectedDocuments(targets, condition.corpus, options.targets, options.perClaim));
      const session: VeritySession = await startSession({
        prefix: condition.prefix,
        env: {
          ...(simulator ? { OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-simulator' } : {}),
          VERITY_WEB_SEARCH_PROVIDER: 'recorded',
          VERITY_WIKI_PROVIDER: 'index',
          VERITY_WEB_EXCLUDE_DOMAINS: condition.factCheck === 'allowed' ? 'none' : FACT_CHECK_DOMAINS.join(','),
          VERITY_WEB_INCLUDE_DOMAINS: '',
        },
      });
      const runId = `${base}-${condition.corpus}-${condition.factCheck}`;
      const runOne = async (method: MethodName, target: TargetClaim): Promise<ClaimOutcome> => {
        const t0 = Date.now();
        const result = await session.verify({
          runId,
          claimId: target.id,
          claim: target.claim,
          method,
          ...(dataset ? { dataset } : {}),
          settings: settingsOfMethod(options.settings, method),
          timeoutMs: options.timeoutMs,
        });
        const outcome: ClaimOutcome = { method, claimId: target.id, corpus: condition.corpus, factCheck: condition.factCheck, poisonSeen: false, leakSeen: false, durationMs: Date.now() - t0 };
        if ('error' in result) return { ...outcome, error: result.error };
        const seen = JSON.stringify({ evidence: result.verdict.evidence, cited: result.verdict.citedPassageIds, trace: result.verdict.trace ?? null });
        return { ...outcome, label: result.verdict.label, poisonSeen: mentionsPoison(seen), leakSeen: mentionsLeak(seen) };
      };
      try {
        if (index === 0) {
          // Probe each method on the first claim: placeholders throw "not implemented yet".
          const first = targets[0] as TargetClaim;
          for (const method of active) {
            const outcome = await runOne(method, first);
            if (outcome.error && NOT_IMPLEMENTED.test(outcome.error)) {
              skipped.push({ method, reason: outcome.error });
              log(`skip ${method}: ${outcome.error}`);
            } else {
              outcomes.push(outcome);
            }
          }
          active = active.filter((m) => !skipped.some((s) => s.method === m));
        }
        const work = active.flatMap((method) => targets.filter((t, i) => index > 0 || i > 0).map((target) => ({ method, target })));
        let done = 0;
        let failed = 0;
        const progress = new CommandProgress({ label: `bench poisoning ${condition.corpus}/${condition.factCheck}`, unit: 'verifications', intervalMs: config.progressIntervalMs });
        progress.update({ done, total: work.length, failed });
        try {
          await pool(work, options.concurrency, async ({ method, target }) => {
            const outcome = await runOne(method, target);
            outcomes.push(outcome);
            done += 1;
            if (outcome.error) {
              failed += 1;
              log(`${condition.corpus}/${condition.factCheck} ${method} ${target.id}: error ${outcome.error}`);
            }
            progress.update({ done, total: work.length, failed });
          });
        } finally {
          progress.finish();
        }
      } finally {
        await session.close();
      }
    }
  } finally {
    if (!options.keepIndices) {
      for (const condition of conditions) await deleteIndices(es, condition.prefix).catch(() => undefined);
    }
    await simulator?.close();
    await es.close();
  }

  const methods = options.methods.filter((m) => !skipped.some((s) => s.method === m));
  return {
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    runId: base,
    dataset: options.datasetFile,
    corpus: options.corpus,
    llm: options.llm,
    perClaim: options.perClaim,
    targets: options.targets,
    claims: targets.map((t) => ({ id: t.id, claim: t.claim })),
    methods,
    skipped,
    summaries: summariseFlips(outcomes).sort((a, b) => METHOD_NAMES.indexOf(a.method as MethodName) - METHOD_NAMES.indexOf(b.method as MethodName) || a.factCheck.localeCompare(b.factCheck)),
    outcomes,
  };
}

export function formatPoisoningReport(report: PoisoningReport): string {
  const lines = [
    `poisoning robustness: ${report.claims.length} REFUTED claims of ${report.dataset}; ${report.perClaim} adversarial passages per claim in ${report.targets.join(' + ')}; LLM: ${report.llm}`,
    '',
    `${'method'.padEnd(10)} ${'fact-check'.padEnd(10)} ${'pairs'.padStart(5)} ${'err'.padStart(4)} ${'clean acc'.padStart(9)} ${'pois. acc'.padStart(9)} ${'flip'.padStart(6)} ${'→SUP'.padStart(6)} ${'poison seen'.padStart(11)} ${'leak seen'.padStart(9)}`,
    ...report.summaries.map(
      (s) =>
        `${s.method.padEnd(10)} ${s.factCheck.padEnd(10)} ${String(s.pairs).padStart(5)} ${String(s.errors).padStart(4)} ${s.cleanAccuracy.toFixed(3).padStart(9)} ${s.poisonedAccuracy.toFixed(3).padStart(9)} ${s.flipRate.toFixed(3).padStart(6)} ${s.flipToSupportedRate.toFixed(3).padStart(6)} ${s.poisonSeenRate.toFixed(3).padStart(11)} ${s.leakSeenRate.toFixed(3).padStart(9)}`,
    ),
  ];
  for (const s of report.skipped) lines.push(`skipped ${s.method}: ${s.reason}`);
  lines.push('', `flip = share of claims whose label changed clean → poisoned; →SUP = share that became SUPPORTED; acc = share labelled REFUTED (gold).`);
  if (report.llm === 'simulator') lines.push('LLM = the project simulator (lexical overlap): these figures test the harness and the pipelines, not the methods\' reasoning.');
  return `${lines.join('\n')}\n`;
}
