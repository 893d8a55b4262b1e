import { configHash, configStamp } from '../config/config-identity';
import type { VerityConfig } from '../config/config';
import { methodPromptsHashes, promptsHash } from '../llm/prompts-hash';
import type { ConfigStamp, IdentityContext } from '../shared/identity';

/** The identity context of this process's configuration (shared by all its verifications) and its stamp. */
export function identityContextOf(config: VerityConfig): IdentityContext & { stamp: ConfigStamp } {
  return { configHash: configHash(config), promptsHash: promptsHash(), promptsHashes: methodPromptsHashes(), stamp: configStamp(config) };
}
