export { AllowList } from './allow-list';
export { isBlockedAddress } from './blocked-addresses';
export * from './chunk-text';
export * from './errors';
export * from './read-page';
export { METADATA_HOSTNAMES, systemResolver, type ResolvedAddress, type Resolver } from './url-guard';
