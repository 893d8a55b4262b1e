import fs from 'node:fs';
import type { DatasetFormat } from './format-reader';

const HEAD_BYTES = 64 * 1024;

async function readHead(file: string): Promise<string> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '');
  } finally {
    await handle.close();
  }
}

/** Classifies one JSONL object by its keys; undefined for objects that say nothing (e.g. FEVEROUS's empty header). */
export function classifyJsonlRecord(record: Record<string, unknown>): DatasetFormat | undefined {
  if (typeof record.statement === 'string' && 'verdict' in record && !('claim' in record)) return 'politifact';
  if (record.claim === '' || typeof record.claim !== 'string') return undefined;
  if ('label_norm' in record) return 'verity';
  if ('annotator_operations' in record || 'challenge' in record) return 'feverous';
  if ('cited_doc_ids' in record || (typeof record.evidence === 'object' && record.evidence !== null && !Array.isArray(record.evidence))) return 'scifact';
  if ('verifiable' in record || Array.isArray(record.evidence)) return 'fever';
  if ('label' in record) return 'fire';
  return undefined;
}

function detectJsonArray(head: string): DatasetFormat | undefined {
  if (/"supporting_facts"\s*:/.test(head)) return 'hover';
  if (/"questions"\s*:/.test(head) || /"label"\s*:\s*"(Supported|Refuted|Not Enough Evidence|Conflicting Evidence\/Cherrypicking)"/.test(head)) return 'averitec';
  return undefined;
}

function detectJsonLines(head: string): DatasetFormat | undefined {
  const lines = head.split('\n').slice(0, -1).filter((line) => line.trim() !== '').slice(0, 5);
  for (const line of lines) {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) continue;
    const format = classifyJsonlRecord(record as Record<string, unknown>);
    if (format) return format;
  }
  return undefined;
}

/** Detects a claim file's format from its name (`.tsv` = LIAR) and its first 64 KB. */
export async function detectDatasetFormat(file: string): Promise<DatasetFormat> {
  if (file.toLowerCase().endsWith('.tsv')) return 'liar';
  const head = await readHead(file);
  const format = head.trimStart().startsWith('[') ? detectJsonArray(head) : detectJsonLines(head);
  if (!format) throw new Error(`${file}: cannot detect the dataset format; pass one of the known formats explicitly`);
  return format;
}
