import type { Client } from '@elastic/elasticsearch';
import type { z } from 'zod';
import { isIndexNotFound } from '../es/client';
import { indexName } from '../es/indices';
import { runManifestSchema, type RunManifest } from './run-manifest';
import { runClaimSchema, runFailureSchema, runVerdictSchema, type RunRecords } from './run-records';
import { searchAll } from './search-all';
import { sweepOwnVerdicts } from './sweep-own-verdicts';
import { documentAsRunVerdict, runDocumentSchema } from './run-documents';

export class RunNotFoundError extends Error {
  constructor(readonly runId: string, index: string) {
    super(`unknown run "${runId}" (no manifest in ${index})`);
  }
}

export class RunWithoutVerdictsError extends Error {
  constructor(readonly runId: string) {
    super(`run "${runId}" has no verdicts or failed verifications yet`);
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'document'}: ${issue.message}`).join('; ');
}

/** Validates stored documents, keeping the valid ones and describing the others. */
function validateAll<T>(schema: z.ZodType<T>, documents: unknown[], what: string, warnings: string[]): T[] {
  const valid: T[] = [];
  documents.forEach((document, i) => {
    const parsed = schema.safeParse(document);
    if (parsed.success) valid.push(parsed.data);
    else warnings.push(`${what} #${i + 1} left out: ${describeIssues(parsed.error)}`);
  });
  return valid;
}

export async function readManifest(client: Client, prefix: string, runId: string): Promise<RunManifest> {
  const index = indexName(prefix, 'runs');
  // Elasticsearch answers a GET without an id with a 405 and a JSON page, not a 404.
  if (runId === '') throw new RunNotFoundError(runId, index);
  try {
    const response = await client.get({ index, id: runId }, { ignore: [404] });
    if (!response.found) throw new RunNotFoundError(runId, index);
    const parsed = runManifestSchema.safeParse(response._source);
    if (!parsed.success) throw new Error(`the manifest of run "${runId}" is malformed: ${describeIssues(parsed.error)}`);
    return parsed.data;
  } catch (err) {
    if (isIndexNotFound(err)) throw new RunNotFoundError(runId, index);
    throw err;
  }
}

/** A run's manifest, every verdict, its stored claims and failures. Fails on an unknown run or one with neither verdicts nor failures. */
export async function readRun(client: Client, prefix: string, runId: string): Promise<RunRecords> {
  const manifest = await readManifest(client, prefix, runId);
  // Verdicts are written without waiting for a refresh (sweeps find them by id); make them searchable.
  await client.indices.refresh({ index: indexName(prefix, 'verdicts'), ignore_unavailable: true, allow_no_indices: true });
  const [verdictDocs, claimDocs, failureDocs, documentDocs] = await Promise.all(
    ['verdicts', 'run-claims', 'run-failures', ...(manifest.config.check ? ['documents'] : [])].map((logical) => searchAll(client, indexName(prefix, logical), { term: { runId } })),
  );
  const warnings: string[] = [];
  const claims = validateAll(runClaimSchema, claimDocs ?? [], 'run claim', warnings);
  const stored = validateAll(runVerdictSchema, verdictDocs ?? [], 'verdict', warnings);
  const { own: claimVerdicts, foreign } = manifest.config.check ? { own: stored, foreign: 0 } : sweepOwnVerdicts(manifest, claims, stored);
  if (foreign > 0) warnings.push(`${foreign} verdict(s) stored under run "${runId}" are not of its sweep's (claim, method, model, repeat) set and are left out`);
  const checked = manifest.config.check ? validateAll(runDocumentSchema, documentDocs ?? [], 'document', warnings) : undefined;
  // A sweep with `check` is scored per document; its claims' verdicts are the documents' evidence.
  const verdicts = checked ? checked.map(documentAsRunVerdict) : claimVerdicts;
  const failures = validateAll(runFailureSchema, failureDocs ?? [], 'run failure', warnings);
  // A run whose verifications all failed or reached their limits is reported (as failed / LIMIT_REACHED).
  if (verdicts.length === 0 && failures.length === 0) throw new RunWithoutVerdictsError(runId);
  return { manifest, verdicts, claims, failures, ...(checked ? { documents: { checked, claimVerdicts: claimVerdicts.length } } : {}), warnings };
}
