import { sha256Hex } from '../llm/canonical-json';
import { countTokens, words } from './text';
import type { SimResponse } from './chat-completions';
import { invalidRequest } from './chat-completions';

export const EMBEDDING_DIMENSIONS = 256;

/** Hashed bag of words, L2-normalised: texts sharing words get a high cosine similarity. */
export function embed(text: string, dimensions = EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of words(text)) {
    const hash = sha256Hex(word);
    const slot = parseInt(hash.slice(0, 8), 16) % dimensions;
    const sign = parseInt(hash.slice(8, 10), 16) % 2 === 0 ? 1 : -1;
    vector[slot]! += sign;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

interface EmbeddingsBody {
  model?: unknown;
  input?: unknown;
  encoding_format?: unknown;
  dimensions?: unknown;
}

export function answerEmbeddings(body: EmbeddingsBody): SimResponse {
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  if (typeof body.model !== 'string' || !Array.isArray(inputs) || !inputs.every((i) => typeof i === 'string')) {
    return invalidRequest("'model' and 'input' (a string or an array of strings) are required", 'input');
  }
  const dimensions = typeof body.dimensions === 'number' && body.dimensions > 0 ? body.dimensions : EMBEDDING_DIMENSIONS;
  const data = (inputs as string[]).map((text, index) => ({
    object: 'embedding',
    index,
    embedding: encode(embed(text, dimensions), body.encoding_format === 'base64'),
  }));
  const tokens = (inputs as string[]).reduce((sum, text) => sum + countTokens(text), 0);
  return { status: 200, body: { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } } };
}

/** The openai SDK asks for base64 (little-endian float32) by default. */
function encode(vector: number[], base64: boolean): number[] | string {
  return base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
}
