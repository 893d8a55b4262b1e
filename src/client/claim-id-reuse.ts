import { type Client, defaultPayloadConverter } from '@temporalio/client';
import { escapeIdPart } from '../shared/identity';
import type { VerifyClaimInput } from '../shared/verify';
import type { VerdictStore } from '../verdicts/verdict-store';

export class ClaimIdReusedError extends Error {
  override name = 'ClaimIdReusedError';
}

/** Running verifications looked at per check (a claim id names one claim, so more is already a conflict). */
const MAX_RUNNING_CHECKED = 20;

/**
 * Refuses a claim id that the run already uses for another claim text, whether that verification
 * has a stored verdict or is still running in Temporal: ids never attach across contents.
 */
export async function refuseClaimIdReuse(
  verdicts: Pick<VerdictStore, 'claimsNamed'>,
  temporal: Pick<Client, 'workflow'>,
  input: Pick<VerifyClaimInput, 'runId' | 'claimId' | 'claim'>,
): Promise<void> {
  const stored = await verdicts.claimsNamed(input.runId, input.claimId);
  const other = stored.find((claim) => claim !== input.claim) ?? (await runningClaimsNamed(temporal, input.runId, input.claimId)).find((claim) => claim !== input.claim);
  if (other === undefined) return;
  const excerpt = other.length > 80 ? `${other.slice(0, 79)}…` : other;
  throw new ClaimIdReusedError(`claim id "${input.claimId}" of run "${input.runId}" already names another claim ("${excerpt}"); choose another --claim-id`);
}

/** The claim texts of the running verifications of `runId` with `claimId` (read from their start events). */
export async function runningClaimsNamed(temporal: Pick<Client, 'workflow'>, runId: string, claimId: string): Promise<string[]> {
  const prefix = `verify/${escapeIdPart(runId)}/${escapeIdPart(claimId)}/`;
  const query = `WorkflowType = 'verifyClaimWorkflow' AND ExecutionStatus = 'Running' AND WorkflowId STARTS_WITH ${queryString(prefix)}`;
  const claims = new Set<string>();
  let checked = 0;
  for await (const execution of temporal.workflow.list({ query })) {
    // STARTS_WITH is a filter of the server's; the id check keeps the answer exact whatever it matched.
    if (!execution.workflowId.startsWith(prefix)) continue;
    const history = await temporal.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    const started = payload ? defaultPayloadConverter.fromPayload<Partial<VerifyClaimInput>>(payload) : undefined;
    if (typeof started?.claim === 'string') claims.add(started.claim);
    if (++checked >= MAX_RUNNING_CHECKED) break;
  }
  return [...claims];
}

/** A string literal of Temporal's list-filter language. */
function queryString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
