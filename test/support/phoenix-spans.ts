import { z } from 'zod';

/** A span as Phoenix's REST API returns it (GET /v1/projects/<project>/spans). */
const spanSchema = z.object({
  name: z.string(),
  context: z.object({ trace_id: z.string(), span_id: z.string() }),
  parent_id: z.string().nullable(),
  status_code: z.string(),
  status_message: z.string().nullish(),
  attributes: z.record(z.string(), z.unknown()),
});
const pageSchema = z.object({ data: z.array(spanSchema), next_cursor: z.string().nullable() });

export type ReceivedSpan = z.infer<typeof spanSchema>;

/** Every span Phoenix holds for `project` (all pages); none when the project does not exist yet. */
export async function phoenixSpans(url: string, project: string): Promise<ReceivedSpan[]> {
  const spans: ReceivedSpan[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const query = new URLSearchParams({ limit: '500', ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${url}/v1/projects/${encodeURIComponent(project)}/spans?${query}`);
    if (response.status === 404) return [];
    if (!response.ok) throw new Error(`Phoenix answered ${response.status}: ${await response.text()}`);
    const body = pageSchema.parse(await response.json());
    spans.push(...body.data);
    cursor = body.next_cursor;
    if (!cursor) break;
  }
  return spans;
}
