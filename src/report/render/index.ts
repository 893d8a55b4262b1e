export * from './markdown';
export * from './html';
export * from './csv';
export * from './write-report';
export * from './diff-text';
export * from './comparisons-text';
