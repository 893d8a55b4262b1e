/** zod schema of a logged PolicyEpisode (toe-policy.ts), as read from JSONL or Elasticsearch. */
import { z } from 'zod';
import { TOE_ACTIONS, TOE_STATE_DIM, type PolicyEpisode } from '../sandbox/toe-policy';

export const policyStepSchema = z.object({
  state: z.array(z.number().finite()).length(TOE_STATE_DIM),
  action: z.enum(TOE_ACTIONS),
  probability: z.number().gt(0).max(1),
  reward: z.number().finite(),
});

/** Extra fields (a run id, timestamps the logger adds) are allowed and dropped. */
export const policyEpisodeSchema = z.object({
  schemaVersion: z.literal(1),
  id: z.string().min(1),
  claim: z.string(),
  policy: z.string(),
  stateLayoutVersion: z.string().min(1),
  steps: z.array(policyStepSchema),
});

export function parseEpisode(raw: unknown, where: string): PolicyEpisode {
  const parsed = policyEpisodeSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${where}: not a ToE policy episode: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const { schemaVersion, id, claim, policy, stateLayoutVersion, steps } = parsed.data;
  return { schemaVersion, id, claim, policy, stateLayoutVersion, steps };
}
