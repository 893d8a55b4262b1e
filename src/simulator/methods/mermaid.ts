import type { SchemaResponder } from '../method-responders';

/** Simulator answers for the `mermaid` method's structured tasks, keyed by schema name. */
export const mermaidResponders: Record<string, SchemaResponder> = {};
