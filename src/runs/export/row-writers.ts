import fs from 'node:fs';
import { ByteWriter, type ColumnSource, ParquetWriter, schemaFromColumnData, type Writer } from 'hyparquet-writer';
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

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Text lines to a stream, waiting for it to drain when it is full. */
class LineWriter implements RowWriter {
  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly line: (row: ExportRow) => string,
    header?: string,
  ) {
    if (header !== undefined) out.write(`${header}\n`);
  }

  async write(rows: ExportRow[]): Promise<void> {
    const text = rows.map((row) => `${this.line(row)}\n`).join('');
    if (!this.out.write(text)) await new Promise<void>((resolve) => this.out.once('drain', resolve));
  }

  async close(): Promise<void> {
    if (this.out === process.stdout) return;
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      (this.out as fs.WriteStream).end(resolve);
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

  constructor(private readonly fd: number) {
    this.writer = new ParquetWriter({ writer: fileSink(fd), schema: schemaFromColumnData({ columnData: columnsOf([]) }), createdBy: 'verity export' });
  }

  async write(rows: ExportRow[]): Promise<void> {
    this.buffered.push(...rows);
    while (this.buffered.length >= PARQUET_ROW_GROUP) await this.flushGroup(this.buffered.splice(0, PARQUET_ROW_GROUP));
  }

  async close(): Promise<void> {
    if (this.buffered.length > 0) await this.flushGroup(this.buffered);
    this.buffered = [];
    await this.writer.finish();
    fs.closeSync(this.fd);
  }

  private async flushGroup(rows: ExportRow[]): Promise<void> {
    await this.writer.write({ columnData: columnsOf(rows), rowGroupSize: rows.length });
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

/** A writer of the format to `file` (`-`: standard output, text formats only). */
export function openRowWriter(format: ExportFormat, file: string): RowWriter {
  if (format === 'parquet') {
    if (file === '-') throw new Error('Parquet is binary: give a file with --out');
    return new ParquetRowWriter(fs.openSync(file, 'w'));
  }
  const out = file === '-' ? process.stdout : fs.createWriteStream(file);
  if (format === 'jsonl') return new LineWriter(out, (row) => JSON.stringify(row));
  return new LineWriter(out, (row) => EXPORT_COLUMNS.map(({ name }) => csvCell(row[name])).join(','), EXPORT_COLUMNS.map(({ name }) => name).join(','));
}
