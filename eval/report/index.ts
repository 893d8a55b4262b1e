export * from './report-types';
export * from './group-key';
export * from './gold-labels';
export * from './dataset-gold-labels';
export * from './claim-rows';
export * from './group-report';
export * from './build-report';
export * from './diff-runs';
