import { z } from 'zod';

/** Validates `toe` settings from the CLI (`--option key=value`) and sweep configs (`parameters.toe`). */
export const toeSettingsSchema = z.object({}).strict();
