export * from './markdown';
export * from './html';
export * from './csv';
export * from './write-report';
export * from './diff-text';
