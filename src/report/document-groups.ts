import type { RunRecords } from '../runs/run-records';
import { groupLabel } from './group-key';

/** One (dataset, method, model) of a sweep with `check`: its documents' scores (the literature's document metrics). */
export interface DocumentGroupReport {
  group: string;
  documents: number;
  /** Mean FActScore-style precision over documents with a verified claim; null when none has one. */
  meanPrecision: number | null;
  /** Mean F1@K (SAFE) over all documents, with the K used. */
  meanF1AtK: number;
  k: number;
  claimsPerDocument: number;
  supported: number;
  notSupported: number;
  skipped: number;
  failedClaims: number;
}

/** Per (dataset, method, model), what the run's checked documents scored; empty for sweeps without `check`. */
export function documentGroups(records: RunRecords): DocumentGroupReport[] {
  const byGroup = new Map<string, NonNullable<RunRecords['documents']>['checked']>();
  for (const document of records.documents?.checked ?? []) {
    const group = groupLabel({ dataset: document.dataset ?? 'unknown', method: document.method, model: document.model });
    byGroup.set(group, [...(byGroup.get(group) ?? []), document]);
  }
  return [...byGroup.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, documents]) => {
      const precisions = documents.flatMap((document) => (document.scores.precision === null ? [] : [document.scores.precision]));
      const sum = (pick: (document: (typeof documents)[number]) => number) => documents.reduce((total, document) => total + pick(document), 0);
      return {
        group,
        documents: documents.length,
        meanPrecision: precisions.length === 0 ? null : precisions.reduce((a, b) => a + b, 0) / precisions.length,
        meanF1AtK: sum((document) => document.scores.f1AtK) / documents.length,
        k: documents[0]!.scores.k,
        claimsPerDocument: sum((document) => document.claims.length) / documents.length,
        supported: sum((document) => document.scores.supported),
        notSupported: sum((document) => document.scores.notSupported),
        skipped: sum((document) => document.scores.skipped),
        failedClaims: sum((document) => document.scores.failed),
      };
    });
}
