import { describe, expect, it } from 'vitest';
import { driverNotes, lastDriverRow, referenceLabel } from '../../eval/bench/parity/driver-output';
import { serperRequestOf } from '../../eval/bench/parity/evidence-server';

describe('the parity drivers’ output, read by the bench', () => {
  it('takes the last row and names the reference label as verity does', () => {
    const text = '{"id": "ref:a", "label": false}\n{"id": "ref:b", "label": true}\n';
    expect(referenceLabel('emulate', lastDriverRow(text))).toBe('SUPPORTED');
    expect(referenceLabel('fire', lastDriverRow('{"id": "ref:a", "answer": "False", "searches": 2}'))).toBe('REFUTED');
    expect(referenceLabel('fire', lastDriverRow('{"id": "ref:a", "answer": "True"}'))).toBe('SUPPORTED');
    expect(referenceLabel('fire', lastDriverRow('{"id": "ref:a", "answer": null}'))).toBe('NEI');
    expect(referenceLabel('fire', lastDriverRow('{"id": "ref:a", "answer": "true"}'))).toBe('NEI');
    expect(referenceLabel('fire', lastDriverRow('{"id": "ref:a", "error": "KeyError(3)"}'))).toBe('error: KeyError(3)');
    expect(() => lastDriverRow('\n')).toThrow(/no result/);
  });

  it('keeps only the stub and patch lines of the driver’s stderr', () => {
    expect(driverNotes('Loading OpenAI model...\nstub: torch (cuda)\npatch: x = y\nCASE 3: 0, 1')).toEqual(['stub: torch (cuda)', 'patch: x = y']);
  });

  it("reads Serper requests as EMULATE (JSON body) and FIRE (query string, num as text) send them", () => {
    expect(serperRequestOf('/search', '{"q": "eiffel"}')).toEqual({ q: 'eiffel' });
    expect(serperRequestOf('/search?q=eiffel+tower&gl=us&hl=en&num=3&k=3', '')).toEqual({ q: 'eiffel tower', gl: 'us', hl: 'en', num: 3, k: '3' });
  });
});
