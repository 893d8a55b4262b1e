import type { MemoryObservation, MemoryUpdateOptions } from '../shared/memory';
import { dedupKeyOf, entryId, queryOf } from './dedup';
import type { MemoryEntry } from './entry';
import { keywordsOf } from './keys';
import { invalidReason, type InvalidObservationReason } from './validity';

export interface MemoryUpdateRequest {
  scope: string;
  claimId: string;
  /** The claim's subjects and objects; every stored entry is tagged with all of them (§3.2). */
  entities: string[];
  observations: MemoryObservation[];
}

export interface PlannedUpdate {
  entries: MemoryEntry[];
  invalid: Partial<Record<InvalidObservationReason, number>>;
  duplicatesInBatch: number;
}

/** When the write happens: `insertionOrder` counts up from `firstOrder` in observation order. */
export interface WriteClock {
  timestamp: string;
  firstOrder: number;
}

/** Entries to write for a claim's observations: invalid ones filtered (unless kept), repeats within the batch dropped, first kept. */
export function planUpdate(
  request: MemoryUpdateRequest,
  options: Pick<MemoryUpdateOptions, 'dedup' | 'storeInvalid'>,
  clock: WriteClock,
): PlannedUpdate {
  const planned: PlannedUpdate = { entries: [], invalid: {}, duplicatesInBatch: 0 };
  const keywords = keywordsOf(request.entities);
  const seen = new Set<string>();
  for (const observation of request.observations) {
    const reason = options.storeInvalid ? undefined : invalidReason(observation);
    if (reason) {
      planned.invalid[reason] = (planned.invalid[reason] ?? 0) + 1;
      continue;
    }
    const dedupKey = dedupKeyOf(observation, options.dedup);
    if (seen.has(dedupKey)) {
      planned.duplicatesInBatch += 1;
      continue;
    }
    seen.add(dedupKey);
    planned.entries.push({
      id: entryId(request.scope, dedupKey),
      runScope: request.scope,
      claimId: request.claimId,
      entityKeys: [...request.entities],
      keywords,
      tool: observation.tool,
      args: observation.args,
      query: queryOf(observation),
      evidence: observation.evidence,
      sources: observation.sources ?? [],
      timestamp: clock.timestamp,
      insertionOrder: clock.firstOrder + planned.entries.length,
      dedupKey,
    });
  }
  return planned;
}
