import type { BatchCreateBody, BatchInputLine } from './batch-schemas';
import type { BatchLineError } from './batch-lines';
import type { FileStore } from './file-store';

export type SimBatchStatus = 'validating' | 'failed' | 'in_progress' | 'completed' | 'expired' | 'cancelled';

/** What one request line got: an answer (any HTTP status) or no answer at all (error code, e.g. batch_expired). */
export type LineOutcome = { statusCode: number; body: unknown } | { errorCode: string; message: string };

export interface SimBatch {
  id: string;
  request: BatchCreateBody;
  createdMs: number;
  lines: BatchInputLine[];
  validationErrors: BatchLineError[];
  expires: boolean;
  /** Set once the batch has ended (answered, expired, failed or cancelled). */
  ended?: { status: Exclude<SimBatchStatus, 'validating' | 'in_progress'>; atMs: number; outputFileId?: string; errorFileId?: string; completed: number; failed: number };
}

/** Answers one request line (the simulator's chat logic with its line faults); `line` is 1-based. */
export type LineAnswerer = (batch: SimBatch, line: BatchInputLine) => LineOutcome;

/** Batches and their lifecycle: validating, then in_progress, then (after the turnaround) completed or expired, answered at that moment. */
export class BatchStore {
  private batches: SimBatch[] = [];
  private nextId = 1;

  constructor(
    private readonly files: FileStore,
    private readonly turnaroundMs: number,
    private readonly answer: LineAnswerer,
    /** Told of each request an expiring batch leaves unanswered. */
    private readonly onExpired: (batch: SimBatch, line: BatchInputLine) => void = () => undefined,
  ) {}

  add(request: BatchCreateBody, lines: BatchInputLine[], validationErrors: BatchLineError[], expires: boolean): SimBatch {
    const batch: SimBatch = { id: `batch_sim${String(this.nextId++).padStart(6, '0')}`, request, createdMs: Date.now(), lines, validationErrors, expires };
    this.batches.push(batch);
    return batch;
  }

  get(id: string): SimBatch | undefined {
    const batch = this.batches.find((candidate) => candidate.id === id);
    if (batch) this.advance(batch);
    return batch;
  }

  /** Newest first, as OpenAI lists them. */
  list(): SimBatch[] {
    for (const batch of this.batches) this.advance(batch);
    return [...this.batches].reverse();
  }

  cancel(batch: SimBatch): void {
    this.advance(batch);
    if (!batch.ended) batch.ended = { status: 'cancelled', atMs: Date.now(), completed: 0, failed: 0 };
  }

  statusOf(batch: SimBatch): SimBatchStatus {
    if (batch.ended) return batch.ended.status;
    return Date.now() - batch.createdMs < this.turnaroundMs / 10 ? 'validating' : 'in_progress';
  }

  private advance(batch: SimBatch): void {
    if (batch.ended) return;
    const elapsed = Date.now() - batch.createdMs;
    if (batch.validationErrors.length > 0 && elapsed >= this.turnaroundMs / 10) {
      batch.ended = { status: 'failed', atMs: Date.now(), completed: 0, failed: 0 };
      return;
    }
    if (elapsed < this.turnaroundMs) return;
    this.finish(batch);
  }

  /** Answers the lines; an expiring batch answers only its first half, the rest end as batch_expired. */
  private finish(batch: SimBatch): void {
    const answeredCount = batch.expires ? Math.floor(batch.lines.length / 2) : batch.lines.length;
    const outputs: string[] = [];
    const errors: string[] = [];
    batch.lines.forEach((line, index) => {
      if (index >= answeredCount) this.onExpired(batch, line);
      const outcome: LineOutcome = index < answeredCount ? this.answer(batch, line) : { errorCode: 'batch_expired', message: 'This request could not be executed before the completion window expired.' };
      const id = `batch_req_${batch.id.slice(6)}_${index + 1}`;
      if ('statusCode' in outcome) {
        const text = JSON.stringify({ id, custom_id: line.custom_id, response: { status_code: outcome.statusCode, request_id: `req_${id}`, body: outcome.body }, error: null });
        (outcome.statusCode === 200 ? outputs : errors).push(text);
      } else {
        errors.push(JSON.stringify({ id, custom_id: line.custom_id, response: null, error: { code: outcome.errorCode, message: outcome.message } }));
      }
    });
    const fileOf = (texts: string[], kind: string) => (texts.length > 0 ? this.files.add(`${batch.id}_${kind}.jsonl`, 'batch_output', `${texts.join('\n')}\n`).id : undefined);
    const outputFileId = fileOf(outputs, 'output');
    const errorFileId = fileOf(errors, 'error');
    batch.ended = {
      status: batch.expires ? 'expired' : 'completed',
      atMs: Date.now(),
      completed: outputs.length,
      failed: errors.length,
      ...(outputFileId ? { outputFileId } : {}),
      ...(errorFileId ? { errorFileId } : {}),
    };
  }
}

/** A batch as OpenAI's API shows it (Batch). */
export function batchObject(batch: SimBatch, status: SimBatchStatus) {
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const ended = batch.ended;
  const endedAt = ended ? { [`${ended.status}_at`]: seconds(ended.atMs) } : {};
  const model = batch.lines[0]?.body.model;
  return {
    id: batch.id,
    object: 'batch',
    endpoint: batch.request.endpoint,
    input_file_id: batch.request.input_file_id,
    completion_window: batch.request.completion_window,
    status,
    created_at: seconds(batch.createdMs),
    expires_at: seconds(batch.createdMs) + 24 * 3600,
    ...(status !== 'validating' && status !== 'failed' ? { in_progress_at: seconds(batch.createdMs) } : {}),
    ...endedAt,
    output_file_id: ended?.outputFileId ?? null,
    error_file_id: ended?.errorFileId ?? null,
    errors: batch.validationErrors.length > 0 ? { object: 'list', data: batch.validationErrors } : null,
    request_counts: { total: batch.lines.length, completed: ended?.completed ?? 0, failed: ended?.failed ?? 0 },
    metadata: batch.request.metadata ?? null,
    ...(typeof model === 'string' ? { model } : {}),
  };
}
