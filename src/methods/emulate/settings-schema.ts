import { z } from 'zod';

/** Validates `emulate` settings from the CLI (`--option key=value`) and sweep configs (`parameters.emulate`). */
export const emulateSettingsSchema = z.object({}).strict();
