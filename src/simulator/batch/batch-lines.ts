import { batchInputLineSchema, MAX_BATCH_LINES, type BatchInputLine } from './batch-schemas';

export interface BatchLineError {
  code: string;
  line: number | null;
  message: string;
  param: string | null;
}

/** An input file's requests, or the errors OpenAI's validation reports (bad JSON lines, duplicate custom_ids, mixed models). */
export function readBatchLines(content: string): { lines: BatchInputLine[] } | { errors: BatchLineError[] } {
  const lines: BatchInputLine[] = [];
  const errors: BatchLineError[] = [];
  const seen = new Set<string>();
  const texts = content.split('\n').filter((text) => text.trim() !== '');
  if (texts.length === 0) return { errors: [{ code: 'empty_file', line: null, message: 'The batch input file is empty.', param: null }] };
  if (texts.length > MAX_BATCH_LINES) return { errors: [{ code: 'too_many_requests', line: null, message: `A batch holds at most ${MAX_BATCH_LINES} requests.`, param: null }] };
  texts.forEach((text, index) => {
    const line = index + 1;
    const parsed = batchInputLineSchema.safeParse(parseJson(text));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      errors.push({ code: 'invalid_request', line, message: `Invalid request line: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(), param: issue?.path.join('.') ?? null });
      return;
    }
    if (seen.has(parsed.data.custom_id)) {
      errors.push({ code: 'duplicate_custom_id', line, message: `The custom_id '${parsed.data.custom_id}' appears more than once.`, param: 'custom_id' });
      return;
    }
    seen.add(parsed.data.custom_id);
    lines.push(parsed.data);
  });
  const models = new Set(lines.map((line) => line.body.model));
  if (models.size > 1) errors.push({ code: 'mismatched_model', line: null, message: 'All requests in a batch must use the same model.', param: 'body.model' });
  return errors.length > 0 ? { errors } : { lines };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
