import type { SchemaResponder } from '../method-responders';

/** Simulator answers for the `fire` method's structured tasks, keyed by schema name. */
export const fireResponders: Record<string, SchemaResponder> = {};
