import { isSchemeLabel, labelKey, type SchemeLabel, type SchemeName, type VerdictLabel } from './schemes';

/** How one dataset's raw labels map to verity's internal verdicts and to the scheme it is scored on. */
export interface DatasetLabelSpec {
  scheme: SchemeName;
  /** raw label → internal 3-way label (`labelNorm`). Keys are matched through `labelKey`. */
  toInternal: Record<string, VerdictLabel>;
  /** raw label → scheme label, only where it differs from the internal label (AVeriTeC's 4th class). */
  toScheme?: Record<string, SchemeLabel>;
}

const FIRE_BOOLEAN: Record<string, VerdictLabel> = { true: 'SUPPORTED', false: 'REFUTED' };

/**
 * LIAR (Wang 2017) six-way truthfulness ratings. Binary: true, mostly-true and half-true count as
 * SUPPORTED; barely-true, false and pants-fire as REFUTED (the usual split at the middle).
 */
const LIAR_BINARY: Record<string, VerdictLabel> = {
  true: 'SUPPORTED', 'mostly-true': 'SUPPORTED', 'half-true': 'SUPPORTED',
  'barely-true': 'REFUTED', false: 'REFUTED', 'pants-fire': 'REFUTED',
};

/**
 * LIAR three-way as ToE maps it (toe.md §9.1, paper §IV-A): "For LIAR and PolitiFact, the labels
 * pants-fire, false, and barely-true are mapped to false; half-true is mapped to uncertain; and
 * mostly-true and true are mapped to true." Uncertain is NEI.
 */
const LIAR_THREE_WAY: Record<string, VerdictLabel> = {
  true: 'SUPPORTED', 'mostly-true': 'SUPPORTED', 'half-true': 'NEI',
  'barely-true': 'REFUTED', false: 'REFUTED', 'pants-fire': 'REFUTED',
};

/**
 * PolitiFact (ToE §IV-A): "PolitiFact uses mostly-false in place of barely-true, which is likewise
 * mapped to false." The Kaggle set spells pants-fire as "pants-fire" or "pants on fire".
 */
const POLITIFACT_THREE_WAY: Record<string, VerdictLabel> = {
  true: 'SUPPORTED', 'mostly-true': 'SUPPORTED', 'half-true': 'NEI',
  'mostly-false': 'REFUTED', false: 'REFUTED', 'pants-fire': 'REFUTED', 'pants on fire': 'REFUTED',
};

/** Check-COVID (ToE §IV-A): "the labels SUPPORT, REFUTE, and NOTENOUGHINFO are mapped to true, false, and uncertain". */
const CHECK_COVID: Record<string, VerdictLabel> = { SUPPORT: 'SUPPORTED', REFUTE: 'REFUTED', NOTENOUGHINFO: 'NEI' };

const FEVER_STYLE: Record<string, VerdictLabel> = { SUPPORTS: 'SUPPORTED', REFUTES: 'REFUTED', 'NOT ENOUGH INFO': 'NEI' };

export const DATASET_LABELS = {
  fever: { scheme: 'three-way', toInternal: FEVER_STYLE },
  feverous: { scheme: 'three-way', toInternal: FEVER_STYLE },
  fm2: { scheme: 'binary', toInternal: FEVER_STYLE },
  // FaVIQ's gold is SUPPORTS/REFUTES; Tool-MAD prompts it with FEVER's three labels and an NEI answer is
  // scored wrong (tool-mad.md §10 #11), so it is scored 3-way: on a binary scheme NEI would be REFUTED.
  faviq: { scheme: 'three-way', toInternal: FEVER_STYLE },
  hover: { scheme: 'binary', toInternal: { SUPPORTED: 'SUPPORTED', NOT_SUPPORTED: 'REFUTED' } },
  // 3-way as released; MERMAID's protocol drops the NEI claims and scores it binary (see protocolScheme).
  scifact: { scheme: 'three-way', toInternal: { SUPPORT: 'SUPPORTED', CONTRADICT: 'REFUTED', NEI: 'NEI' } },
  averitec: {
    scheme: 'four-way',
    // Conflicting evidence is neither supported nor refuted: NEI internally, its own class on the 4-way scheme.
    toInternal: {
      Supported: 'SUPPORTED', Refuted: 'REFUTED', 'Not Enough Evidence': 'NEI', 'Conflicting Evidence/Cherrypicking': 'NEI',
    },
    toScheme: { 'Conflicting Evidence/Cherrypicking': 'CONFLICTING' },
  },
  factool_qa: { scheme: 'binary', toInternal: FIRE_BOOLEAN },
  felm_wk: { scheme: 'binary', toInternal: FIRE_BOOLEAN },
  // Original BingCheck labels; FIRE's binary files count "partially supported" as true (emulate.md §5.1).
  bingcheck: {
    scheme: 'binary',
    toInternal: { ...FIRE_BOOLEAN, supported: 'SUPPORTED', 'partially supported': 'SUPPORTED', 'not supported': 'NEI', refuted: 'REFUTED' },
  },
  // The 30 not_enough_evidence claims are dropped from binary scoring, as FIRE/EMULATE/MERMAID do (emulate.md §5.1).
  factcheck_bench: { scheme: 'binary', toInternal: { ...FIRE_BOOLEAN, not_enough_evidence: 'NEI' } },
  liar: { scheme: 'binary', toInternal: LIAR_BINARY },
  liar_3way: { scheme: 'three-way', toInternal: LIAR_THREE_WAY },
  // ToE's datasets (toe.md §9.1): 3-class accuracy on true / uncertain / false.
  politifact: { scheme: 'three-way', toInternal: POLITIFACT_THREE_WAY },
  check_covid: { scheme: 'three-way', toInternal: CHECK_COVID },
  // verity's own demo claims (eval/demo), labelled with the internal labels.
  demo: { scheme: 'three-way', toInternal: { SUPPORTED: 'SUPPORTED', REFUTED: 'REFUTED', NEI: 'NEI' } },
} satisfies Record<string, DatasetLabelSpec>;

export type KnownDataset = keyof typeof DATASET_LABELS;

export function isKnownDataset(dataset: string): dataset is KnownDataset {
  return Object.hasOwn(DATASET_LABELS, dataset);
}

export function datasetLabelSpec(dataset: string): DatasetLabelSpec {
  if (!isKnownDataset(dataset)) throw new Error(`no label mapping for dataset "${dataset}" (known: ${Object.keys(DATASET_LABELS).join(', ')})`);
  return DATASET_LABELS[dataset];
}

/**
 * The scheme a protocol scores a dataset on. A protocol that leaves out the undecided gold claims
 * (`dropLabels: [NEI]`, e.g. MERMAID on SciFact: mermaid.md §7.1 keeps SUPPORT/CONTRADICT) scores
 * SUPPORTED/REFUTED only, so the dropped class is not a class of its metrics.
 */
export function protocolScheme(dataset: string, dropLabels: readonly VerdictLabel[] = []): SchemeName {
  const { scheme } = datasetLabelSpec(dataset);
  return dropLabels.includes('NEI') ? 'binary' : scheme;
}

function lookup<T>(table: Record<string, T> | undefined, raw: string | boolean): T | undefined {
  if (!table) return undefined;
  const key = labelKey(raw);
  for (const [name, value] of Object.entries(table)) if (labelKey(name) === key) return value;
  return undefined;
}

/** The internal label of a raw dataset label, or undefined when the dataset does not know it. */
export function internalLabel(dataset: string, raw: string | boolean): VerdictLabel | undefined {
  return lookup(datasetLabelSpec(dataset).toInternal, raw);
}

/**
 * The gold label on the dataset's scheme, or null when the claim is not scored on it
 * (e.g. NEI gold claims of a binary dataset such as Factcheck-Bench).
 */
export function goldSchemeLabel(dataset: string, raw: string | boolean, scheme?: SchemeName): SchemeLabel | null {
  const spec = datasetLabelSpec(dataset);
  const target = scheme ?? spec.scheme;
  const label = (target === spec.scheme ? lookup(spec.toScheme, raw) : undefined) ?? internalLabel(dataset, raw);
  if (label === undefined) return null;
  return isSchemeLabel(target, label) ? label : null;
}
