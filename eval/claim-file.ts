import fs from 'node:fs';
import readline from 'node:readline';
import { z } from 'zod';
import { VERDICT_LABELS } from '../src/shared/constants';

/** A claim in verity's normalised JSONL format (the format of the bundled demo and dev sets). */
export const claimRecordSchema = z.object({
  id: z.string().min(1),
  dataset: z.string().default('unknown'),
  claim: z.string().min(1),
  label_norm: z.enum(VERDICT_LABELS).optional(),
  gold_titles: z.array(z.string()).default([]),
});

export type ClaimRecord = z.infer<typeof claimRecordSchema>;

export interface ClaimFile {
  claims: ClaimRecord[];
  malformed: { line: number; reason: string }[];
}

/** Reads a claims JSONL file; malformed lines are reported with their numbers, or fail when strict. */
export async function readClaimFile(file: string, options: { strict?: boolean } = {}): Promise<ClaimFile> {
  const result: ClaimFile = { claims: [], malformed: [] };
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const parsed = parseClaimLine(line);
    if (parsed.success) {
      result.claims.push(parsed.claim);
      continue;
    }
    if (options.strict) throw new Error(`${file}:${lineNumber}: ${parsed.reason}`);
    result.malformed.push({ line: lineNumber, reason: parsed.reason });
  }
  return result;
}

function parseClaimLine(line: string): { success: true; claim: ClaimRecord } | { success: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    return { success: false, reason: `invalid JSON (${(err as Error).message})` };
  }
  const parsed = claimRecordSchema.safeParse(json);
  if (!parsed.success) {
    return { success: false, reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'record'}: ${i.message}`).join('; ') };
  }
  return { success: true, claim: parsed.data };
}
