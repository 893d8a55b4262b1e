export * from './cache-keys';
export * from './cache-miss-error';
export * from './es-cache';
export * from './page-cache';
export * from './search-cache';
export * from './web-caches';
