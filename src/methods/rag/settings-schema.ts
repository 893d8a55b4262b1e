import { z } from 'zod';

/** The rag baseline takes no method settings: its top-k, index and mode are the verification's own options (`--top-k`, `--index`, `--retrieval`). */
export const ragSettingsSchema = z.never({ error: 'the rag method takes no settings here (use its own options)' });
