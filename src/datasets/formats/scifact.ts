import fs from 'node:fs';
import path from 'node:path';
import { asObject, RecordError, toDatasetClaim, type DatasetClaim } from '../dataset-claim';
import type { FormatReaderFactory } from '../format-reader';
import { jsonLines } from '../record-sources';

interface ScifactRationale { sentences?: unknown; label?: unknown }

/** The claim's label: NEI without evidence, else the one label all its rationales share. */
function scifactLabel(evidence: Record<string, ScifactRationale[]>): string {
  const labels = new Set(Object.values(evidence).flat().map((rationale) => rationale.label));
  if (labels.size === 0) return 'NEI';
  const [label] = labels;
  if (labels.size > 1 || typeof label !== 'string') throw new RecordError(`conflicting or missing evidence labels ${JSON.stringify([...labels])}`);
  return label;
}

/** SciFact claims_*.jsonl: {id, claim, evidence: {doc_id: [{sentences, label}]}, cited_doc_ids}. */
export function parseScifactRecord(value: unknown, titles: ReadonlyMap<string, string>, dataset = 'scifact'): DatasetClaim {
  const record = asObject(value);
  const evidence = (record.evidence ?? {}) as Record<string, ScifactRationale[]>;
  if (typeof evidence !== 'object' || Array.isArray(evidence)) throw new RecordError('evidence must be an object keyed by doc_id');
  const evidenceDocIds = Object.keys(evidence);
  return toDatasetClaim({
    id: `${dataset}-${String(record.id)}`,
    dataset,
    claim: record.claim as string,
    label: scifactLabel(evidence),
    goldTitles: evidenceDocIds.map((docId) => titles.get(docId)).filter((title): title is string => title !== undefined),
    meta: { sourceId: record.id, evidenceDocIds, citedDocIds: record.cited_doc_ids, evidence },
  }, 'scifact');
}

/** doc_id → title from SciFact's corpus.jsonl ({doc_id, title, abstract, structured}). */
export async function readScifactTitles(corpusFile: string): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  for await (const record of jsonLines(corpusFile)) {
    if (!record.ok) continue;
    const doc = record.value as { doc_id?: unknown; title?: unknown };
    if (doc.doc_id !== undefined && typeof doc.title === 'string') titles.set(String(doc.doc_id), doc.title);
  }
  return titles;
}

function defaultCorpus(claimsFile: string): string | undefined {
  const sibling = path.join(path.dirname(claimsFile), 'corpus.jsonl');
  return fs.existsSync(sibling) ? sibling : undefined;
}

export const scifactReader: FormatReaderFactory = async (file, options) => {
  const corpus = options.scifactCorpus ?? defaultCorpus(file);
  const titles = corpus ? await readScifactTitles(corpus) : new Map<string, string>();
  return { records: jsonLines, parse: (value) => parseScifactRecord(value, titles, options.dataset) };
};
