/** Turns texts into vectors; the LLM gateway's `embed` is one. */
export interface Embedder {
  embed(texts: string[]): Promise<number[][]>;
}
