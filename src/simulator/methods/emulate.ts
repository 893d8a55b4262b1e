import type { SchemaResponder } from '../method-responders';

/** Simulator answers for the `emulate` method's structured tasks, keyed by schema name. */
export const emulateResponders: Record<string, SchemaResponder> = {};
