import type { VerifyClaimInput } from '../shared/verify';
import type { VerdictStore } from '../verdicts/verdict-store';

export class ClaimIdReusedError extends Error {
  override name = 'ClaimIdReusedError';
}

/** Refuses a claim id that the run already uses for another claim text: ids never attach across contents. */
export async function refuseClaimIdReuse(verdicts: Pick<VerdictStore, 'claimsNamed'>, input: Pick<VerifyClaimInput, 'runId' | 'claimId' | 'claim'>): Promise<void> {
  const other = (await verdicts.claimsNamed(input.runId, input.claimId)).find((claim) => claim !== input.claim);
  if (other === undefined) return;
  const excerpt = other.length > 80 ? `${other.slice(0, 79)}…` : other;
  throw new ClaimIdReusedError(`claim id "${input.claimId}" of run "${input.runId}" already names another claim ("${excerpt}"); choose another --claim-id`);
}
