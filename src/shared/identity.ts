/**
 * What makes two verifications "the same" — the one definition behind workflow ids, verdict
 * `_id`s, sweep reuse and (with the endpoint identity) the LLM cache key. Sandbox-safe: the sweep
 * workflow computes its children's ids with it.
 *
 * A verification's identity is the canonical JSON of the claim text, the method, the method's
 * settings object (hashed wholesale, so settings added later are covered), the model, the retrieval
 * index/mode/k, and a context shared by all claims of a process or sweep: the hash of the
 * configuration that decides answers and where they go (endpoint provider and base URL, models per
 * role, temperature, seed, embeddings, tools, Elasticsearch URL and index prefix; never a key) and
 * the hash of every LLM prompt version.
 */
import { canonicalJson } from './canonical-json';
import type { MethodName } from './constants';
import type { MethodSettings } from './method-settings';
import { DEFAULT_RETRIEVAL_MODE, type RetrievalMode } from './retrieval';
import { sha256HexOf } from './sha256';

/** A configuration's fingerprint and a secret-free description of it (for errors naming both sides). */
export interface ConfigStamp {
  fingerprint: string;
  label: string;
}

/** The part of an identity shared by every claim verified under one configuration. */
export interface IdentityContext {
  /** sha256 of the canonical configuration identity (see src/config/config-identity.ts). */
  configHash: string;
  /** sha256 of the id@version of every registered LLM task. */
  promptsHash: string;
}

/** Identity carried by a verification's input (absent in inputs recorded before identities existed). */
export interface VerificationIdentity extends IdentityContext {
  /** sha256 of the verification's canonical identity. */
  hash: string;
  stamp: ConfigStamp;
}

export interface IdentityParts {
  claim: string;
  method: MethodName;
  model: string;
  rag: { topK: number; index: string; mode?: RetrievalMode };
  settings?: MethodSettings;
}

/** Characters of the identity hash spelled out in workflow ids. */
export const ID_HASH_CHARS = 12;

export function identityHash(value: unknown): string {
  return sha256HexOf(canonicalJson(value));
}

/** The sha256 of one verification's identity. */
export function verificationHash(parts: IdentityParts, context: IdentityContext): string {
  return identityHash({
    v: 1,
    claim: parts.claim.trim(),
    method: parts.method,
    model: parts.model,
    rag: { topK: parts.rag.topK, index: parts.rag.index, mode: parts.rag.mode ?? DEFAULT_RETRIEVAL_MODE },
    settings: parts.settings ?? {},
    configHash: context.configHash,
    promptsHash: context.promptsHash,
  });
}

/** A run or claim id as one unambiguous workflow-id segment: '/' and '%' (and other reserved characters) are percent-encoded. */
export function escapeIdPart(part: string): string {
  return encodeURIComponent(part);
}

/**
 * `verify/<run>/<claim>/<method>/<model>/<hash>`: readable parts, then a short hash of everything
 * that is not spelled out. Run, claim and model are escaped, so no two inputs share an id.
 */
export function verifyWorkflowId(parts: { runId: string; claimId: string; method: MethodName; model: string; hash: string }): string {
  return ['verify', escapeIdPart(parts.runId), escapeIdPart(parts.claimId), parts.method, escapeIdPart(parts.model), parts.hash.slice(0, ID_HASH_CHARS)].join('/');
}

/** Where a run's records live: run ids are unique per Temporal namespace, Elasticsearch and index prefix. */
export interface RunPlacement {
  esUrl: string;
  indexPrefix: string;
}

/** `sweep/<run>/<prefix>/<hash of the Elasticsearch URL>`. */
export function sweepWorkflowId(runId: string, placement: RunPlacement): string {
  return ['sweep', escapeIdPart(runId), placement.indexPrefix, identityHash({ esUrl: placement.esUrl }).slice(0, 6)].join('/');
}
