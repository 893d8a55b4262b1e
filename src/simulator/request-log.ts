import fs from 'node:fs';

export interface SimRequestRecord {
  method: string;
  path: string;
  requestHash: string;
  status: number;
  /** 'timeout' when the request was left hanging, 'malformed' when its content was broken. */
  fault?: string;
  time: string;
  durationMs: number;
  /** The client's address, when the simulator records it (which worker machine sent the request). */
  client?: string;
  /** For one request of a batch (method 'BATCH'): its batch, custom_id and whether it was submitted or answered. */
  batch?: { id: string; customId: string; event: 'submitted' | 'answered' | 'expired' };
}

/** The request log's file cannot be opened (a missing folder, a directory, no permission). */
export class RequestLogFileError extends Error {
  override name = 'RequestLogFileError';
}

/** In-memory log of the simulator's requests, optionally appended as JSONL to a file (opened at start, so a bad path fails before serving). */
export class RequestLog {
  private records: SimRequestRecord[] = [];
  private fd: number | undefined;

  constructor(file?: string) {
    if (file === undefined) return;
    try {
      this.fd = fs.openSync(file, 'a');
    } catch (err) {
      throw new RequestLogFileError(`cannot write the request log ${file}: ${(err as Error).message.split('\n')[0]}`);
    }
  }

  add(record: SimRequestRecord): void {
    this.records.push(record);
    if (this.fd !== undefined) fs.appendFileSync(this.fd, `${JSON.stringify(record)}\n`);
  }

  /** Closes the file (the server's close). */
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  list(): SimRequestRecord[] {
    return [...this.records];
  }

  clear(): void {
    this.records = [];
  }
}
