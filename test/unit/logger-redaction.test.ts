import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger';

function capture(): { stream: Writable; lines: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, lines: () => chunks.join('') };
}

describe('the logger', () => {
  it('redacts API keys and authorization headers wherever they appear', () => {
    const { stream, lines } = capture();
    const logger = createLogger('info', stream);
    logger.info({ apiKey: 'sk-top-secret-1', llm: { apiKey: 'sk-top-secret-2' }, headers: { authorization: 'Bearer sk-top-secret-3' } }, 'calling');
    logger.info({ OPENAI_API_KEY: 'sk-top-secret-4' }, 'config');
    expect(lines()).not.toMatch(/sk-top-secret/);
    expect(lines()).toContain('[redacted]');
    expect(lines()).toContain('calling');
  });
});
