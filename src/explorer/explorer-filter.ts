import type { estypes } from '@elastic/elasticsearch';
import { z } from 'zod';

/** Largest page the explorer asks Elasticsearch for. */
export const EXPLORER_MAX_PAGE = 200;
/** Claim ids per `terms` clause (Elasticsearch's default max_terms_count is 65,536). */
const TERMS_CHUNK = 50_000;

const optionalText = z.string().trim().min(1).max(500).optional();
const optionalNumber = z.coerce.number().nonnegative().optional();

/** The claims table's filters, as the explorer's JSON API takes them (query-string values). */
export const explorerFilterSchema = z.object({
  method: optionalText,
  model: optionalText,
  dataset: optionalText,
  predicted: optionalText,
  gold: optionalText,
  outcome: z.enum(['correct', 'incorrect', 'unscored']).optional(),
  /** `invalid`: verdicts reached after an LLM answer that never became valid; `failed`: verifications without a verdict. */
  status: z.enum(['invalid', 'failed']).optional(),
  text: optionalText,
  minCost: optionalNumber,
  maxCost: optionalNumber,
  minCalls: optionalNumber,
  maxCalls: optionalNumber,
  from: z.coerce.number().int().nonnegative().max(1_000_000).default(0),
  size: z.coerce.number().int().positive().max(EXPLORER_MAX_PAGE).default(50),
});
export type ExplorerFilter = z.infer<typeof explorerFilterSchema>;

/** Claim ids of the run by gold label (normalised); only read when a filter needs the gold labels. */
export type GoldIndex = Map<string, string[]>;

/** A verdict's LLM calls that failed for good, counted from its transcript when it is stored (VerdictStore). */
export const INVALID_CALLS_FIELD = 'invalidLlmCalls';

/**
 * Whether the verifications a filter selects include failed ones (no verdict): with `status=failed`,
 * and without a status when the filter says nothing only a verdict has (its label, outcome, gold,
 * text, cost or calls), as the report scores a failure (a wrong answer).
 */
export function selectsFailures(filter: ExplorerFilter): boolean {
  if (filter.status !== undefined) return filter.status === 'failed';
  const verdictOnly = [filter.predicted, filter.gold, filter.outcome, filter.text, filter.minCost, filter.maxCost, filter.minCalls, filter.maxCalls];
  return verdictOnly.every((value) => value === undefined);
}

/** Whether the filter needs the run's gold labels. */
export function needsGold(filter: ExplorerFilter): boolean {
  return filter.gold !== undefined || filter.outcome !== undefined;
}

/**
 * The Elasticsearch query over `<prefix>-verdicts` for one run and the filter. Gold-label filters
 * become `terms` clauses over the claim ids with that gold label (Elasticsearch has no joins).
 */
export function verdictQuery(runId: string, filter: ExplorerFilter, gold?: GoldIndex): estypes.QueryDslQueryContainer {
  const must: estypes.QueryDslQueryContainer[] = [{ term: { runId } }];
  const mustNot: estypes.QueryDslQueryContainer[] = [];
  for (const field of ['method', 'model', 'dataset'] as const) {
    const value = filter[field];
    if (value !== undefined) must.push({ term: { [field]: value } });
  }
  if (filter.predicted !== undefined) must.push({ term: { label: filter.predicted } });
  if (filter.text !== undefined) must.push({ match: { claim: { query: filter.text, operator: 'and' } } });
  if (filter.minCost !== undefined || filter.maxCost !== undefined) {
    must.push({ range: { 'usage.costUsd': { ...(filter.minCost !== undefined ? { gte: filter.minCost } : {}), ...(filter.maxCost !== undefined ? { lte: filter.maxCost } : {}) } } });
  }
  if (filter.minCalls !== undefined || filter.maxCalls !== undefined) {
    must.push({ range: { 'usage.llmCalls': { ...(filter.minCalls !== undefined ? { gte: filter.minCalls } : {}), ...(filter.maxCalls !== undefined ? { lte: filter.maxCalls } : {}) } } });
  }
  if (filter.status === 'invalid') must.push({ range: { [INVALID_CALLS_FIELD]: { gte: 1 } } });
  if (needsGold(filter)) {
    const index = gold ?? new Map<string, string[]>();
    if (filter.gold !== undefined) must.push(claimIdsIn(index.get(filter.gold) ?? []));
    const correct: estypes.QueryDslQueryContainer = {
      bool: { should: [...index.entries()].map(([label, ids]) => ({ bool: { must: [{ term: { label } }, claimIdsIn(ids)] } })), minimum_should_match: 1 },
    };
    const scored = claimIdsIn([...index.values()].flat());
    if (filter.outcome === 'correct') must.push(correct);
    if (filter.outcome === 'incorrect') {
      must.push(scored);
      mustNot.push(correct);
    }
    if (filter.outcome === 'unscored') mustNot.push(scored);
  }
  return { bool: { must, ...(mustNot.length > 0 ? { must_not: mustNot } : {}) } };
}

/** The query over `<prefix>-run-failures` for the filters a failure has (method, model, dataset; text matches the reason). */
export function failureQuery(runId: string, filter: ExplorerFilter): estypes.QueryDslQueryContainer {
  const must: estypes.QueryDslQueryContainer[] = [{ term: { runId } }];
  for (const field of ['method', 'model', 'dataset'] as const) {
    const value = filter[field];
    if (value !== undefined) must.push({ term: { [field]: value } });
  }
  if (filter.text !== undefined) must.push({ match: { reason: { query: filter.text, operator: 'and' } } });
  return { bool: { must } };
}

function claimIdsIn(ids: string[]): estypes.QueryDslQueryContainer {
  if (ids.length === 0) return { bool: { must_not: { match_all: {} } } };
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += TERMS_CHUNK) chunks.push(ids.slice(i, i + TERMS_CHUNK));
  return { bool: { should: chunks.map((chunk) => ({ terms: { claimId: chunk } })), minimum_should_match: 1 } };
}
