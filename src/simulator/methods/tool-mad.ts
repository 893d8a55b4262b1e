import type { SchemaResponder } from '../method-responders';

/** Simulator answers for the `tool-mad` method's structured tasks, keyed by schema name. */
export const toolMadResponders: Record<string, SchemaResponder> = {};
