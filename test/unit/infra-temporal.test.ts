import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { devServerArgs, findTemporalCli, missingSearchAttributes, temporalPaths } from '../../infra/temporal';
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
