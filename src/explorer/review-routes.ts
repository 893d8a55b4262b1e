import type http from 'node:http';
import { z } from 'zod';
import { reviewInputSchema, type ReviewDocument } from '../review/review-schema';
import type { ReviewStore } from '../review/review-store';
import type { ExplorerSource } from './explorer-data';

/** The reviews `verity view` reads and writes for its run. */
export interface ExplorerReviews {
  store: ReviewStore;
  runId: string;
}

/** A request the explorer answers with `status` and one line. */
export class ExplorerRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Review bodies are a few kilobytes at most (the note is bounded). */
const MAX_BODY_BYTES = 32 * 1024;

async function readBody(request: http.IncomingMessage): Promise<unknown> {
  if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) throw new ExplorerRequestError(415, 'a review is sent as application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ExplorerRequestError(413, `a review body is at most ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ExplorerRequestError(400, 'the body is not JSON');
  }
}

/** GET /api/reviews?workflowId=…: every reviewer's review of that verification. */
export async function listReviews(reviews: ExplorerReviews, params: Record<string, string>): Promise<ReviewDocument[]> {
  const { workflowId } = z.object({ workflowId: z.string().min(1).max(1_000) }).parse(params);
  return reviews.store.forVerification(reviews.runId, workflowId);
}

/**
 * POST /api/review: stores the body as its reviewer's review of one of the run's verifications. What
 * the review is about (claim, dataset, method, model, labels) is read from the run, not from the body.
 */
export async function saveReview(reviews: ExplorerReviews, source: ExplorerSource, request: http.IncomingMessage): Promise<ReviewDocument> {
  const input = reviewInputSchema.parse(await readBody(request));
  const claim = await source.claim(input.workflowId);
  if (!claim) throw new ExplorerRequestError(404, `no verification ${input.workflowId} in run ${reviews.runId}`);
  const review: ReviewDocument = {
    runId: reviews.runId,
    workflowId: input.workflowId,
    claimId: claim.verdict.claimId,
    dataset: claim.verdict.dataset ?? '',
    method: claim.verdict.method,
    model: claim.verdict.model,
    predicted: claim.verdict.label,
    gold: claim.gold,
    reviewer: input.reviewer,
    reviewedAt: new Date().toISOString(),
    verdictMark: input.verdictMark,
    goldDisputed: input.goldDisputed,
    disputeReason: input.goldDisputed ? input.disputeReason.trim() : '',
    note: input.note,
  };
  await reviews.store.save(review);
  return review;
}
