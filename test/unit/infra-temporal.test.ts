import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { devServerArgs, ensureTemporal, findTemporalCli, missingSearchAttributes, temporalPaths } from '../../infra/temporal';
import { loadConfig } from '../../src/config/config';
import { SEARCH_ATTRIBUTES } from '../../src/shared/constants';

describe('devServerArgs', () => {
  it('derives ports from the address and the UI URL and registers every search attribute', () => {
    const config = loadConfig({ TEMPORAL_ADDRESS: '127.0.0.1:7243', TEMPORAL_UI_URL: 'http://127.0.0.1:8243', VERITY_DATA_DIR: '/d' });
    const args = devServerArgs(config, temporalPaths('/d'));
    expect(args.slice(0, 12)).toEqual([
      'server', 'start-dev', '--db-filename', '/d/temporal/temporal.db', '--ip', '127.0.0.1',
      '--port', '7243', '--ui-port', '8243', '--log-level', 'warn',
    ]);
    for (const name of Object.values(SEARCH_ATTRIBUTES)) expect(args).toContain(`${name}=Keyword`);
    expect(args).not.toContain('--namespace');
    expect(args.join(' ')).toContain('--sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal');
  });
  it('creates a non-default namespace at launch', () => {
    const config = loadConfig({ TEMPORAL_NAMESPACE: 'verity-test' });
    expect(devServerArgs(config, temporalPaths('/d')).join(' ')).toContain('--namespace verity-test');
  });
});

describe('missingSearchAttributes', () => {
  it('lists the verity attributes that are not registered', () => {
    expect(missingSearchAttributes(['VerityRun', 'CustomKeywordField'])).toEqual(['VerityDataset', 'VerityMethod', 'VerityModel', 'VerityLabel']);
    expect(missingSearchAttributes(Object.values(SEARCH_ATTRIBUTES))).toEqual([]);
  });
});

describe('findTemporalCli', () => {
  it('rejects a TEMPORAL_CLI_PATH that is not executable', () => {
    expect(() => findTemporalCli(loadConfig({ TEMPORAL_CLI_PATH: '/nonexistent/temporal' }))).toThrow(/not an executable/);
  });
  it('falls back to <dataDir>/bin/temporal', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-cli-'));
    const bin = path.join(dataDir, 'bin', 'temporal');
    fs.mkdirSync(path.dirname(bin));
    fs.writeFileSync(bin, '#!/bin/sh\n', { mode: 0o755 });
    const originalPath = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(findTemporalCli(loadConfig({ VERITY_DATA_DIR: dataDir }))).toBe(bin);
    } finally {
      process.env.PATH = originalPath;
    }
  });
});

describe('ensureTemporal on the database of a live dev server', () => {
  it('refuses in one line instead of starting a second server on the same SQLite file', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-db-held-'));
    const paths = temporalPaths(dataDir);
    fs.mkdirSync(paths.stateDir, { recursive: true });
    // Stands in for the dev server verity started earlier: alive, with this database on its command line.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', '--', '--db-filename', paths.dbFile], { stdio: 'ignore' });
    const started = path.join(dataDir, 'second-server-started');
    const cli = path.join(dataDir, 'fake-temporal-cli');
    fs.writeFileSync(cli, `#!/bin/sh\ntouch ${started}\nsleep 60\n`, { mode: 0o755 });
    try {
      fs.writeFileSync(paths.pidFile, `${holder.pid}\n`);
      const free = await freePort();
      const config = loadConfig({ VERITY_DATA_DIR: dataDir, TEMPORAL_ADDRESS: `127.0.0.1:${free}`, TEMPORAL_UI_URL: `http://127.0.0.1:${await freePort()}`, TEMPORAL_CLI_PATH: cli });
      await expect(ensureTemporal(config)).rejects.toThrow(`a Temporal dev server verity started (pid ${holder.pid}) already uses ${paths.dbFile}`);
      expect(fs.existsSync(started)).toBe(false);
      expect(fs.readFileSync(paths.pidFile, 'utf8').trim()).toBe(String(holder.pid));
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
