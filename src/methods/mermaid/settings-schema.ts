import { z } from 'zod';

/** Validates `mermaid` settings from the CLI (`--option key=value`) and sweep configs (`parameters.mermaid`). */
export const mermaidSettingsSchema = z.object({}).strict();
