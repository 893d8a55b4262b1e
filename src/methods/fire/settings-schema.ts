import { z } from 'zod';

/** Validates `fire` settings from the CLI (`--option key=value`) and sweep configs (`parameters.fire`). */
export const fireSettingsSchema = z.object({}).strict();
