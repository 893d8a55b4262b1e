export { searchPassages } from './bm25';
export { densePassages, numCandidates, type EmbedTexts } from './dense';
export * from './embedder';
export * from './errors';
export * from './hybrid';
export { MAX_SEARCH_K, type Passage } from './passage';
export * from './retrieve';
export * from './rrf';
