import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { download, findOnPath, hostPortOfUrl, isPortOpen, parseHostPort, stopPidFile, tailFile, waitUntil } from '../../infra/support';

describe('parseHostPort', () => {
  it('reads host and port', () => {
    expect(parseHostPort('127.0.0.1:7243', 7233)).toEqual({ host: '127.0.0.1', port: 7243 });
    expect(parseHostPort('localhost', 7233)).toEqual({ host: 'localhost', port: 7233 });
    expect(parseHostPort('[::1]:7000', 7233)).toEqual({ host: '::1', port: 7000 });
  });
  it('rejects garbage and bad ports', () => {
    expect(() => parseHostPort('a:b:c', 1)).toThrow(/cannot parse/);
    expect(() => parseHostPort('host:70000', 1)).toThrow(/invalid port/);
  });
});

describe('hostPortOfUrl', () => {
  it('uses the explicit or the default port', () => {
    expect(hostPortOfUrl('http://127.0.0.1:9201')).toEqual({ host: '127.0.0.1', port: 9201 });
    expect(hostPortOfUrl('http://localhost')).toEqual({ host: 'localhost', port: 80 });
    expect(hostPortOfUrl('https://[::1]/x')).toEqual({ host: '::1', port: 443 });
  });
});

describe('isPortOpen', () => {
  it('tells a listening port from a closed one', async () => {
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as net.AddressInfo).port;
    expect(await isPortOpen({ host: '127.0.0.1', port })).toBe(true);
    await new Promise((resolve) => server.close(resolve));
    expect(await isPortOpen({ host: '127.0.0.1', port })).toBe(false);
  });
});

describe('waitUntil', () => {
  it('returns true once the probe succeeds and false on timeout', async () => {
    let calls = 0;
    expect(await waitUntil(async () => ++calls >= 3, 1_000, 1)).toBe(true);
    expect(await waitUntil(async () => false, 20, 5)).toBe(false);
  });
});

describe('pid files and logs', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-infra-unit-'));
  it('treats a stale pid file as not running and removes it', async () => {
    const pidFile = path.join(dir, 'stale.pid');
    fs.writeFileSync(pidFile, '999999999\n');
    expect(await stopPidFile(pidFile, 'temporal')).toBe('not-running');
    expect(fs.existsSync(pidFile)).toBe(false);
  });
  it('does not kill a live process that is not the expected program', async () => {
    const pidFile = path.join(dir, 'self.pid');
    fs.writeFileSync(pidFile, `${process.pid}\n`);
    expect(await stopPidFile(pidFile, 'no-such-program-name-xyz')).toBe('not-running');
  });
  it('tails the last lines of a file', () => {
    const log = path.join(dir, 'x.log');
    fs.writeFileSync(log, 'a\nb\nc\n');
    expect(tailFile(log, 2)).toBe('b\nc');
    expect(tailFile(path.join(dir, 'missing.log'))).toMatch(/no log/);
  });
  it('finds executables on a PATH', () => {
    expect(findOnPath('sh', '/nonexistent:/bin:/usr/bin')).toMatch(/\/sh$/);
    expect(findOnPath('no-such-binary-xyz', '/bin')).toBeUndefined();
  });
});

describe('download', () => {
  it('writes the file and, when stderr is not a terminal, progress lines in MB with the total', async () => {
    const body = Buffer.alloc(3_000_000, 7);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length) });
      // Three chunks, so the download reports more than once.
      res.write(body.subarray(0, 1_000_000));
      setTimeout(() => {
        res.write(body.subarray(1_000_000, 2_000_000));
        res.end(body.subarray(2_000_000));
      }, 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-download-'));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        callback();
      },
    });
    try {
      const dest = path.join(dir, 'archive.bin');
      await download(`http://127.0.0.1:${port}/archive`, dest, 10_000, { label: 'test download', intervalMs: 60_000, stream });
      expect(fs.readFileSync(dest).equals(body)).toBe(true);
      expect(fs.existsSync(`${dest}.partial`)).toBe(false);
      // The first update and the end, nothing in between (interval 60 s): never a line per chunk.
      expect(lines.length).toBe(2);
      expect(lines.every((line) => line.startsWith('test download'))).toBe(true);
      expect(lines.at(-1)).toContain('3.0/3.0 MB (100%)');
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
