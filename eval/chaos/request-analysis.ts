import type { SimRequestRecord } from '../../src/simulator/request-log';

export interface Disruption {
  what: string;
  /** ISO times; a kill is an instant (from = to). */
  from: string;
  to: string;
  /** Only requests from this client address (a worker machine cut off) are in it. */
  client?: string;
}

export interface DuplicateAnalysis {
  requests: number;
  /** Request hashes sent more than once. */
  duplicatedHashes: number;
  /** Of those, hashes with an attempt in flight during a disruption (a worker kill or the server restart). */
  inFlightAtKill: number;
  inFlightAtRestart: number;
  /**
   * Of the others, hashes first paid while the request cache (Elasticsearch) was unreachable: that
   * answer could not be cached (it was returned anyway), so a later identical request paid again.
   */
  paidWhileCacheDown: number;
  /** Duplicated hashes no disruption explains: each is a call paid twice for nothing. */
  unexplained: string[];
}

/** A request is in flight at a disruption when [start, start + duration] overlaps it. */
function overlaps(record: SimRequestRecord, disruption: Disruption, slackMs: number): boolean {
  if (disruption.client !== undefined && record.client !== disruption.client) return false;
  const start = Date.parse(record.time);
  const end = start + record.durationMs + slackMs;
  return start <= Date.parse(disruption.to) && end >= Date.parse(disruption.from);
}

/**
 * Counts the paid model requests (answered with 200; a 429 or 500 costs nothing) that were sent
 * more than once, and whether a kill or restart explains each.
 */
export function analyseDuplicates(
  records: SimRequestRecord[],
  kills: Disruption[],
  restarts: Disruption[],
  path = '/v1/chat/completions',
  slackMs = 250,
  cacheOutages: Disruption[] = [],
): DuplicateAnalysis {
  const byHash = new Map<string, SimRequestRecord[]>();
  const paid = records.filter((r) => r.path === path && r.status === 200 && !r.fault);
  for (const record of paid) byHash.set(record.requestHash, [...(byHash.get(record.requestHash) ?? []), record]);
  const duplicated = [...byHash.entries()].filter(([, attempts]) => attempts.length > 1);
  const hit = (attempts: SimRequestRecord[], disruptions: Disruption[]) => attempts.some((a) => disruptions.some((d) => overlaps(a, d, slackMs)));
  const atKill = duplicated.filter(([, attempts]) => hit(attempts, kills));
  const atRestart = duplicated.filter(([, attempts]) => !hit(attempts, kills) && hit(attempts, restarts));
  const firstPaidWhileCacheDown = duplicated.filter(
    ([, attempts]) => !hit(attempts, kills) && !hit(attempts, restarts) && cacheOutages.some((outage) => overlaps(attempts[0]!, outage, 0) && Date.parse(attempts[0]!.time) >= Date.parse(outage.from)),
  );
  const explained = new Set([...atKill, ...atRestart, ...firstPaidWhileCacheDown].map(([hash]) => hash));
  return {
    requests: paid.length,
    duplicatedHashes: duplicated.length,
    inFlightAtKill: atKill.length,
    inFlightAtRestart: atRestart.length,
    paidWhileCacheDown: firstPaidWhileCacheDown.length,
    unexplained: duplicated.map(([hash]) => hash).filter((hash) => !explained.has(hash)),
  };
}

export interface CutAnalysis {
  /** Paid requests the cut machine had in flight when its link went down (their answers were lost). */
  inFlightAtCut: number;
  /** Of those, how many another machine sent again, and the longest wait from the cut to that resend (ms). */
  resentElsewhere: number;
  longestMoveMs: number | undefined;
  /** From the link's return to the cut machine's next request: when it was working again (ms). */
  rejoinedAfterMs: number | undefined;
}

/**
 * What happened to the work of a machine whose link was cut from `cut.from` to `cut.to`, read from
 * the simulator's log (which records each request's client address). A request answered up to
 * `slackMs` before the cut counts as lost: the machine still had to store and report its answer.
 */
export function analyseCut(records: SimRequestRecord[], client: string, cut: Disruption, path = '/v1/chat/completions', slackMs = 250): CutAnalysis {
  const from = Date.parse(cut.from);
  const to = Date.parse(cut.to);
  const chat = records.filter((r) => r.path === path);
  const paid = chat.filter((r) => r.status === 200 && !r.fault);
  const lost = paid.filter((r) => r.client === client && overlaps(r, { what: cut.what, from: cut.from, to: cut.from }, slackMs));
  const moves = lost
    .map((r) => paid.find((other) => other.requestHash === r.requestHash && other.client !== client && Date.parse(other.time) >= Date.parse(r.time)))
    .filter((other): other is SimRequestRecord => other !== undefined)
    .map((other) => Date.parse(other.time) - from);
  const back = chat.find((r) => r.client === client && Date.parse(r.time) >= to);
  return {
    inFlightAtCut: lost.length,
    resentElsewhere: moves.length,
    longestMoveMs: moves.length > 0 ? Math.max(...moves) : undefined,
    rejoinedAfterMs: back ? Date.parse(back.time) - to : undefined,
  };
}

/** The most requests started within any window of `windowMs` (each window opening at a request). */
export function peakRequests(records: readonly SimRequestRecord[], windowMs: number): number {
  return peakInWindow(records.map((r) => Date.parse(r.time)).sort((a, b) => a - b), windowMs);
}

/** The most times in any window [t, t + windowMs), t one of them (times sorted). */
export function peakInWindow(sortedTimes: readonly number[], windowMs: number): number {
  let peak = 0;
  for (let last = 0, first = 0; last < sortedTimes.length; last++) {
    while (sortedTimes[last]! - sortedTimes[first]! >= windowMs) first += 1;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}
