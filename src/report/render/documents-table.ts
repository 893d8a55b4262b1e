import type { RunReport } from '../report-types';
import { fixed } from './format';
import type { Table } from './report-tables';

/** A sweep with `check`: per group, the documents' FActScore-style precision, SAFE F1@K and claim counts. */
export function documentsTable(report: RunReport): Table {
  return {
    header: ['group', 'documents', 'mean precision', 'mean F1@K', 'K', 'claims / document', 'supported', 'not supported', 'skipped', 'failed claims'],
    rows: (report.documents ?? []).map((g) => [
      g.group,
      String(g.documents),
      fixed(g.meanPrecision),
      fixed(g.meanF1AtK),
      String(g.k),
      fixed(g.claimsPerDocument, 1),
      String(g.supported),
      String(g.notSupported),
      String(g.skipped),
      String(g.failedClaims),
    ]),
  };
}

export const DOCUMENTS_NOTE =
  'Each item is a whole text checked as a document (`check` in the sweep config, docs/check.md). Precision = supported / (supported + not supported) over its verified claims ' +
  '(FActScore without its length penalty; NEI counts as not supported); F1@K as SAFE defines it. The results above score each document\'s label against the item\'s gold label.';
