import { z } from 'zod';

/** Validates `tool-mad` settings from the CLI (`--option key=value`) and sweep configs (`parameters.tool-mad`). */
export const toolMadSettingsSchema = z.object({}).strict();
