import type { SchemaResponder } from '../method-responders';

/** Simulator answers for the `toe` method's structured tasks, keyed by schema name. */
export const toeResponders: Record<string, SchemaResponder> = {};
