export * from './explorer-data';
export * from './explorer-documents';
export * from './explorer-filter';
export * from './explorer-page';
export * from './explorer-server';
export * from './explorer-snapshot';
