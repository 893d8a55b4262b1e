import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/server';

describe('sim --request-log', () => {
  it('refuses an unwritable path before serving, in one line', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-sim-log-'));
    for (const file of [path.join(tmp, 'missing', 'log.jsonl'), tmp]) {
      await expect(startSimulator({ port: 0, requestLogFile: file }), file).rejects.toThrow(/^cannot write the request log /);
    }
    const file = path.join(tmp, 'log.jsonl');
    const simulator = await startSimulator({ port: 0, requestLogFile: file });
    try {
      const response = await fetch(`${simulator.url}/models`);
      expect(response.status).toBe(200);
      expect(fs.readFileSync(file, 'utf8')).toContain('"path":"/v1/models"');
    } finally {
      await simulator.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('records which machine sent each request only when asked (recordClient)', async () => {
    for (const recordClient of [true, false]) {
      const simulator = await startSimulator({ port: 0, recordClient });
      try {
        await fetch(`${simulator.url}/models`);
        const [record] = simulator.requests();
        expect(record?.client, `recordClient ${recordClient}`).toBe(recordClient ? '127.0.0.1' : undefined);
      } finally {
        await simulator.close();
      }
    }
  });
});
