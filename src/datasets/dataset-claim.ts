import { z } from 'zod';
import { MAX_CLAIM_CHARS, VERDICT_LABELS } from '../shared/constants';
import { characterCount, hasVisibleText } from '../shared/verify';
import { internalLabel, isKnownDataset } from '../labels';

/**
 * Limits of one claim record: the claim as `verity verify` accepts it, the names short enough for
 * ids, search attributes and keyword fields. A run's claim is then at most a few tens of KB, well
 * below what crosses Temporal in one payload (see run-claim-store.ts's paging by size).
 */
export const MAX_CLAIM_ID_CHARS = 2000;
export const MAX_DATASET_NAME_CHARS = 100;
export const MAX_LABEL_CHARS = 100;

/** Text that has a UTF-8 form (no lone surrogate, which `"\ud800"` in JSON can produce). */
function isWellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** One claim of any benchmark, in the shape every loader returns. */
export const datasetClaimSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(MAX_CLAIM_ID_CHARS, `a claim id has at most ${MAX_CLAIM_ID_CHARS} characters`)
    .refine((id) => isWellFormed(id), 'the claim id has a lone surrogate (no UTF-8 form)'),
  dataset: z.string().min(1).max(MAX_DATASET_NAME_CHARS, `a dataset name has at most ${MAX_DATASET_NAME_CHARS} characters`),
  claim: z
    .string()
    .trim()
    .min(1)
    .superRefine((claim, context) => {
      const length = characterCount(claim);
      if (length > MAX_CLAIM_CHARS) context.addIssue({ code: 'custom', message: `the claim has ${length} characters; at most ${MAX_CLAIM_CHARS} are accepted (as by \`verity verify\`)` });
      else if (!isWellFormed(claim)) context.addIssue({ code: 'custom', message: 'the claim has a lone surrogate (no UTF-8 form)' });
      else if (!hasVisibleText(claim)) context.addIssue({ code: 'custom', message: 'the claim has no visible character' });
    }),
  /** The label as written in the source (FELM-WK uses JSON booleans). */
  label: z.union([z.string().min(1).max(MAX_LABEL_CHARS, `a label has at most ${MAX_LABEL_CHARS} characters`), z.boolean()]),
  labelNorm: z.enum(VERDICT_LABELS),
  goldTitles: z.array(z.string()),
  meta: z.record(z.string(), z.unknown()),
});

export type DatasetClaim = z.infer<typeof datasetClaimSchema>;

/** Thrown by record parsers; the loader adds the position and decides whether to skip or fail. */
export class RecordError extends Error {}

export type ClaimDraft = Omit<DatasetClaim, 'labelNorm'>;

/**
 * Validates a parsed record and derives `labelNorm` through the label mapping of `mappingDataset`
 * (default: the claim's own dataset).
 */
export function toDatasetClaim(draft: ClaimDraft, mappingDataset: string = draft.dataset): DatasetClaim {
  if (!isKnownDataset(mappingDataset)) throw new RecordError(`no label mapping for dataset "${mappingDataset}"`);
  const raw: unknown = draft.label;
  const labelNorm = typeof raw === 'string' || typeof raw === 'boolean' ? internalLabel(mappingDataset, raw) : undefined;
  if (labelNorm === undefined) throw new RecordError(`unknown label ${JSON.stringify(raw)} for dataset ${mappingDataset}`);
  return validateClaim({ ...draft, labelNorm });
}

/** Parses with a zod schema, turning its issues into a RecordError ("field: message; …"). */
export function parseRecord<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new RecordError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`).join('; '));
}

export function validateClaim(value: unknown): DatasetClaim {
  return parseRecord(datasetClaimSchema, value);
}

/** Reads a JSON object field, failing the record when the value is not an object. */
export function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RecordError('record is not a JSON object');
  return value as Record<string, unknown>;
}

export function uniqueStrings(values: Iterable<string>): string[] {
  return [...new Set(values)];
}
