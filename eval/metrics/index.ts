export * from './confusion-matrix';
export * from './classification';
export * from './python-round';
export * from './paper-report';
export * from './percentile';
export * from './bootstrap';
export * from './latency';
export * from './cost';
