import { labelKey, type SchemeLabel, type SchemeName } from './schemes';

/** Spellings a method's answer may use for each label (matched through `labelKey`). */
const PREDICTION_ALIASES: Record<SchemeLabel, readonly string[]> = {
  SUPPORTED: ['SUPPORTED', 'SUPPORTS', 'SUPPORT', 'true', 'yes'],
  REFUTED: ['REFUTED', 'REFUTES', 'CONTRADICT', 'NOT_SUPPORTED', 'false', 'no'],
  NEI: ['NEI', 'NOT ENOUGH INFO', 'Not Enough Evidence', 'not_enough_evidence', 'unknown'],
  CONFLICTING: ['CONFLICTING', 'Conflicting Evidence/Cherrypicking', 'CONFLICTING EVIDENCE', 'CHERRYPICKING', 'CHERRY-PICKING'],
};

/** Parses a predicted label; undefined when it is not a label at all. */
export function parsePredictedLabel(predicted: string | boolean | null | undefined): SchemeLabel | undefined {
  if (predicted === null || predicted === undefined) return undefined;
  const key = labelKey(predicted);
  for (const [label, aliases] of Object.entries(PREDICTION_ALIASES) as [SchemeLabel, readonly string[]][]) {
    if (aliases.some((alias) => labelKey(alias) === key)) return label;
  }
  return undefined;
}

/**
 * Collapses a parsed label onto a scheme. On binary datasets every non-SUPPORTED verdict counts as
 * REFUTED: EMULATE scores a bool per claim, a non-"yes" answer being False (emulate.md §5.3), and
 * MERMAID counts any prediction that is not "true" as negative (mermaid.md §7.3, §9 item 14).
 * On the 3-way scheme CONFLICTING is NEI.
 */
export function collapseToScheme(label: SchemeLabel, scheme: SchemeName): SchemeLabel {
  if (scheme === 'binary') return label === 'SUPPORTED' ? 'SUPPORTED' : 'REFUTED';
  if (scheme === 'three-way' && label === 'CONFLICTING') return 'NEI';
  return label;
}

export interface PredictionMappingOptions {
  /**
   * Where an unparseable prediction goes. Default null: it stays in the confusion matrix's
   * separate `invalid` bucket. Set it to the negative class to reproduce the papers' convention.
   */
  invalidAs?: SchemeLabel | null;
}

/** A method's predicted label on the dataset's scheme, or null when it is invalid. */
export function predictedSchemeLabel(
  predicted: string | boolean | null | undefined,
  scheme: SchemeName,
  options: PredictionMappingOptions = {},
): SchemeLabel | null {
  const parsed = parsePredictedLabel(predicted);
  if (parsed === undefined) return options.invalidAs ?? null;
  return collapseToScheme(parsed, scheme);
}
