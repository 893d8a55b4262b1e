/**
 * Tool-MAD's answer-relevance gate calibrated for the embedding model at hand, as the method's
 * docs prescribe ("Calibrating the relevance threshold"): a pilot sweep with the gate open
 * records every debater turn's relevance score; the threshold is the score at the paper's place
 * in that distribution (PAPER_RELEVANCE_PASS_SHARE of turns pass: the p25), rounded down.
 */
import type { Client as EsClient } from '@elastic/elasticsearch';
import { indexName } from '../../../src/es/indices';
import { PAPER_RELEVANCE_PASS_SHARE } from '../../../src/methods/tool-mad/relevance-thresholds';
import { searchAll } from '../../../src/runs/search-all';
import { relevanceDistribution } from '../tool-mad/relevance-histogram';

export interface RelevanceCalibration {
  threshold: number;
  embeddingModel: string;
  pilotRun: string;
  claims: number;
  turns: number;
  quantiles: Record<string, number>;
  source: string;
}

/** Every debater turn's answer relevance in the verdicts of `runId`. */
export async function pilotRelevanceScores(es: EsClient, prefix: string, runId: string): Promise<{ claims: number; scores: number[] }> {
  const verdicts = indexName(prefix, 'verdicts');
  await es.indices.refresh({ index: verdicts });
  const docs = await searchAll(es, verdicts, { term: { runId } });
  const scores = docs.flatMap((doc) => {
    const trace = (doc as { trace?: { rounds?: { turns?: { answerRelevance?: unknown }[] }[] } }).trace;
    return (trace?.rounds ?? []).flatMap((round) => (round.turns ?? []).map((turn) => turn.answerRelevance)).filter((score): score is number => typeof score === 'number');
  });
  return { claims: docs.length, scores };
}

export function calibratedThreshold(pilot: { claims: number; scores: readonly number[] }, embeddingModel: string, pilotRun: string, command: string): RelevanceCalibration {
  if (pilot.scores.length === 0) throw new Error(`Tool-MAD pilot ${pilotRun}: no debater turn has an answer-relevance score, so no threshold can be calibrated`);
  const distribution = relevanceDistribution(pilot.scores, 0);
  const threshold = Math.floor(distribution.quantiles.p25! * 100) / 100;
  return {
    threshold,
    embeddingModel,
    pilotRun,
    claims: pilot.claims,
    turns: pilot.scores.length,
    quantiles: distribution.quantiles,
    source: `measured: \`${command}\` — Tool-MAD pilot ${pilotRun} with the gate open: p${Math.round(100 * (1 - PAPER_RELEVANCE_PASS_SHARE))} of ${pilot.scores.length} debater turns on ${pilot.claims} claims ${distribution.quantiles.p25!.toFixed(3)} (p10 ${distribution.quantiles.p10?.toFixed(3)}, p50 ${distribution.quantiles.p50?.toFixed(3)}), rounded down`,
  };
}
