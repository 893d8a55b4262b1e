import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { RecordedCall } from './prompt-diff';

const chatRequestSchema = z
  .object({
    messages: z.array(z.object({ role: z.string(), content: z.union([z.string(), z.null(), z.array(z.unknown())]) }).passthrough()),
  })
  .passthrough();
const chatResponseSchema = z.object({ choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }).passthrough() }).passthrough()) }).passthrough();

/** The prompt as the model sees it: every message, role first, in order. */
export function renderMessages(messages: z.infer<typeof chatRequestSchema>['messages']): string {
  return messages.map((m) => `[${m.role}]\n${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`).join('\n');
}

export interface RecordingProxy {
  url: string;
  /** Calls recorded under each tag (the claim being verified), in arrival order. */
  calls: Map<string, RecordedCall[]>;
  /** Tag for requests without an x-parity-tag header (verity's side runs one claim at a time). */
  currentTag: string;
  close(): Promise<void>;
}

/**
 * One request to the model server, waiting as long as it takes: with one slot and other clients the
 * queue can exceed fetch's 300 s headers timeout, and a request given up on is paid again by its retry.
 */
function forward(target: string, method: string, body: string | undefined): Promise<{ status: number; ok: boolean; contentType: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(target, { method, headers: { 'content-type': 'application/json' } }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (c: Buffer) => parts.push(c));
      response.on('end', () => {
        const status = response.statusCode ?? 502;
        resolve({ status, ok: status >= 200 && status < 300, contentType: response.headers['content-type'], text: Buffer.concat(parts).toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * A loopback proxy in front of the local model server that records every chat call and pins the
 * sampling both sides use: temperature 0, one seed and no prompt-prefix reuse; max tokens and stop stay as
 * each side sends them.
 */
export async function startRecordingProxy(upstreamBaseUrl: string, seed: number): Promise<RecordingProxy> {
  const calls = new Map<string, RecordedCall[]>();
  const proxy: RecordingProxy = { url: '', calls, currentTag: 'untagged', close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const target = `${upstreamBaseUrl.replace(/\/v1\/?$/, '')}${req.url ?? '/'}`;
        const isChat = req.method === 'POST' && (req.url ?? '').endsWith('/chat/completions');
        let body = raw;
        let prompt: string | undefined;
        let maxTokens: number | undefined;
        if (isChat) {
          const parsed = chatRequestSchema.parse(JSON.parse(raw));
          prompt = renderMessages(parsed.messages);
          const cap = parsed.max_completion_tokens ?? parsed.max_tokens;
          maxTokens = typeof cap === 'number' ? cap : undefined;
          // cache_prompt off: llama.cpp reusing a cached prefix evaluates the rest in other batch shapes, and
          // a near tie ("No" / "No.") then flips between two sends of the same prompt.
          body = JSON.stringify({ ...parsed, temperature: 0, seed, stream: false, cache_prompt: false });
        }
        const upstream = await forward(target, req.method ?? 'GET', req.method === 'GET' ? undefined : body);
        const { text } = upstream;
        if (isChat && prompt !== undefined && upstream.ok) {
          const answer = chatResponseSchema.parse(JSON.parse(text)).choices[0]?.message.content ?? '';
          const tag = (req.headers['x-parity-tag'] as string | undefined) ?? proxy.currentTag;
          const list = calls.get(tag) ?? [];
          list.push({ prompt, answer, ...(maxTokens !== undefined ? { maxTokens } : {}) });
          calls.set(tag, list);
        }
        res.writeHead(upstream.status, { 'content-type': upstream.contentType ?? 'application/json' });
        res.end(text);
      })().catch((err: unknown) => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `parity proxy: ${(err as Error).message}` } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  proxy.close = () => new Promise((resolve) => server.close(() => resolve()));
  return proxy;
}
