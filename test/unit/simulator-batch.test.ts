import { describe, expect, it } from 'vitest';
import { BatchExpiry, parseBatchExpirySpec } from '../../src/simulator/batch/batch-faults';
import { readBatchLines } from '../../src/simulator/batch/batch-lines';
import { parseMultipart } from '../../src/simulator/batch/multipart';

const line = (customId: string, model = 'gpt-4o-mini') => JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [] } });

describe('simulator batch input', () => {
  it('parses multipart form data with a file field', () => {
    const body = ['--XyZ', 'Content-Disposition: form-data; name="purpose"', '', 'batch', '--XyZ', 'Content-Disposition: form-data; name="file"; filename="b.jsonl"', 'Content-Type: application/jsonl', '', 'line 1\nline 2', '--XyZ--', ''].join('\r\n');
    expect(parseMultipart('multipart/form-data; boundary=XyZ', body)).toEqual([
      { name: 'purpose', value: 'batch' },
      { name: 'file', filename: 'b.jsonl', value: 'line 1\nline 2' },
    ]);
    expect(parseMultipart('application/json', body)).toBeUndefined();
  });

  it('validates request lines as OpenAI does: JSON, unique custom_id, one model, one endpoint', () => {
    expect(readBatchLines(`${line('a')}\n${line('b')}\n`)).toMatchObject({ lines: [{ custom_id: 'a' }, { custom_id: 'b' }] });
    const invalid = readBatchLines([line('a'), line('a'), 'nope', JSON.stringify({ custom_id: 'c', method: 'POST', url: '/v1/embeddings', body: {} })].join('\n'));
    expect('errors' in invalid && invalid.errors.map((error) => [error.code, error.line])).toEqual([
      ['duplicate_custom_id', 2],
      ['invalid_request', 3],
      ['invalid_request', 4],
    ]);
    const mixed = readBatchLines([line('a'), line('b', 'gpt-4o')].join('\n'));
    expect('errors' in mixed && mixed.errors[0]?.code).toBe('mismatched_model');
    expect(readBatchLines('\n')).toEqual({ errors: [expect.objectContaining({ code: 'empty_file' })] });
  });

  it('expires batches by position or content, at most `times`', () => {
    const expiry = new BatchExpiry([parseBatchExpirySpec('every=2'), parseBatchExpirySpec('first-match=secret')]);
    expect([expiry.next('a'), expiry.next('b'), expiry.next('secret'), expiry.next('secret'), expiry.next('c')]).toEqual([false, true, true, true, false]);
    expect(() => parseBatchExpirySpec('sometimes')).toThrow(/invalid batch expiry/);
  });
});
