import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, startSimulator } from '../../src/simulator/server';

/** A 50 MB request body took the simulator to 1.2 GB (issue 39): bodies over the limit are answered 413 and never held whole. */
describe('simulator request-body cap', () => {
  it('answers a body over the limit with 413 and keeps serving', async () => {
    const simulator = await startSimulator({ port: 0 });
    try {
      const tooLarge = await fetch(`${simulator.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${'x'.repeat(MAX_BODY_BYTES + 1024)}"}]}`,
      });
      expect(tooLarge.status).toBe(413);
      expect(await tooLarge.json()).toMatchObject({ error: { code: 'request_too_large', message: "request body over the simulator's 16 MiB limit" } });
      const models = await fetch(`${simulator.url}/models`);
      expect(models.status).toBe(200);
    } finally {
      await simulator.close();
    }
  });
});
