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
 * the hash of the method's own prompt versions and behaviour version (src/llm/prompts-hash.ts).
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
  /** sha256 of the id@version of every registered LLM task (the whole set: identities made before `promptsHashes`). */
  promptsHash: string;
  /** Per method, sha256 of its own tasks' id@version and behaviour version; a method named here uses its entry. */
  promptsHashes?: Readonly<Record<string, string>>;
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

/**
 * The identity context one method's verifications carry: its own prompts hash where the context has
 * one per method, else the context's (inputs recorded before per-method hashes keep their identity).
 */
export function methodIdentityContext(context: IdentityContext, method: string): IdentityContext {
  return { configHash: context.configHash, promptsHash: context.promptsHashes?.[method] ?? context.promptsHash };
}

/** The sha256 of one verification's identity. */
export function verificationHash(parts: IdentityParts, context: IdentityContext): string {
  const { promptsHash } = methodIdentityContext(context, parts.method);
  return identityHash({
    v: 1,
    claim: parts.claim.trim(),
    method: parts.method,
    model: parts.model,
    rag: { topK: parts.rag.topK, index: parts.rag.index, mode: parts.rag.mode ?? DEFAULT_RETRIEVAL_MODE },
    settings: parts.settings ?? {},
    configHash: context.configHash,
    promptsHash,
  });
}

/**
 * Escaped parts longer than this are shortened, so that a verification's workflow id stays far below
 * Temporal's 1,000-character limit and its verdict's `_id` below Elasticsearch's 512 bytes (escaped
 * ids are ASCII: characters = bytes). Run, claim and model at this length, the method and the hash
 * make at most 481 characters.
 */
export const MAX_ID_PART_CHARS = 150;
/** Hex characters of the hash that ends a shortened part. */
const SHORTENED_HASH_CHARS = 16;

/**
 * A run, claim or model id as one unambiguous workflow-id segment: '/' and '%' (and other reserved
 * characters) are percent-encoded; a lone surrogate (which has no UTF-8 form) is written `%uXXXX`.
 *
 * A segment longer than MAX_ID_PART_CHARS is shortened: its first whole characters (escaped), ':'
 * and the first 16 hex characters of the sha256 of the whole part. ':' never appears in an escaped
 * part, so a shortened segment never equals a spelled-out one, and the hash keeps two long parts
 * with the same beginning apart: the identity stays exact.
 */
export function escapeIdPart(part: string): string {
  const escaped = escapeWhole(part);
  if (escaped.length <= MAX_ID_PART_CHARS) return escaped;
  let head = '';
  for (const char of part) {
    const next = escapeWhole(char);
    if (head.length + next.length > MAX_ID_PART_CHARS - 1 - SHORTENED_HASH_CHARS) break;
    head += next;
  }
  return `${head}:${sha256HexOf(part).slice(0, SHORTENED_HASH_CHARS)}`;
}

/** Whether `escapeIdPart` shortens this part (ids recorded before shortening spelled it out whole). */
export function isLongIdPart(part: string): boolean {
  return escapeWhole(part).length > MAX_ID_PART_CHARS;
}

function escapeWhole(part: string): string {
  let escaped = '';
  for (const char of part) {
    const code = char.codePointAt(0)!;
    escaped += code >= 0xd800 && code <= 0xdfff ? `%u${code.toString(16).toUpperCase()}` : encodeURIComponent(char);
  }
  return escaped;
}

/**
 * `verify/<run>/<claim>/<method>/<model>/<hash>`: readable parts, then a short hash of everything
 * that is not spelled out. Run, claim and model are escaped (and long ones shortened, see
 * escapeIdPart), so no two inputs share an id. `spellOutLongParts` rebuilds the ids of sweeps
 * recorded before shortening (replay only).
 */
export function verifyWorkflowId(parts: { runId: string; claimId: string; method: MethodName; model: string; hash: string }, options: { spellOutLongParts?: boolean } = {}): string {
  const escape = options.spellOutLongParts ? encodeURIComponent : escapeIdPart;
  return ['verify', escape(parts.runId), escape(parts.claimId), parts.method, escape(parts.model), parts.hash.slice(0, ID_HASH_CHARS)].join('/');
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
