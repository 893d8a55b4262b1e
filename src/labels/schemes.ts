import { VERDICT_LABELS, type VerdictLabel } from '../shared/constants';

/** The label sets a dataset can be scored on. Internal verdicts are the 3-way VERDICT_LABELS. */
export const LABEL_SCHEMES = {
  binary: ['SUPPORTED', 'REFUTED'],
  'three-way': VERDICT_LABELS,
  /** AVeriTeC: Supported, Refuted, Not Enough Evidence, Conflicting Evidence/Cherrypicking. */
  'four-way': ['SUPPORTED', 'REFUTED', 'NEI', 'CONFLICTING'],
} as const;

export type SchemeName = keyof typeof LABEL_SCHEMES;
export type SchemeLabel = (typeof LABEL_SCHEMES)['four-way'][number];
export type { VerdictLabel };

export function schemeLabels(scheme: SchemeName): readonly SchemeLabel[] {
  return LABEL_SCHEMES[scheme];
}

export function isSchemeLabel(scheme: SchemeName, label: string): label is SchemeLabel {
  return (LABEL_SCHEMES[scheme] as readonly string[]).includes(label);
}

/** Canonical lookup key for a raw label: `"NOT_SUPPORTED"`, `"not supported"` and `"Not-Supported"` are equal. */
export function labelKey(raw: string | boolean): string {
  return String(raw).trim().toLowerCase().replace(/[\s_-]+/g, ' ');
}
