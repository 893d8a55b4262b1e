import type OpenAI from 'openai';
import { toFile } from 'openai';
import { batchInputLine, type BatchLineOutcome, readOutputLines } from './batch-lines';

/** The metadata key naming a batch's submission (`<collector id>-<seq>`): a retried submission finds its batch by it. */
export const SUBMISSION_METADATA_KEY = 'verity_batch';

/** Batches listed when looking for an earlier submission (newest first; a collector has few in flight). */
const LIST_PAGE = 100;
const LIST_PAGES = 5;

export type BatchState = 'pending' | 'ended' | 'failed';

export interface BatchStatus {
  state: BatchState;
  status: string;
  outputFileId?: string;
  errorFileId?: string;
  /** Why a batch failed as a whole (its input was refused). */
  errors?: string;
}

/** OpenAI's files + batches endpoints, as the batch lane uses them. */
export class BatchClient {
  constructor(private readonly client: OpenAI) {}

  /**
   * Submits the requests as one batch, once: a batch with this submission's metadata is reused,
   * so a retry after a crash (between create and the activity's completion) never submits twice.
   */
  async submitOnce(submission: string, requests: { customId: string; body: unknown }[], signal?: AbortSignal): Promise<string> {
    const earlier = await this.findSubmission(submission, signal);
    if (earlier) return earlier;
    const text = `${requests.map((request) => batchInputLine(request.customId, request.body)).join('\n')}\n`;
    const file = await this.client.files.create({ file: await toFile(Buffer.from(text), `${submission}.jsonl`), purpose: 'batch' }, { signal });
    const batch = await this.client.batches.create(
      { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { [SUBMISSION_METADATA_KEY]: submission } },
      { signal },
    );
    return batch.id;
  }

  async status(batchId: string, signal?: AbortSignal): Promise<BatchStatus> {
    const batch = await this.client.batches.retrieve(batchId, { signal });
    const files = { ...(batch.output_file_id ? { outputFileId: batch.output_file_id } : {}), ...(batch.error_file_id ? { errorFileId: batch.error_file_id } : {}) };
    if (batch.status === 'failed') {
      const errors = (batch.errors?.data ?? []).map((error) => `${error.code ?? 'error'}${error.line ? ` (line ${error.line})` : ''}: ${error.message ?? ''}`).join('; ');
      return { state: 'failed', status: batch.status, errors: errors || 'the batch failed', ...files };
    }
    const ended = batch.status === 'completed' || batch.status === 'expired' || batch.status === 'cancelled';
    return { state: ended ? 'ended' : 'pending', status: batch.status, ...files };
  }

  /** The outcome of each request of an ended batch (requests in neither file have none). */
  async outcomes(status: BatchStatus, signal?: AbortSignal): Promise<Map<string, BatchLineOutcome>> {
    const outcomes = new Map<string, BatchLineOutcome>();
    for (const fileId of [status.errorFileId, status.outputFileId]) {
      if (!fileId) continue;
      const text = await (await this.client.files.content(fileId, { signal })).text();
      for (const [customId, outcome] of readOutputLines(text)) outcomes.set(customId, outcome);
    }
    return outcomes;
  }

  private async findSubmission(submission: string, signal?: AbortSignal): Promise<string | undefined> {
    let page = await this.client.batches.list({ limit: LIST_PAGE }, { signal });
    for (let pages = 1; ; pages++) {
      const found = page.data.find((batch) => batch.metadata?.[SUBMISSION_METADATA_KEY] === submission && batch.status !== 'failed');
      if (found) return found.id;
      if (!page.hasNextPage() || pages >= LIST_PAGES) return undefined;
      page = await page.getNextPage();
    }
  }
}
