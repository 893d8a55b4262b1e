import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { canonicalJson, sha256Hex } from '../llm/canonical-json';
import { answerChat, invalidRequest, malformedContent, type SimResponse } from './chat-completions';
import { answerEmbeddings } from './embeddings';
import { FaultInjector, type FaultKind, type FaultRule } from './faults';
import { chatSettingsOf, exposesContextWindow, type ServerProfile } from './profiles';
import { RequestLog, type SimRequestRecord } from './request-log';
import { BatchExpiry, DEFAULT_BATCH_TURNAROUND_MS, type BatchSimulatorOptions } from './batch/batch-faults';
import { handleBatchRoute, type BatchRouteDeps, type BatchRouteResponse } from './batch/batch-routes';
import { BatchStore, type LineOutcome } from './batch/batch-store';
import { FileStore } from './batch/file-store';

export interface SimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  latencyMs?: number;
  faults?: FaultRule[];
  faultSeed?: number;
  requestLogFile?: string;
  /** The server played (profiles.ts); default 'openai'. */
  profile?: ServerProfile;
  /** Context window in the simulator's tokens (default 16,384): a longer prompt (+ max_tokens) is rejected as real servers do. */
  contextTokens?: number;
  /** Reject json_schema schemas breaking OpenAI's strict rules with its 400; default: on for the 'openai' profile. */
  strictSchemas?: boolean;
  /** Record each request's client address in the request log (which worker machine sent it). */
  recordClient?: boolean;
  /** Keep each model request's body in `arrivals()` (tests that check where a prompt went). */
  keepBodies?: boolean;
  /** Report this cost (USD) in each chat completion's usage, as providers that price calls themselves do (`usage.cost`). */
  reportedCostUsd?: number;
  /** OpenAI's files + batches endpoints: turnaround, failed requests, expiry. */
  batch?: BatchSimulatorOptions;
}

export interface RunningSimulator {
  /** OpenAI base URL, e.g. http://127.0.0.1:4010/v1 */
  url: string;
  port: number;
  /** Answered requests, in the order they were answered. */
  requests(): SimRequestRecord[];
  /** Model requests received so far, answered or still waiting out the latency (in flight). */
  arrivals(): SimArrival[];
  /** Replaces the fault rules from the next request on (e.g. a test makes the endpoint hang, then heal). */
  setFaults(rules: FaultRule[]): void;
  close(): Promise<void>;
}

export const SIMULATED_MODELS = ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small'];

type Handler = (body: Record<string, unknown>) => SimResponse;

/** A model request as it arrived (before any fault), with the model it asked for (and its body, when kept). */
export interface SimArrival {
  path: string;
  time: string;
  model?: string;
  body?: string;
}

function modelOf(body: string): string | undefined {
  try {
    const model: unknown = (JSON.parse(body) as { model?: unknown }).model;
    return typeof model === 'string' ? model : undefined;
  } catch {
    return undefined;
  }
}

/** An OpenAI-compatible server whose deterministic answers are derived from the prompt's content. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const log = new RequestLog(options.requestLogFile);
  const arrivals: SimArrival[] = [];
  let faults = new FaultInjector(options.faults ?? [], options.faultSeed);
  const chat = chatSettingsOf(options);
  const modelRoutes: Record<string, Handler> = {
    'POST /v1/chat/completions': (body) => answerChat(body, chat),
    'POST /v1/embeddings': (body) => answerEmbeddings(body),
  };
  const batchDeps = createBatchDeps(options.batch ?? {}, modelRoutes['POST /v1/chat/completions']!, log);

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => send(res, { status: 500, body: { error: { message: String(err), type: 'server_error' } } }));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = Date.now();
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    const route = `${req.method} ${path}`;
    const limit = path === '/v1/files' ? MAX_FILE_BODY_BYTES : MAX_BODY_BYTES;
    const text = await readBody(req, limit);
    if (text === undefined) {
      log.add({ method: req.method ?? '', path, requestHash: '', status: 413, time: new Date(started).toISOString(), durationMs: Date.now() - started });
      return send(res, { status: 413, body: { error: { message: `request body over the simulator's ${limit / (1024 * 1024)} MiB limit`, type: 'invalid_request_error', code: 'request_too_large' } } });
    }
    const record = (status: number, fault?: FaultKind) =>
      log.add({
        method: req.method ?? '',
        path,
        requestHash: requestHashOf(text),
        status,
        fault,
        time: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        ...(options.recordClient ? { client: req.socket.remoteAddress } : {}),
      });

    if (route === 'GET /_sim/requests') return send(res, { status: 200, body: log.list() });
    if (route === 'POST /_sim/reset') {
      log.clear();
      faults.reset();
      return send(res, { status: 200, body: { ok: true } });
    }
    if (route === 'GET /v1/models') {
      record(200);
      const meta = exposesContextWindow(chat.profile) ? { meta: { n_ctx: chat.contextTokens, n_ctx_train: chat.contextTokens } } : {};
      return send(res, { status: 200, body: { object: 'list', data: SIMULATED_MODELS.map((id) => ({ id, object: 'model', created: 0, owned_by: 'verity-simulator', ...meta })) } });
    }
    if (route === 'GET /props' && exposesContextWindow(chat.profile)) {
      record(200);
      return send(res, { status: 200, body: { default_generation_settings: { n_ctx: chat.contextTokens }, total_slots: 1, model_path: 'verity-simulator.gguf' } });
    }
    const batchResponse = handleBatchRoute({ method: req.method ?? '', path, query: new URL(req.url ?? '/', 'http://sim').searchParams, contentType: req.headers['content-type'], text }, batchDeps);
    if (batchResponse) {
      record(batchResponse.status);
      const delay = batchDelayOf(options.batch, req.method ?? '', path);
      if (delay) await sleep(delay);
      return sendBatchResponse(res, batchResponse);
    }
    const handler = modelRoutes[route];
    if (!handler) {
      record(404);
      return send(res, { status: 404, body: { error: { message: `no route ${route}`, type: 'invalid_request_error' } } });
    }
    arrivals.push({ path, time: new Date(started).toISOString(), model: modelOf(text), ...(options.keepBodies ? { body: text } : {}) });
    if (options.latencyMs) await sleep(options.latencyMs);
    const response = answerModelRequest(handler, text, faults.next(text));
    if (response === 'hang') return record(0, 'timeout');
    if (options.reportedCostUsd !== undefined) withReportedCost(response, options.reportedCostUsd);
    record(response.status, response.fault);
    send(res, response, response.headers);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    port,
    requests: () => log.list(),
    arrivals: () => [...arrivals],
    setFaults: (rules) => {
      faults = new FaultInjector(rules, options.faultSeed);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          log.close();
          resolve();
        });
      }),
  };
}

type ModelResponse = SimResponse & { fault?: FaultKind; headers?: Record<string, string> };

function answerModelRequest(handler: Handler, text: string, fault: FaultKind | undefined): ModelResponse | 'hang' {
  if (fault === 'timeout') return 'hang';
  if (fault === '429') {
    return { status: 429, fault, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached (simulated)', type: 'rate_limit_error', code: 'rate_limit_exceeded' } } };
  }
  if (fault === '500') return { status: 500, fault, body: { error: { message: 'The server had an error (simulated)', type: 'server_error' } } };
  const body = parseJsonObject(text);
  if (!body) return invalidRequest('the request body must be a JSON object');
  const response = handler(body);
  return fault === 'malformed' && response.status === 200 ? { ...malformedContent(response), fault } : response;
}

/** The batch endpoints' state; each request of a batch is answered as a direct one would be, with the batch's own line faults. */
function createBatchDeps(options: BatchSimulatorOptions, chatHandler: Handler, log: RequestLog): BatchRouteDeps {
  const lineFaults = new FaultInjector(options.lineFaults ?? []);
  const files = new FileStore();
  const logLine = (batchId: string, customId: string, body: unknown, event: 'submitted' | 'answered' | 'expired', status: number) =>
    log.add({ method: 'BATCH', path: '/v1/chat/completions', requestHash: sha256Hex(canonicalJson(body)), status, time: new Date().toISOString(), durationMs: 0, batch: { id: batchId, customId, event } });
  const batches = new BatchStore(files, options.turnaroundMs ?? DEFAULT_BATCH_TURNAROUND_MS, (batch, line): LineOutcome => {
    const text = JSON.stringify(line.body);
    const response = answerModelRequest(chatHandler, text, lineFaults.next(text));
    if (response === 'hang') {
      logLine(batch.id, line.custom_id, line.body, 'answered', 0);
      return { errorCode: 'request_timeout', message: 'The request timed out (simulated).' };
    }
    logLine(batch.id, line.custom_id, line.body, 'answered', response.status);
    return { statusCode: response.status, body: response.body };
  }, (batch, line) => logLine(batch.id, line.custom_id, line.body, 'expired', 0));
  return {
    files,
    batches,
    expiry: new BatchExpiry(options.expiry ?? []),
    logSubmitted: (batch) => batch.lines.forEach((line) => logLine(batch.id, line.custom_id, line.body, 'submitted', 0)),
  };
}

function batchDelayOf(options: BatchSimulatorOptions | undefined, method: string, path: string): number | undefined {
  if (method === 'POST' && path === '/v1/batches') return options?.delays?.create;
  if (method === 'GET' && /^\/v1\/files\/[^/]+\/content$/.test(path)) return options?.delays?.content;
  return undefined;
}

function sendBatchResponse(res: http.ServerResponse, response: BatchRouteResponse): void {
  if (response.rawText === undefined) return send(res, response);
  res.writeHead(response.status, { 'content-type': 'application/octet-stream' });
  res.end(response.rawText);
}

function withReportedCost(response: ModelResponse, costUsd: number): void {
  const body = response.body as { usage?: Record<string, unknown> };
  if (response.status === 200 && body.usage) body.usage.cost = costUsd;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Request bodies the simulator reads (model requests; batch input files, as OpenAI's 200 MB file limit): more is answered 413. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
export const MAX_FILE_BODY_BYTES = 200 * 1024 * 1024;

/** The body as text, or undefined when it is over `limit` bytes (the rest is read and dropped, so memory stays bounded). */
async function readBody(req: http.IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
    else chunks.length = 0;
  }
  return size > limit ? undefined : Buffer.concat(chunks).toString('utf8');
}

function send(res: http.ServerResponse, response: SimResponse, headers: Record<string, string> = {}): void {
  res.writeHead(response.status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(response.body));
}

/** The hash logged for a request: of the canonical JSON body, so key order does not matter. */
function requestHashOf(text: string): string {
  const body = parseJsonObject(text);
  return sha256Hex(body ? canonicalJson(body) : text);
}
