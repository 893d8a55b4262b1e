import OpenAI from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';

export interface LlmEndpoint {
  baseUrl: string;
  apiKey: string;
}

/**
 * An OpenAI SDK client whose requests may take as long as `timeoutMs`. Node's fetch gives up on a
 * response whose headers take more than 300 s (undici's `headersTimeout`), whatever the SDK's
 * timeout: a non-streaming answer from a slow local server sends its headers only when done, so a
 * long call failed at 300 s as "no answer within <timeoutMs> ms". Temporal is the only retry layer.
 */
export function openAiClient(endpoint: LlmEndpoint, timeoutMs: number): OpenAI {
  const dispatcher = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const fetchWithTimeouts = ((url: string, init?: Record<string, unknown>) => undiciFetch(url, { ...init, dispatcher } as never)) as unknown as typeof fetch;
  return new OpenAI({ apiKey: endpoint.apiKey, baseURL: endpoint.baseUrl, maxRetries: 0, timeout: timeoutMs, fetch: fetchWithTimeouts });
}
