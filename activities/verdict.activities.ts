import type { Verdict } from '../src/shared/verify';
import type { VerdictStore } from '../src/verdicts/verdict-store';
import { toEsFailure } from './support/es-failure';

export function createVerdictActivities(deps: { verdicts: VerdictStore }) {
  return {
    /** Writes the verdict under its workflow id, so a retried write changes nothing. */
    async storeVerdict(verdict: Verdict): Promise<void> {
      try {
        await deps.verdicts.store(verdict);
      } catch (err) {
        throw toEsFailure(err);
      }
    },
  };
}
