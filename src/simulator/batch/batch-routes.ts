import type { SimResponse } from '../chat-completions';
import { invalidRequest } from '../chat-completions';
import { readBatchLines } from './batch-lines';
import { batchCreateSchema, batchListQuerySchema } from './batch-schemas';
import { batchObject, type BatchStore, type SimBatch } from './batch-store';
import type { BatchExpiry } from './batch-faults';
import { fileObject, type FileStore } from './file-store';
import { parseMultipart } from './multipart';

/** A response whose body is sent as is (a file's content), not as JSON. */
export type BatchRouteResponse = SimResponse & { rawText?: string };

export interface BatchRouteDeps {
  files: FileStore;
  batches: BatchStore;
  expiry: BatchExpiry;
  /** Logs each request of a batch just created (the request log counts submissions). */
  logSubmitted(batch: SimBatch): void;
}

export interface BatchRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  text: string;
}

function notFound(what: string): SimResponse {
  return { status: 404, body: { error: { message: `No such ${what}`, type: 'invalid_request_error', param: null, code: null } } };
}

/** OpenAI's files and batches endpoints; undefined for any other route. */
export function handleBatchRoute(request: BatchRequest, deps: BatchRouteDeps): BatchRouteResponse | undefined {
  const { method, path } = request;
  if (method === 'POST' && path === '/v1/files') return uploadFile(request, deps);
  const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
  if (method === 'GET' && content) {
    const file = deps.files.get(content[1]!);
    return file ? { status: 200, body: null, rawText: file.content } : notFound(`file: ${content[1]}`);
  }
  const fileId = /^\/v1\/files\/([^/]+)$/.exec(path);
  if (method === 'GET' && fileId) {
    const file = deps.files.get(fileId[1]!);
    return file ? { status: 200, body: fileObject(file) } : notFound(`file: ${fileId[1]}`);
  }
  if (method === 'POST' && path === '/v1/batches') return createBatch(request, deps);
  if (method === 'GET' && path === '/v1/batches') return listBatches(request, deps);
  const batchId = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
  if (!batchId) return undefined;
  const batch = deps.batches.get(batchId[1]!);
  if (!batch) return notFound(`batch: ${batchId[1]}`);
  if (method === 'POST' && batchId[2]) {
    deps.batches.cancel(batch);
    return { status: 200, body: batchObject(batch, deps.batches.statusOf(batch)) };
  }
  if (method === 'GET' && !batchId[2]) return { status: 200, body: batchObject(batch, deps.batches.statusOf(batch)) };
  return undefined;
}

function uploadFile(request: BatchRequest, deps: BatchRouteDeps): SimResponse {
  const fields = parseMultipart(request.contentType, request.text);
  if (!fields) return invalidRequest('the request must be multipart/form-data with the fields file and purpose');
  const purpose = fields.find((field) => field.name === 'purpose')?.value;
  const file = fields.find((field) => field.name === 'file' && field.filename !== undefined);
  if (purpose !== 'batch') return invalidRequest("the simulator stores only files of purpose 'batch'", 'purpose');
  if (!file) return invalidRequest("'file' is required", 'file');
  return { status: 200, body: fileObject(deps.files.add(file.filename ?? 'upload.jsonl', 'batch', file.value)) };
}

function createBatch(request: BatchRequest, deps: BatchRouteDeps): SimResponse {
  const parsed = batchCreateSchema.safeParse(parseJson(request.text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalidRequest(`Invalid batch: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(), issue?.path.join('.'));
  }
  const input = deps.files.get(parsed.data.input_file_id);
  if (!input || input.purpose !== 'batch') return invalidRequest(`No such batch input file: ${parsed.data.input_file_id}`, 'input_file_id');
  const read = readBatchLines(input.content);
  const lines = 'lines' in read ? read.lines : [];
  const errors = 'errors' in read ? read.errors : [];
  const batch = deps.batches.add(parsed.data, lines, errors, errors.length === 0 && deps.expiry.next(input.content));
  deps.logSubmitted(batch);
  return { status: 200, body: batchObject(batch, deps.batches.statusOf(batch)) };
}

function listBatches(request: BatchRequest, deps: BatchRouteDeps): SimResponse {
  const query = batchListQuerySchema.safeParse(Object.fromEntries(request.query));
  if (!query.success) return invalidRequest(`Invalid query: ${query.error.issues[0]?.message ?? ''}`, 'limit');
  const all = deps.batches.list();
  const start = query.data.after ? all.findIndex((batch) => batch.id === query.data.after) + 1 : 0;
  const page = all.slice(start, start + query.data.limit);
  return {
    status: 200,
    body: {
      object: 'list',
      data: page.map((batch) => batchObject(batch, deps.batches.statusOf(batch))),
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
      has_more: start + page.length < all.length,
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
