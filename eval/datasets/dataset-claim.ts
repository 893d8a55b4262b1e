import { z } from 'zod';
import { VERDICT_LABELS } from '../../src/shared/constants';
import { internalLabel, isKnownDataset } from '../labels';

/** One claim of any benchmark, in the shape every loader returns. */
export const datasetClaimSchema = z.object({
  id: z.string().min(1),
  dataset: z.string().min(1),
  claim: z.string().trim().min(1),
  /** The label as written in the source (FELM-WK uses JSON booleans). */
  label: z.union([z.string().min(1), z.boolean()]),
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
