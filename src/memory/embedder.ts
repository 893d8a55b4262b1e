import OpenAI from 'openai';

/** Turns texts into vectors (the LLM gateway's `embed`, or any OpenAI-compatible /v1/embeddings). */
export interface Embedder {
  embed(texts: string[]): Promise<number[][]>;
}

export interface OpenAiEmbedderOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
}

/** A minimal /v1/embeddings client; Temporal retries the activity, so the SDK does not. */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey, maxRetries: 0, timeout: options.timeoutMs ?? 60_000 });
  return {
    async embed(texts) {
      if (texts.length === 0) return [];
      const response = await client.embeddings.create({ model: options.model, input: texts });
      return [...response.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
    },
  };
}
