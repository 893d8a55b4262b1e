import { z } from 'zod';

/** One line of mermaid_driver.py's output: the released answer string and its scored label, or a crash. */
const mermaidDriverRowSchema = z.object({
  id: z.string(),
  answer: z.unknown().optional(),
  label: z.boolean().optional(),
  toolCalls: z.number().int().nonnegative().optional(),
  decomposition: z.unknown().optional(),
  history: z.array(z.string()).optional(),
  error: z.string().optional(),
});
export type MermaidDriverRow = z.infer<typeof mermaidDriverRowSchema>;

/** The last row the driver wrote (one claim per run). */
export function parseMermaidDriverRow(text: string): MermaidDriverRow {
  const lines = text.trim().split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) throw new Error('mermaid_driver.py wrote no result');
  return mermaidDriverRowSchema.parse(JSON.parse(lines.at(-1)!));
}

/** The released scorer's verdict in verity's labels: `label` true is SUPPORTED, false REFUTED; a crash `error: …`. */
export function mermaidReferenceLabel(row: MermaidDriverRow): string {
  if (row.error !== undefined) return `error: ${row.error}`;
  return row.label ? 'SUPPORTED' : 'REFUTED';
}
