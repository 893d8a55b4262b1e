import fs from 'node:fs';
import { ByteWriter, type ColumnSource, ParquetWriter, schemaFromColumnData, type Writer } from 'hyparquet-writer';
import { csvCell } from '../../shared/csv-cell';
import { EXPORT_COLUMNS, type ExportRow } from './export-row';

export const EXPORT_FORMATS = ['parquet', 'jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Receives the export's rows page by page and writes them out; memory stays bounded by a page (Parquet: a row group). */
export interface RowWriter {
  write(rows: ExportRow[]): Promise<void>;
  close(): Promise<void>;
}

/** Rows per Parquet row group: the most rows the Parquet writer holds at once. */
export const PARQUET_ROW_GROUP = 10_000;
const FLUSH_BYTES = 1 << 20;

/** The output file could not be written (missing folder, a directory, a full disk, no permission). */
export class OutputFileError extends Error {
  override name = 'OutputFileError';
  constructor(file: string, cause: unknown) {
    super(`cannot write ${file}: ${reasonOf(cause)}`);
  }
}

function reasonOf(err: unknown): string {
  const { code, message } = err as NodeJS.ErrnoException;
  const reasons: Record<string, string> = { ENOENT: 'its folder does not exist', EISDIR: 'it is a directory', ENOSPC: 'no space left on the device', EACCES: 'permission denied', EROFS: 'read-only file system' };
  return (code && reasons[code]) ?? String(message).split('\n')[0]!;
}

/** Text lines to a stream, waiting for it to drain when it is full; a write error fails the next write or the close. */
class LineWriter implements RowWriter {
  private failure: OutputFileError | undefined;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly file: string,
    private readonly line: (row: ExportRow) => string,
    header?: string,
  ) {
    out.on('error', (err) => (this.failure ??= new OutputFileError(file, err)));
    if (header !== undefined) out.write(`${header}\n`);
  }

  async write(rows: ExportRow[]): Promise<void> {
    if (this.failure) throw this.failure;
    const text = rows.map((row) => `${this.line(row)}\n`).join('');
    if (!this.out.write(text)) await this.settled('drain');
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    if (this.out === process.stdout) return;
    if (!this.failure) {
      const stream = this.out as fs.WriteStream;
      const closed = this.settled('close');
      stream.end();
      await closed;
    }
    if (this.failure) throw this.failure;
  }

  /** Resolves on `event` or on an error (which `failure` then holds). */
  private settled(event: 'drain' | 'close'): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.out.off(event, done);
        this.out.off('error', done);
        resolve();
      };
      this.out.once(event, done);
      this.out.once('error', done);
    });
  }
}

/** hyparquet-writer's ByteWriter, flushed to a file descriptor as it fills (the library's own fileWriter, made explicit). */
function fileSink(fd: number): Writer {
  const writer = new ByteWriter();
  const grow = writer.ensure.bind(writer);
  const flush = () => {
    if (writer.index > 0) fs.writeSync(fd, new Uint8Array(writer.buffer, 0, writer.index));
    writer.index = 0;
  };
  writer.ensure = (size: number) => {
    if (writer.index > FLUSH_BYTES) flush();
    grow(size);
  };
  writer.finish = flush;
  return Object.assign(writer, { flush });
}

/** Rows buffered into column arrays, written as one row group each PARQUET_ROW_GROUP rows. */
class ParquetRowWriter implements RowWriter {
  private readonly writer: ParquetWriter;
  private buffered: ExportRow[] = [];

  constructor(
    private readonly file: string,
    private readonly fd: number,
  ) {
    this.writer = new ParquetWriter({ writer: fileSink(fd), schema: schemaFromColumnData({ columnData: columnsOf([]) }), createdBy: 'verity export' });
  }

  async write(rows: ExportRow[]): Promise<void> {
    this.buffered.push(...rows);
    while (this.buffered.length >= PARQUET_ROW_GROUP) await this.flushGroup(this.buffered.splice(0, PARQUET_ROW_GROUP));
  }

  async close(): Promise<void> {
    try {
      if (this.buffered.length > 0) await this.flushGroup(this.buffered);
      this.buffered = [];
      await this.writing(() => this.writer.finish());
    } finally {
      fs.closeSync(this.fd);
    }
  }

  private async flushGroup(rows: ExportRow[]): Promise<void> {
    await this.writing(() => this.writer.write({ columnData: columnsOf(rows), rowGroupSize: rows.length }));
  }

  private async writing(step: () => unknown): Promise<void> {
    try {
      await step();
    } catch (err) {
      throw (err as NodeJS.ErrnoException).code ? new OutputFileError(this.file, err) : err;
    }
  }
}

function columnsOf(rows: ExportRow[]): ColumnSource[] {
  return EXPORT_COLUMNS.map(({ name, type }) => ({
    name,
    type,
    nullable: false,
    data: type === 'INT64' ? rows.map((row) => BigInt(Math.round(row[name] as number))) : rows.map((row) => row[name]),
  }));
}

function openFile(file: string, name: string): number {
  try {
    return fs.openSync(file, 'w');
  } catch (err) {
    throw new OutputFileError(name, err);
  }
}

/**
 * A writer of the format to `file` (`-`: standard output, text formats only); errors name `name`
 * (the file the user asked for, when `file` is a temporary one beside it).
 */
export function openRowWriter(format: ExportFormat, file: string, name = file): RowWriter {
  if (format === 'parquet') {
    if (file === '-') throw new Error('Parquet is binary: give a file with --out');
    return new ParquetRowWriter(name, openFile(file, name));
  }
  const out = file === '-' ? process.stdout : fs.createWriteStream(file);
  if (format === 'jsonl') return new LineWriter(out, name, (row) => JSON.stringify(row));
  return new LineWriter(out, name, (row) => EXPORT_COLUMNS.map(({ name: column }) => csvCell(row[column])).join(','), EXPORT_COLUMNS.map(({ name: column }) => column).join(','));
}
