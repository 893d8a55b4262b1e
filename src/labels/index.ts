export * from './schemes';
export * from './dataset-labels';
export * from './predicted-labels';
