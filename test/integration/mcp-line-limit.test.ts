import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

const initialize = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })}\n`;

/** `verity mcp` as its own process, sent a request over the stdio transport's 10 MB limit and then a normal one. */
describe('verity mcp and oversized requests', () => {
  it('answers an oversized request with an error and still answers the next one', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot(), 'test', 'support', 'run-cli.ts'), 'mcp'], {
      cwd: projectRoot(),
      env: { ...process.env, ES_INDEX_PREFIX: uniqueName('mcp-limit'), VERITY_LOG_LEVEL: 'error' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      const oversized = `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { pad: 'x'.repeat(11 * 1024 * 1024) } })}\n`;
      child.stdin.write(oversized);
      child.stdin.write(initialize(8));
      const replies = () => stdout.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as { id: number | null; error?: { message: string }; result?: unknown });
      await waitFor('two replies', () => replies().length >= 2, 60_000);
      const [dropped, answered] = replies();
      expect(dropped).toMatchObject({ id: null, error: { message: expect.stringMatching(/over the 10485760-byte limit; dropped/) } });
      expect(answered).toMatchObject({ id: 8, result: expect.anything() });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
