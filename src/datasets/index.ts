export * from './dataset-claim';
export * from './format-reader';
export * from './record-sources';
export * from './detect-format';
export * from './load-dataset';
export * from './file-hash';
export * from './sampling';
export * from './prng';
