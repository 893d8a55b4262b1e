import { z } from 'zod';

/** One line of a driver's output file: EMULATE's boolean label, FIRE's final answer (any JSON value, null when it gave none), or a crash. */
const driverRowSchema = z.object({
  id: z.string(),
  label: z.boolean().optional(),
  answer: z.unknown().optional(),
  searches: z.number().int().optional(),
  error: z.string().optional(),
});
export type DriverRow = z.infer<typeof driverRowSchema>;

/** The last row of the driver's output (one claim per run). */
export function lastDriverRow(text: string): DriverRow {
  const lines = text.trim().split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) throw new Error('the driver wrote no result');
  return driverRowSchema.parse(JSON.parse(lines.at(-1)!));
}

/**
 * The reference's label as verity names it: EMULATE's True/False; FIRE's "True"/"False" (any other
 * final answer, or none, is NEI, as verity's FIRE scores a claim without a valid answer); a crash as `error: …`.
 */
export function referenceLabel(method: string, row: DriverRow): string {
  if (row.error !== undefined) return `error: ${row.error}`;
  if (method === 'emulate') return row.label ? 'SUPPORTED' : 'REFUTED';
  return row.answer === 'True' ? 'SUPPORTED' : row.answer === 'False' ? 'REFUTED' : 'NEI';
}

/** The driver's "stub:" and "patch:" lines (what it changed around the reference, printed once per run). */
export function driverNotes(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^(stub|patch): /.test(line));
}
