import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { type LookupFunction } from 'node:net';
import { PageFetchError } from './errors';
import { type PinnedTarget } from './url-guard';

/**
 * One GET whose socket connects to the address that was checked, never to a fresh DNS answer
 * (no rebinding window). TLS still verifies the certificate against the URL's hostname.
 */
export function requestPinned(target: PinnedTarget, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(target.url, { method: 'GET', headers, signal, agent: false, lookup: pinnedLookup(target) }, resolve);
    request.on('error', (err) => reject(signal.aborted ? err : new PageFetchError(target.url.href, err.message)));
    request.end();
  });
}

function pinnedLookup({ address, family }: PinnedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
