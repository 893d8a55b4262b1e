import { z } from 'zod';

/** Printable text on one line: no control characters (they would corrupt CSV, logs and the page). */
const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'no control characters');

/** Bounded free text (newlines and tabs allowed, other control characters not). */
const freeText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => /^[^\p{Cc}]*$/u.test(text.replace(/[\n\r\t]/g, '')), 'no control characters other than newlines and tabs');

export const REVIEWER_MAX = 80;
export const NOTE_MAX = 4_000;
export const DISPUTE_REASON_MAX = 1_000;

export const verdictMarkSchema = z.enum(['right', 'wrong']);
export type VerdictMark = z.infer<typeof verdictMarkSchema>;

/** The body of `POST /api/review`: one reviewer's review of one verification of the served run. */
export const reviewInputSchema = z
  .object({
    workflowId: z.string().min(1).max(1_000),
    reviewer: oneLine(REVIEWER_MAX).pipe(z.string().min(1, 'a reviewer name')),
    verdictMark: verdictMarkSchema.nullable(),
    goldDisputed: z.boolean(),
    disputeReason: freeText(DISPUTE_REASON_MAX).default(''),
    note: freeText(NOTE_MAX).default(''),
  })
  .strict()
  .refine((review) => !review.goldDisputed || review.disputeReason.trim().length > 0, { message: 'a disputed gold label needs a reason', path: ['disputeReason'] });
export type ReviewInput = z.infer<typeof reviewInputSchema>;

/** A stored review: the input plus what the server read about the verification (never what the client claims). */
export const reviewDocumentSchema = z.object({
  runId: z.string(),
  workflowId: z.string(),
  claimId: z.string(),
  dataset: z.string(),
  method: z.string(),
  model: z.string(),
  predicted: z.string(),
  gold: z.string().nullable(),
  reviewer: z.string(),
  reviewedAt: z.string(),
  verdictMark: verdictMarkSchema.nullable(),
  goldDisputed: z.boolean(),
  disputeReason: z.string(),
  note: z.string(),
});
export type ReviewDocument = z.infer<typeof reviewDocumentSchema>;
