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
}

/** In-memory log of the simulator's requests, optionally appended as JSONL to a file. */
export class RequestLog {
  private records: SimRequestRecord[] = [];

  constructor(private readonly file?: string) {}

  add(record: SimRequestRecord): void {
    this.records.push(record);
    if (this.file) fs.appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }

  list(): SimRequestRecord[] {
    return [...this.records];
  }

  clear(): void {
    this.records = [];
  }
}
