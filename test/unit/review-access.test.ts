import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { accessProblem, isDefaultLoopback } from '../../src/explorer/review-access';

const TOKEN = 'a-token-of-enough-length';
const request = (method: string, headers: Record<string, string>) => ({ method, headers: { host: '127.0.0.2:8800', ...headers } }) as unknown as http.IncomingMessage;
const url = (path: string) => new URL(path, 'http://explorer');

describe('explorer access', () => {
  it('treats only 127.0.0.1, localhost and ::1 as the default loopback address', () => {
    expect(['127.0.0.1', 'localhost', '::1'].every(isDefaultLoopback)).toBe(true);
    expect(['127.0.0.2', '0.0.0.0', '192.168.1.4', '::'].some(isDefaultLoopback)).toBe(false);
  });

  it('lets a write through only with the token header from this origin', () => {
    const shared = { token: TOKEN, tokenForReads: true };
    expect(accessProblem(request('POST', { 'x-verity-token': TOKEN }), url('/api/review'), shared)).toBeUndefined();
    expect(accessProblem(request('POST', { 'x-verity-token': TOKEN, origin: 'http://127.0.0.2:8800' }), url('/api/review'), shared)).toBeUndefined();
    expect(accessProblem(request('POST', {}), url('/api/review'), shared)).toMatch(/x-verity-token/);
    expect(accessProblem(request('POST', { cookie: `verity_token=${TOKEN}` }), url('/api/review'), shared)).toMatch(/x-verity-token/);
    expect(accessProblem(request('POST', {}), url(`/api/review?token=${TOKEN}`), shared)).toMatch(/x-verity-token/);
    expect(accessProblem(request('POST', { 'x-verity-token': `${TOKEN}x` }), url('/api/review'), shared)).toMatch(/x-verity-token/);
    expect(accessProblem(request('POST', { 'x-verity-token': TOKEN, origin: 'http://evil.example' }), url('/api/review'), shared)).toMatch(/another origin/);
  });

  it('needs the token for reads only beyond loopback (header, cookie or ?token=)', () => {
    const shared = { token: TOKEN, tokenForReads: true };
    expect(accessProblem(request('GET', {}), url('/api/summary'), shared)).toMatch(/beyond loopback/);
    expect(accessProblem(request('GET', { 'x-verity-token': TOKEN }), url('/api/summary'), shared)).toBeUndefined();
    expect(accessProblem(request('GET', { cookie: `other=1; verity_token=${TOKEN}` }), url('/api/summary'), shared)).toBeUndefined();
    expect(accessProblem(request('GET', {}), url(`/?token=${TOKEN}`), shared)).toBeUndefined();
    expect(accessProblem(request('GET', {}), url('/api/summary'), { token: TOKEN, tokenForReads: false })).toBeUndefined();
  });
});
